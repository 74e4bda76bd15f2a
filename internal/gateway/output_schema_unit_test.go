package gateway

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgate/toolgate/internal/testenv"
)

// deniedJSON is Denied's schema as the tables below write it.
const deniedJSON = `{"type":"object","properties":{"reason":{"type":"string"},"field":{"type":"string"},` +
	`"message":{"type":"string"}},"required":["reason","message"],"additionalProperties":false}`

// offered is the schema the gateway offers for an upstream schema, which embedded is as the
// gateway embeds it.
func offered(embedded string) string {
	return `{"type":"object","anyOf":[` + embedded + `,` + deniedJSON + `]}`
}

// outputSchemaCases are upstream output schemas and what the gateway offers for each ("" for no
// output schema), with structured content strict clients must accept and refuse against it
// (besides the denials, which every schema offered must admit).
var outputSchemaCases = []struct {
	name, upstream, want string
	accepted, refused    []string
}{{
	name:     "none",
	upstream: "", want: "",
}, {
	name:     "server-filesystem's read_text_file: an object schema, given an $id of its own",
	upstream: `{"type":"object","properties":{"content":{"type":"string"}},"required":["content"],"additionalProperties":false,"$schema":"http://json-schema.org/draft-07/schema#"}`,
	want:     offered(`{"$id":"urn:toolgate:gateway:tool:t:output","type":"object","properties":{"content":{"type":"string"}},"required":["content"],"additionalProperties":false,"$schema":"http://json-schema.org/draft-07/schema#"}`),
	accepted: []string{`{"content":"hello"}`},
	refused:  []string{`{"content":1}`, `{}`, `{"reason":"ToolAccessDenied"}`, `{"reason":"R","message":"m","extra":1}`, `{"reason":1,"message":"m"}`},
}, {
	name:     "definitions and a $ref into them (draft-07)",
	upstream: `{"type":"object","properties":{"n":{"$ref":"#/definitions/N"}},"required":["n"],"definitions":{"N":{"type":"integer"}}}`,
	want:     offered(`{"$id":"urn:toolgate:gateway:tool:t:output","type":"object","properties":{"n":{"$ref":"#/definitions/N"}},"required":["n"],"definitions":{"N":{"type":"integer"}}}`),
	accepted: []string{`{"n":1}`},
	refused:  []string{`{"n":"1"}`},
}, {
	name:     "$defs and a $ref into them (2020-12), its $schema kept",
	upstream: `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"n":{"$ref":"#/$defs/N"}},"required":["n"],"$defs":{"N":{"type":"integer"}}}`,
	want:     offered(`{"$id":"urn:toolgate:gateway:tool:t:output","$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"n":{"$ref":"#/$defs/N"}},"required":["n"],"$defs":{"N":{"type":"integer"}}}`),
	accepted: []string{`{"n":1}`},
	refused:  []string{`{"n":"1"}`},
}, {
	name:     "a $ref to an $anchor (2020-12)",
	upstream: `{"type":"object","properties":{"n":{"$ref":"#N"}},"$defs":{"N":{"$anchor":"N","type":"integer"}}}`,
	want:     offered(`{"$id":"urn:toolgate:gateway:tool:t:output","type":"object","properties":{"n":{"$ref":"#N"}},"$defs":{"N":{"$anchor":"N","type":"integer"}}}`),
	accepted: []string{`{"n":1}`},
	refused:  []string{`{"n":"1"}`},
}, {
	name:     `a $ref to the schema itself ("#"), which still means the upstream's schema, not the gateway's`,
	upstream: `{"type":"object","properties":{"v":{"type":"integer"},"next":{"$ref":"#"}},"required":["v"],"additionalProperties":false}`,
	want:     offered(`{"$id":"urn:toolgate:gateway:tool:t:output","type":"object","properties":{"v":{"type":"integer"},"next":{"$ref":"#"}},"required":["v"],"additionalProperties":false}`),
	accepted: []string{`{"v":1,"next":{"v":2}}`},
	refused:  []string{`{"v":1,"next":{"reason":"R","message":"m"}}`, `{"v":1,"next":{"v":"2"}}`},
}, {
	name:     "an absolute $id of its own, kept, with references by it",
	upstream: `{"$id":"https://example.com/out.json","type":"object","properties":{"n":{"$ref":"#/definitions/N"},"m":{"$ref":"https://example.com/out.json#/definitions/N"}},"definitions":{"N":{"type":"integer"}}}`,
	want:     offered(`{"$id":"https://example.com/out.json","type":"object","properties":{"n":{"$ref":"#/definitions/N"},"m":{"$ref":"https://example.com/out.json#/definitions/N"}},"definitions":{"N":{"type":"integer"}}}`),
	accepted: []string{`{"n":1,"m":2}`},
	refused:  []string{`{"n":"1"}`, `{"m":"2"}`},
}, {
	name:     "an $id ending in an empty fragment, kept",
	upstream: `{"$id":"https://example.com/empty.json#","type":"object","properties":{"n":{"$ref":"#/definitions/N"}},"definitions":{"N":{"type":"integer"}}}`,
	want:     offered(`{"$id":"https://example.com/empty.json#","type":"object","properties":{"n":{"$ref":"#/definitions/N"}},"definitions":{"N":{"type":"integer"}}}`),
	accepted: []string{`{"n":1}`},
	refused:  []string{`{"n":"1"}`},
}, {
	name:     "zod-to-json-schema's shape: a $ref at the root beside definitions, moved into allOf",
	upstream: `{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/Out","definitions":{"Out":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}}}`,
	want:     offered(`{"$id":"urn:toolgate:gateway:tool:t:output","$schema":"http://json-schema.org/draft-07/schema#","allOf":[{"$ref":"#/definitions/Out"}],"definitions":{"Out":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}}}`),
	accepted: []string{`{"n":1}`},
	refused:  []string{`{"n":"1"}`, `{"n":1,"m":2}`},
}, {
	name:     "a $ref at the root beside its own $id and an allOf, appended to it",
	upstream: `{"$id":"https://example.com/ref.json","$ref":"#/$defs/Out","allOf":[{"required":["n"]}],"$defs":{"Out":{"type":"object","properties":{"n":{"type":"integer"}}}}}`,
	want:     offered(`{"$id":"https://example.com/ref.json","allOf":[{"required":["n"]},{"$ref":"#/$defs/Out"}],"$defs":{"Out":{"type":"object","properties":{"n":{"type":"integer"}}}}}`),
	accepted: []string{`{"n":1}`},
	refused:  []string{`{"n":"1"}`, `{}`},
}, {
	name:     "true, which admits every answer",
	upstream: `true`,
	want:     offered(`true`),
	accepted: []string{`{"anything":1}`},
}, {
	name:     "false, which admits no answer: only denials",
	upstream: `false`,
	want:     offered(`false`),
	refused:  []string{`{"anything":1}`},
}, {
	name:     "a root that is an array's (protocol 2026-07-28), which the offered object root would refuse: none",
	upstream: `{"type":"array","items":{"type":"string"}}`, want: "",
}, {
	name:     "a root of a primitive type: none",
	upstream: `{"type":"string"}`, want: "",
}, {
	name:     "a root of several types, none an object: none",
	upstream: `{"type":["array","null"]}`, want: "",
}, {
	name:     "a root of several types, one an object: embedded",
	upstream: `{"type":["object","null"],"properties":{"n":{"type":"integer"}}}`,
	want:     offered(`{"$id":"urn:toolgate:gateway:tool:t:output","type":["object","null"],"properties":{"n":{"type":"integer"}}}`),
	accepted: []string{`{"n":1}`},
	refused:  []string{`{"n":"x"}`},
}, {
	name:     "a relative $id, which the gateway cannot tell resolves the same embedded: none",
	upstream: `{"$id":"out.json","type":"object"}`, want: "",
}, {
	name:     "an $id with a fragment (a draft-07 plain name): none",
	upstream: `{"$id":"https://example.com/x#out","type":"object"}`, want: "",
}, {
	name:     "an $id that is no string: none",
	upstream: `{"$id":7,"type":"object"}`, want: "",
}, {
	name:     "an $id that is null: none",
	upstream: `{"$id":null,"type":"object"}`, want: "",
}, {
	name:     `draft-04, which names a schema by "id" and would not see the $id given: none`,
	upstream: `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"$ref":"#/definitions/N"}},"definitions":{"N":{"type":"integer"}}}`, want: "",
}, {
	name:     `an "id" (draft-04's $id): none`,
	upstream: `{"id":"https://example.com/x","type":"object"}`, want: "",
}, {
	name:     "a dialect the gateway does not know: none",
	upstream: `{"$schema":"https://spec.openapis.org/oas/3.1/dialect/base","type":"object"}`, want: "",
}, {
	name:     "a $schema that is no string: none",
	upstream: `{"$schema":true,"type":"object"}`, want: "",
}, {
	name:     "an allOf beside a root $ref that is no list: none",
	upstream: `{"$ref":"#/definitions/N","allOf":{},"definitions":{"N":{"type":"object"}}}`, want: "",
}, {
	name:     "a string, no schema: none",
	upstream: `"object"`, want: "",
}, {
	name:     "an array, no schema: none",
	upstream: `[{"type":"object"}]`, want: "",
}}

// TestOutputSchemaAdmitsTheUpstreamsSchemaOrADenial: the output schema offered for each upstream
// schema is the upstream's, embedded as a resource of its own, or Denied's; or none, where the
// upstream's cannot be embedded so. The upstream's (shared, cached) schema is left as it was.
func TestOutputSchemaAdmitsTheUpstreamsSchemaOrADenial(t *testing.T) {
	for _, c := range outputSchemaCases {
		t.Run(c.name, func(t *testing.T) {
			upstream := decoded(t, c.upstream)
			before := encoded(t, upstream)
			got, err := outputSchema("t", upstream)
			if (c.want == "") != (got == nil) {
				t.Fatalf("outputSchema = %s, %v; want %q (none when empty)", encoded(t, got), err, c.want)
			}
			if err != nil && (c.upstream == "" || c.want != "") {
				t.Errorf("outputSchema: %v, want no error", err)
			}
			if err == nil && c.upstream != "" && c.want == "" {
				t.Errorf("outputSchema offers none with no error saying why")
			}
			if diff := cmp.Diff(decoded(t, c.want), decoded(t, encoded(t, got))); diff != "" {
				t.Errorf("offered schema (-want +got):\n%s", diff)
			}
			if after := encoded(t, upstream); after != before {
				t.Errorf("the upstream's schema changed: %s, was %s", after, before)
			}
		})
	}
}

// TestStrictClientsAcceptTheUpstreamsAnswersAndDenials: the TypeScript SDK's client (Ajv, as the
// SDK configures it, one validator for a whole tools/list as the client compiles it) compiles
// every schema offered, admits a denial against each, and what the upstream's schema admits and
// refuses, it admits and refuses.
func TestStrictClientsAcceptTheUpstreamsAnswersAndDenials(t *testing.T) {
	denials := []string{`{"reason":"ToolAccessDenied","field":"spec.arguments.paths[0]","message":"m"}`,
		`{"reason":"PlanNotFound","message":"no plan"}`}
	type check struct {
		Schema    any   `json:"schema"`
		Instances []any `json:"instances"`
	}
	var checks []check
	var names []string
	var want [][]bool
	for _, c := range outputSchemaCases {
		if c.want == "" {
			continue
		}
		got, err := outputSchema(fmt.Sprintf("t%d", len(checks)), decoded(t, c.upstream))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ck, valid := check{Schema: got}, []bool{}
		for _, instances := range []struct {
			json  []string
			valid bool
		}{{denials, true}, {c.accepted, true}, {c.refused, false}} {
			for _, i := range instances.json {
				ck.Instances = append(ck.Instances, decoded(t, i))
				valid = append(valid, instances.valid)
			}
		}
		checks, names, want = append(checks, ck), append(names, c.name), append(want, valid)
	}
	var results []struct {
		Valid []bool `json:"valid"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(tsclient(t, "--validate", encoded(t, checks)), &results); err != nil || len(results) != len(checks) {
		t.Fatalf("the client's answer: %v, %d results for %d schemas", err, len(results), len(checks))
	}
	for i, r := range results {
		if r.Error != "" {
			t.Errorf("%s: the client cannot compile the schema offered: %s", names[i], r.Error)
		} else if !slices.Equal(r.Valid, want[i]) {
			t.Errorf("%s: the client finds %v valid (denials, accepted, refused), want %v", names[i], r.Valid, want[i])
		}
	}
}

// TestDeniedSchemaIsDenieds: Denied's schema names Denied's JSON fields, and requires those it
// always has, so that every Denied meets it.
func TestDeniedSchemaIsDenieds(t *testing.T) {
	var names, required []string
	for f := range reflect.TypeFor[Denied]().Fields() {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		names = append(names, name)
		if opts != "omitempty" {
			required = append(required, name)
		}
	}
	var s struct {
		Properties map[string]any `json:"properties"`
		Required   []string       `json:"required"`
	}
	if err := json.Unmarshal([]byte(deniedSchema), &s); err != nil {
		t.Fatal(err)
	}
	properties := slices.Collect(maps.Keys(s.Properties))
	slices.Sort(names)
	slices.Sort(properties)
	if diff := cmp.Diff(names, properties); diff != "" {
		t.Errorf("Denied's schema's properties (-Denied's fields +the schema's):\n%s", diff)
	}
	if diff := cmp.Diff(required, s.Required); diff != "" {
		t.Errorf("Denied's schema's required (-Denied's fields never omitted +the schema's):\n%s", diff)
	}
	if diff := cmp.Diff(decoded(t, deniedJSON), decoded(t, deniedSchema)); diff != "" {
		t.Errorf("Denied's schema (-the tables' +deniedSchema):\n%s", diff)
	}
}

// tsclient runs testdata/tsclient/tsclient.mjs with the TypeScript SDK installed with the npm MCP
// servers, args after the node_modules directory and stdin as its input, and returns its output.
func tsclient(t *testing.T, arg, stdin string) []byte {
	t.Helper()
	var stderr bytes.Buffer
	modules, err := testenv.NPMPackages(&stderr)
	if err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	cmd := exec.Command("node", "testdata/tsclient/tsclient.mjs", modules, arg)
	cmd.Stdin, cmd.Stderr = strings.NewReader(stdin), &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node tsclient.mjs %s: %v: %s", arg, err, stderr.String())
	}
	return out
}

// decoded is s decoded as JSON; "" is nil.
func decoded(t *testing.T, s string) any {
	t.Helper()
	if s == "" {
		return nil
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("decoding %s: %v", s, err)
	}
	return v
}

// encoded is v as JSON.
func encoded(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encoding: %v", err)
	}
	return string(b)
}
