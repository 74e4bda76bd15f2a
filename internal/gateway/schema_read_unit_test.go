package gateway

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// call is one call's arguments to a tool, and what the gateway makes of them: the arguments it
// judges and sends (want), or the refusal (refused, a part of its message).
type call struct{ args, want, refused string }

func decodedSchema(t *testing.T, text string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func checkCalls(t *testing.T, s toolSchema, calls []call) {
	t.Helper()
	for _, c := range calls {
		got, err := s.arguments(json.RawMessage(c.args), "t")
		switch {
		case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("arguments(%s) = %s, %v; want refused with %q", c.args, got, err, c.refused)
		case c.refused == "" && (err != nil || string(got) != c.want):
			t.Errorf("arguments(%s) = %s, %v; want %s", c.args, got, err, c.want)
		}
	}
}

// TestComposedSchemasAreReadWhole: for the schema each generator writes (testdata/schemas, see
// its README), the keys the gateway takes are those the whole composition declares, and the
// defaults it writes in are those the upstream applies to the call.
func TestComposedSchemasAreReadWhole(t *testing.T) {
	undeclared := func(key string) string { return fmt.Sprintf("does not declare the argument %q", key) }
	unsure := func(key string) string { return fmt.Sprintf("name %q in the call", key) }
	for _, c := range []struct {
		file     string
		declared []string // nil: any key
		calls    []call
	}{
		{"go_jsonschema_for.json", []string{"path", "recursive"}, []call{
			{args: `{"path":"a"}`, want: `{"path":"a"}`},
			{args: `{"path":"a","mode":1}`, refused: undeclared("mode")},
		}},
		// A tool without arguments that closes its object takes none.
		{"go_jsonschema_for_empty.json", []string{}, []call{
			{args: `{}`, want: `{}`},
			{args: ``, want: ``},
			{args: `{"path":".env"}`, refused: undeclared("path")},
		}},
		{"go_schema_ref.json", []string{"lines", "path"}, []call{
			{args: `{}`, want: `{"path":".env"}`},
			{args: `{"lines":3}`, want: `{"lines":3,"path":".env"}`},
			{args: `{"path":"notes.txt"}`, want: `{"path":"notes.txt"}`},
			{args: `{"file":"a"}`, refused: undeclared("file")},
		}},
		{"zod_intersection.json", []string{"encoding", "path"}, []call{
			{args: `{"encoding":"utf8"}`, want: `{"encoding":"utf8","path":".env"}`},
			{args: `{"path":"notes.txt","encoding":"utf8"}`, want: `{"path":"notes.txt","encoding":"utf8"}`},
			{args: `{"mode":"x"}`, refused: undeclared("mode")},
		}},
		{"zod_named_ref.json", []string{"lines", "path"}, []call{
			{args: `null`, want: `{"path":".env"}`},
			{args: `{"lines":1,"x":2}`, refused: undeclared("x")},
		}},
		// The discriminator rules a branch out: "read" takes .env by default, "list" no path.
		{"zod_discriminated_union.json", []string{"dir", "op", "path"}, []call{
			{args: `{"op":"read"}`, want: `{"op":"read","path":".env"}`},
			{args: `{"op":"re\u0061d"}`, want: `{"op":"re\u0061d","path":".env"}`},
			{args: `{"op":"read","path":"notes.txt"}`, want: `{"op":"read","path":"notes.txt"}`},
			{args: `{"op":"list","dir":"/tmp"}`, want: `{"op":"list","dir":"/tmp"}`},
			{args: `{"op":"write"}`, want: `{"op":"write"}`}, // matches neither: the upstream refuses it
			{args: `{}`, refused: unsure("path")},
			{args: `{"op":"read","file":"x"}`, refused: undeclared("file")},
		}},
		{"pydantic_discriminated_union.json", []string{"dir", "op", "path"}, []call{
			{args: `{"op":"read"}`, want: `{"op":"read","path":".env"}`},
			{args: `{"op":"list","dir":"."}`, want: `{"op":"list","dir":"."}`},
			{args: `{"dir":"."}`, refused: unsure("path")},
		}},
		// No discriminator, two defaults for path: which the upstream takes depends on the
		// branch pydantic picks. The call must name it.
		{"pydantic_union.json", []string{"path", "url"}, []call{
			{args: `{"url":"https://example.com"}`, refused: unsure("path")},
			{args: `{}`, refused: unsure("path")},
			{args: `{"url":"https://example.com","path":"notes.txt"}`, want: `{"url":"https://example.com","path":"notes.txt"}`},
		}},
		{"pydantic_inheritance.json", []string{"limit", "path"}, []call{
			{args: `{}`, want: `{"path":".env"}`},
			{args: `{"limit":null}`, want: `{"limit":null,"path":".env"}`},
			{args: `{"x":1}`, refused: undeclared("x")},
		}},
		// It declares nothing: any key, as before.
		{"fastmcp_no_arguments.json", nil, []call{
			{args: `{"x":1}`, want: `{"x":1}`},
		}},
		// The model's own default is below the top level: written into the object the call
		// gives, as pydantic fills it in. Left out, opts is required: the upstream refuses it.
		{"fastmcp_model_parameter.json", []string{"opts"}, []call{
			{args: `{"opts":{}}`, want: `{"opts":{"path":".env"}}`},
			{args: `{"opts":{"path":"notes.txt"}}`, want: `{"opts":{"path":"notes.txt"}}`},
			{args: `{}`, want: `{}`},
			{args: `{"path":".env"}`, refused: undeclared("path")},
		}},
	} {
		t.Run(c.file, func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join("testdata", "schemas", c.file))
			if err != nil {
				t.Fatal(err)
			}
			s := readToolSchema(decodedSchema(t, string(text)))
			if (s.declared == nil) != (c.declared == nil) || !slices.Equal(s.known, c.declared) {
				t.Errorf("declared %v (any: %v), want %q", s.known, s.declared == nil, c.declared)
			}
			checkCalls(t, s, c.calls)
			// The upstream lists it as JSON the SDK has decoded; a schema handed over in another
			// form (json.RawMessage) reads the same.
			if r := readToolSchema(json.RawMessage(text)); !slices.Equal(r.known, s.known) || len(r.defaults) != len(s.defaults) {
				t.Errorf("read from json.RawMessage: %v, %v; from decoded JSON: %v, %v", r.known, r.defaults, s.known, s.defaults)
			}
		})
	}
}

// TestComposedSchemaShapes: each keyword of a composition, and what makes it take any key.
func TestComposedSchemaShapes(t *testing.T) {
	for _, c := range []struct {
		name, schema string
		declared     []string
		calls        []call
	}{
		{"an open branch takes any key", `{"type":"object","properties":{"a":{}},"anyOf":[{"properties":{"b":{}}},{"additionalProperties":true}]}`,
			nil, []call{{args: `{"z":1}`, want: `{"z":1}`}}},
		{"a branch true takes any key", `{"type":"object","properties":{"a":{}},"oneOf":[true,{"properties":{"b":{}}}]}`,
			nil, nil},
		{"unevaluatedProperties a schema takes any key", `{"type":"object","allOf":[{"properties":{"a":{}}}],"unevaluatedProperties":{}}`,
			nil, nil},
		{"unevaluatedProperties false closes", `{"type":"object","allOf":[{"properties":{"a":{}}}],"unevaluatedProperties":false}`,
			[]string{"a"}, []call{{args: `{"b":1}`, refused: `does not declare the argument "b"`}}},
		{"a $ref out of the schema takes any key, and gives no default it cannot see",
			`{"type":"object","properties":{"a":{"default":"x"}},"allOf":[{"$ref":"https://example.com/args.json"}]}`,
			nil, []call{{args: `{"z":1}`, want: `{"z":1,"a":"x"}`}}},
		{"a $ref to nothing takes any key", `{"type":"object","properties":{"a":{}},"$ref":"#/$defs/missing"}`, nil, nil},
		{"an anchor $ref takes any key", `{"type":"object","properties":{"a":{}},"$ref":"#args"}`, nil, nil},
		{"a $ref by JSON pointer escapes", `{"type":"object","$ref":"#/$defs/a~1b%20c","$defs":{"a/b c":{"properties":{"p":{"default":1}}}}}`,
			[]string{"p"}, []call{{args: `{}`, want: `{"p":1}`}}},
		{"a $ref into an array", `{"type":"object","$ref":"#/x/1","x":[{},{"properties":{"p":{}}}]}`, []string{"p"}, nil},
		{"if, then and else declare their keys", `{"type":"object","properties":{"mode":{}},"if":{"properties":{"kind":{}}},` +
			`"then":{"properties":{"path":{}}},"else":{"properties":{"dir":{}}}}`,
			[]string{"dir", "kind", "mode", "path"}, []call{{args: `{"path":"a","dir":"b","kind":1}`, want: `{"path":"a","dir":"b","kind":1}`}}},
		{"a default of then alone is not the tool's for sure", `{"type":"object","properties":{"mode":{}},"if":{"properties":{"mode":{"const":"x"}}},` +
			`"then":{"properties":{"path":{"default":".env"}}}}`,
			[]string{"mode", "path"}, []call{{args: `{"mode":"x"}`, refused: `name "path"`}, {args: `{"mode":"x","path":"a"}`, want: `{"mode":"x","path":"a"}`}}},
		{"dependentSchemas declare their keys", `{"type":"object","properties":{"a":{}},"dependentSchemas":{"a":{"properties":{"b":{}}}}}`,
			[]string{"a", "b"}, nil},
		{"draft-07 dependencies declare theirs, and give their defaults where their key is held",
			`{"type":"object","properties":{"a":{}},"dependencies":{"a":{"properties":{"b":{"default":1}}},"b":["a"]}}`,
			[]string{"a", "b"}, []call{{args: `{"a":1}`, want: `{"a":1,"b":1}`}, {args: `{}`, want: `{}`},
				{args: `{"a":1,"b":2}`, want: `{"a":1,"b":2}`}}},
		{"two allOf defaults alike are one", `{"type":"object","allOf":[{"properties":{"p":{"default":{"b":1,"a":2}}}},{"properties":{"p":{"default":{"a":2,"b":1}}}}]}`,
			[]string{"p"}, []call{{args: `{}`, want: `{"p":{"a":2,"b":1}}`}}},
		{"two allOf defaults that differ: the call must name the key", `{"type":"object","properties":{"p":{"default":"a"}},"allOf":[{"properties":{"p":{"default":"b"}}}]}`,
			[]string{"p"}, []call{{args: `{}`, refused: `name "p"`}, {args: `{"p":"c"}`, want: `{"p":"c"}`}}},
		{"alternatives that agree give their default", `{"type":"object","anyOf":[{"properties":{"p":{"default":"/"},"a":{}}},{"properties":{"p":{"default":"/"},"b":{}}}]}`,
			[]string{"a", "b", "p"}, []call{{args: `{"a":1}`, want: `{"a":1,"p":"/"}`}}},
		{"a null default in an alternative is none", `{"type":"object","anyOf":[{"properties":{"p":{"default":null}}},{"properties":{"q":{}}}]}`,
			[]string{"p", "q"}, []call{{args: `{}`, want: `{}`}}},
		{"a choice within a branch: its agreed default counts",
			`{"type":"object","oneOf":[{"properties":{"k":{"const":1}},"anyOf":[{"properties":{"p":{"default":"x"}}},{"properties":{"p":{"default":"x"}}}]},` +
				`{"properties":{"k":{"const":2},"p":{"default":"x"}}}]}`,
			[]string{"k", "p"}, []call{{args: `{"k":1}`, want: `{"k":1,"p":"x"}`}}},
		{"a choice within a branch that disagrees: the call must name the key",
			`{"type":"object","oneOf":[{"properties":{"k":{"enum":[1]}},"anyOf":[{"properties":{"p":{"default":"x"}}},{"properties":{"p":{"default":"y"}}}]},` +
				`{"properties":{"k":{"enum":[2]}}}]}`,
			[]string{"k", "p"}, []call{{args: `{"k":1}`, refused: `name "p"`}, {args: `{"k":2}`, want: `{"k":2}`}}},
		{"no properties, no closing: any key, as before", `{"type":"object"}`, nil, []call{{args: `{"x":1}`, want: `{"x":1}`}}},
		{"not is not read", `{"type":"object","properties":{"a":{}},"not":{"properties":{"b":{"default":"x"}}}}`,
			[]string{"a"}, []call{{args: `{}`, want: `{}`}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := readToolSchema(decodedSchema(t, c.schema))
			if (s.declared == nil) != (c.declared == nil) || !slices.Equal(s.known, c.declared) {
				t.Errorf("declared %v (any: %v), want %q", s.known, s.declared == nil, c.declared)
			}
			checkCalls(t, s, c.calls)
		})
	}
}

// TestSchemaReadingIsBounded: a schema nested, branched or referring beyond the bounds (in
// circles, or fanning out) is read in bounded work, as taking any key; at the top level its
// tool is sent no call (unseen), and one just within them is read whole.
func TestSchemaReadingIsBounded(t *testing.T) {
	nested := `{"properties":{"deep":{}}}`
	for range maxSchemaDepth + 1 {
		nested = `{"allOf":[` + nested + `]}`
	}
	branches := make([]string, maxSchemaNodes+1)
	for i := range branches {
		branches[i] = fmt.Sprintf(`{"properties":{"k%d":{}}}`, i)
	}
	// Each definition refers to the next twice: 2^40 paths to the last one.
	var fan strings.Builder
	fan.WriteString(`{"type":"object","$ref":"#/$defs/d0","$defs":{`)
	for i := range 40 {
		fmt.Fprintf(&fan, `"d%d":{"allOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]},`, i, i+1, i+1)
	}
	fan.WriteString(`"d40":{"properties":{"a":{}}}}}`)
	for name, schema := range map[string]string{
		"nested deeper than maxSchemaDepth": `{"type":"object","properties":{"a":{}},"allOf":[` + nested + `]}`,
		"more branches than maxSchemaNodes": `{"type":"object","properties":{"a":{}},"anyOf":[` + strings.Join(branches, ",") + `]}`,
		"references fanning out":            fan.String(),
	} {
		r := &schemaReader{}
		r.root = decodedSchema(t, schema)
		p := r.read(r.root, 0, "#", []string{"#"})
		if !p.open || r.nodes > maxSchemaNodes {
			t.Errorf("%s: open %v after %d nodes; want any key taken, within %d", name, p.open, r.nodes, maxSchemaNodes)
		}
		s := readToolSchema(decodedSchema(t, schema))
		if s.declared != nil {
			t.Errorf("%s: declared %v, want any key taken", name, s.known)
		}
		if err := s.unseen("t", "files"); err == nil || !strings.Contains(err.Error(), "beyond what the gateway reads") {
			t.Errorf("%s: unseen = %v, want every call of the tool refused", name, err)
		}
	}
	// Within the bounds (maxSchemaDepth levels of composition below the top-level schema, its
	// own allOf the first, the most that is read) the schema is seen, and its tool called.
	within := `{"properties":{"deep":{}}}`
	for range maxSchemaDepth - 1 {
		within = `{"allOf":[` + within + `]}`
	}
	s := readToolSchema(decodedSchema(t, `{"type":"object","properties":{"a":{}},"allOf":[`+within+`]}`))
	if err := s.unseen("t", "files"); err != nil || !slices.Equal(s.known, []string{"a", "deep"}) {
		t.Errorf("%d levels: unseen = %v, declared %v; want seen, declaring a and deep", maxSchemaDepth, err, s.known)
	}
	// Circles end where they began, and declare what they pass.
	for _, schema := range []string{
		`{"type":"object","$ref":"#/$defs/a","$defs":{"a":{"properties":{"x":{}},"allOf":[{"$ref":"#/$defs/a"}]}}}`,
		`{"type":"object","properties":{"x":{}},"allOf":[{"$ref":"#"}]}`,
		`{"type":"object","$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/b"},"b":{"properties":{"x":{}},"$ref":"#/$defs/a"}}}`,
	} {
		if s := readToolSchema(decodedSchema(t, schema)); !slices.Equal(s.known, []string{"x"}) {
			t.Errorf("%s: declared %v (any: %v), want x", schema, s.known, s.declared == nil)
		}
	}
}

// TestRequiredKeysAreThoseEveryCallNeeds: the keys a schema requires of every call are those its
// own required lists and those of the parts that always apply (allOf, a $ref's target); an
// alternative's, a condition's and a nested object's apply to some calls only, or to another
// object, and are not among them (a call is refused without one: toolcall.ArgumentMap.Present).
func TestRequiredKeysAreThoseEveryCallNeeds(t *testing.T) {
	for _, c := range []struct {
		name, schema string
		required     []string
	}{
		{"its own", `{"type":"object","properties":{"path":{},"n":{}},"required":["path"]}`, []string{"path"}},
		{"none", `{"type":"object","properties":{"path":{}}}`, []string{}},
		{"allOf's and a $ref's", `{"type":"object","$ref":"#/$defs/a","allOf":[{"required":["b"]}],` +
			`"$defs":{"a":{"properties":{"a":{},"b":{}},"required":["a"]}}}`, []string{"a", "b"}},
		{"not an alternative's", `{"type":"object","anyOf":[{"required":["a"]},{"required":["b"]}],"oneOf":[{"required":["c"]}]}`,
			[]string{}},
		{"not a condition's", `{"type":"object","if":{"required":["a"]},"then":{"required":["b"]},"else":{"required":["c"]}}`,
			[]string{}},
		{"not a dependent schema's", `{"type":"object","dependentSchemas":{"a":{"required":["b"]}}}`, []string{}},
		{"not a nested object's", `{"type":"object","properties":{"opts":{"type":"object","required":["path"]}}}`, []string{}},
		{"not what is no key", `{"type":"object","required":["a",1,null]}`, []string{"a"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := readToolSchema(decodedSchema(t, c.schema))
			if got := s.requiredKeys(); !slices.Equal(append([]string{}, got...), c.required) {
				t.Errorf("required %q, want %q", got, c.required)
			}
		})
	}
	for file, required := range map[string][]string{
		"fastmcp_model_parameter.json": {"opts"}, "go_jsonschema_for.json": {}, "pydantic_union.json": {},
		"zod_discriminated_union.json": {},
	} {
		text, err := os.ReadFile(filepath.Join("testdata", "schemas", file))
		if err != nil {
			t.Fatal(err)
		}
		s := readToolSchema(decodedSchema(t, string(text)))
		if got := s.requiredKeys(); !slices.Equal(append([]string{}, got...), required) {
			t.Errorf("%s: required %q, want %q", file, got, required)
		}
	}
	if (*toolSchema)(nil).requiredKeys() != nil {
		t.Error("no schema requires keys")
	}
}
