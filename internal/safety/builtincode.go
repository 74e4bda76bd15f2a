package safety

import "strings"

// builtinCode returns why a shell builtin runs code the engine cannot see, or "": hash -p makes
// a command name run the file it gives (hash -p /tmp/x ls; ls), enable -f loads a shared object
// as a builtin and enable -n turns one off, and mapfile (readarray) -C runs its callback with every chunk of lines it reads.
func builtinCode(s *segment) string {
	switch s.name {
	case "hash":
		if shortOption(s, 'p') {
			return "hash -p makes a command name run the file it names"
		}
	case "enable":
		if shortOption(s, 'f') {
			return "enable -f loads a shared object as a builtin"
		}
		if shortOption(s, 'n') || shortOption(s, 'd') {
			// enable -n cd: cd then runs a program, and the shell stays where it was.
			return "enable -n turns a builtin off, so its name runs a program instead"
		}
	case "mapfile", "readarray": //nolint:goconst // builtin names read best literally
		if shortOption(s, 'C') {
			return s.name + " -C runs its callback with the lines it reads"
		}
	}
	return ""
}

// shortOption reports whether a builtin's words, up to its first operand, give the short option
// c, alone or in a bundle (-rp); a computed word could be it.
func shortOption(s *segment, c byte) bool {
	for _, w := range s.words[1:] {
		switch {
		case w.dynamic:
			return true
		case w.s == "--" || !strings.HasPrefix(w.s, "-"):
			return false
		case strings.IndexByte(w.s[1:], c) >= 0:
			return true
		}
	}
	return false
}
