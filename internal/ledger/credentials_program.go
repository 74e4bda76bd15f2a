package ledger

import (
	"path"
	"slices"
	"strings"
)

// A call may hold its program in one field and the program's arguments in another: an MCP
// server's or a process tool's {"command": "npm", "args": ["config", "set", "//r/:_authToken",
// "X"]}, {"program": "mysql", "args": ["-pX"]}, Node's execFile ({"file": "mysql", "args": [...]}), a
// Kubernetes container ({"command": ["mysql"], "args": [...]}: a list), and a call through the gateway, which
// keeps the mapped command in arguments.command and the rest in arguments.extra: {"command":
// "mysql", "extra": {"args": ["-pX"]}}. The arguments alone name no tool, so neither a tool's
// short options nor its plain-word credentials were read in them; redactProgramArgs reads them
// as the one command line they are, the program's words first, when the map's program fields
// agree on the program (oneProgram).

// isProgramKey and isArgsKey are the field names of a program and of its arguments, ignoring
// case; extraKey is where a gateway call's arguments other than its command are.
func isProgramKey(k string) bool { return programKeyKind(k) == programField }

func isArgsKey(k string) bool { return programKeyKind(k) == argsField }

const extraKey = "extra"

const (
	programField = 1 + iota
	argsField
)

// programKeyNames are the names of program and args fields by length, with their kind.
var programKeyNames = func() (t [len("executable") + 1][]struct {
	name string
	kind int
}) {
	for kind, names := range map[int][]string{
		programField: {"command", "cmd", "program", "executable", "exe", "binary", "bin", "file"},
		argsField:    {"args", "argv", "arguments"},
	} {
		for _, n := range names {
			t[len(n)] = append(t[len(n)], struct {
				name string
				kind int
			}{n, kind})
		}
	}
	return t
}()

// programKeyKind is programField, argsField or 0. Every key of every map a record holds asks:
// most are ruled out by their length and first byte.
func programKeyKind(k string) int {
	if len(k) < len("bin") || len(k) >= len(programKeyNames) || !programKeyStart[k[0]&^0x20] {
		return 0
	}
	for _, n := range programKeyNames[len(k)] {
		if k[0]|0x20 == n.name[0] && k[len(k)-1]|0x20 == n.name[len(n.name)-1] && strings.EqualFold(k, n.name) {
			return n.kind
		}
	}
	return 0
}

// programKeyStart marks the upper-case letters the names begin with.
var programKeyStart = func() (t [256]bool) {
	for _, c := range "CPEBFA" {
		t[c] = true
	}
	return t
}()

// namesTool reports whether v is a program field one of whose words names a tool whose command
// line the scan reads (a path to it, or a wrapper before it: sudo mysql). Every map with a
// command field asks (a decision's arguments): it allocates nothing.
func namesTool(v any) bool {
	found := false
	programWords(v, func(w string) bool {
		found = isTool(path.Base(w))
		return !found
	})
	return found
}

// programWords calls yield with the words of a program field, until it returns false: a
// string's, split at spaces, or a list's strings, each a word (a Kubernetes container's
// "command": ["mysql"], beside its "args").
func programWords(v any, yield func(string) bool) {
	switch p := v.(type) {
	case string:
		for w := range strings.FieldsSeq(p) {
			if !yield(w) {
				return
			}
		}
	case []string:
		for _, w := range p {
			if !yield(w) {
				return
			}
		}
	case []any:
		for _, e := range p {
			if w, ok := e.(string); ok && !yield(w) {
				return
			}
		}
	}
}

// mayHaveProgramArgs reports whether a map with these entries holds a program field (a tool or
// not) beside arguments (an args field, or an extra map): a cheap superset of the maps
// redactProgramArgs changes or whose arguments it keeps from their own program fields
// (underProgram), for the encoders that write without the tree and leave such maps to it.
func mayHaveProgramArgs[V any](ents []entry2[V]) bool {
	tool, args := false, false
	for i := range ents {
		k := ents[i].k
		switch kind := programKeyKind(k); {
		case kind == programField:
			// Any program, a tool or not: below it, only it reads the arguments (underProgram).
			tool = tool || hasWord(any(ents[i].v))
		case kind == argsField:
			args = true
		case k == extraKey:
			args = args || extraHoldsArgs(any(ents[i].v))
		}
	}
	return tool && args
}

// extraHoldsArgs reports whether v is a map with an args field.
func extraHoldsArgs(v any) bool {
	switch m := v.(type) {
	case map[string]any:
		return holdsArgs(m)
	case map[string]string:
		for k := range m {
			if isArgsKey(k) {
				return true
			}
		}
	}
	return false
}

// redactProgramArgs hides, in place, the credentials in m's arguments read after its program: in
// a list as redactArgv hides them, in a string of arguments as RedactSecrets hides the command
// line it ends. The arguments are m's args fields and its extra map's (the gateway's
// arguments.extra.args), each read on its own. Only a map whose program fields all name the same
// program (however many spellings of the key: command beside cmd) is read so: fields that
// disagree leave it unknown which program runs, and reading the arguments after a decoy the agent
// added hid the command it ran — kubectl's "delete" after "cmd": "sshpass -p", every argument
// behind nine programs. Such a map's arguments are read as main reads them, alone.
func redactProgramArgs(m map[string]any) {
	extra, _ := m[extraKey].(map[string]any)
	if !holdsArgs(m) && !holdsArgs(extra) {
		return // nothing to read: the program's words are not split (every map of a record asks)
	}
	words, ok := oneProgram(m)
	if !ok {
		return
	}
	redactArgsAfter(words, m)
	if extra != nil {
		redactArgsAfter(words, extra) // beside m's own: the agent chooses where they are
	}
}

// holdsArgs reports whether m has an args field.
func holdsArgs(m map[string]any) bool {
	for k := range m {
		if isArgsKey(k) {
			return true
		}
	}
	return false
}

// hasProgramField reports whether m has a program field that holds a word.
func hasProgramField(m map[string]any) bool {
	for k, v := range m {
		if isProgramKey(k) && hasWord(v) {
			return true
		}
	}
	return false
}

// hasWord reports whether a program field holds a word; it allocates nothing.
func hasWord(v any) bool {
	found := false
	programWords(v, func(string) bool { found = true; return false })
	return found
}

// programWordsOf are a program field's words.
func programWordsOf(v any) []string {
	var words []string
	programWords(v, func(w string) bool { words = append(words, w); return true })
	return words
}

// sameProgram says whether two program fields' words name the same command: word for word, a
// path and its base name alike (/usr/bin/mysql is mysql), in any case (MYSQL).
func sameProgram(a, b []string) bool {
	return slices.EqualFunc(a, b, func(x, y string) bool { return strings.EqualFold(path.Base(x), path.Base(y)) })
}

// oneProgram returns the words of m's program fields when every one of them holds the same words
// and they name a tool.
func oneProgram(m map[string]any) ([]string, bool) {
	var seen, words []string
	first := "" // the least key of the agreeing fields that name a tool: read, whatever the map's order
	for k, v := range m {
		if !isProgramKey(k) {
			continue
		}
		these := programWordsOf(v)
		if len(these) == 0 {
			continue // an empty or null field names no program (a default left unset)
		}
		if seen != nil && !sameProgram(these, seen) {
			return nil, false
		}
		seen = these
		if namesTool(these) && (words == nil || k < first) {
			words, first = these, k
		}
	}
	return words, words != nil
}

// redactArgsAfter hides the credentials in holder's args fields read after program's words.
func redactArgsAfter(program []string, holder map[string]any) {
	for _, ak := range argsKeysOf(holder) {
		switch args := holder[ak].(type) {
		case []any:
			hideProgramArgs(program, slices.Clone(args), args)
		case string:
			holder[ak], _ = redactCommandLineAfter(program, args, newArgsGuard(args))
		}
	}
}

// argsKeysOf are m's args fields, sorted.
func argsKeysOf(m map[string]any) []string {
	var keys []string
	for k := range m {
		if isArgsKey(k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// hideProgramArgs hides in args what argvSecrets finds in the command line program followed by
// orig (args as it was before any program read it); only the arguments' words are hidden.
func hideProgramArgs(program []string, orig, args []any) {
	argvSecrets(len(program)+len(orig), func(i int) (string, bool) {
		if i < len(program) {
			return program[i], true
		}
		return any2string(orig[i-len(program)])
	}, true, func(i, from, to int) {
		if i < len(program) {
			return
		}
		i -= len(program)
		s := orig[i].(string)
		part := hiddenPart(s, from, to)
		switch hidden := s[:from] + Redacted + s[from+len(part):]; {
		case part == Redacted || args[i] == Redacted || args[i] == hidden:
		case args[i] != s:
			args[i] = Redacted // another program hid another part of it: hide it whole
		default:
			args[i] = hidden
		}
	})
}
