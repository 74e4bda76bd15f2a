package argrules

import (
	"encoding/json"
	"strings"
)

// JSONText is the array or object that s holds as JSON text (space around it allowed), which a
// tool may decode and take in the string's place: the Python MCP SDK's servers do, for any
// argument not typed as a plain string (FuncMetadata.pre_parse_json, since models often send a
// list or an object as JSON text), and so do tools that json.loads what they are given. ok is
// false for any other string, a scalar's text included ("1", "true", "\"x\""), which such a tool
// keeps as it is. pkg/toolcall refuses it as a command, a working directory or a path's other
// than a list of strings; argument rules refuse it where a rule reads a key or an element below
// it (jsonTextBelow).
func JSONText(s string) (v any, ok bool) {
	t := strings.Trim(s, " \t\n\r")
	if t == "" || (t[0] != '[' && t[0] != '{') {
		return nil, false
	}
	return v, json.Unmarshal([]byte(t), &v) == nil
}
