package policy

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Text the agent controls (a call's command, paths, working directory, step, extra arguments)
// reaches people: in the approval command a denial hands on, in denial messages, Events and
// conditions, in the gateway's and the hook's answers that Claude Code shows in a terminal, and in
// what kubectl toolgate prints. A person must see what the text is. Terminal escape sequences,
// carriage returns and backspaces can rewrite or hide what was printed before them; bidi overrides
// reorder it ("Trojan Source"); zero-width and format characters, non-ASCII spaces and line
// separators hide what is there. ShellQuote (exact, for a shell) and Visible (for reading) write
// every such character as an escape instead.

// visibleRune reports whether r shows as itself: printable (unicode.IsPrint: letters, marks,
// numbers, punctuation, symbols and the ASCII space) and not one of the characters that
// IsPrint admits but a terminal draws as nothing (the Hangul fillers, the combining grapheme
// joiner, variation selectors and the rest of Other_Default_Ignorable_Code_Point).
func visibleRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 0x20 && r < 0x7f
	}
	return unicode.IsPrint(r) && !unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}

// plainlyVisible reports whether s is valid UTF-8 whose every rune shows as itself.
func plainlyVisible(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf {
			return plainlyVisibleRunes(s[i:])
		} else if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

func plainlyVisibleRunes(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || !visibleRune(r) {
			return false
		}
		i += size
	}
	return true
}

// Visible returns s as a person should read it: s itself when every character shows as itself,
// otherwise s with each character that does not written as an escape: \n, \r, \t, \xHH for the
// other ASCII controls, DEL and each byte that is not UTF-8, \uHHHH or \UHHHHHHHH for every other
// rune that is not printable (C1 controls, bidi overrides and isolates, zero-width and other format
// characters, non-ASCII spaces, line and paragraph separators). It is for reading, not for parsing:
// a backslash in s stays as it is, so use ShellQuote where the exact text must be recovered. It
// costs one scan of s when nothing needs escaping, so it can wrap any message on its way out.
func Visible(s string) string {
	if plainlyVisible(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	writeEscaped(&b, s, false)
	return b.String()
}

// VisibleQuote is strconv.Quote with the same idea of visible as Visible: a double-quoted Go
// string literal whose every rune shows as itself.
func VisibleQuote(s string) string {
	q := strconv.Quote(s)
	if plainlyVisible(q) {
		return q
	}
	return Visible(q) // the few runes IsPrint admits but visibleRune does not
}

// writeEscaped writes s to b, escaping every byte or rune that does not show as itself. With
// shell, it writes the body of an ANSI-C quoted word ($'...'): backslash and single quote are
// escaped too, and \e and the other one-letter escapes of bash are used.
func writeEscaped(b *strings.Builder, s string, shell bool) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			writeHex(b, `\x`, uint32(s[i]), 2)
		case shell && (r == '\\' || r == '\''):
			b.WriteByte('\\')
			b.WriteRune(r)
		case visibleRune(r):
			b.WriteString(s[i : i+size])
		case r < utf8.RuneSelf:
			writeControl(b, byte(r), shell)
		case r <= 0xffff:
			writeHex(b, `\u`, uint32(r), 4)
		default:
			writeHex(b, `\U`, uint32(r), 8)
		}
		i += size
	}
}

// writeControl writes an ASCII control character or DEL as an escape.
func writeControl(b *strings.Builder, c byte, shell bool) {
	switch c {
	case '\n':
		b.WriteString(`\n`)
	case '\t':
		b.WriteString(`\t`)
	case '\r':
		b.WriteString(`\r`)
	default:
		if e := shellEscapes[c]; shell && e != "" {
			b.WriteString(e)
			return
		}
		writeHex(b, `\x`, uint32(c), 2)
	}
}

// shellEscapes are the one-letter escapes of $'...' beyond \n, \t and \r.
var shellEscapes = map[byte]string{0x1b: `\e`, '\a': `\a`, '\b': `\b`, '\f': `\f`, '\v': `\v`}

// writeHex writes prefix and v in exactly digits upper-case hex digits.
func writeHex(b *strings.Builder, prefix string, v uint32, digits int) {
	const hex = "0123456789ABCDEF"
	b.WriteString(prefix)
	for shift := 4 * (digits - 1); shift >= 0; shift -= 4 {
		b.WriteByte(hex[v>>uint(shift)&0xf])
	}
}

// VisibleJSON returns a compact JSON document (one line, such as a ledger record, with at most a
// final newline) with every character that would not show as itself written
// as a JSON escape: \u00XX for a control character or DEL, \uXXXX (a surrogate pair above U+FFFF)
// for a C1 control, a bidi override, a zero-width or other format character, a non-ASCII space or
// a line separator, and \uFFFD for a byte that is not UTF-8 (what a JSON decoder reads it as). In
// compact JSON such characters occur only inside strings, so the result decodes to the same values.
// It returns b itself when nothing needs escaping. encoding/json escapes the controls below 0x20,
// but not DEL, the C1 controls or the bidi and zero-width characters.
func VisibleJSON(b []byte) []byte {
	if plainlyVisibleJSON(b) {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, `\uFFFD`...)
		case visibleRune(r) || r == '\n' && i == len(b)-1:
			out = append(out, b[i:i+size]...)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			out = appendJSONEscape(appendJSONEscape(out, r1), r2)
		default:
			out = appendJSONEscape(out, r)
		}
		i += size
	}
	return out
}

// plainlyVisibleJSON is plainlyVisible for a JSON line, which may end in a newline.
func plainlyVisibleJSON(b []byte) bool {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	for i, c := range b {
		if c >= utf8.RuneSelf {
			return plainlyVisibleRunes(string(b[i:]))
		} else if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

func appendJSONEscape(out []byte, r rune) []byte {
	const hex = "0123456789ABCDEF"
	return append(out, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}
