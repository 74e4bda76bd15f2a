package gateway

import (
	"encoding/json"
	"testing"
)

// TestUndeclaredArgumentsAreRefusedWhereTheSchemaListsItsOwn: a schema that declares its
// properties, and no more (additionalProperties absent or false), takes only those keys; one that
// declares none, takes any (true or a schema) or matches keys by pattern takes any key.
func TestUndeclaredArgumentsAreRefusedWhereTheSchemaListsItsOwn(t *testing.T) {
	schema := func(s string) any {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	strict := readToolSchema(schema(`{"type":"object","properties":{"file":{},"mode":{}}}`))
	for args, refused := range map[string]bool{
		`{"file":"a"}`: false, `{"file":"a","mode":"r"}`: false, `{}`: false, `null`: false, ``: false,
		`{"file":"a","path":".env"}`: true, `{"File":"a"}`: true, `{"fil\u0065":"a","x":1}`: true,
		`["a"]`: false, // no object: toolcall.Build refuses it
	} {
		if _, err := strict.arguments(json.RawMessage(args), "t"); (err != nil) != refused {
			t.Errorf("undeclared(%s) = %v, want refused %v", args, err, refused)
		}
	}
	for _, s := range []string{
		`{"type":"object"}`,
		`{"type":"object","properties":{"file":{}},"additionalProperties":true}`,
		`{"type":"object","properties":{"file":{}},"additionalProperties":{"type":"string"}}`,
		`{"type":"object","properties":{"file":{}},"patternProperties":{"^x":{}}}`,
	} {
		if d := readToolSchema(schema(s)).declared; d != nil {
			t.Errorf("schemaProperties(%s) = %v, want any key taken", s, d)
		}
	}
	if d := readToolSchema(schema(`{"properties":{"file":{}},"additionalProperties":false}`)).declared; !d["file"] || len(d) != 1 {
		t.Errorf("additionalProperties false: %v, want file alone", d)
	}
}
