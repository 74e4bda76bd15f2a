package ledger

import (
	"bytes"
	"strings"
)

// A shell given a script file (bash ./deploy.sh --password 'a;b') runs the file and reads none
// of its arguments again; it reads a command line of its own only from -c's argument (bash -c,
// -lc, -ec; pwsh -Command; fish --command) or, with no script operand, from its input (sh, sh
// -s, echo … | sh). shellReadsArgs decides which, from the words after the shell's name.

// scriptShells are the rereaders that run a script file given as their first operand.
var scriptShells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true,
	"mksh": true, "ash": true, "csh": true, "tcsh": true, "fish": true, "yash": true, "posh": true, "pwsh": true}

// scriptShell reports whether w (a word without its quotes) names one of scriptShells.
func scriptShell(w []byte) bool {
	if k := bytes.LastIndexByte(w, '/'); k >= 0 {
		w = w[k+1:]
	}
	for len(w) > 0 && (w[len(w)-1] == '.' || '0' <= w[len(w)-1] && w[len(w)-1] <= '9') {
		w = w[:len(w)-1]
	}
	return scriptShells[string(w)]
}

// shellArgsLookahead bounds what shellReadsArgs reads: past it, the shell is taken to read its
// arguments again (the safe side: they are read blind), and no word is read by many shells'
// names before it (sh -o sh -o sh … costs each name this much at most).
const shellArgsLookahead = 256

// shellReadsArgs reports whether the shell whose name ends at s[from] reads a command line of
// its own: a -c option (in a cluster, -lc) or a --command before any operand, or no operand at
// all. An option that takes a value (-o, -O, --rcfile, --init-file) skips its value; -- ends the
// options.
func shellReadsArgs(s string, from int) bool {
	var buf [32]byte
	end := min(len(s), from+shellArgsLookahead)
	st := shellArgs{options: true}
	for j := from; ; {
		for j < end && (s[j] == ' ' || s[j] == '\t' || s[j] == '\\' && j+1 < end && s[j+1] == '\n') {
			j++
		}
		if j >= end {
			return true // no operand before the text's end, or too far to tell
		}
		if isBlindSeparator[s[j]] {
			return true // the command ends: the shell reads its input
		}
		w, next, ok := plainWord(s, j, end, buf[:0])
		if !ok {
			return true
		}
		j = next
		if decided, reads := st.word(w); decided {
			return reads
		}
	}
}

// shellArgs is shellReadsArgs' state: whether options are still read, and whether the next
// word is an option's value.
type shellArgs struct{ options, skip bool }

// word reads one word after the shell's name; decided says whether it settles the question.
func (st *shellArgs) word(w []byte) (decided, reads bool) {
	switch {
	case st.skip:
		st.skip = false
	case st.options && string(w) == "-":
		return true, true // bash -: the options end, and the shell reads its input
	case st.options && string(w) == "--":
		st.options = false
	case st.options && len(w) > 1 && (w[0] == '-' || w[0] == '+'):
		if commandOption(w) {
			return true, true
		}
		switch string(w) {
		case "-o", "+o", "-O", "+O", "--rcfile", "--init-file":
			st.skip = true
		}
	default:
		// a script file: its arguments are data, unless the file is the shell's input
		return true, inputFile(w)
	}
	return false, false
}

// inputFile reports whether script operand w names the shell's input or another descriptor
// (bash /dev/stdin <<< 'a;b', /dev/fd/0, /proc/self/fd/0): the shell reads that text as its own
// command line.
func inputFile(w []byte) bool {
	p := string(w)
	return strings.HasPrefix(p, "/dev/std") || strings.HasPrefix(p, "/dev/fd") ||
		strings.HasPrefix(p, "/proc/") && strings.Contains(p, "/fd")
}

// commandOption reports whether option w gives the shell a command line: a short cluster with c
// or s (-c, -lc, -s), or a long option naming a command (--command, -Command, -EncodedCommand).
func commandOption(w []byte) bool {
	lower := bytes.ToLower(w)
	if bytes.Contains(lower, []byte("command")) {
		return true
	}
	return w[0] == '-' && (len(w) < 2 || w[1] != '-') && bytes.ContainsAny(w[1:], "cs")
}

// plainWord reads the word at s[j:end] with its quotes and backslashes removed (its first bytes
// in buf), and returns the index after it; ok is false where a quote is left open before end.
func plainWord(s string, j, end int, buf []byte) (w []byte, next int, ok bool) {
	var quote byte
	for ; j < end; j++ {
		c := s[j]
		switch {
		case quote != 0 && c == quote:
			quote = 0
			continue
		case quote != 0:
		case c == '\'' || c == '"':
			quote = c
			continue
		case c == '\\' && j+1 < end:
			j++
			c = s[j]
		case c == ' ' || c == '\t' || isBlindSeparator[c]:
			return buf, j, true
		}
		if len(buf) < cap(buf) {
			buf = append(buf, c)
		}
	}
	return buf, j, quote == 0 && end == len(s)
}
