package safety

import "slices"

// A recognised runner hands some of its words to code the engine does not know: npm, pnpm and
// yarn test give theirs to the project's test script (jest, vitest, mocha, a shell line), cargo
// test's after "--" and go test's after -args go to the test binary (libtest's --logfile writes,
// a test's own flags may), tox's after "--" to the commands tox.ini runs with {posargs}. Such a
// word may be an option that writes the path after it, so a path noWrite, readOnly or noDelete
// protects among them asks as it does for an unrecognised program (unknownWriterFailure).

// forwardsToUnknown reports whether the segment is a recognised runner that hands words to a
// program the engine does not know.
//
//nolint:goconst // program names read best literally
func forwardsToUnknown(s *segment) bool {
	w := s.words
	switch s.name {
	case "npm", "pnpm", "yarn":
		// The script's words: all after "test" (npm reads its own options among them, and passes
		// the rest; without "--" they are its configuration, which is read no less strictly), or
		// after "run test", the same script by name (testScriptWords).
		// After the options that choose the package (npm --prefix ../web test -- ...).
		i := selectorsEnd(s) - 1
		if n := testScriptWords(w[i:]); n > 0 {
			return len(w) > i+n
		}
		return false
	case "cargo", "tox":
		return slices.ContainsFunc(w[1:len(w)-1], func(x word) bool { return x.s == "--" })
	case "go":
		return slices.ContainsFunc(w[1:len(w)-1], func(x word) bool { return x.s == "-args" || x.s == "--args" })
	}
	return false
}
