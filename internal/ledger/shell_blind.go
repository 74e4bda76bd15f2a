package ledger

import (
	"bytes"
	"strings"
)

// blindMarker marks, without reading quotes, every byte of a text bash could read as a
// command's boundary or a substitution, and every word that could be a command's first: what
// shellMask marks where it cannot know the quoting (the rest of a text after an alias), or where
// another shell reads the text again (ssh h 'mysql -pX;rm -rf /data').
type blindMarker struct {
	atCmd     bool
	inWord    bool
	cmdWord   bool
	wordStart int
}

// blindSeparators are the bytes that end a command or start a subshell or substitution.
const blindSeparators = ";&|\n()`<>"

// isBlindSeparator marks blindSeparators, and rereadWordEnd the bytes that end a word for
// rereadLines: one lookup per byte.
var isBlindSeparator, rereadWordEnd = byteSet(blindSeparators), byteSet(" \t\r\n;&|()<>{}`=")

func byteSet(chars string) (t [256]bool) {
	for i := 0; i < len(chars); i++ {
		t[chars[i]] = true
	}
	return t
}

func (b *blindMarker) step(s string, i int, danger []byte) {
	c := s[i]
	switch {
	case isBlindSeparator[c]:
		danger[i] = maskBoundary
		b.endWord(s, i)
		b.atCmd = c != '<' && c != '>'
		return
	case c == ' ' || c == '\t':
		b.endWord(s, i)
		return
	case c == '$' && i+1 < len(s) && s[i+1] == '(',
		c == '\\' && i+1 < len(s) && isBlindSeparator[s[i+1]]:
		danger[i] = maskBoundary
	}
	if !b.inWord {
		b.inWord, b.wordStart = true, i
		b.cmdWord = b.atCmd && !assignmentAt(s, i)
		b.atCmd = b.atCmd && !b.cmdWord
		if b.cmdWord && danger[i] == 0 {
			danger[i] = maskCommand
		}
	}
}

func (b *blindMarker) endWord(s string, i int) {
	if b.inWord && b.cmdWord && reservedWord(s[b.wordStart:i]) {
		b.atCmd = true
	}
	b.inWord, b.cmdWord = false, false
}

func reservedWord(w string) bool {
	switch w {
	case "then", "do", "else", "elif", "if", "while", "until", "!", "{", "}", wordTime, wordEnv, "coproc", "function":
		return true
	}
	return false
}

// blindFrom marks s[from:to] blind, from a command's start.
func blindFrom(s string, from, to int, danger []byte) {
	b := blindMarker{atCmd: true}
	for i := from; i < to; i++ {
		b.step(s, i, danger)
	}
}

// rereaders are commands that hand their arguments (or some of them) to a shell that reads them
// again as a command line: their quoted and escaped separators are that shell's. The shells
// themselves (and ssh, whose remote shell reads its joined arguments) are shells.
// (docker exec, kubectl exec and sudo pass an argument vector, no command line; docker exec c
// sh -c … is read again by its sh.)
var rereaders = map[string]bool{"eval": true, "su": true, "runuser": true, "watch": true, "script": true,
	"flock": true, "parallel": true, "tmux": true, "trap": true, "fc": true, "--command": true,
	"sh": true, "bash": true, "rbash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true, "csh": true,
	"tcsh": true, "fish": true, "yash": true, "posh": true, shellPwsh: true, "busybox": true, "ssh": true,
	"hush": true, "lksh": true, "pdksh": true, "oksh": true, "loksh": true, "rksh": true, "rzsh": true, "sh.distrib": true,
	"rsh": true, "autossh": true, "mosh": true}

// rereadsCommand reports whether word w (as written) names a command that has another shell
// read its arguments: one of rereaders, by its name after a directory (/bin/sh) and quote
// removal ('e'val, e\val), or a versioned shell (bash5.2). It allocates nothing: the lexer asks
// it of every word.
// cmd says w is a command's first word, where source and . are commands (sourceCommand).
func rereadsCommand(s string, end int, w string, cmd bool) bool {
	if len(w) > 64 {
		return false // no command's name is longer
	}
	var buf [64]byte
	b := buf[:0]
	for i := 0; i < len(w); i++ {
		if c := w[i]; c != '"' && c != '\'' && c != '\\' {
			b = append(b, c)
		}
	}
	return rereaderName(b) && (!scriptShell(b) || shellReadsArgs(s, end, b)) ||
		cmd && (sourceCommand(b) || unknownCommand(b)) && shellReadsArgs(s, end, b) ||
		unquotedBrace(w) && braceNamesRereader(b)
}

// braceNamesRereader reports whether word w (quotes removed), cut at its braces and commas,
// holds a part that names a re-reader: the host's brace expansion may make it the command with
// the rest of its parts as options ({bash,-c} is bash -c, sudo {sh,-ec}, /bin/{ba,}sh).
func braceNamesRereader(w []byte) bool {
	for len(w) > 0 {
		k := bytes.IndexAny(w, "{,}")
		if k < 0 {
			k = len(w)
		}
		if rereaderName(w[:k]) {
			return true
		}
		w = w[min(k+1, len(w)):]
	}
	return false
}

// sourceCommand reports whether w (without quotes) is source or .: they read a file as the
// current shell's command line, a re-reader where the file may be its input (. /dev/stdin <<<
// '…', source <(…)), as a shell's script operand is (shellReadsArgs).
func sourceCommand(w []byte) bool { return string(w) == "source" || string(w) == "." }

// rereaderName is rereadsCommand of a word without its quotes.
func rereaderName(w []byte) bool {
	if len(w) > 0 && w[0] == '-' {
		if k := bytes.IndexByte(w, '='); k >= 0 {
			w = w[:k] // --command=…
		}
	}
	return rereaders[string(commandBase(w))]
}

// rereadLines are the parts of lines of s, [start, end) each, that hand text to another shell:
// from a word that names one (rereadsCommand; quotes and backslashes inside words read as bash
// removes them: 'e'val is eval) to the line's end, or the whole line when a | outside quotes
// comes before that word (echo 'mysql -pX;rm -rf /data' | sh). A line goes on over a line
// continuation and after a trailing |, && or ||, where bash reads the pipeline on. What such a
// part holds is read blind (shellMask), the bodies of its here-documents too: the argument (ssh
// h 'a;b'), the pipe or the here-document (ssh h <<EOF) gives the text to a shell that reads it
// again. sshpass -p 'a|b' ssh h reads nothing again before ssh.
func rereadLines(s string) [][2]int {
	var lines [][2]int
	r := rereadScan{s: s, wordStart: -1, from: -1, nextAtCmd: true, nextPlain: true}
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '\n' && !lineGoesOn(s, i) {
			r.endWord(i)
			if r.from >= 0 {
				lines = append(lines, [2]int{r.from, i})
			}
			r.lineStart, r.from, r.quote, r.piped, r.nextAtCmd, r.nextPlain = i+1, -1, 0, false, true, true
			continue
		}
		i = r.step(i)
	}
	return lines
}

// rereadScan is rereadLines' state on a line: the word being read, the quote open (a plain
// reading: ' and " toggle, a backslash escapes), whether a | outside quotes came before, and
// where the part read again starts (-1: nowhere yet).
type rereadScan struct {
	s                          string
	word                       []byte
	lineStart, wordStart, from int
	quote                      byte
	piped                      bool
	// atCmd: the word being read may be a command's first (after a line's start, ; & | ( {, or
	// builtin and command), where source and . are commands.
	atCmd, nextAtCmd bool
	// plainCmd: atCmd, and the separator before the word is outside quotes, so that a
	// computed or globbed word is a command's (unknownCommand; '{"a":["x"]}' names none)
	plainCmd, nextPlain bool
}

// step reads s[i] and returns the last byte it consumed.
func (r *rereadScan) step(i int) int {
	switch c := r.s[i]; {
	case c == '\\' && r.quote != '\'':
		if i+1 < len(r.s) && r.s[i+1] != '\n' {
			r.wordByte(i + 1) // an escaped byte: part of the word (e\val is eval), no quote
		}
		return i + 1
	case c == '\'' || c == '"':
		switch r.quote {
		case 0:
			r.quote = c
		case c:
			r.quote = 0
		}
	case rereadWordEnd[c]:
		r.piped = r.piped || c == '|' && r.quote == 0
		r.endWord(i)
		if strings.IndexByte(";&|({\n", c) >= 0 {
			r.nextAtCmd, r.nextPlain = true, r.quote == 0
		}
	default:
		r.wordByte(i)
	}
	return i
}

func (r *rereadScan) wordByte(i int) {
	if r.wordStart < 0 {
		r.plainCmd = r.nextAtCmd && r.nextPlain
		r.wordStart, r.atCmd, r.nextAtCmd = i, r.nextAtCmd, false
	}
	if len(r.word) < 64 { // no command's name is longer; a longer word is none of them
		r.word = append(r.word, r.s[i])
	} else {
		r.word = append(r.word[:0], '-', '-', '-') // too long: matches nothing
	}
}

func (r *rereadScan) endWord(end int) {
	// a shell or source after a | reads its input whatever its operand names (ln -s /dev/stdin x;
	// echo … | bash x): the line is read blind
	if r.wordStart >= 0 && r.from < 0 && (rereaderName(r.word) && (!scriptShell(r.word) || r.piped || shellReadsArgs(r.s, end, r.word)) ||
		(r.atCmd && sourceCommand(r.word) || r.plainCmd && unknownCommand(r.word)) && (r.piped || shellReadsArgs(r.s, end, r.word))) {
		r.from = r.wordStart
		if r.piped {
			r.from = r.lineStart
		}
	}
	if r.wordStart >= 0 && r.atCmd && (string(r.word) == wordBuiltin || string(r.word) == wordCommand) {
		r.nextAtCmd = true
	}
	r.word, r.wordStart = r.word[:0], -1
}

// lineGoesOn reports whether the newline at s[i] continues the line: after a backslash, or
// after |, && or || and blanks.
func lineGoesOn(s string, i int) bool {
	j := i
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t' || s[j-1] == '\r') {
		j--
	}
	return j > 0 && (s[j-1] == '\\' && j == i || s[j-1] == '|' || j > 1 && s[j-1] == '&' && s[j-2] == '&')
}
