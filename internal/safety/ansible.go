package safety

import (
	"cmp"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// An ansible ad-hoc command (ansible HOSTS -m MODULE -a ARGS) runs one module on every host the
// pattern names, localhost among them: the module and its arguments are what it does. The
// command family's arguments are a command line (ssh's remote command is read the same way,
// from the remote home); the file modules' are key=value pairs naming the paths they read,
// write or delete, read as the commands that would (fetch's src as cat's, file state=absent's
// path as rm -rf's). A module or arguments computed at run time, arguments in JSON, or a local
// script (script) could do anything: it asks. So does any other module that is not one of the
// read-only ones (ping, setup, debug, stat, find, wait_for, a *_info or *_facts module): service,
// user, apt, authorized_key, reboot, git, uri, kubernetes.core.k8s change a host in ways the
// engine does not read. Extra vars (-e) are templates rendered here too, and ansible_* variables
// name the programs it runs (an interpreter, the ssh it starts and its ProxyCommand): a template,
// a vars file (-e @f), a computed value or such a variable asks, as a module path (-M) does, whose
// modules can stand in for any module's name.

// cmdAnsible is ansible's ad-hoc command; ansibleDefaultModule the module it runs without -m.
const (
	cmdAnsible           = "ansible"
	ansibleDefaultModule = "command"
	ansibleChdir         = "chdir"
	ansibleFetch         = "fetch"
	ansibleFileMod       = "file"
	ansibleVaultPrompt   = "prompt" // --vault-id's source that asks for the password
)

// ansibleShortValues are ansible's short options that take a value; ansibleLongValues its long
// ones (argparse also takes any unambiguous prefix, which longOptionIs reads for -m's and -a's).
const ansibleShortValues = "aBcefilMmPtTu"

var ansibleLongValues = wordSet("args module-name module-path inventory inventory-file extra-vars forks user limit " +
	"connection timeout background poll tree private-key key-file become-method become-user vault-id vault-password-file " +
	"vault-pass-file ssh-common-args sftp-extra-args scp-extra-args ssh-extra-args playbook-dir task-timeout " +
	// ansible-playbook's own.
	"tags skip-tags start-at-task")

// ansibleCommandModules take a command line; ansibleOpaqueModules run what the engine cannot read
// (a local script, PowerShell, a command answering prompts, rsync both ways with its deletes, a
// command scheduled to run later).
var (
	ansibleCommandModules = wordSet(ansibleDefaultModule + " shell raw")
	ansibleOpaqueModules  = wordSet("script win_shell win_command expect psexec synchronize cron at")
)

// ansibleCall is what an ad-hoc command's options say: its module and arguments, and why the
// options alone make it run what the engine cannot see ("" when they do not).
type ansibleCall struct {
	module, args word
	hasArgs      bool
	local        bool // runs here: a local connection, or a localhost inventory
	inventories  []word
	vaults       []word // vault password files: ansible runs an executable one
	why          string
}

// ansibleOptions reads an ad-hoc command's options. Without -m ansible runs command, its default
// module.
func ansibleOptions(words []word) ansibleCall {
	c := ansibleCall{module: word{s: ansibleDefaultModule}}
	for k := 1; k < len(words); k++ {
		w := words[k]
		name, val, next := ansibleOption(words, k)
		k = next
		switch name {
		case "m":
			c.module = val
		case "a":
			c.args, c.hasArgs = val, true
		case "c", "connection":
			c.local = c.local || val.s == ansibleLocal
		case "i", "inventory":
			c.local = c.local || namesLocalhost(val.s)
			c.inventories = append(c.inventories, val)
		case "vault-password-file", "vault-pass-file":
			c.vaults = append(c.vaults, val)
		case "vault-id":
			// LABEL@SOURCE, or SOURCE alone; prompt asks for the password, no file.
			_, src, labelled := strings.Cut(val.s, "@")
			if !labelled {
				src = val.s
			}
			if src != ansibleVaultPrompt || val.dynamic {
				c.vaults = append(c.vaults, val.with(src))
			}
		case "e":
			if c.why = ansibleExtraVarsCode(val); c.why != "" {
				return c
			}
		case "M":
			c.why = "ansible's module path holds modules the engine cannot read, which can stand in for any module"
			return c
		case "":
			if w.dynamic && strings.HasPrefix(w.s, "-") {
				c.why = "an ansible option computed at run time may name its module or arguments"
				return c
			}
		}
	}
	if c.module.dynamic {
		c.why = "ansible's module is computed at run time"
	}
	return c
}

// ansibleAdHoc analyses the module an ansible ad-hoc command runs.
func (a *analyzer) ansibleAdHoc(idx, depth int) {
	seg := a.out.segments[idx]
	c := ansibleOptions(seg.words)
	if c.why == "" {
		c.why = sshOptionCode(&seg)
	}
	for _, inv := range slices.Concat(c.inventories, ansibleEnvInventories(&seg)) {
		if c.why == "" {
			c.why = a.ansibleInventoryCode(inv)
		}
	}
	c.why = cmp.Or(c.why, a.ansibleVaultFiles(c.vaults))
	if c.why != "" {
		a.opaque(idx, c.why)
		return
	}
	module, args, hasArgs := c.module, c.args, c.hasArgs
	mod := strings.ToLower(module.s)
	mod = strings.TrimPrefix(strings.TrimPrefix(mod, "ansible.builtin."), "ansible.legacy.")
	mod = strings.TrimPrefix(strings.TrimPrefix(mod, "ansible.windows."), "ansible.posix.")
	switch {
	case ansibleLocalFacts(&seg, c, mod):
		a.find(false, RulePrefixDamageControl+"print-environment", "command %q gathers this machine's facts, its environment (ansible_env) among them, and prints them", truncate(seg.text, 120))
		return
	case ansibleOpaqueModules[mod]:
		a.opaque(idx, "ansible's "+mod+" module runs what the engine cannot read")
		return
	case !ansibleCommandModules[mod] && !ansibleFileModules[mod] && !ansibleReadsOnly(mod):
		a.opaque(idx, "ansible's "+mod+" module changes a host in ways the engine does not read")
		return
	case !hasArgs:
		return
	case strings.Contains(args.s, "{{") || strings.Contains(args.s, "{%"):
		// Templates are rendered here, on the controller, before the module runs anywhere:
		// lookup('pipe', CMD) runs CMD here, lookup('file'|'env', …) reads a file or a variable.
		a.opaque(idx, "ansible renders the Jinja template in its arguments here, and a template can run commands and read files")
		return
	case ansibleExpressionCalls(mod, args.s):
		a.opaque(idx, "ansible evaluates "+mod+"'s expression as a Jinja template here, and a call in it (lookup, query) can run commands and read files")
		return
	case args.dynamic || strings.HasPrefix(strings.TrimSpace(args.s), "{"):
		if ansibleCommandModules[mod] || ansibleFileModules[mod] {
			a.opaque(idx, "ansible's "+mod+" module is given arguments the engine cannot read (computed at run time, or JSON)")
		}
		return
	}
	saved := a.cwd
	defer func() { a.cwd = saved }()
	if ansibleCommandModules[mod] {
		a.cwd = "~"
		a.ansibleCommandLine(args.s, depth)
		return
	}
	if ansibleFileModules[mod] {
		a.ansibleFileModule(mod, ansibleKeyValues(args.s), saved, depth)
	}
}

// ansibleOption reads the option at words[k]: its short name ("m", "a", or another letter or
// long name) and value, and the index of the last word it took. An operand gives "".
func ansibleOption(words []word, k int) (name string, val word, last int) {
	v := words[k].s
	switch {
	case words[k].dynamic || v == "--" || !strings.HasPrefix(v, "-") || v == "-":
		return "", word{}, k
	case strings.HasPrefix(v, "--"):
		opt, attached, hasVal := strings.Cut(v[2:], "=")
		if short := ansibleShortName(opt); short != "" {
			opt = short
		} else if !ansibleLongValues[opt] {
			return opt, word{}, k
		}
		if hasVal {
			return opt, words[k].with(attached), k
		}
		if k+1 < len(words) {
			return opt, words[k+1], k + 1
		}
		return opt, word{}, k
	}
	// A cluster of short options: the first that takes a value takes the rest of the word, or
	// the next word.
	for i := 1; i < len(v); i++ {
		if strings.IndexByte(ansibleShortValues, v[i]) < 0 {
			continue
		}
		name = v[i : i+1]
		if rest := strings.TrimPrefix(v[i+1:], "="); rest != "" {
			return name, words[k].with(rest), k
		}
		if k+1 < len(words) {
			return name, words[k+1], k + 1
		}
		return name, word{}, k
	}
	return "", word{}, k
}

// ansibleAbbreviated are the long options read here by the short name they stand for, with the
// shortest prefix argparse takes for each.
var ansibleAbbreviated = []struct {
	full, short string
	min         int
}{{"args", "a", 2}, {"module-name", "m", len("module-n")}, {"module-path", "M", len("module-p")}, {"extra-vars", "e", 2},
	{"inventory-file", "i", len("inv")}}

// ansibleShortName returns the short name of the long option opt (given whole or abbreviated), or
// "" for one not read here.
func ansibleShortName(opt string) string {
	for _, o := range ansibleAbbreviated {
		if len(opt) >= o.min && strings.HasPrefix(o.full, opt) {
			return o.short
		}
	}
	return ""
}

// ansibleCommandParams are the command module's own key=value words, which may come before its
// command line (chdir=/ rm -rf home).
var ansibleCommandParams = wordSet(ansibleChdir + " creates removes executable stdin stdin_add_newline strip_empty_ends warn expand_argument_vars")

// ansibleCommandLine reads a command module's arguments: its own leading key=value words (chdir
// moves where the command runs), then the command line, a script.
func (a *analyzer) ansibleCommandLine(args string, depth int) {
	rest := strings.TrimLeft(args, " \t")
	for rest != "" {
		tok, after := ansibleToken(rest)
		k, v, ok := strings.Cut(tok, "=")
		if !ok || !ansibleCommandParams[k] {
			break
		}
		if k == ansibleChdir {
			a.chdir(word{s: v})
		}
		rest = strings.TrimLeft(after, " \t")
	}
	a.script(rest, depth+1)
}

// ansibleToken splits the first key=value word off s, a quoted value unquoted (ansible's
// parse_kv splits as a shell does), and returns it with what follows it.
func ansibleToken(s string) (tok, rest string) {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			b.WriteByte(c)
		case c == '\'' || c == '"':
			quote = c
		case c == ' ' || c == '\t' || c == '\n':
			return b.String(), s[i:]
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

// ansibleKeyValues splits a module's key=value arguments (a word without "=" is dropped).
func ansibleKeyValues(s string) map[string]string {
	kv := map[string]string{}
	for rest := strings.TrimSpace(s); rest != ""; rest = strings.TrimLeft(rest, " \t\n") {
		var tok string
		tok, rest = ansibleToken(rest)
		if k, v, ok := strings.Cut(tok, "="); ok {
			kv[strings.ToLower(k)] = v
		}
	}
	return kv
}

// ansibleFileModules are the modules whose key=value arguments name the paths they read, write
// or delete.
var ansibleFileModules = wordSet("fetch copy template file lineinfile blockinfile replace slurp get_url unarchive")

// ansibleFileModule judges the paths a file module's arguments name: on the host (from the remote
// home, as ssh's are) or, for fetch's dest and the source copy and template read, here (local,
// the directory ansible runs in).
func (a *analyzer) ansibleFileModule(mod string, kv map[string]string, local string, depth int) {
	switch mod {
	case ansibleFetch:
		a.ansibleRun(depth, "~", "cat", "--", kv["src"])
		a.ansibleTouch(local, kv["dest"], opWrite)
	case "slurp":
		a.ansibleRun(depth, "~", "cat", "--", cmp.Or(kv["src"], kv["path"]))
	case subCopy, "template":
		// remote_src: copy's source is on the host too.
		a.ansibleTouch(map[bool]string{false: local, true: "~"}[ansibleTrue(kv["remote_src"])], kv["src"], opRead)
		a.ansibleTouch("~", kv["dest"], opWrite)
	case ansibleFileMod:
		a.ansibleFile(kv, depth)
	case "get_url", "unarchive":
		// A download or an archive's members, written to dest there.
		a.ansibleTouch("~", kv["dest"], opWrite)
	default:
		// lineinfile, blockinfile and replace write their path (dest and name are older names).
		a.ansibleTouch("~", cmp.Or(kv["path"], kv["dest"], kv["name"]), opWrite)
	}
}

// ansibleFile reads the file module: state=absent deletes the path (recursively, as rm -rf);
// any other state creates or changes it.
func (a *analyzer) ansibleFile(kv map[string]string, depth int) {
	path := cmp.Or(kv["path"], kv["dest"], kv["name"])
	if strings.EqualFold(kv["state"], "absent") {
		a.ansibleRun(depth, "~", "rm", "-rf", "--", path)
		return
	}
	a.ansibleTouch("~", path, opWrite)
}

// ansibleRun analyses the command words stand for, run in dir.
func (a *analyzer) ansibleRun(depth int, dir string, words ...string) {
	if words[len(words)-1] == "" {
		return
	}
	a.cwd = dir
	ws := make([]word, len(words))
	for i, w := range words {
		ws[i] = word{s: w}
	}
	a.command(ws, nil, nil, depth+1)
}

// ansibleTouch judges path, from dir, for op.
func (a *analyzer) ansibleTouch(dir, path string, op pathOp) {
	if path == "" {
		return
	}
	a.cwd = dir
	a.touch(word{s: path}, op)
}

// ansibleTrues are the spellings of an ansible boolean's true.
var ansibleTrues = wordSet("yes true on 1 y t")

// ansibleTrue reads an ansible boolean.
func ansibleTrue(v string) bool {
	return ansibleTrues[strings.ToLower(v)]
}

// ansibleReadModules are modules that only read or report (ansible.builtin's, and ansible.windows'
// win_ping and win_stat).
var ansibleReadModules = wordSet("ping setup gather_facts debug stat find getent wait_for wait_for_connection " +
	"assert fail meta set_fact win_ping win_stat")

// ansibleReadsOnly says whether a module, by its name without ansible.builtin., only reads: one of
// ansibleReadModules, or an *_info or *_facts module of any collection (k8s_info, package_facts),
// which by ansible's convention changes nothing.
func ansibleReadsOnly(mod string) bool {
	short := mod[strings.LastIndexByte(mod, '.')+1:]
	return ansibleReadModules[mod] || strings.HasSuffix(short, "_info") || strings.HasSuffix(short, "_facts")
}

// ansibleProgramVar matches an ansible_* variable that names a program ansible runs or the
// options of the ssh it starts (ansible_python_interpreter, ansible_shell_executable,
// ansible_become_exe, ansible_ssh_common_args).
var ansibleProgramVar = regexp.MustCompile(`(?i)ansible_\w*(interpreter|executable|_exe|_args)\b`)

// ansiblePlainPython is an interpreter named as the systems ship it, or ansible's discovery.
var ansiblePlainPython = regexp.MustCompile(`^ansible_python_interpreter=(auto(_legacy)?(_silent)?|/usr(/local)?/bin/python[0-9.]*)$`)

// ansibleExtraVarsCode returns why an -e/--extra-vars value makes ansible run what the engine
// cannot see, or "": a template (rendered here when the variable is used), a vars file (@f), a
// value computed at run time, or an ansible_* variable naming a program (but a plain python).
func ansibleExtraVarsCode(v word) string {
	switch t := strings.TrimSpace(v.s); {
	case v.dynamic:
		return "ansible's extra vars are computed at run time, and may hold a template or name a program"
	case strings.HasPrefix(t, "@"):
		return "ansible's extra vars come from a file the engine does not read, which may hold a template or name a program"
	case strings.Contains(t, "{{") || strings.Contains(t, "{%"):
		return "ansible renders the Jinja template in its extra vars here, and a template can run commands and read files"
	}
	for rest := strings.TrimSpace(v.s); rest != ""; rest = strings.TrimLeft(rest, " \t\n") {
		var tok string
		tok, rest = ansibleToken(rest)
		if ansibleProgramVar.MatchString(tok) && !ansiblePlainPython.MatchString(tok) {
			return "ansible's extra var " + tok + " names a program ansible runs, or its ssh's options"
		}
	}
	return ""
}

// ansibleExpressionKeys are, per module, the arguments ansible evaluates as a Jinja expression
// without braces: debug's var, assert's that.
var ansibleExpressionKeys = map[string]string{"debug": "var", "assert": "that"}

// ansibleExpressionCalls says whether a module's expression argument calls a function (lookup,
// query, q, or any other): a variable, a comparison or a filter calls none.
func ansibleExpressionCalls(mod, args string) bool {
	k, ok := ansibleExpressionKeys[mod]
	return ok && strings.Contains(ansibleKeyValues(args)[k], "(")
}

// ansibleCodeVar says whether an ANSIBLE_* variable names code ansible loads or a program or
// options it runs: a plugin, module, role or collection path, its configuration file, ssh's
// program and arguments, an interpreter, a vault password script.
func ansibleCodeVar(name string) bool {
	rest, ok := strings.CutPrefix(name, "ANSIBLE_")
	if !ok {
		return false
	}
	return strings.HasSuffix(rest, "_PLUGINS") || strings.HasSuffix(rest, "_PATH") || strings.HasSuffix(rest, "_PATHS") ||
		strings.HasSuffix(rest, "_ARGS") || strings.HasSuffix(rest, "_EXECUTABLE") || strings.HasSuffix(rest, "_EXE") ||
		strings.HasSuffix(rest, "_INTERPRETER") || ansibleCodeVars[rest]
}

// ansibleCodeVars are the ANSIBLE_* names ansibleCodeVar reads whole.
var ansibleCodeVars = wordSet("LIBRARY MODULE_UTILS CONFIG VAULT_PASSWORD_FILE VAULT_IDENTITY_LIST")

// ansibleLocal is ansible's connection that runs modules on this machine.
const ansibleLocal = "local"

// ansibleLocalFacts says whether setup or gather_facts gathers this machine's facts (a localhost
// host pattern or inventory, or a local connection) with ansible_env among those it prints: the
// agent's environment, as env prints it.
func ansibleLocalFacts(seg *segment, c ansibleCall, mod string) bool {
	if mod != "setup" && mod != "gather_facts" {
		return false
	}
	local := c.local || len(seg.operands) > 0 && namesLocalhost(seg.operands[0].s)
	return local && factsHoldEnv(c.args.s)
}

// ansibleScriptSuffixes are the suffixes of inventory files ansible runs, on this machine, to list
// their hosts (the script inventory plugin runs any executable file; these are the ones whose name
// says so).
var ansibleScriptSuffixes = wordSet(".py .sh .bash .zsh .pl .rb .js .mjs .php .ps1 .exe .bin .lua .tcl")

// ansibleInventoryCode says why an inventory is code the engine cannot read: ansible runs an
// inventory script here, on the controller, before any module (as python inv.py runs it), so one
// the line wrote, one named as a script, or one computed at run time asks. A host list
// (web1,web2,) and a static file (INI, YAML, JSON) are data.
func (a *analyzer) ansibleInventoryCode(inv word) string {
	switch {
	case inv.dynamic:
		return "ansible's inventory is computed at run time, and ansible runs an inventory script here"
	case strings.Contains(inv.s, ","):
		return ""
	case ansibleScriptSuffixes[strings.ToLower(filepath.Ext(inv.s))]:
		return "ansible runs the inventory script " + inv.s + " here to list its hosts, code the engine cannot read"
	case a.lineWrote(inv.s):
		return "ansible reads or runs the inventory " + inv.s + ", which the line wrote, here"
	case a.lineWroteBelow(inv.s):
		// A directory inventory is every file in it: each executable one is run as a script, each
		// other one parsed by the plugin it names.
		return "ansible reads or runs every file of the inventory directory " + inv.s + ", into which the line wrote, here"
	}
	return ""
}

// ansibleInventoryVars name inventories as -i does, a comma-separated list of paths (HOSTS is
// the name older releases read).
var ansibleInventoryVars = wordSet("ANSIBLE_INVENTORY ANSIBLE_HOSTS")

// ansibleEnvInventories returns the inventories the command's environment names, prefixed or
// exported earlier on the line: each judged as -i's.
func ansibleEnvInventories(s *segment) []word {
	var out []word
	for _, kv := range s.env {
		name, val, _ := strings.Cut(kv, "=")
		if !ansibleInventoryVars[name] {
			continue
		}
		for p := range strings.SplitSeq(val, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, word{s: p, dynamic: strings.ContainsAny(p, "$`")})
			}
		}
	}
	return out
}

// ansibleVaultFiles judges ansible's vault password files and says why one is code the engine
// cannot read: ansible runs an executable one here to get the password (a -client script for a
// --vault-id), so one named as a script, one the line wrote, or one computed at run time asks, as
// an inventory script does. Any other is read, as a program's --env-file is: a --vault-id's
// LABEL@SOURCE names its file in no operand (--vault-id dev@~/.vault_pass reads it as
// --vault-password-file ~/.vault_pass does).
func (a *analyzer) ansibleVaultFiles(files []word) string {
	for _, f := range files {
		a.touch(f, opRead)
		switch {
		case f.dynamic:
			return "ansible's vault password file is computed at run time, and ansible runs an executable one here"
		case ansibleScriptSuffixes[strings.ToLower(filepath.Ext(f.s))]:
			return "ansible runs the vault password script " + f.s + " here, code the engine cannot read"
		case a.lineWrote(f.s):
			return "ansible runs or reads the vault password file " + f.s + ", which the line wrote, here"
		}
	}
	return ""
}

// namesLocalhost says whether a host pattern or inventory names this machine.
func namesLocalhost(s string) bool {
	return strings.Contains(s, "localhost") || strings.Contains(s, "127.0.0.1") || strings.Contains(s, "::1")
}

// factsHoldEnv says whether setup's arguments keep ansible_env among the facts it prints: no
// filter, or one whose patterns (fnmatch, comma-separated) match it.
func factsHoldEnv(args string) bool {
	f, ok := ansibleKeyValues(args)["filter"]
	if !ok {
		return true
	}
	for p := range strings.SplitSeq(f, ",") {
		if m, err := filepath.Match(strings.TrimSpace(p), "ansible_env"); m || err != nil {
			return true
		}
	}
	return false
}
