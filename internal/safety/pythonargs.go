package safety

import (
	"slices"
	"strings"
)

// pythonKind is what a Python command line runs.
type pythonKind uint8

const (
	pyStdin  pythonKind = iota // no program named, or "-": standard input (interactive on a terminal)
	pyModule                   // -m MODULE
	pyCode                     // -c CODE
	pyScript                   // a script file
	pyUnread                   // an option CPython does not take, or a computed word where an option could be
)

// pythonRun is a Python command line as CPython's own parser reads it (_PyOS_GetOpt in
// Python/getopt.c, config_parse_cmdline in Python/initconfig.c): single-letter options bundle
// (-IBsu); -W and -X take the rest of their word or else the next word (-Wignore, -W ignore);
// --check-hash-based-pycs takes the next word; long options match exactly, never as
// abbreviations. -c CODE, -m MODULE (attached too: -cCODE, -mpip, -Im pip), "-", "--" and the
// first word that is not an option end the interpreter's options: every word after them is the
// program's argv, so "python x.py -m pip" runs x.py with the arguments "-m pip".
type pythonRun struct {
	kind pythonKind
	// target is the module's name, the inline code or the script.
	target word
	// words are the program's words: words[0] is the word that holds target (for an attached
	// -mpip or -cCODE, the option word itself) and words[1:] its argv, as the helpers that skip a
	// command word (optionValues, directoryOption) read a command's words.
	words []word
	// inspect is -i: after the program, the interpreter reads more code from standard input.
	inspect bool
	// xoptions are the values of -X (utf8, dev, pycache_prefix=DIR).
	xoptions []word
}

// pythonShortOptions are CPython's single-letter options; a letter before ':' takes a value.
const pythonShortOptions = "bBc:dEhiIm:OPqRsStuvVW:xX:?"

// pythonLongOptions are CPython's long options; only --check-hash-based-pycs takes a value.
var pythonLongOptions = strings.Fields("--check-hash-based-pycs --help --version --help-env --help-xoptions --help-all")

// isPython says whether a command name is a Python interpreter: python, python3, pypy3, and their
// versioned names (python3.12, pypy3.10, the free-threaded python3.13t, Debian's python3-dbg).
func isPython(name string) bool {
	rest, ok := strings.CutPrefix(name, "python")
	if !ok {
		if rest, ok = strings.CutPrefix(name, "pypy"); !ok {
			return false
		}
	}
	rest = strings.TrimSuffix(strings.TrimSuffix(rest, "-dbg"), "t")
	if abi := strings.TrimSuffix(strings.TrimSuffix(rest, "m"), "d"); abi != rest && abi != "" && abi[len(abi)-1] >= '0' && abi[len(abi)-1] <= '9' {
		rest = abi // the ABI flags older CPythons name their interpreter with: python3.7m, python3.7dm
	}
	return strings.Trim(rest, "0123456789.") == "" && (rest == "" || rest[0] >= '0' && rest[0] <= '9')
}

// readPython reads a Python interpreter's command line, or reports that s is not one.
func readPython(s *segment) (pythonRun, bool) {
	if !isPython(s.name) {
		return pythonRun{}, false
	}
	w := s.words
	var p pythonRun
	for i := 1; i < len(w); i++ {
		v := w[i].s
		switch {
		case w[i].dynamic:
			// Any option, a module's -m, or the script: the engine cannot tell which.
			return pythonRun{kind: pyUnread}, true
		case v == "--":
			return p.operand(w[i+1:]), true
		case v == "" || v == "-" || v[0] != '-':
			return p.operand(w[i:]), true
		case strings.HasPrefix(v, "--"):
			if !slices.Contains(pythonLongOptions, v) {
				return pythonRun{kind: pyUnread}, true
			}
			if v == "--check-hash-based-pycs" {
				i++
			}
		default:
			var ended bool
			if i, ended = p.bundle(w, i); ended {
				return p, true
			}
		}
	}
	p.kind = pyStdin
	return p, true
}

// bundle reads the single-letter options of w[i] into p. It returns the index of the last word
// it read (an option's value may be the next word), and whether the interpreter's options ended:
// at -m or -c, p is complete; at an option CPython refuses, p is pyUnread.
func (p *pythonRun) bundle(w []word, i int) (int, bool) {
	v := w[i].s
	for j := 1; j < len(v); j++ {
		k := strings.IndexByte(pythonShortOptions, v[j])
		if k < 0 || v[j] == ':' {
			*p = pythonRun{kind: pyUnread}
			return i, true
		}
		if k+1 == len(pythonShortOptions) || pythonShortOptions[k+1] != ':' {
			p.inspect = p.inspect || v[j] == 'i'
			continue
		}
		// The option's value: the rest of the word, or the next word.
		val, at := w[i].with(v[j+1:]), i
		if j+1 == len(v) {
			if i+1 == len(w) {
				*p = pythonRun{kind: pyUnread} // "Argument expected": nothing runs
				return i, true
			}
			i++
			val, at = w[i], i
		}
		switch v[j] {
		case 'm':
			p.kind, p.target, p.words = pyModule, val, w[at:]
			return i, true
		case 'c':
			p.kind, p.target, p.words = pyCode, val, w[at:]
			return i, true
		case 'X':
			p.xoptions = append(p.xoptions, val)
		}
		return i, false // -W, -X: the value ended the word
	}
	return i, false
}

// operand completes the options read so far with the words from the script on: a script, or
// standard input for "-" or none.
func (p pythonRun) operand(w []word) pythonRun {
	p.kind, p.words = pyScript, w
	if len(w) == 0 || w[0].s == "-" && !w[0].dynamic {
		p.kind = pyStdin
	} else {
		p.target = w[0]
	}
	return p
}

// pythonModuleRun returns the module a Python command line runs and the module's command line
// (its name first, then its argv), or false.
func pythonModuleRun(s *segment) (string, segment, bool) {
	p, ok := readPython(s)
	if !ok || p.kind != pyModule || p.target.dynamic {
		return "", segment{}, false
	}
	// A package's __main__ module is what -m PACKAGE runs: python -m pytest.__main__ is pytest.
	mod := strings.TrimSuffix(p.target.s, ".__main__")
	return mod, segment{name: mod, words: p.words, cwd: s.cwd}, true
}

// asTool returns the segment as the tool it runs: python -m pytest is pytest, in the segment's
// directory, so a check keyed on the tool's name reads the module form too. The prefix runners
// (uv run, poetry run, npx ...) are segments of their own already (wrappers.go, runners.go); the
// interpreter's module form is the one that is not.
func asTool(s *segment) *segment {
	if _, m, ok := pythonModuleRun(s); ok {
		// py.test is pytest as a module too (programAliases).
		m.name, m.env, m.opaque, m.text = commandName(m.name), s.env, s.opaque, s.text
		return &m
	}
	return s
}
