package safety

import (
	"cmp"
	"strings"
)

// An ansible ad-hoc command (ansible HOSTS -m MODULE -a ARGS) runs one module on every host the
// pattern names, localhost among them: the module and its arguments are what it does. The
// command family's arguments are a command line (ssh's remote command is read the same way,
// from the remote home); the file modules' are key=value pairs naming the paths they read,
// write or delete, read as the commands that would (fetch's src as cat's, file state=absent's
// path as rm -rf's). A module or arguments computed at run time, arguments in JSON, or a local
// script (script) could do anything: it asks. Other modules are left as unrecognised.

// cmdAnsible is ansible's ad-hoc command; ansibleDefaultModule the module it runs without -m.
const (
	cmdAnsible           = "ansible"
	ansibleDefaultModule = "command"
	ansibleChdir         = "chdir"
	ansibleFetch         = "fetch"
	ansibleFileMod       = "file"
)

// ansibleShortValues are ansible's short options that take a value; ansibleLongValues its long
// ones (argparse also takes any unambiguous prefix, which longOptionIs reads for -m's and -a's).
const ansibleShortValues = "aBcefilMmPtTu"

var ansibleLongValues = wordSet("args module-name module-path inventory inventory-file extra-vars forks user limit " +
	"connection timeout background poll tree private-key key-file become-method become-user vault-id vault-password-file " +
	"vault-pass-file ssh-common-args sftp-extra-args scp-extra-args ssh-extra-args playbook-dir task-timeout")

// wordSet is the set of the blank-separated words of s.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(s) {
		m[w] = true
	}
	return m
}

// ansibleCommandModules take a command line; ansibleOpaqueModules run what the engine cannot read
// (a local script, PowerShell, a command answering prompts, rsync both ways with its deletes, a
// command scheduled to run later).
var (
	ansibleCommandModules = wordSet(ansibleDefaultModule + " shell raw")
	ansibleOpaqueModules  = wordSet("script win_shell win_command expect psexec synchronize cron at")
)

// ansibleAdHoc analyses the module an ansible ad-hoc command runs. Without -m ansible runs
// command, its default module.
func (a *analyzer) ansibleAdHoc(idx, depth int) {
	seg := a.out.segments[idx]
	module, args := word{s: ansibleDefaultModule}, word{}
	hasArgs := false
	for k := 1; k < len(seg.words); k++ {
		w := seg.words[k]
		name, val, next := ansibleOption(seg.words, k)
		k = next
		switch name {
		case "m":
			module = val
		case "a":
			args, hasArgs = val, true
		case "":
			if w.dynamic && strings.HasPrefix(w.s, "-") {
				a.opaque(idx, "an ansible option computed at run time may name its module or arguments")
				return
			}
		}
	}
	if module.dynamic {
		a.opaque(idx, "ansible's module is computed at run time")
		return
	}
	mod := strings.ToLower(module.s)
	mod = strings.TrimPrefix(strings.TrimPrefix(mod, "ansible.builtin."), "ansible.legacy.")
	mod = strings.TrimPrefix(strings.TrimPrefix(mod, "ansible.windows."), "ansible.posix.")
	switch {
	case ansibleOpaqueModules[mod]:
		a.opaque(idx, "ansible's "+mod+" module runs what the engine cannot read")
		return
	case !hasArgs:
		return
	case strings.Contains(args.s, "{{") || strings.Contains(args.s, "{%"):
		// Templates are rendered here, on the controller, before the module runs anywhere:
		// lookup('pipe', CMD) runs CMD here, lookup('file'|'env', …) reads a file or a variable.
		a.opaque(idx, "ansible renders the Jinja template in its arguments here, and a template can run commands and read files")
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
		switch {
		case len(opt) >= 2 && strings.HasPrefix("args", opt):
			opt = "a"
		case len(opt) >= len("module-n") && strings.HasPrefix("module-name", opt):
			opt = "m"
		case !ansibleLongValues[opt]:
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
