package safety

import "strings"

// git log -L START,END:FILE (or -L :FUNCNAME:FILE, -L /REGEX/,+N:FILE) prints the history of
// those lines of FILE, their content in every commit that changed them: a read of FILE, as git
// log -p -- FILE is. The option's value is attached (-L1,5:.env) or the next word.

// gitLineRangeFile returns the file the word s.words[i] names as the value of git log's -L, and
// whether it is one: the text after the value's last ":" (a function name or regular expression
// before it may hold one too).
func gitLineRangeFile(s *segment, i int) (string, bool) {
	if gitSub(s) != gitLog {
		return "", false
	}
	v := s.words[i].s
	switch {
	case strings.HasPrefix(v, "-L") && len(v) > 2:
		v = v[2:]
	case i > 1 && s.words[i-1].s == "-L":
	default:
		return "", false
	}
	k := strings.LastIndexByte(v, ':')
	if k < 0 || k == len(v)-1 {
		return "", false
	}
	return strings.TrimPrefix(v[k+1:], "./"), true
}

// gitSub returns git's subcommand as written (git's are case-sensitive), or "": unlike
// firstOperands, it copies nothing, for checks that run on every git command.
func gitSub(s *segment) string {
	if len(s.operands) == 0 {
		return ""
	}
	return s.operands[0].s
}
