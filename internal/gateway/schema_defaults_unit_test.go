package gateway

import (
	"encoding/json"
	"testing"
)

// TestWithDefaultsWritesInWhatTheArgumentsLeaveOut: each default the schema declares is written
// into arguments that leave its key out (none, null, {}, or other keys), never over a key they
// name (spelled with escapes too, or null); arguments that are no single JSON object, and a schema
// with no defaults, leave the arguments as they came. A null default is none.
func TestWithDefaultsWritesInWhatTheArgumentsLeaveOut(t *testing.T) {
	defaults := readToolSchema(map[string]any{"type": "object", "properties": map[string]any{
		"path":  map[string]any{"type": "string", "default": ".env"},
		"cwd":   map[string]any{"type": "string", "default": "/"},
		"other": map[string]any{"type": "string"},
		// pydantic's optional parameter (x: str | None = None): no value to write in.
		"optional": map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "null"}}, "default": nil},
	}})
	cases := []struct{ args, want string }{
		{"", `{"cwd":"/","path":".env"}`},
		{"null", `{"cwd":"/","path":".env"}`},
		{" {} ", `{"cwd":"/","path":".env"}`},
		{`{"other":"x"}`, `{"other":"x","cwd":"/","path":".env"}`},
		{`{"path":"notes.txt"}`, `{"path":"notes.txt","cwd":"/"}`},
		{`{"p\u0061th":"notes.txt","cwd":null}`, `{"p\u0061th":"notes.txt","cwd":null}`},
		{`["a"]`, `["a"]`},
		{`{"path":"a"} {"b":1}`, `{"path":"a"} {"b":1}`},
		{`{"path":`, `{"path":`},
	}
	for _, c := range cases {
		if got, err := defaults.arguments(json.RawMessage(c.args), "t"); string(got) != c.want || err != nil {
			t.Errorf("arguments(%s) = %s, %v; want %s", c.args, got, err, c.want)
		}
		none := readToolSchema(map[string]any{"type": "object"})
		if got, err := none.arguments(json.RawMessage(c.args), "t"); string(got) != c.args || err != nil {
			t.Errorf("arguments(%s) without defaults = %s, %v; want them unchanged", c.args, got, err)
		}
	}
	for _, schema := range []any{nil, "not a schema", map[string]any{"properties": []any{1}}} {
		if d := readToolSchema(schema).defaults; d != nil {
			t.Errorf("readToolSchema(%v).defaults = %v, want none", schema, d)
		}
	}
}
