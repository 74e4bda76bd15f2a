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
// as the one command line they are, the program's words first. Every program field that names a
// tool is read (a map has no order, and the answer must not depend on one), each with the
// arguments as they were.

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

// mayHaveProgramArgs reports whether a map with these entries holds a program field that names
// a tool beside arguments (an args field, or an extra map): a cheap superset of the maps
// redactProgramArgs changes, for the encoders that write without the tree and leave such maps
// to it.
func mayHaveProgramArgs[V any](ents []entry2[V]) bool {
	tool, args := false, false
	for i := range ents {
		k := ents[i].k
		switch kind := programKeyKind(k); {
		case kind == programField:
			tool = tool || namesTool(any(ents[i].v))
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
		for k := range m {
			if isArgsKey(k) {
				return true
			}
		}
	case map[string]string:
		for k := range m {
			if isArgsKey(k) {
				return true
			}
		}
	}
	return false
}

// redactProgramArgs hides, in place, the credentials in m's arguments read after each of its
// program fields that names a tool: in a list as redactArgv hides them, in a string of arguments
// as RedactSecrets hides the command line it ends. The arguments are m's args fields and its
// extra map's (the gateway's arguments.extra.args), each read on its own. Programs that leave the scan in the same state read the
// arguments alike, so the arguments are read once per such state (programReadings), not once
// per program field: a map may hold 1,368 spellings of the program keys.
func redactProgramArgs(m map[string]any) {
	var programs []string
	for k, v := range m {
		if isProgramKey(k) && namesTool(v) {
			programs = append(programs, k)
		}
	}
	if programs == nil {
		return
	}
	slices.Sort(programs)
	r := programArgsReader{m: m, programs: programs}
	r.redact(m)
	if extra, ok := m[extraKey].(map[string]any); ok {
		r.redact(extra) // beside m's own: the agent chooses where they are
	}
}

// programArgsReader reads arguments after m's programs, the readings found once for a list's
// reading and once for a string's, whatever the number of args fields.
type programArgsReader struct {
	m        map[string]any
	programs []string
	readings [2][][]string // a list's (generic), a string's
	ok       [2]bool
	done     [2]bool
}

func (r *programArgsReader) get(generic bool) ([][]string, bool) {
	i := 0
	if !generic {
		i = 1
	}
	if !r.done[i] {
		r.readings[i], r.ok[i] = programReadings(r.m, r.programs, generic)
		r.done[i] = true
	}
	return r.readings[i], r.ok[i]
}

// redact hides the credentials in holder's args fields read after the programs.
func (r *programArgsReader) redact(holder map[string]any) {
	for _, ak := range argsKeysOf(holder) {
		switch args := holder[ak].(type) {
		case []any:
			readings, ok := r.get(true)
			if !ok {
				holder[ak] = Redacted
				continue
			}
			// Each program reads the arguments as they were, so the order of the programs
			// does not change what is hidden.
			orig := slices.Clone(args)
			for _, words := range readings {
				hideProgramArgs(words, orig, args)
			}
		case string:
			readings, ok := r.get(false)
			if !ok {
				holder[ak] = Redacted
				continue
			}
			for _, words := range readings {
				args, _ = redactCommandLineAfter(words, args)
			}
			holder[ak] = args
		}
	}
}

// maxProgramReadings bounds how often one arguments field is read. A call names its program
// once (a few spellings at most: command beside cmd); more distinct programs than this are an
// agent's making, and their arguments are hidden whole rather than read once per program, which
// cost seconds a record.
const maxProgramReadings = 8

// programReadings are the words of m's program fields named by keys (sorted), one for each
// state they leave argvSecrets' scan in (generic as the arguments are read: a list or a
// string): the arguments read after programs that leave it alike are hidden alike, so
// {"command": "mysql", "Command": "mysql", ...} reads them once. ok is false when there are more
// than maxProgramReadings.
func programReadings(m map[string]any, keys []string, generic bool) (readings [][]string, ok bool) {
	seen, values := map[programState]bool{}, map[string]bool{}
	for _, k := range keys {
		var words []string
		programWords(m[k], func(w string) bool { words = append(words, w); return true })
		v := strings.Join(words, "\x00")
		if values[v] {
			continue // the same program under another key's spelling
		}
		values[v] = true
		st := programStateAfter(words, generic)
		if seen[st] {
			continue
		}
		if len(seen) == maxProgramReadings {
			return nil, false
		}
		seen[st] = true
		readings = append(readings, words)
	}
	return readings, true
}

// programState is what of argvScan's state decides how it reads the words after a program's:
// the tool (which fixes its options and positional credentials) and the rest, sawAfter as the
// set it is used as (sorted, without repeats, joined).
type programState struct {
	tool, sawAfter               string
	pending                      *toolOption
	pendingAny, target, posValue bool
	pos                          positionalScan
}

// programStateAfter is the scan's state after the words of a program.
func programStateAfter(words []string, generic bool) programState {
	s := argvScan{generic: generic, hide: func(int, int, int) {}}
	for i, w := range words {
		s.word(i, w)
	}
	st := programState{tool: s.tool, pending: s.pending, pendingAny: s.pendingAny, target: s.target,
		posValue: s.posValue, pos: s.pos}
	if len(s.sawAfter) > 0 {
		st.sawAfter = strings.Join(slices.Compact(slices.Sorted(slices.Values(s.sawAfter))), " ")
	}
	return st
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
