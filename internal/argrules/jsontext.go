package argrules

import (
	"encoding/json"
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
// it (jsonTextBelow).
func JSONText(s string) (v any, ok bool) {
	t := strings.TrimFunc(s, trimmable)
	if t == "" || (t[0] != '[' && t[0] != '{') {
		return nil, false
	}
	return v, json.Unmarshal([]byte(t), &v) == nil
}

// trimmable is space that a tool trimming a string before it decodes it removes: Go's
// unicode.IsSpace (JSON's space, \v, \f, U+0085, the no-break space, the Unicode separators), the
// byte-order mark JavaScript's trim() removes too, and the separators U+001C to U+001F Python's
// strip() does.
func trimmable(r rune) bool {
	return unicode.IsSpace(r) || r == '\ufeff' || (r >= 0x1c && r <= 0x1f)
}
