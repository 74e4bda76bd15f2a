package safety

import (
	"regexp"
	"slices"
	"strings"
)

// 7-Zip's a (add) and u (update) write the archive their first operand names and read each file
// after it, a directory with everything below it (no files: the working directory's); -sdel
// deletes them once archived, as zip -m and tar --remove-files do, so "7z a -sdel /tmp/h.7z ~"
// deletes the home directory: each input is judged as the delete it is. 7-Zip reads its switches
// in either case and anywhere among its words; a computed command letter may be a or u.

// sevenZipUpdates reports whether a segment is 7-Zip's a or u, with its archive and its inputs.
func sevenZipUpdates(s *segment) (archive word, inputs []word, ok bool) {
	switch s.name {
	case cmd7z, cmd7za, cmd7zr, "7zz", "7zzs":
	default:
		return word{}, nil, false
	}
	ops := s.operands
	if len(ops) < 2 || !ops[0].dynamic && !strings.EqualFold(ops[0].s, "a") && !strings.EqualFold(ops[0].s, "u") {
		return word{}, nil, false
	}
	inputs = slices.DeleteFunc(slices.Clone(ops[2:]), listOperand)
	inputs = append(inputs, sevenZipIncludes(s)...)
	if len(inputs) == 0 {
		inputs = []word{{s: "."}}
	}
	return ops[1], inputs, true
}

// sevenZipIncludes returns the inputs 7-Zip's -i switches name (-i!PATH, -ir!PATH, -ir0!PATH), and
// for a list file (-i@LIST, or an @LIST operand) a computed name: which files it names the engine
// does not read, so a delete of them is judged as a computed path's.
func sevenZipIncludes(s *segment) []word {
	var out []word
	for _, w := range s.words[1:] {
		m := sevenZipInclude.FindStringSubmatch(w.s)
		switch {
		case m != nil && m[1] == "!":
			out = append(out, w.with(m[2]))
		case m != nil || listOperand(w):
			out = append(out, word{s: placeholderXargs, dynamic: true})
		}
	}
	return out
}

// listOperand says whether a 7-Zip operand names a list file (@LIST) rather than an input.
func listOperand(w word) bool { return !w.dynamic && strings.HasPrefix(w.s, "@") }

// sevenZipLists returns the list files 7-Zip reads names from (@LIST, -i@LIST, -ir@LIST).
func sevenZipLists(s *segment) []word {
	var out []word
	for _, w := range s.words[1:] {
		if m := sevenZipInclude.FindStringSubmatch(w.s); m != nil && m[1] == "@" {
			out = append(out, w.with(m[2]))
		} else if listOperand(w) && slices.Contains(s.operands, w) {
			out = append(out, w.with(w.s[1:]))
		}
	}
	return out
}

// sevenZipInclude matches 7-Zip's include switch, in either case: its recursion modifier, then
// ! and a name or @ and a list file.
var sevenZipInclude = regexp.MustCompile(`(?i)^-i(?:r[-0]?)?([!@])(.+)$`)

// sevenZipPaths records 7-Zip's a|u paths: the archive written, each input read below, and with
// -sdel deleted. It reports false for 7-Zip's other commands, whose operands are read as any
// unrecognised program's.
func (a *analyzer) sevenZipPaths(s *segment) bool {
	archive, inputs, ok := sevenZipUpdates(s)
	if !ok {
		return false
	}
	a.operandPath(archive, opWrite)
	for _, l := range sevenZipLists(s) {
		a.operandPath(l, opRead)
	}
	del := slices.ContainsFunc(s.words[1:], func(w word) bool {
		return w.dynamic && strings.HasPrefix(w.s, "$") || len(w.s) >= 5 && strings.EqualFold(w.s[:5], "-sdel")
	})
	a.recursive = true
	defer func() { a.recursive = false }()
	for _, w := range inputs {
		a.operandPath(w, opRead)
		if del {
			a.operandPath(w, opDelete)
		}
	}
	return true
}
