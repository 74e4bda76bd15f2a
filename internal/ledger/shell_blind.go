package ledger

import "strings"

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

func (b *blindMarker) step(s string, i int, danger []byte) {
	c := s[i]
	switch {
	case strings.IndexByte(blindSeparators, c) >= 0:
		danger[i] = maskBoundary
		b.endWord(s, i)
		b.atCmd = c != '<' && c != '>'
		return
	case c == ' ' || c == '\t':
		b.endWord(s, i)
		return
	case c == '$' && i+1 < len(s) && s[i+1] == '(',
		c == '\\' && i+1 < len(s) && strings.IndexByte(blindSeparators, s[i+1]) >= 0:
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
	case "then", "do", "else", "elif", "if", "while", "until", "!", "{", "}", "time":
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
// again as a command line: their quoted and escaped separators are that shell's.
// (docker exec, kubectl exec and sudo pass an argument vector, no command line; docker exec c
// sh -c … is read again by its sh.)
var rereaders = map[string]bool{"eval": true, "su": true, "runuser": true, "watch": true, "script": true,
	"flock": true, "parallel": true, "tmux": true, "trap": true, "fc": true, "-c": true, "--command": true}

// rereadsCommand reports whether word w (as written) names a command that has another shell
// read its arguments: any name ending in sh (sh, bash, zsh, ssh, rsh …) or one of rereaders.
func rereadsCommand(w string) bool {
	w = strings.Trim(w, `"'\`)
	if strings.HasPrefix(w, "-") {
		w, _, _ = strings.Cut(w, "=") // --command=…
	}
	if k := strings.LastIndexByte(w, '/'); k >= 0 {
		w = w[k+1:]
	}
	return strings.HasSuffix(w, "sh") || rereaders[w]
}
