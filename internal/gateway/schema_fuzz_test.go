package gateway

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzToolSchemaArguments: any schema is read without panicking, within the node bound, and any
// arguments it admits unchanged or with defaults written in are still one JSON object holding
// every key they held, each as it was, and each default the schema always applies.
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
	f.Fuzz(func(t *testing.T, schemaText, args string) {
		var schema any
		if json.Unmarshal([]byte(schemaText), &schema) != nil {
			return
		}
		r := &schemaReader{root: schema}
		r.read(schema, 0, []string{"#"})
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
		for key, v := range before {
			if string(after[key]) != string(v) {
				t.Fatalf("arguments(%s) = %s: %q changed", args, out, key)
			}
		}
		for _, d := range s.defaults {
			if _, ok := after[d.key]; !ok {
				t.Fatalf("arguments(%s) = %s: the default of %q missing", args, out, d.key)
			}
		}
	})
}
