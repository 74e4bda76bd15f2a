package argrules

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"unicode"
)

// JSONText is the array or object that s holds as JSON text (space around it allowed, as a tool
// that trims the string first removes it: trimmable), which a tool may decode and take in the
// string's place: the Python MCP SDK's servers do, for any
// argument not typed as a plain string (FuncMetadata.pre_parse_json, since models often send a
// list or an object as JSON text), and so do tools that json.loads what they are given. ok is
// false for any other string, a scalar's text included ("1", "true", "\"x\""), which such a tool
// keeps as it is. pkg/toolcall refuses it as a command, a working directory or a path's other
// than a list of strings; argument rules refuse it where a rule reads a key or an element below
// it (jsonTextBelow). Text that Python's json.loads decodes and Go's encoding/json does not
// (pythonJSON) is JSON text too.
func JSONText(s string) (v any, ok bool) {
	t := strings.TrimFunc(s, trimmable)
	if t == "" || (t[0] != '[' && t[0] != '{') {
		return nil, false
	}
	if json.Unmarshal([]byte(t), &v) == nil {
		return v, true
	}
	return pythonJSON(t)
}

// pythonJSON decodes t as Python's json.loads does where it takes more than RFC 8259: NaN,
// Infinity and -Infinity as numbers (read here as 0), and numbers past float64's range (1e400,
// an integer of 400 digits), kept as json.Number. Either made Go's decoder refuse text that a
// Python tool decodes and reads keys from.
func pythonJSON(t string) (v any, ok bool) {
	dec := json.NewDecoder(strings.NewReader(withoutNonFinite(t)))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return nil, false
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, false // something after the value, which json.loads refuses ("Extra data")
	}
	return v, true
}

// withoutNonFinite is t with each NaN and Infinity outside its strings written 0 (-Infinity so
// -0): the constants Python's json.loads takes for numbers.
func withoutNonFinite(t string) string {
	if !strings.Contains(t, "NaN") && !strings.Contains(t, "Infinity") {
		return t
	}
	var b strings.Builder
	b.Grow(len(t))
	inString, escaped := false, false
	for i := 0; i < len(t); i++ {
		c := t[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			b.WriteByte(c)
			continue
		}
		if c == '"' {
			inString = true
		}
		if word, found := nonFiniteAt(t[i:]); found {
			b.WriteByte('0')
			i += len(word) - 1
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// nonFiniteAt is the constant of Python's json.loads that s starts with, if any.
func nonFiniteAt(s string) (string, bool) {
	for _, word := range []string{"NaN", "Infinity"} {
		if strings.HasPrefix(s, word) {
			return word, true
		}
	}
	return "", false
}

// trimmable is space that a tool trimming a string before it decodes it removes: Go's
// unicode.IsSpace (JSON's space, \v, \f, U+0085, the no-break space, the Unicode separators), the
// byte-order mark JavaScript's trim() removes too, and the separators U+001C to U+001F Python's
// strip() does.
func trimmable(r rune) bool {
	return unicode.IsSpace(r) || r == '\ufeff' || (r >= 0x1c && r <= 0x1f)
}
