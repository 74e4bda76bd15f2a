package gateway

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzToolSchemaArguments: any schema is read without panicking, within the node bound, and any
// arguments it admits unchanged or with defaults written in are still one JSON object holding
// every key they held at every depth, each scalar as it was, and each default the schema always
// applies.
func FuzzToolSchemaArguments(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "schemas", "*.json"))
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(text), `{"op":"read"}`)
		f.Add(string(text), `{}`)
	}
	f.Add(`{"type":"object","$ref":"#","allOf":[{"$ref":"#/allOf/0"}]}`, `{"a":1}`)
	f.Add(`{"type":"object","properties":{"a":{"$ref":"#"},"b":{"default":1},"c":{"items":{"$ref":"#"}}}}`, `{"a":{"c":[{}]}}`)
	f.Add(`{"type":"object","properties":{"o":{"oneOf":[{"properties":{"k":{"const":1},"d":{"default":1}}},{"properties":{"d":{"default":2}}}]}}}`,
		`{"o":{"k":1}}`)
	f.Fuzz(func(t *testing.T, schemaText, args string) {
		var schema any
		if json.Unmarshal([]byte(schemaText), &schema) != nil {
			return
		}
		r := &schemaReader{root: schema}
		r.read(schema, 0, "#", []string{"#"})
		if r.nodes > maxSchemaNodes {
			t.Fatalf("read %d nodes", r.nodes)
		}
		s := readToolSchema(schema)
		var before map[string]json.RawMessage
		if json.Unmarshal([]byte(args), &before) != nil || before == nil {
			return
		}
		out, err := s.arguments(json.RawMessage(args), "t")
		if err != nil {
			return
		}
		var after map[string]json.RawMessage
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("arguments(%s) = %s, not an object: %v", args, out, err)
		}
		var was, is any
		if json.Unmarshal([]byte(args), &was) == nil && json.Unmarshal(out, &is) == nil && !holds(is, was) {
			t.Fatalf("arguments(%s) = %s: a value changed", args, out)
		}
		for _, d := range s.defaults {
			if _, ok := after[d.key]; !ok {
				t.Fatalf("arguments(%s) = %s: the default of %q missing", args, out, d.key)
			}
		}
	})
}

// holds says whether is, arguments with defaults written in, holds every member of was, the
// arguments as sent, at every depth, each scalar as it was.
func holds(is, was any) bool {
	switch was := was.(type) {
	case map[string]any:
		m, ok := is.(map[string]any)
		if !ok {
			return false
		}
		for key, v := range was {
			if w, found := m[key]; !found || !holds(w, v) {
				return false
			}
		}
		return true
	case []any:
		a, ok := is.([]any)
		if !ok || len(a) != len(was) {
			return false
		}
		for i := range was {
			if !holds(a[i], was[i]) {
				return false
			}
		}
		return true
	}
	return string(canonical(is)) == string(canonical(was))
}
