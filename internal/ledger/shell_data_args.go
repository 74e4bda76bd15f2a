package ledger

import (
	"bytes"
	"strings"
)

// A separator in quoted data is marked (maskQuoted) because a shell may read the data again: a
// file written and run later, a pipe into sh. The arguments of the programs below are data to
// them and are never a shell's command line (a container's environment, a secret's literal, a
// request's body): docker run -e "POSTGRES_PASSWORD=p@ss;word" and kubectl create secret …
// --from-literal='password=a;b&c' hide the password whole, as main did. A shell named among
// their arguments (docker run img sh -c '…') still reads the rest blind, and $( and backquotes
// in their double quotes are still commands. Programs that run a shell or a pager from their own
// options (git -c core.sshCommand=…, gh alias set --shell, psql's \!) are not listed.
var dataPrograms = map[string]bool{"docker": true, "podman": true, "kubectl": true, "oc": true,
	"helm": true, "curl": true, "wget": true, "aws": true, "gcloud": true, "az": true}

// prefixPrograms match a long option by any unique prefix of its name (Python's argparse:
// az vm create --custom-d is --custom-data, azure-cli#2105).
var prefixPrograms = map[string]bool{"az": true, "aws": true}

// newDataReading is the reading of the arguments of the command named w (its first word as
// written): data where w names one of dataPrograms (by its name after a directory).
func newDataReading(w string) dataReading {
	if k := strings.LastIndexByte(w, '/'); k >= 0 {
		w = w[k+1:]
	}
	return dataReading{on: dataPrograms[w], prefixes: prefixPrograms[w], container: containerPrograms[w]}
}

// containerPrograms run a command in a container from their operands (docker run IMG CMD,
// kubectl exec POD CMD), the subcommands runsCommand names: true where create is one (kubectl
// create takes a command only after --, and its secrets' literals are data).
var containerPrograms = map[string]byte{"docker": 2, "podman": 2, "kubectl": 1, "oc": 1}

// runsCommand reports whether subcommand w of a container program (containerPrograms[name] as
// kind) runs a command from its operands.
func runsCommand(w []byte, kind byte) bool {
	return string(w) == "run" || string(w) == wordExec || kind == 2 && string(w) == "create"
}

// containerValueOptions are docker's, podman's and kubectl's common options that take a value, which is no
// operand (docker run --name x -e "…" img: x is not the image). An option not listed may take
// one too: its value is then taken for the image, and an -e after it for the command's (the safe
// side: its quoted separators are marked).
var containerValueOptions = map[string]bool{"--name": true, "-p": true, "--publish": true, "-v": true,
	"--volume": true, "--network": true, "--net": true, "-w": true, "--workdir": true, "-u": true,
	"-l": true, "--label": true, "--mount": true, "--restart": true, "-h": true,
	"--hostname": true, "--add-host": true, "--env-file": true, "--platform": true, "-m": true,
	"--memory": true, "--cpus": true, "--pull": true, "--log-driver": true, "--log-opt": true,
	"--device": true, "--cap-add": true, "--cap-drop": true, "--security-opt": true, "--shm-size": true,
	"--tmpfs": true, "--ulimit": true, "--gpus": true, "-H": true, "--host": true, "--context": true,
	"-n": true, "--namespace": true, "-c": true, "--container": true, "--image": true}

// A data program's argument is a shell's script, and no data, where it is the value of an
// option that takes one, --scripts, --script, --user-data, --custom-data (az vm run-command
// --scripts '…', aws ec2 run-instances --user-data '…', az vm create --custom-data; for az and
// aws by any prefix too: --custom-d), or where any argument, or a here-string's word, names a
// script, a command or a container's arguments, or is computed ($, backquote): aws ssm …
// --parameters 'commands=…', gcloud … --metadata startup-script=…, kubectl run --overrides
// '{…"command":[…]}', kubectl patch -p '{…"command":[…]}', aws ecs … --cli-input-json, az vm
// extension set --settings '{"commandToExecute":…}', kubectl apply -f - <<< '{…}' (a value of
// any option, since the manifest's keys are what the program runs, whatever option carries
// them); plain pairs (az deployment … --parameters 'adminPassword=…', --metadata
// db-password=…, -e "POSTGRES_PASSWORD=…") stay data;
// and every argument after the subcommands run-command and send-command, or after any
// --entrypoint, which runs the container's arguments, but the value of -e and --env (a
// container's environment, data to docker). Any entrypoint is taken for a shell: which programs
// are shells is not knowable from its name (/bin/da?h and [b]ash are globbed by the host, hush
// and lksh are shells no list names, a busybox or a link may be one under any name, a value may
// be longer than arg reads, python3 takes -c too), so none is taken for a plain program. An option is matched whole, or with
// its value after = (--metadata=startup-script=…).

// dataReading is a code frame's reading of a data program's arguments.
type dataReading struct {
	on         bool // the command is a data program
	prefixes   bool // it matches a long option by a prefix of its name (prefixPrograms)
	container  byte // containerPrograms: a run's operands are an image (a pod) and its command
	runs       bool // a container's subcommand came (run, exec, create): its next operand is one
	scriptRest bool // its arguments from here are a shell's (an --entrypoint shell, run-command)
	// pastImage: an operand came after scriptRest was set (the image, or a value the reading
	// does not know): an -e from here is the shell's option, not docker's (sh -c -e SCRIPT).
	pastImage bool
	next      byte // what the next word is: the value of an option (dataOption)
	exec      bool // the subcommand is exec, whose -l is podman's --latest (no value)
}

// What a data program's option takes as its value.
const (
	valuePlain      byte = iota
	valueEntrypoint      // --entrypoint: a program
	valueScript          // --scripts, --user-data: a script
	valueEnv             // -e, --env: data, even where the rest is a shell's
	valueOther           // another option's value (containerValueOptions): data, no operand
)

// scriptOptions are the options whose value is a script.
// (--health-cmd: docker's and podman's, run by the container's /bin/sh -c, CMD-SHELL)
var scriptOptions = [...]string{"--scripts", "--script", "--user-data", "--custom-data", "--health-cmd"}

// dataOption is what option o (quotes removed, without =value) of a data program takes; a
// program that matches prefixes takes any prefix of a script option for it (the safe side where
// the prefix is ambiguous: argparse refuses it, or it is an option of its own).
func (d *dataReading) dataOption(o []byte) byte {
	switch string(o) {
	case "--entrypoint":
		return valueEntrypoint
	case "-e", "--env":
		return valueEnv
	}
	if d.container != 0 && containerValueOptions[string(o)] && (!d.exec || string(o) != "-l") {
		return valueOther
	}
	for _, n := range scriptOptions {
		if string(o) == n || d.prefixes && len(o) > 2 && o[1] == '-' && len(o) < len(n) && n[:len(o)] == string(o) {
			return valueScript
		}
	}
	return valuePlain
}

// arg reads the argument of a data program that starts at s[i] and reports whether it is data
// (its quoted separators end nothing), and whether it begins a script read as bash -c's is
// (blind, inner quotes and all, to the command's end): a script value, or the container's or
// machine's command line past the image (blind where the program is a shell, and which is not
// knowable). The environment before the image stays data.
func (d *dataReading) arg(s string, i int) (data, script bool) {
	var buf [64]byte
	w, _, _ := plainWord(s, i, min(len(s), i+len(buf)), buf[:0])
	kind, at := d.next, i
	d.next = valuePlain
	if kind == valuePlain && len(w) > 1 && w[0] == '-' {
		if o, _, ok := bytes.Cut(w, []byte("=")); ok {
			kind, at = d.dataOption(o), i+strings.IndexByte(s[i:min(len(s), i+len(buf))], '=')+1
		} else {
			d.next = d.dataOption(w)
		}
	}
	found := keyedScript(s, i, at)
	script = kind == valueScript || found == argScript
	d.commandStart(w, kind)
	data = !script && found != argExpands && (!d.scriptRest || kind == valueEnv && !d.pastImage)
	return data, script || d.scriptRest && d.pastImage
}

// commandStart notes where, from argument w (quotes removed) read as kind, the arguments are a
// command line the container or the machine runs: after any entrypoint, run-command,
// send-command, --, or a container's first operand.
func (d *dataReading) commandStart(w []byte, kind byte) {
	if kind == valueEntrypoint {
		d.scriptRest = true // any program may be a shell (above)
	}
	operand := kind == valuePlain && d.next == valuePlain && (len(w) == 0 || w[0] != '-')
	if d.scriptRest && operand {
		d.pastImage = true
	}
	switch {
	case string(w) == "run-command" || string(w) == "send-command":
		d.scriptRest = true
	case string(w) == "--" && kind == valuePlain:
		d.scriptRest, d.pastImage = true, true // kubectl exec pod -- CMD: a command line follows
	case d.container != 0 && operand && !d.scriptRest:
		// docker run IMG CMD: from the first operand after run, exec or create (the image, a
		// container, or the value of an option containerValueOptions does not know) a command
		// may begin, which may be a shell or an interpreter under any name
		// (docker and podman stop reading their options at the image: -e after it is the
		// container's; kubectl reads its options anywhere before --)
		d.scriptRest, d.pastImage = d.runs, d.runs && d.container == 2
		d.exec = d.exec || !d.runs && string(w) == wordExec
		// a computed or brace-expanded subcommand (docker {run,}, docker `echo run`) may be run
		d.runs = d.runs || runsCommand(w, d.container) || bytes.ContainsAny(w, "{$`*?[")
	}
}

// keyedScriptLookahead bounds how much of a keyed option's value keyedScript reads: a longer
// value is taken for a script, so that a text of many such options costs linear time.
const keyedScriptLookahead = 4096

// keyedScript reports whether the data program's argument that starts at s[start], read from
// s[at] (past an option's =), names a script, a command or a container's arguments as a key, is
// computed where bash expands it, or escapes a JSON key's letters (\u0063ommand is command to
// the CLI's JSON reader); a value that does not end within keyedScriptLookahead counts as one.
// A keyword counts only as a key (command: commands= "commandToExecute": "Cmd":), so that a
// password holding Shell or Cmd stays data; and $ or a backquote only where bash expands them
// (unquoted or in double quotes, not in single quotes or after a backslash), so that
// -e 'POSTGRES_PASSWORD=pa$$;word' stays data: bash hands it to docker as written.
//
// An expansion alone (argExpands) makes that word no data, and no more: the record shows what it
// expands, and the words after it (kubectl -n "$NS" create secret … --from-literal='password=a;w')
// stay data. A key or an unended value (argScript) is a script, read as bash -c's to the
// command's end (rereadRest).
func keyedScript(s string, start, at int) byte {
	end, ok := shellWordEnd(s, start, min(len(s), at+keyedScriptLookahead))
	switch {
	case !ok || keyedValue(s[min(at, end):end]):
		return argScript
	case expandsWord(s[start:end]):
		return argExpands
	}
	return argData
}

// What keyedScript finds a data program's argument to be.
const (
	argData    byte = iota
	argExpands      // it holds an expansion bash makes: no data, the rest unchanged
	argScript       // it names a script: read as bash -c's, to the command's end
)

// expandsWord reports whether word w (as written) holds a $ or a backquote that bash expands:
// outside single quotes and not after a backslash ($'…' and $"…" begin with one).
func expandsWord(w string) bool {
	var quote byte
	for j := 0; j < len(w); j++ {
		switch c := w[j]; {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case c == '\\':
			j++
		case c == '$' || c == '`':
			return true
		case quote == '"':
			if c == '"' {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		}
	}
	return false
}

// keyedValue reports whether v holds a key (a run of key bytes followed, after an optional
// backslash and closing quote and blanks, by : or =, or a JSON patch's path segment after /)
// that contains one of scriptKeys, or one of
// anywhereKeys at all. Each byte is read once per key: allocation-free and linear.
func keyedValue(v string) bool {
	run := -1 // where the current run of key bytes began
	for j := 0; j <= len(v); j++ {
		if j < len(v) && keyByte(v[j]) {
			if run < 0 {
				run = j
			}
			continue
		}
		if run >= 0 && (keyEnds(v, j) || run > 0 && v[run-1] == '/') && holdsScriptKey(v[run:j]) {
			return true
		}
		run = -1
		if j < len(v) && v[j] == '\\' && j+1 < len(v) && lowerByte(v[j+1]) == 'u' {
			return true // \u0063ommand: a JSON escape may spell any key
		}
	}
	return containsFold(v, "cmd-shell") // Healthcheck's ["CMD-SHELL", script]: a value, no key
}

// keyByte reports whether c may be part of a key's name (startup-script, commandToExecute).
func keyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.'
}

// keyEnds reports whether the key bytes before v[j] end a key: v[j:] is, after an optional
// backslash and quote (\"command\": "command": 'command':) and blanks, : or =.
func keyEnds(v string, j int) bool {
	if j < len(v) && v[j] == '\\' {
		j++
	}
	if j < len(v) && (v[j] == '"' || v[j] == '\'') {
		j++
	}
	for j < len(v) && (v[j] == ' ' || v[j] == '\t') {
		j++
	}
	return j < len(v) && (v[j] == ':' || v[j] == '=')
}

// holdsScriptKey reports whether key k holds one of scriptKeys in any case, as a part of its
// own: at its start or after a separator or a lower-to-upper case change, and ending likewise
// or with a plural s (startup-script, commandToExecute, Cmd, commands, MY_SCRIPT). A key that
// merely contains the letters (description, subscriptionId, SUBSCRIPTION_ID) names no script.
func holdsScriptKey(k string) bool {
	for _, w := range scriptKeys {
		for i := 0; i+len(w) <= len(k); i++ {
			if partStarts(k, i) && hasFoldAt(k, i, w) && partEnds(k, i+len(w)) {
				return true
			}
		}
	}
	return false
}

// hasFoldAt reports whether k holds w (lower case) at i, in any case.
func hasFoldAt(k string, i int, w string) bool {
	for j := range len(w) {
		if lowerByte(k[i+j]) != w[j] {
			return false
		}
	}
	return true
}

// partStarts reports whether a part of key k may begin at i: at its start, after a byte that
// is no letter, or where lower case turns upper (commandToExecute's To).
func partStarts(k string, i int) bool {
	return i == 0 || !isLetter(k[i-1]) || isUpper(k[i]) && !isUpper(k[i-1])
}

// partEnds reports whether a part of key k may end at e: partStarts there, or after one more s
// (commands).
func partEnds(k string, e int) bool {
	return e == len(k) || partStarts(k, e) || lowerByte(k[e]) == 's' && (e+1 == len(k) || partStarts(k, e+1))
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

// scriptKeys are the keywords keyedScript looks for in a key, in lower case.
// (cmd: Docker's API, Cmd, cloud-init's runcmd; exec: a probe's or a hook's exec; shell: a
// Healthcheck's or a step's shell; healthcheck: its Test list may be ["CMD", "sh", "-c", …]).
var scriptKeys = [...]string{"script", "command", "args", "entrypoint", "user-data", "userdata", "cmd", wordExec,
	"shell", "healthcheck", "runcmd", "bootcmd"}

// containsFold reports whether v contains k (lower case) in any case: keyedScript reads every
// argument of a data program, and allocates nothing.
func containsFold(v, k string) bool {
	for i := 0; i+len(k) <= len(v); i++ {
		if hasFoldAt(v, i, k) {
			return true
		}
	}
	return false
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// shellWordEnd returns where the word at s[i:] ends as bash reads it (at a blank or a separator
// outside quotes; a backslash escapes the next byte outside single quotes, \' too in $'…'),
// reading no further than limit; ok is false where it does not end by then.
func shellWordEnd(s string, i, limit int) (end int, ok bool) {
	var quote byte // 0, a quote, or 'a' inside $'…'
	for j := i; j < limit; j++ {
		c := s[j]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case c == '\\':
			j++ // escaped: outside quotes, in "…" and in $'…'
		case quote != 0:
			if c == quote || quote == 'a' && c == '\'' {
				quote = 0
			}
		case c == '$' && j+1 < limit && s[j+1] == '\'':
			quote, j = 'a', j+1
		case c == '\'' || c == '"':
			quote = c
		case c == ' ' || c == '\t' || isBlindSeparator[c]:
			return j, true
		}
	}
	return limit, limit == len(s) && quote == 0
}
