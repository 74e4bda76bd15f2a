package ledger

import "strings"

// shellGuard holds the shell mask (shellMask) of the text being redacted, in the coordinates of
// the text as the rules have changed it so far: each rule's replacements are spliced in (a
// marker's bytes are never marked), so every rule's match is judged by the original text's
// reading, and one rule's marker (which may swallow a quote) cannot change how the next rule's
// match is read. The mask is taken only when a rule first wants to replace something.
type shellGuard struct {
	text   string // the text as the rules have changed it so far
	danger []byte // its mask (maskCommand, maskBoundary); nil until first needed
	spare  []byte
	edits  []guardEdit
}

// guardEdit is one replacement of text[start:end] by size bytes.
type guardEdit struct{ start, end, size int }

func newShellGuard(s string) *shellGuard { return &shellGuard{text: s} }

// newArgsGuard is the guard of a string of arguments that follow a program given apart: its
// first word is no command's.
func newArgsGuard(s string) *shellGuard {
	return &shellGuard{text: s, danger: shellMask(s, true)}
}

// cut returns where a replacement of text[start:end] must end: before the first byte the mask
// marks as a boundary, or, at level maskCommand (a value found by its name), as a command's start
// after start; with dataSeps (a value found by its name that is not quoted itself: 'a;b', "a;b",
// whose quotes a shell reading the data again reads too), also before a separator in quoted data
// (echo 'PASSWORD=x;rm -rf /data' > x.sh writes a command). It returns start itself (nothing is hidden) when the value was taken across a
// boundary, text[gap:start] being what lies between a credential's name and its value
// (password:<newline>rm -rf /data), or, at level maskCommand, when the value is a command's
// first word (PASSWORD= rm -rf /data runs rm). A provider's token shape is cut only at a
// boundary: a whole value that is one token is a command's first word too.
func (g *shellGuard) cut(gap, start, end int, level byte, dataSeps bool) int {
	g.take()
	for i := gap; i < start; i++ {
		if g.danger[i] == maskBoundary {
			return start
		}
	}
	for i := start; i < end; i++ {
		switch d := g.danger[i]; {
		case d == maskBoundary, d == maskQuoted && dataSeps, d == maskCommand && level == maskCommand:
			return i
		case d == maskDataSubst && !singleQuotedAt(g.text, start):
			return i // 'a`b`c' is data however often it is read; "`b`" in 'PASSWORD="`b`"' is not
		}
	}
	return end
}

// ownQuotes reports whether the value at s[start:] opens its own quotes, or is read inside
// quotes opened right before it (sshpass -p 'a;b': the scan leaves the quote outside the marker).
func ownQuotes(s string, start int) bool {
	isQuote := func(c byte) bool { return c == '"' || c == '\'' }
	opens := func(c byte) bool { return c == '\\' || c == '$' } // \"x\" in a JSON text, $'…', $"…"
	return start < len(s) && (isQuote(s[start]) || opens(s[start]) && start+1 < len(s) && isQuote(s[start+1])) ||
		start > 0 && isQuote(s[start-1])
}

// singleQuotedAt reports whether the value at s[start:] is in single quotes of its own ('…',
// $'…'), opened at its start or right before it.
func singleQuotedAt(s string, start int) bool {
	return start < len(s) && (s[start] == '\'' || s[start] == '$' && start+1 < len(s) && s[start+1] == '\'') ||
		start > 0 && s[start-1] == '\''
}

// valueGap is where the text before a value at s[start:] that separates it from its name begins:
// blanks, newlines, = and :, quotes and backslashes, no further back than from.
func valueGap(s string, from, start int) int {
	for start > from && strings.IndexByte(" \t\r\n\v\f=:\"'\\", s[start-1]) >= 0 {
		start--
	}
	return start
}

// take reads the text's mask, if it was not read yet: before any replacement.
func (g *shellGuard) take() {
	if g.danger == nil {
		g.danger = shellMask(g.text, false)
	}
}

// replaced notes that text[start:end] was replaced by size bytes; edits come in order.
func (g *shellGuard) replaced(start, end, size int) {
	g.edits = append(g.edits, guardEdit{start, end, size})
}

// commit makes out, the text with the noted replacements made, the guard's text.
func (g *shellGuard) commit(out string) {
	if len(g.edits) > 0 {
		g.take()
		danger := g.spare[:0] // the mask before the last commit: one buffer each way
		if cap(danger) < len(out) {
			danger = make([]byte, 0, len(out)+len(out)/8)
		}
		last := 0
		for _, e := range g.edits {
			danger = append(danger, g.danger[last:e.start]...)
			for range e.size {
				danger = append(danger, 0)
			}
			last = e.end
		}
		g.danger, g.spare = append(danger, g.danger[last:]...), g.danger
	}
	g.edits = g.edits[:0]
	g.text = out
}

// keyShaped reports whether a private key's match is a key and nothing else: its BEGIN line,
// then lines of base64, of a PEM header (Proc-Type: 4,ENCRYPTED) or empty, and its END line if
// it has one. bash would read each line as a command; a key is replaced whole all the same (a
// program named like a line of base64 is one the agent made first, in a command the record
// keeps), but a match that holds anything else is cut at the shell's first boundary.
func keyShaped(m string) bool {
	lines := strings.Split(m, "\n")
	if len(lines) > 1 && !pemBody(lines) {
		return false
	}
	for k, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		switch {
		case k == 0 && strings.HasPrefix(line, "-----BEGIN") && strings.HasSuffix(line, "-----"),
			k == len(lines)-1 && strings.HasPrefix(line, "-----END") && strings.HasSuffix(line, "-----"),
			k == 0 && isBase64Line(line), k > 0 && (isBase64Line(line) || pemHeaderLine(line)):
		default:
			return false
		}
	}
	return true
}

// isBase64Line is a line of [A-Za-z0-9+/] and = padding, or an empty one.
func isBase64Line(line string) bool {
	line = strings.TrimRight(line, "=")
	for i := 0; i < len(line); i++ {
		if !isBase64Byte(line[i]) {
			return false
		}
	}
	return true
}

// pemHeaderLine is an encrypted PEM's header line: Proc-Type: 4,ENCRYPTED, DEK-Info: AES-…,IV.
func pemHeaderLine(line string) bool {
	name, value, ok := strings.Cut(line, ": ")
	if !ok || name == "" || strings.ContainsAny(value, ";&|<>()`$'\"\\ \t") {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !isLetter(name[i]) && name[i] != '-' {
			return false
		}
	}
	return true
}

// pemBody reports whether a PEM block's lines (its BEGIN line first) hold a key's body: every
// line but the last of 60 columns or more (64 in PKCS#1 and #8, 70 in OpenSSH's), headers apart,
// and no shorter line that is a path (/tmp/x: -----BEGIN … KEY-----<newline>/tmp/x runs it).
func pemBody(lines []string) bool {
	var body []string
	for _, line := range lines[1:] {
		line = strings.TrimSuffix(line, "\r")
		if line == "" || pemHeaderLine(line) || strings.HasPrefix(line, "-----END") {
			continue
		}
		body = append(body, line)
	}
	for k, line := range body {
		short := len(line) < 60
		if short && k < len(body)-1 || short && strings.HasPrefix(line, "/") && strings.Contains(line[1:], "/") {
			return false
		}
	}
	return true
}
