package ledger

import (
	"bytes"
	"strings"
)

// A shell given a script file (bash ./deploy.sh --password 'a;b') runs the file and reads none
// of its arguments again; it reads a command line of its own only from -c's argument (bash -c,
// -lc, -ec; pwsh -Command; fish --command) or, with no script operand, from its input (sh, sh
// -s, echo … | sh). shellReadsArgs decides which, from the words after the shell's name.

// shellPwsh is PowerShell, whose options are read otherwise (pwshWord).
const shellPwsh = "pwsh"

// scriptShells are the rereaders that run a script file given as their first operand.
var scriptShells = map[string]bool{"sh": true, "bash": true, "rbash": true, "zsh": true, "dash": true, "ksh": true,
	"mksh": true, "ash": true, "csh": true, "tcsh": true, "fish": true, "yash": true, "posh": true, shellPwsh: true,
	"hush": true, "lksh": true, "pdksh": true, "oksh": true, "loksh": true, "rksh": true, "rzsh": true, "sh.distrib": true}

// unknownCommand reports whether command word w (quotes removed) names no program knowable from
// the text: computed ($SH, "${SHELL}", `…`) or a glob the host expands (/bin/da?h, /bin/b[a]sh).
// Such a word is taken for a shell (the safe side); [ and [[ are the test commands.
func unknownCommand(w []byte) bool {
	return bytes.ContainsAny(w, "$`*?[") && string(w) != "[" && string(w) != "[["
}

// scriptShell reports whether w (a word without its quotes) names one of scriptShells.
func scriptShell(w []byte) bool {
	return scriptShells[string(commandBase(w))]
}

// commandBase is a command's name w without its directory, a -static build's suffix and its
// version (/usr/bin/bash5.2, bash-5.2, zsh_5.9, bash-static: bash), as a slice of w: it
// allocates nothing, since the lexer asks it of every word.
func commandBase(w []byte) []byte {
	if k := bytes.LastIndexByte(w, '/'); k >= 0 {
		w = w[k+1:]
	}
	w = bytes.TrimSuffix(w, []byte("-static"))
	if v := bytes.TrimRight(w, ".0123456789"); len(v) < len(w) {
		w = bytes.TrimRight(v, "-_")
	}
	return w
}

// shellArgsLookahead bounds what shellReadsArgs reads: past it, the shell is taken to read its
// arguments again (the safe side: they are read blind), and no word is read by many shells'
// names before it (sh -o sh -o sh … costs each name this much at most).
const shellArgsLookahead = 256

// shellReadsArgs reports whether the shell (or source, .) whose name ends at s[from] reads a
// command line of its own: a -c option (in a cluster, -lc) or a --command before any operand, no
// operand at all, an operand that may be its input (inputFile), or any input redirection of the
// command (bash x <<< '…', bash x < <(…): x may be a link to /dev/stdin). An option that takes a
// value (-o, -O, in a cluster too: -euo pipefail, -xO extglob; --rcfile, --init-file) skips its
// value; -- ends the options; an output redirection and its file (2>&1, 2>/dev/null) are no
// operand. name is the shell's name without its quotes: pwsh reads its options otherwise (pwshWord).
func shellReadsArgs(s string, from int, name []byte) bool {
	var buf [operandBytes]byte
	end := min(len(s), from+shellArgsLookahead)
	st := shellArgs{options: true, pwsh: string(commandBase(name)) == shellPwsh}
	for j := from; ; {
		if j = skipBlanks(s, j, end); j >= end {
			return !st.script || end < len(s) // no operand, or too far to tell: the safe side
		}
		if next, decided, reads := st.operator(s, j, end, buf[:0]); decided {
			return reads
		} else if next > j {
			j = next
			continue
		}
		w, next, ok := plainWord(s, j, end, buf[:0])
		if !ok {
			return true
		}
		descriptor := next < end && (s[next] == '<' || s[next] == '>') && descriptorWord(s[j:next])
		raw := s[j:next]
		j = next
		if descriptor || st.script && !st.pwsh {
			continue // 2>&1: the redirection follows; after the script, only its redirections count
		}
		if unquotedBrace(raw) {
			// bash {-c,} "…" is bash -c "…": a brace expansion may make any option, in an
			// option's value too (bash -O {extglob,-c} "…" is bash -O extglob -c "…")
			return true
		}
		if decided, reads := st.word(w); decided && reads {
			return true
		} else if decided {
			st.script = true
		}
	}
}

// operator reads the operator at s[j], if one is there: an input redirection settles that the
// shell reads (its input comes from the text, or from a file a script operand may name), an
// output redirection and its file are skipped (next), another separator ends the command.
func (st *shellArgs) operator(s string, j, end int, buf []byte) (next int, decided, reads bool) {
	switch c := s[j]; {
	case c == '<':
		return j, true, true
	case c == '>' || c == '&' && j+1 < end && s[j+1] == '>':
		if next = skipOutputRedirection(s, j, end, buf); next < 0 {
			return j, true, true
		}
		return next, false, false
	case isBlindSeparator[c]:
		return j, true, !st.script // with no operand the shell reads its input
	}
	return j, false, false
}

// skipBlanks is the index of the first byte at or after s[j] that is no blank or line
// continuation, or end.
func skipBlanks(s string, j, end int) int {
	for j < end && (s[j] == ' ' || s[j] == '\t' || s[j] == '\\' && j+1 < end && s[j+1] == '\n') {
		j++
	}
	return j
}

// operandBytes bounds the bytes of a word shellReadsArgs reads; a longer operand is taken for
// the shell's input (inputFile), which it could spell with ../ or // past any bound.
const operandBytes = 128

// skipOutputRedirection skips the output redirection at s[j] (> >> >& >| &> &>> 2>&-) and its
// file, and returns the index after them, or -1 where it cannot tell (>(…), a quote left open).
func skipOutputRedirection(s string, j, end int, buf []byte) int {
	k := j
	if s[k] == '&' {
		k++ // &> &>>
	}
	k++ // >
	if k < end && (s[k] == '>' || s[k] == '|' || s[k] == '&') {
		k++ // >> >| >&
	}
	if k < end && s[k] == '(' {
		return -1
	}
	if k < end && s[k] == '-' && s[k-1] == '&' {
		return k + 1 // >&-: a descriptor closed, no file (>-x writes the file -x)
	}
	if k = skipBlanks(s, k, end); k >= end || isBlindSeparator[s[k]] {
		return k
	}
	_, next, ok := plainWord(s, k, end, buf)
	if !ok {
		return -1
	}
	return next
}

// unquotedBrace reports whether word w (as written) holds a { outside quotes, where bash may
// expand it into other words ({-c,}, -{c,}, {-ec,-x}).
func unquotedBrace(w string) bool {
	var quote byte
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case c == '{':
			return true
		}
	}
	return false
}

// descriptorWord reports whether w, written right before < or >, is the redirection's
// descriptor (2>&1, {fd}>f) and no operand.
func descriptorWord(w string) bool {
	return allDigits(w) || len(w) > 2 && w[0] == '{' && w[len(w)-1] == '}'
}

// shellArgs is shellReadsArgs' state: whether options are still read, how many next words are
// options' values, whether the script operand was read (script), and whether the shell is pwsh.
type shellArgs struct {
	options, script, pwsh, file bool
	skip                        int
}

// word reads one word after the shell's name; decided says whether it settles the question.
func (st *shellArgs) word(w []byte) (decided, reads bool) {
	if st.pwsh {
		return st.pwshWord(w)
	}
	switch {
	case st.skip > 0:
		st.skip--
	case st.options && string(w) == "-":
		return true, true // bash -: the options end, and the shell reads its input
	case st.options && string(w) == "--":
		st.options = false
	case st.options && len(w) > 1 && (w[0] == '-' || w[0] == '+'):
		if commandOption(w) {
			return true, true
		}
		switch {
		case string(w) == "--rcfile" || string(w) == "--init-file":
			st.skip = 1
		case w[1] != '-':
			// -o pipefail, -euo pipefail, -xO extglob, +eo: each o or O of a cluster takes a word
			st.skip = bytes.Count(w, []byte("o")) + bytes.Count(w, []byte("O"))
		}
	default:
		// a script file: its arguments are data, unless the file is the shell's input
		return true, inputFile(w)
	}
	return false, false
}

// pwshWord is word for pwsh, whose options are words (-Command, -File, -ExecutionPolicy) that it
// matches by any unambiguous prefix: only -Command (-c), -CommandWithArgs (-cwa) and
// -EncodedCommand (-e, -ec) read a command line; -File (or a first operand) runs a script whose
// arguments are data. A command option anywhere, a script's argument too, is taken for one (the
// safe side: an option this table does not know may take a value).
func (st *shellArgs) pwshWord(w []byte) (decided, reads bool) {
	o := bytes.ToLower(bytes.TrimLeft(w, "-/"))
	switch {
	case len(w) > 1 && (w[0] == '-' || w[0] == '/') && pwshCommandOption(string(o)):
		return true, true
	case st.script:
		return false, false
	case st.file:
		st.file = false
		return true, string(w) == "-" || inputFile(w)
	case st.skip > 0:
		st.skip--
	case len(w) > 1 && w[0] == '-' && anyPrefix(string(o), "file"):
		st.file = true
	case len(w) > 1 && w[0] == '-':
		if anyPrefix(string(o), pwshValueOptions...) || string(o) == "ep" || string(o) == "wd" {
			st.skip = 1
		}
	default:
		return true, string(w) == "-" || inputFile(w) // pwsh x.ps1: -File
	}
	return false, false
}

// pwshValueOptions are pwsh's options that take a value.
var pwshValueOptions = []string{"executionpolicy", "configurationname", "configurationfile", "custompipename",
	"inputformat", "outputformat", "workingdirectory", "settingsfile", "windowstyle"}

// pwshCommandOption reports whether o (an option without its dashes, lower case) is one of pwsh's
// that read a command line.
func pwshCommandOption(o string) bool {
	return o == "ec" || o == "cwa" || anyPrefix(o, "command", "commandwithargs", "encodedcommand")
}

// anyPrefix reports whether o, not empty, begins one of names.
func anyPrefix(o string, names ...string) bool {
	for _, n := range names {
		if o != "" && strings.HasPrefix(n, o) {
			return true
		}
	}
	return false
}

// inputFile reports whether script operand w (quotes removed) may name the shell's input or
// another descriptor (bash /dev/stdin <<< 'a;b', /dev/fd/0, /proc/self/fd/0): the shell reads
// that text as its own command line. Spelled otherwise, it may too: a computed word ("$f",
// $'…'), a glob (/de?/stdin), .., //, /./, a path under /dev/ or /proc/, a last part stdin (cd
// /dev; bash stdin) or a descriptor's number, or a word too long to read whole.
func inputFile(w []byte) bool {
	p := string(w)
	if len(p) >= operandBytes || strings.ContainsAny(p, "$`*?[~") || strings.Contains(p, "..") ||
		strings.Contains(p, "//") || strings.Contains(p, "/./") || strings.Contains(p, "/dev/") ||
		strings.Contains(p, "/fd/") || strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "fd/") {
		return true
	}
	base := shellPathBase(p)
	return strings.HasPrefix(base, "std") || allDigits(base)
}

// shellPathBase is p's last part after a /.
func shellPathBase(p string) string {
	if k := strings.LastIndexByte(p, '/'); k >= 0 {
		return p[k+1:]
	}
	return p
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
