package ledger

import "strings"

// shellMask reads a text once, as bash would read it as a script, and marks the bytes a
// redaction must never hide: where bash ends a command or starts another (; & | newline ( ) and
// the redirections < >, outside quotes), a command substitution ($( and backquotes, in any
// quotes), the first byte of every command's name, and the separators inside quoted data, which
// a shell reading the data again (a file written, a pipe into sh) would take for its own. A
// rule's match is cut before a marked byte (shellGuard), so no marker can hide a command the
// shell runs, however the agent dresses it as a password's value (mysql -pX;rm -rf /data,
// PASSWORD=x;{rm,-rf,/data}, password:<newline>rm -rf /data).
//
// The mask is taken once from the text before any rule runs, so no rule's marker (which may
// swallow a quote) changes how the next rule's match is read. It is linear: a pass for the lines
// that hand text to a shell (rereadLines) and one for the lexer, each byte read a bounded
// number of times (a here-document's body twice, nested ones at most three deep).
//
// Where bash's reading depends on what this pass does not model (a defined alias's use, a here-document
// delimiter written with $'…', a single quote inside ${…} inside double quotes), the rest of
// the text is read blind: every separator, substitution and line's first word is marked
// whatever the quotes say. Where another shell reads the text again (ssh, eval, sh -c, su -c,
// watch, | sh, a command whose name is computed …), the rest of that line or command is read
// blind too: its quoted and escaped separators are the other shell's.
//
// A byte is marked maskBoundary (a separator, a substitution, a redirection), maskQuoted (a
// separator in quoted data) or maskCommand (the first byte of a command's first word): the rules
// that find a credential by its name (an option, an assignment, a tool's password option) hide
// none of them (a quoted separator only in a value that is not quoted itself), nor take a value
// from after a boundary or one that is a command's name (PASSWORD= rm -rf /data runs rm); a
// provider's token shape (ghp_…) stops only at a boundary, as a whole value that is one token is
// a command's first word too.
// afterProgram says the text follows a command's first word (arguments given apart).
func shellMask(s string, afterProgram bool) []byte {
	l := shellLexer{s: s, danger: make([]byte, len(s))}
	lines := rereadLines(s)
	if len(lines) > 0 {
		l.rereadAt = make([]bool, len(s))
		for _, ln := range lines {
			for i := ln[0]; i < ln[1]; i++ {
				l.rereadAt[i] = true
			}
		}
	}
	l.run(0, len(s), frameCode, !afterProgram)
	if l.fillsDescriptor {
		blindFrom(s, 0, len(s), l.danger)
	}
	for _, ln := range lines {
		blindFrom(s, ln[0], ln[1], l.danger)
	}
	return l.danger
}

// Words after which the next word is still a command's first, options apart.
const (
	wordEnv  = "env"
	wordTime = "time"
	// wordBuiltin and wordCommand run the next word as a command (builtin alias, command .).
	wordBuiltin = "builtin"
	wordCommand = "command"
	// wordExec: exec's redirections stay for the commands after it; kubectl exec runs a command.
	wordExec = "exec"
)

// The mask's levels.
const (
	maskCommand  byte = 1
	maskQuoted   byte = 2 // a separator in quoted data: another shell may read it (below)
	maskBoundary byte = 3
	// maskDataSubst: a substitution ($( or a backquote) in single-quoted data: data to bash, a
	// command to a shell that reads the data again inside "…" (echo 'PASSWORD="`rm`"' > x.sh).
	maskDataSubst byte = 4
)

type frameKind uint8

const (
	frameCode     frameKind = iota // the top level, $( ), <( ), >( )
	frameBacktick                  // `…`: code; bash ends it at the next unescaped backquote, quotes or not
	frameArith                     // $(( )), (( )) and $[ ]: code without comments or here-documents
	frameParam                     // ${…}
	frameDouble                    // "…"
	frameSingle                    // '…'
	frameANSI                      // $'…'
	frameHereBody                  // an unquoted here-document's body: "…" without its quotes
)

// shellFrame is one open construct. The word state belongs to code frames: whether the next
// word is a command's first (cmdPos), whether a word is being read and whether it is a
// command's first word (marked), whether the next word is a redirection's file.
type shellFrame struct {
	kind     frameKind
	nested   int // ( open in a code frame, { in ${…}
	cases    int // case … esac open in a code frame: a ) ends a pattern, not the frame
	arrays   int // NAME=( open: its ) is no boundary
	backtick int // the innermost open backquote's frame at or below this one, 0 if none
	// substitutions counts the $( ), <( ), >( ) and backquotes open at or below this frame.
	substitutions int
	closes        bool // a code frame opened by $(, <( or >(: its ) ends it
	bracket       bool // an arithmetic frame opened by $[: its ] ends it (brackets counts the [ inside)
	brackets      int
	escaped       bool // a backquote frame opened by \` inside another: \` ends it
	inDouble      bool // a ${…} inside "…": a single quote there is read as bash reads it only by operator
	reread        bool // another shell reads this command again (blind marking)
	cmdPos        bool
	options       bool // after env or time: an option (-i, -p) keeps the next word a command's first
	nameNext      bool // after function or coproc: a name, and then a command's first word
	settings      byte // the command is alias or shopt: its words define an alias or set a parser option
	dataArgs      bool // the word being read is data to the command's program (shell_data_args.go)
	// data is the reading of a data program's arguments (shell_data_args.go); data.on: the
	// command is one.
	data        dataReading
	exec        bool // the command is exec: its redirections stay for the commands after it
	cond        bool // inside [[ ]]: < and > compare strings, 2<3 fills no descriptor
	inWord      bool
	cmdWord     bool
	redirTarget bool
	wordStart   int
}

type pendingHeredoc struct {
	delim  string
	strip  bool // <<-: leading tabs
	quoted bool // the body is data
	reread bool // the operator's line hands the body to a shell
}

type shellLexer struct {
	s        string
	danger   []byte
	stack    []shellFrame
	heredocs []pendingHeredoc
	reread   blindMarker     // the command another shell reads again
	blind    bool            // the rest of the text is read blind
	bodies   int             // here-document bodies being read, one inside another's $( )
	rereadAt []bool          // the bytes of the lines that hand text to another shell (rereadLines); nil if none
	aliases  map[string]bool // the names the text defines as aliases (shell_alias.go)
	// fillsDescriptor: the text fills a descriptor a later command may read as a script (exec
	// 3<<< '…'; bash /dev/fd/3, { bash /dev/fd/3; } 3<<< '…'): the whole text is read blind.
	fillsDescriptor bool
}

func (l *shellLexer) top() *shellFrame { return &l.stack[len(l.stack)-1] }

// redirects reports whether < and > redirect, and a newline starts here-document bodies, in
// frame f: not in $(( )), (( )) or ${…}, where 3<4 compares.
func (f *shellFrame) redirects() bool { return f.kind != frameArith && f.kind != frameParam }

func (l *shellLexer) push(kind frameKind) {
	parent := l.top()
	f := shellFrame{kind: kind, reread: parent.reread, cmdWord: parent.cmdWord, backtick: parent.backtick,
		substitutions: parent.substitutions, dataArgs: parent.dataArgs}
	if kind == frameBacktick {
		f.backtick = len(l.stack)
		f.substitutions++
	}
	switch kind {
	case frameCode, frameBacktick, frameArith:
		f.cmdPos, f.cmdWord, f.dataArgs = true, false, false
	case frameParam:
		f.inDouble = parent.kind == frameDouble || parent.kind == frameHereBody
	}
	l.stack = append(l.stack, f)
}

func (l *shellLexer) pop() {
	if len(l.stack) > 1 {
		l.stack = l.stack[:len(l.stack)-1]
	}
}

// backtickIndex is the innermost open backquote's frame, or 0 (the base frame is none): kept
// in every frame, so that no byte costs a walk of the stack.
func (l *shellLexer) backtickIndex() int { return l.top().backtick }

// pushSubstitution opens a code frame that a ) ends: $( ), <( ), >( ).
func (l *shellLexer) pushSubstitution() {
	l.push(frameCode)
	f := l.top()
	f.closes = true
	f.substitutions++
}

// mark marks s[i] a boundary.
func (l *shellLexer) mark(i int) {
	if i < len(l.danger) {
		l.danger[i] = maskBoundary
	}
}

// markCode marks s[i], a byte of code, a boundary unless it is inside $[…], where nothing but a
// substitution is a command.
func (l *shellLexer) markCode(i int) {
	if f := l.top(); f.kind != frameArith || !f.bracket {
		l.mark(i)
	}
}

// markCommand marks s[i] the first byte of a command's first word.
func (l *shellLexer) markCommand(i int) {
	if l.danger[i] == 0 {
		l.danger[i] = maskCommand
	}
}

// run reads s[from:to] starting in a frame of kind base. A text that ends inside a quote is
// left so: bash runs nothing of a command it cannot finish reading.
func (l *shellLexer) run(from, to int, base frameKind, cmdPos bool) {
	l.stack = []shellFrame{{kind: base, cmdPos: cmdPos}}
	for i := from; i < to; i++ {
		f := l.top()
		if f.reread {
			l.reread.step(l.s, i, l.danger)
		}
		var next int
		switch f.kind {
		case frameSingle:
			next = l.single(i)
		case frameANSI:
			next = l.ansi(i)
		case frameDouble, frameHereBody:
			next = l.double(i)
		default:
			next = l.code(i, to)
		}
		if next < 0 || l.blind {
			blindFrom(l.s, i, to, l.danger)
			return
		}
		i = next
	}
}

// single reads s[i] inside '…'; it returns the index of the last byte it consumed.
func (l *shellLexer) single(i int) int {
	c := l.s[i]
	l.markData(i)
	switch {
	case c == '\'':
		l.pop()
	case c == '`' && l.backtickIndex() > 0:
		l.closeBacktick(i)
	}
	return i
}

func (l *shellLexer) ansi(i int) int {
	c := l.s[i]
	l.markData(i)
	switch {
	case c == '\\' && i+1 < len(l.s):
		return i + 1
	case c == '\'':
		l.pop()
	case c == '`' && l.backtickIndex() > 0:
		l.closeBacktick(i)
	}
	return i
}

// markData marks a byte of quoted data that a shell reading the data again would take for a
// separator (maskQuoted), or a substitution ($( and backquotes: maskBoundary, whoever reads it).
func (l *shellLexer) markData(i int) {
	if l.top().dataArgs && !l.top().reread && (l.rereadAt == nil || !l.rereadAt[i]) {
		markSubstitution(l.s, i, l.danger) // docker run -e "PASSWORD=a;b": its ; is the value's
		return
	}
	markData(l.s, i, l.danger)
}

// markSubstitution marks a $( or backquote in quoted data (maskDataSubst).
func markSubstitution(s string, i int, danger []byte) {
	if c := s[i]; (c == '`' || c == '$' && i+1 < len(s) && s[i+1] == '(') && danger[i] != maskBoundary {
		danger[i] = maskDataSubst
	}
}

func markData(s string, i int, danger []byte) {
	markSubstitution(s, i, danger)
	if c := s[i]; c != '`' && (isBlindSeparator[c] || c == '\\' && escapedSeparator(s, i)) && danger[i] == 0 {
		danger[i] = maskQuoted
	}
}

// escapedSeparator reports whether s[i:] (a backslash) is an escape that printf, echo -e or
// $'…' decode to a separator or a $: \n, \x3b, \073, \u003b … (printf 'PASSWORD=x\x3brm -rf
// /data' > x.sh writes a command).
func escapedSeparator(s string, i int) bool {
	if i+1 >= len(s) {
		return false
	}
	base, width, j := 16, 0, i+2
	switch s[i+1] {
	case 'n':
		return true
	case 'x':
		width = 2
	case 'u':
		width = 4
	case 'U':
		width = 8
	default:
		if s[i+1] < '0' || s[i+1] > '7' {
			return false
		}
		base, width, j = 8, 4, i+1 // \073, and echo -e's \0073
	}
	v := 0
	for k := 0; k < width && j < len(s); k, j = k+1, j+1 {
		d := strings.IndexByte("0123456789abcdef", s[j]|0x20)
		if d < 0 || d >= base {
			break
		}
		v = v*base + d
	}
	return v < 128 && (isBlindSeparator[v] || v == '$')
}

// double reads s[i] inside "…" or an unquoted here-document's body.
func (l *shellLexer) double(i int) int {
	c := l.s[i]
	l.markData(i)
	switch c {
	case '\\':
		if i+1 < len(l.s) && l.s[i+1] == '`' && l.backtickIndex() > 0 {
			l.escapedBacktick(i)
		}
		if i+1 < len(l.s) {
			return i + 1
		}
	case '"':
		if l.top().kind == frameDouble {
			l.pop()
		}
	case '`':
		l.backtick(i)
	case '$':
		return l.dollar(i)
	}
	return i
}

// backtick opens a command substitution by backquotes, or closes the open one.
func (l *shellLexer) backtick(i int) {
	l.mark(i)
	if l.backtickIndex() > 0 {
		l.closeBacktick(i)
		return
	}
	l.push(frameBacktick)
}

// escapedBacktick reads \` at s[i] inside backquotes: bash reads the substitution's text again,
// where it is a backquote: it closes a substitution a \` opened, or opens one inside.
func (l *shellLexer) escapedBacktick(i int) {
	l.mark(i + 1)
	if l.stack[l.backtickIndex()].escaped {
		l.closeBacktick(i + 1)
		return
	}
	l.push(frameBacktick)
	l.top().escaped = true
}

func (l *shellLexer) closeBacktick(i int) {
	l.mark(i)
	k := l.backtickIndex()
	l.stack = l.stack[:k]
}

// dollar reads a $ at s[i]: $( $(( ${ $' or a plain $. It returns the last byte consumed, or -1
// where the rest is read blind.
func (l *shellLexer) dollar(i int) int {
	s := l.s
	if i+1 >= len(s) {
		return i
	}
	inCode := l.top().kind != frameDouble && l.top().kind != frameHereBody
	switch s[i+1] {
	case '$':
		return i + 1 // $$, the shell's process id: the second $ begins nothing ($$'a' is $$ and 'a')
	case '(':
		l.mark(i)
		l.mark(i + 1)
		if i+2 < len(s) && s[i+2] == '(' {
			l.mark(i + 2)
			l.push(frameArith)
			return i + 2
		}
		l.pushSubstitution()
		return i + 1
	case '{':
		l.push(frameParam)
		// ${BASH_ALIASES[q]=…} assigns an alias: the rest is unknowable (shell_alias.go)
		l.blind = l.blind || strings.HasPrefix(s[i+2:], "BASH_ALIASES")
		return i + 1
	case '[':
		// $[1<<2] is arithmetic, its << no here-document; bash runs no command in it but a
		// substitution, so it marks no boundary (password: "x$[y]z;w" is one value). $(( is
		// marked: bash reads $((a) ) again as a substitution of a subshell.
		l.push(frameArith)
		l.top().bracket, l.top().cmdPos = true, false
		return i + 1
	case '\'':
		if inCode {
			l.push(frameANSI)
			return i + 1
		}
	case '"':
		if inCode {
			l.push(frameDouble)
			return i + 1
		}
	}
	return i
}

// code reads s[i] in a code frame (the top level, $( ), `…`, $(( )), ${…}); to is where the
// text read ends. It returns the last byte consumed, or -1 where the rest is read blind.
func (l *shellLexer) code(i, to int) int {
	switch c := l.s[i]; c {
	case ' ', '\t':
		l.endWord(i)
		return i
	case '\n':
		return l.newline(i, to)
	case ';', '&', '|':
		l.separator(i)
		return i
	case '<', '>':
		return l.redirection(i, to)
	case '(':
		return l.open(i)
	case ')':
		return l.closeParen(i)
	case '`':
		l.beginWord(i) // `date`#x is one word: its # no comment
		l.backtick(i)
		return i
	case '#':
		if j := l.comment(i, to); j >= 0 {
			return j
		}
	case '{', '}':
		if l.paramBrace(c) {
			return i
		}
	case '[', ']':
		if l.arithBracket(c) {
			return i
		}
	}
	return l.wordByte(i)
}

// newline ends a command (in ${…}, nothing) and starts the bodies of the here-documents its line
// opened.
func (l *shellLexer) newline(i, to int) int {
	f := l.top()
	l.markCode(i)
	l.endWord(i)
	l.endCommand()
	if len(l.heredocs) > 0 && f.redirects() {
		return l.heredocBodies(i+1, to)
	}
	return i
}

// separator reads ; & or |: a command's end, unless it is part of a redirection (>&2, &>f).
func (l *shellLexer) separator(i int) {
	s, f := l.s, l.top()
	l.markCode(i)
	redirection := s[i] == '&' && (i > 0 && (s[i-1] == '>' || s[i-1] == '<') || i+1 < len(s) && s[i+1] == '>')
	l.endWord(i)
	if !redirection && f.kind != frameParam {
		l.endCommand()
	}
}

// comment skips a comment starting at s[i], if one does (a # that begins a word where commands
// are read), to the byte before the newline that ends it; -1 if none does.
func (l *shellLexer) comment(i, to int) int {
	f := l.top()
	if f.inWord || f.kind != frameCode && f.kind != frameBacktick {
		return -1
	}
	if j := strings.IndexByte(l.s[i:to], '\n'); j >= 0 {
		return i + j - 1 // the newline ends the command as any other
	}
	return to - 1
}

// paramBrace reads { or } in ${…}: a nested brace, or the end of the expansion (true: consumed).
func (l *shellLexer) paramBrace(c byte) bool {
	f := l.top()
	switch {
	case f.kind != frameParam:
	case c == '{':
		f.nested++
	case f.nested == 0:
		l.pop()
		return true
	default:
		f.nested--
	}
	return false
}

// arithBracket reads [ or ] in $[…]: a nested bracket (a[1]), or the end of the expansion
// (true: consumed).
func (l *shellLexer) arithBracket(c byte) bool {
	f := l.top()
	switch {
	case f.kind != frameArith || !f.bracket:
	case c == '[':
		f.brackets++
	case f.brackets == 0:
		l.pop()
		return true
	default:
		f.brackets--
	}
	return false
}

// wordByte reads a byte of a word in a code frame: an escape (a line continuation among them,
// which bash removes), a quote's opening, a $ expansion or a plain byte.
func (l *shellLexer) wordByte(i int) int {
	s, f := l.s, l.top()
	if s[i] == '\\' && i+1 < len(s) && s[i+1] == '\n' && !f.inWord {
		return i + 1 // a line continuation between words begins none: a # after it is a comment
	}
	l.beginWord(i)
	switch s[i] {
	case '\\':
		if i+1 < len(s) && s[i+1] == '`' && l.backtickIndex() > 0 {
			l.escapedBacktick(i)
		}
		if i+1 < len(s) {
			return i + 1 // an escaped byte, or a line continuation: the word goes on
		}
	case '\'':
		if f.kind == frameParam && f.inDouble {
			return -1 // "${x:-'…'}" is literal, "${x#'…'}" a quote: bash decides by operator
		}
		l.push(frameSingle)
	case '"':
		l.push(frameDouble)
	case '$':
		return l.dollar(i)
	}
	return i
}

// beginWord notes the start of a word at s[i] in the top code frame: a command's first word
// unless it is an assignment (NAME=, NAME+=, NAME[i]=) or a redirection's file.
func (l *shellLexer) beginWord(i int) {
	f := l.top()
	if f.inWord {
		return
	}
	f.inWord, f.wordStart, f.cmdWord = true, i, false
	switch {
	case f.redirTarget:
		f.redirTarget = false
		// kubectl apply -f - <<< '{…"command":[…]}': a here-string's word is an argument too
		if f.dataArgs {
			found := keyedScript(l.s, i, i)
			f.dataArgs = found == argData
			if found == argScript {
				l.rereadRest(f)
			}
		}
	case f.data.on && !f.cmdPos:
		var script bool
		if f.dataArgs, script = f.data.arg(l.s, i); script {
			l.rereadRest(f)
		}
	case f.cmdPos && f.kind != frameParam:
		if assignmentAt(l.s, i) || f.options && l.s[i] == '-' {
			return // env A=1 -i rm: the command is still to come
		}
		f.cmdWord, f.cmdPos, f.options = true, f.nameNext, false
		f.nameNext = false // function f { …: f is marked as a command's name too, harmlessly
		l.markCommand(i)
	}
}

// assignmentAt reports whether s[i:] begins with NAME=, NAME+= or NAME[…]=.
func assignmentAt(s string, i int) bool {
	j := i
	for j < len(s) && (isWordByte(s[j])) {
		j++
	}
	if j == i || '0' <= s[i] && s[i] <= '9' {
		return false
	}
	if j < len(s) && s[j] == '[' {
		j = subscriptEnd(s, j)
		if j < 0 {
			return false
		}
	}
	if j < len(s) && s[j] == '+' {
		j++
	}
	return j < len(s) && s[j] == '='
}

// subscriptEnd is the index after the ] that closes NAME[ at s[j], or -1: it looks no further
// than the word's end (a blank, a newline or a separator), so that a text of lines "a[" costs
// its length, not its square.
func subscriptEnd(s string, j int) int {
	for k := j + 1; k < len(s); k++ {
		switch c := s[k]; {
		case c == ']':
			return k + 1
		case c == ' ' || c == '\t' || isBlindSeparator[c]:
			return -1
		}
	}
	return -1
}

// endWord ends the word being read in the top code frame at s[i], and reads it: a reserved word
// keeps the next word a command's first, case and esac open and close a case, an alias's use
// makes the rest of the text unknowable (shell_alias.go), and a shell that reads its arguments again marks the rest of the
// command blind.
func (l *shellLexer) endWord(i int) {
	f := l.top()
	if !f.inWord {
		return
	}
	f.inWord = false
	w, cmd := l.s[f.wordStart:i], f.cmdWord
	if !f.cmdWord && w == "]]" {
		f.cond = false // [[ … ]] 3<<< '…': a redirection again
	}
	if !f.cmdWord && f.settings != 0 {
		l.setting(f, w)
	}
	if !f.cmdWord && f.cmdPos && assignsAlias(w) {
		l.blind = true
	}
	if f.cmdWord {
		f.cmdWord = false
		name := plainName(w)
		if l.aliases[name] {
			l.blind = true // a defined alias in command position may expand to anything: read the rest blind
		}
		switch w {
		case "then", "do", "else", "elif", "if", "while", "until", "!", "{", "}", wordTime, "in", wordEnv:
			f.cmdPos = w != "in" // for x in …: its words are no commands
			f.options = w == wordTime || w == wordEnv
		case "function", "coproc":
			f.cmdPos, f.nameNext = true, true
		case "case":
			f.cases++
		case "esac":
			f.cases = max(f.cases-1, 0)
		default:
			l.commandSettings(f, w, name)
			f.exec = name == wordExec
			f.cond = w == "[[" // as written: "[[" runs a command (a function) of that name
			f.data = newDataReading(name)
			f.dataArgs = f.data.on
		}
	}
	if rereadsCommand(l.s, i, w, cmd) {
		l.rereadRest(f)
	}
}

// rereadRest reads the rest of the command in frame f blind, as another shell reads it again
// (bash -c '…', a data program's script): quotes inside it hide no separator.
func (l *shellLexer) rereadRest(f *shellFrame) {
	if !f.reread {
		f.reread = true
		l.reread = blindMarker{}
	}
}

// endCommand ends the command read in the top code frame: the next word is a command's first.
func (l *shellLexer) endCommand() {
	f := l.top()
	f.cmdPos, f.redirTarget, f.reread, f.options, f.nameNext = true, false, false, false, false
	f.settings, f.dataArgs, f.data, f.exec, f.cond = 0, false, dataReading{}, false, false
}

// redirection reads a < or > at s[i] in a code frame: a process substitution <( >(, a
// here-document's operator and delimiter, or another redirection, whose next word is its file.
// It returns the last byte consumed, or -1 where the rest is read blind.
func (l *shellLexer) redirection(i, to int) int {
	s, f := l.s, l.top()
	l.markCode(i)
	if i+1 < len(s) && s[i+1] == '(' {
		l.mark(i)
		l.mark(i + 1)
		if f.kind == frameCode || f.kind == frameBacktick {
			l.beginWord(i) // <(…)#x is one word: its # no comment
		}
		l.pushSubstitution() // <(…) and >(…), also inside a word: -px>(cmd)
		return i + 1
	}
	l.descriptor(i)
	if !f.redirects() {
		return i
	}
	j := i + 1
	for j < len(s) && (s[j] == '<' || s[j] == '>' || s[j] == '&' || s[j] == '|' || s[j] == '-') && j-i < 3 {
		l.mark(j)
		j++
	}
	op := s[i:j]
	f.redirTarget = true
	if s[i] == '<' && (op == "<<" || op == heredocStrip) {
		f.redirTarget = false
		return l.heredocOperator(j, to, op == heredocStrip)
	}
	return j - 1
}

// descriptor ends the word before the redirection at s[i], its descriptor if it is one (2>err:
// no command), and notes a descriptor filled for later commands (fillsDescriptor).
func (l *shellLexer) descriptor(i int) {
	s, f := l.s, l.top()
	fd := f.inWord && f.cmdWord && allDigits(s[f.wordStart:i])
	if s[i] == '<' && f.redirects() && !f.cond && (f.exec || f.inWord && filledDescriptor(s[f.wordStart:i])) {
		l.fillsDescriptor = true // exec <<< '…', 3<<< '…': a later bash /dev/fd/3 or . x may run it
	}
	l.endWord(i)
	if fd {
		f.cmdPos = true
	}
}

// filledDescriptor reports whether w, written right before <, names a descriptor other than
// the standard input (3<<<, {fd}<): a command other than the one it is written on (a later one,
// one in a group) may read it as its script, through a path no operand check knows.
func filledDescriptor(w string) bool {
	return descriptorWord(w) && strings.TrimLeft(w, "0") != ""
}

func allDigits(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return w != ""
}

// open reads a ( in a code frame: an arithmetic command (( at a command's start, or a subshell,
// a function's parentheses or an array's.
func (l *shellLexer) open(i int) int {
	s, f := l.s, l.top()
	if f.kind == frameCode && f.inWord && !f.cmdWord && i > 0 && s[i-1] == '=' && assignmentAt(s, f.wordStart) {
		f.arrays++ // NAME=(…): an array's words, no subshell
		f.nested++
		return i
	}
	l.markCode(i)
	l.endWord(i)
	switch {
	case f.kind == frameParam:
	case f.kind == frameCode && f.cmdPos && i+1 < len(s) && s[i+1] == '(':
		l.mark(i + 1)
		l.push(frameArith)
		return i + 1
	default:
		f.nested++
		f.cmdPos = true
	}
	return i
}

// closeParen reads a ) in a code frame: it closes a ( of the frame, a case pattern, $(( )) or
// (( )), or the frame itself.
func (l *shellLexer) closeParen(i int) int {
	s, f := l.s, l.top()
	if f.arrays > 0 && f.nested == f.arrays {
		f.arrays--
		f.nested--
		return i
	}
	l.markCode(i)
	l.endWord(i)
	switch {
	case f.kind == frameParam:
	case f.nested > 0:
		f.nested--
	case f.kind == frameArith:
		if i+1 < len(s) && s[i+1] == ')' {
			l.mark(i + 1)
			l.pop()
			return i + 1
		}
	case f.cases > 0:
		f.cmdPos = true // a case pattern's end: its commands follow
	case f.closes:
		l.pop()
	}
	return i
}
