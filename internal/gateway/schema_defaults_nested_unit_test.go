package gateway

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/argrules"
)

// TestNestedDefaultsAreJudged: a rule on a key below an argument judged the call as the agent
// sent it, while the upstream ran it with that key's default: {"opts": {}} passed a rule that
// forbids force, and the tool ran with force true (pydantic fills a model's fields in, zod an
// object's .default()s, the Go SDK's server its properties'). With the default written in, the
// rule refuses it; a call naming force false, or leaving out opts where no upstream creates it,
// is admitted as before.
func TestNestedDefaultsAreJudged(t *testing.T) {
	for _, c := range []struct {
		name, schema, rule string
		denied, admitted   []string
	}{
		{"a property's object", `{"type":"object","properties":{"opts":{"type":"object","properties":{"force":{"type":"boolean","default":true}}}}}`,
			"!has(args.opts) || !has(args.opts.force) || !args.opts.force",
			[]string{`{"opts":{}}`, `{"opts":{"other":1}}`}, []string{`{"opts":{"force":false}}`}},
		{"a pydantic model ($defs)", `{"$defs":{"Opts":{"properties":{"force":{"default":true,"title":"Force","type":"boolean"}},` +
			`"title":"Opts","type":"object"}},"properties":{"opts":{"anyOf":[{"$ref":"#/$defs/Opts"},{"type":"null"}],"default":null}},` +
			`"title":"runArguments","type":"object"}`,
			"!has(args.opts) || args.opts == null || !has(args.opts.force) || !args.opts.force",
			[]string{`{"opts":{}}`}, []string{`{}`, `{"opts":null}`, `{"opts":{"force":false}}`}},
		{"a list of pydantic models", `{"$defs":{"Job":{"properties":{"name":{"type":"string"},"dry_run":{"default":false,"type":"boolean"}},` +
			`"required":["name"],"type":"object"}},"properties":{"jobs":{"items":{"$ref":"#/$defs/Job"},"type":"array"}},` +
			`"required":["jobs"],"type":"object"}`,
			"args.jobs.all(j, !has(j.dry_run) || j.dry_run)",
			[]string{`{"jobs":[{"name":"a"}]}`, `{"jobs":[{"name":"a","dry_run":true},{"name":"b"}]}`},
			[]string{`{"jobs":[{"name":"a","dry_run":true}]}`, `{"jobs":[]}`}},
		{"a map of models", `{"type":"object","properties":{"envs":{"type":"object","additionalProperties":` +
			`{"type":"object","properties":{"prod":{"type":"boolean","default":true}}}}}}`,
			"!has(args.envs) || args.envs.all(k, !has(args.envs[k].prod) || !args.envs[k].prod)",
			[]string{`{"envs":{"a":{}}}`}, []string{`{"envs":{"a":{"prod":false}}}`, `{"envs":{}}`}},
		// A tuple's elements take the defaults of the schema of their place: pydantic writes
		// tuple[Opts, int] as prefixItems, zod-to-json-schema a z.tuple as items in a list
		// (draft-07), with additionalItems for a rest.
		{"a pydantic tuple of a model (prefixItems)", `{"$defs":{"Opts":{"properties":{"force":{"default":true,"type":"boolean"}},` +
			`"type":"object"}},"properties":{"pair":{"maxItems":2,"minItems":2,"prefixItems":[{"$ref":"#/$defs/Opts"},{"type":"integer"}],` +
			`"type":"array"}},"required":["pair"],"type":"object"}`,
			"!has(args.pair[0].force) || !args.pair[0].force",
			[]string{`{"pair":[{},1]}`}, []string{`{"pair":[{"force":false},1]}`}},
		{"a zod tuple (items in a list, additionalItems)", `{"type":"object","properties":{"steps":{"type":"array","items":[` +
			`{"type":"string"},{"type":"object","properties":{"force":{"type":"boolean","default":true}}}],` +
			`"additionalItems":{"type":"object","properties":{"force":{"type":"boolean"}}}}}}`,
			"!has(args.steps) || args.steps.all(s, type(s) == string || !has(s.force) || !s.force)",
			[]string{`{"steps":["a",{}]}`, `{"steps":["a",{},{"force":false}]}`},
			[]string{`{"steps":["a",{"force":false}]}`, `{"steps":["a",{"force":false},{}]}`, `{"steps":["a"]}`, `{"steps":[]}`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			set, errs := argrules.Compile([]argrules.Rule{{Name: "r", Tools: []string{"t"}, Expression: c.rule}})
			if errs != nil {
				t.Fatalf("Compile(%q) = %v", c.rule, errs)
			}
			s := readToolSchema(decodedSchema(t, c.schema))
			judge := func(args string) bool {
				t.Helper()
				out, err := s.arguments(json.RawMessage(args), "t")
				if err != nil {
					t.Fatalf("arguments(%s) refused: %v", args, err)
				}
				extra, err := argrules.ParseExtra(out)
				if err != nil {
					t.Fatalf("ParseExtra(%s) = %v", out, err)
				}
				return set.Evaluate(argrules.Input{Tool: "t", Extra: extra}) == nil
			}
			for _, args := range c.denied {
				if judge(args) {
					t.Errorf("%s was admitted by %q; the upstream runs it with the default", args, c.rule)
				}
			}
			for _, args := range c.admitted {
				if !judge(args) {
					t.Errorf("%s was refused by %q", args, c.rule)
				}
			}
		})
	}
}

// TestNestedDefaultsShapes: what is written below the top level, through each shape a generator
// writes ($defs and $ref, allOf, alternatives, arrays, maps, defaults of a whole object), the
// keys a call must name where the gateway cannot tell which default applies, and the objects it
// must name where an upstream may create them.
func TestNestedDefaultsShapes(t *testing.T) {
	unsure := func(key string) string { return fmt.Sprintf("name %q in the call", key) }
	const pydantic = `{"$defs":{` +
		`"Opts":{"properties":{"force":{"default":true,"title":"Force","type":"boolean"}},"title":"Opts","type":"object"},` +
		`"Job":{"properties":{"name":{"title":"Name","type":"string"},"dry_run":{"default":false,"title":"Dry Run","type":"boolean"}},` +
		`"required":["name"],"title":"Job","type":"object"}},` +
		`"properties":{` +
		`"opts":{"$ref":"#/$defs/Opts"},` + // opts: Opts
		`"maybe":{"anyOf":[{"$ref":"#/$defs/Opts"},{"type":"null"}],"default":null},` + // maybe: Opts | None = None
		`"given":{"$ref":"#/$defs/Opts","default":{"force":false}},` + // given: Opts = Opts(force=False)
		`"jobs":{"items":{"$ref":"#/$defs/Job"},"title":"Jobs","type":"array"},` + // jobs: list[Job]
		`"more":{"anyOf":[{"items":{"$ref":"#/$defs/Job"},"type":"array"},{"type":"null"}],"default":null},` + // more: list[Job] | None = None
		`"envs":{"additionalProperties":{"$ref":"#/$defs/Opts"},"type":"object","default":{}}},` + // envs: dict[str, Opts] = {}
		`"required":["opts","jobs"],"title":"runArguments","type":"object"}`
	for _, c := range []struct {
		name, schema string
		calls        []call
	}{
		{"pydantic's models, optional models, lists and maps of them", pydantic, []call{
			{args: `{"opts":{},"jobs":[]}`, want: `{"opts":{"force":true},"jobs":[],"envs":{},"given":{"force":false}}`},
			{args: `{"opts":{"force":false},"jobs":[{"name":"a"},{"name":"b","dry_run":true}]}`,
				want: `{"opts":{"force":false},"jobs":[{"name":"a","dry_run":false},{"name":"b","dry_run":true}],"envs":{},"given":{"force":false}}`},
			{args: `{"opts":{"force":false},"jobs":[],"maybe":{},"more":[{"name":"a"}],"envs":{"x":{}},"given":{}}`,
				want: `{"opts":{"force":false},"jobs":[],"maybe":{"force":true},"more":[{"name":"a","dry_run":false}],"envs":{"x":{"force":true}},"given":{"force":true}}`},
			{args: `{"opts":{"force":false},"jobs":[],"maybe":null,"more":null,"envs":{},"given":{"force":true}}`,
				want: `{"opts":{"force":false},"jobs":[],"maybe":null,"more":null,"envs":{},"given":{"force":true}}`},
			// Left out, opts is required: neither created nor refused here (the required check
			// refuses the call, toolcall.ArgumentMap.Present).
			{args: `{"jobs":[]}`, want: `{"jobs":[],"envs":{},"given":{"force":false}}`},
			{args: `{"opts":{"x":1},"jobs":[]}`, want: `{"opts":{"x":1,"force":true},"jobs":[],"envs":{},"given":{"force":false}}`},
			{args: `{"opts":{},"jobs":[],"file":"x"}`, refused: `does not declare the argument "file"`},
		}},
		// zod's z.object({...}).default({}): the object's default, with its keys' defaults in it
		// (zod 3 parses its default, the Go SDK's server fills it); a model's whole default
		// (pydantic's Opts(force=False)) is written as it is.
		{"an object's default, and its keys'", `{"type":"object","properties":{"opts":{"type":"object","default":{},` +
			`"properties":{"force":{"type":"boolean","default":true},"n":{"type":"number"}},"additionalProperties":false}}}`, []call{
			{args: `{}`, want: `{"opts":{"force":true}}`},
			{args: `{"opts":{"n":1}}`, want: `{"opts":{"n":1,"force":true}}`},
			{args: `{"opts":{"force":false}}`, want: `{"opts":{"force":false}}`},
		}},
		// An optional object without a default of its own: pydantic (default_factory) and the Go
		// SDK's server create it with its keys' defaults, zod leaves it out.
		{"an object an upstream may create", `{"type":"object","properties":{"opts":{"type":"object","properties":{"force":{"type":"boolean","default":true}}}}}`, []call{
			{args: `{}`, refused: unsure("opts")},
			{args: `{"opts":{}}`, want: `{"opts":{"force":true}}`},
			{args: `{"opts":null}`, want: `{"opts":null}`},
			{args: `{"opts":"x"}`, want: `{"opts":"x"}`},
		}},
		{"an object required is not created", `{"type":"object","properties":{"opts":{"type":"object","properties":{"force":{"default":true}}}},"required":["opts"]}`,
			[]call{{args: `{}`, want: `{}`}}},
		{"an object whose default is null is not created", `{"type":"object","properties":{"opts":{"properties":{"force":{"default":true}},"default":null}}}`,
			[]call{{args: `{}`, want: `{}`}}},
		{"an object whose keys give no default is not created", `{"type":"object","properties":{"opts":{"type":"object","properties":{"force":{"type":"boolean"}}}}}`,
			[]call{{args: `{}`, want: `{}`}, {args: `{"opts":{}}`, want: `{"opts":{}}`}}},
		{"a created object within a created one", `{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"object",` +
			`"properties":{"force":{"default":true}}}}}}}`, []call{
			{args: `{}`, refused: unsure("a")},
			{args: `{"a":{}}`, refused: unsure("a.b")},
			{args: `{"a":{"b":{}}}`, want: `{"a":{"b":{"force":true}}}`},
		}},
		{"allOf below the top level", `{"type":"object","properties":{"opts":{"allOf":[{"properties":{"force":{"default":true}}},` +
			`{"properties":{"n":{"default":1}}}]}},"required":["opts"]}`, []call{
			{args: `{"opts":{}}`, want: `{"opts":{"force":true,"n":1}}`},
		}},
		{"two allOf defaults that differ below the top level", `{"type":"object","properties":{"opts":{"allOf":[{"properties":{"force":{"default":true}}},` +
			`{"properties":{"force":{"default":false}}}]}},"required":["opts"]}`, []call{
			{args: `{"opts":{}}`, refused: unsure("opts.force")},
			{args: `{"opts":{"force":true}}`, want: `{"opts":{"force":true}}`},
		}},
		{"alternatives below the top level", `{"type":"object","required":["opts"],"properties":{"opts":{"oneOf":[` +
			`{"type":"object","properties":{"kind":{"const":"a"},"force":{"default":true},"depth":{"default":1}}},` +
			`{"type":"object","properties":{"kind":{"const":"b"},"force":{"default":false},"depth":{"default":1}}}]}}}`, []call{
			{args: `{"opts":{"kind":"a"}}`, want: `{"opts":{"kind":"a","depth":1,"force":true}}`},
			{args: `{"opts":{"kind":"b","force":true}}`, want: `{"opts":{"kind":"b","force":true,"depth":1}}`},
			{args: `{"opts":{}}`, refused: unsure("opts.force")},
			{args: `{"opts":{"force":true}}`, want: `{"opts":{"force":true,"depth":1}}`},
			{args: `{"opts":{"kind":"c"}}`, want: `{"opts":{"kind":"c"}}`}, // matches neither: the upstream refuses it
		}},
		{"a discriminated union's model below the top level", `{"type":"object","required":["op"],"properties":{"op":{"oneOf":[` +
			`{"$ref":"#/$defs/Read"},{"$ref":"#/$defs/List"}]}},"$defs":{` +
			`"Read":{"type":"object","properties":{"kind":{"const":"read"},"path":{"default":".env"}}},` +
			`"List":{"type":"object","properties":{"kind":{"const":"list"},"dir":{"default":"."}}}}}`, []call{
			{args: `{"op":{"kind":"read"}}`, want: `{"op":{"kind":"read","path":".env"}}`},
			{args: `{"op":{"kind":"list"}}`, want: `{"op":{"kind":"list","dir":"."}}`},
			{args: `{"op":{}}`, refused: unsure("op.dir")},
		}},
		// A branch's own object: the key's node in the branch the call matches.
		{"an alternative's object", `{"type":"object","oneOf":[` +
			`{"properties":{"op":{"const":"rm"},"opts":{"properties":{"recursive":{"default":true}}}},"required":["opts"]},` +
			`{"properties":{"op":{"const":"ls"},"opts":{"properties":{"all":{"default":false}}}},"required":["opts"]}]}`, []call{
			{args: `{"op":"rm","opts":{}}`, want: `{"op":"rm","opts":{"recursive":true}}`},
			{args: `{"op":"ls","opts":{}}`, want: `{"op":"ls","opts":{"all":false}}`},
			{args: `{"opts":{}}`, refused: unsure("opts.all")},
		}},
		// A tree: each node's defaults at every depth; an optional child of its own type no
		// upstream creates (it would hold another without end).
		{"a schema referring to itself", `{"type":"object","$ref":"#/$defs/Node","$defs":{"Node":{"type":"object","properties":{` +
			`"flag":{"type":"boolean","default":true},"children":{"type":"array","items":{"$ref":"#/$defs/Node"}},"next":{"$ref":"#/$defs/Node"}}}}}`, []call{
			{args: `{}`, want: `{"flag":true}`},
			{args: `{"children":[{"children":[{}]}]}`, want: `{"children":[{"children":[{"flag":true}],"flag":true}],"flag":true}`},
			{args: `{"next":{"next":{"flag":false}}}`, want: `{"next":{"next":{"flag":false},"flag":true},"flag":true}`},
		}},
		{"a property referring to the whole schema", `{"type":"object","properties":{"flag":{"default":1},"self":{"$ref":"#"}}}`, []call{
			{args: `{"self":{"self":{}}}`, want: `{"self":{"self":{"flag":1},"flag":1},"flag":1}`},
		}},
		// An object a branch writes in takes the defaults the schema gives its keys too, and is
		// not left out.
		{"an object a branch writes in", `{"type":"object","properties":{"opts":{"properties":{"force":{"default":true}}}},"oneOf":[` +
			`{"properties":{"k":{"const":1},"opts":{"default":{}}}},{"properties":{"k":{"const":2}}}]}`, []call{
			{args: `{"k":1}`, want: `{"k":1,"opts":{"force":true}}`},
			{args: `{"k":2}`, refused: unsure("opts")},
			{args: `{"k":2,"opts":{}}`, want: `{"k":2,"opts":{"force":true}}`},
		}},
		// A value whose key matches a pattern takes that pattern's defaults (pydantic's dict of a
		// constrained key and a model), and not those of every other key's; where the gateway
		// cannot tell which schemas apply (two that fill, a pattern Go's regexp cannot read), an
		// object or array there is refused.
		{"a map whose keys match patterns", `{"type":"object","properties":{"envs":{"type":"object",` +
			`"patternProperties":{"^prod":{"type":"object","properties":{"force":{"type":"boolean","default":true}}},` +
			`"-a$":{"type":"object","properties":{"n":{"type":"number","default":1}}}},` +
			`"additionalProperties":{"type":"object","properties":{"dry":{"type":"boolean","default":true}}}}}}`, []call{
			{args: `{"envs":{"prod-b":{},"dev":{}}}`, want: `{"envs":{"prod-b":{"force":true},"dev":{"dry":true}}}`},
			{args: `{"envs":{"dev-a":{}}}`, want: `{"envs":{"dev-a":{"n":1}}}`},
			{args: `{"envs":{"prod-a":{}}}`, refused: `"envs.prod-a"`},
			{args: `{"envs":{"prod-a":"x"}}`, want: `{"envs":{"prod-a":"x"}}`},
		}},
		{"a pattern Go cannot read, whose values take defaults", `{"type":"object","properties":{"envs":{"type":"object",` +
			`"patternProperties":{"^(?!dev)":{"type":"object","properties":{"force":{"type":"boolean","default":true}}}}}}}`, []call{
			{args: `{"envs":{"prod":{}}}`, refused: `"envs.prod"`},
			{args: `{"envs":{"prod":1}}`, want: `{"envs":{"prod":1}}`},
		}},
		// A default written in is filled as the call's own object is.
		{"a default of a top-level alternative, filled below", `{"type":"object","anyOf":[{"properties":{"opts":{"default":{},` +
			`"properties":{"force":{"default":true}}}}},{"properties":{"opts":{"default":{},"properties":{"force":{"default":true}}}}}]}`, []call{
			{args: `{}`, want: `{"opts":{"force":true}}`},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkCalls(t, readToolSchema(decodedSchema(t, c.schema)), c.calls)
		})
	}
}

// TestNestedDefaultsAreBounded: a schema below the top level read beyond the bounds refuses an
// object or array there (its defaults unseen) and nothing else; a call nested deeper than
// argrules.MaxDepth is left to toolcall.Build to refuse; a call that takes more than
// maxFillSteps to fill is refused, each in bounded work.
func TestNestedDefaultsAreBounded(t *testing.T) {
	nested := `{"properties":{"force":{"default":true}}}`
	for range maxSchemaDepth + 1 {
		nested = `{"allOf":[` + nested + `]}`
	}
	s := readToolSchema(decodedSchema(t, `{"type":"object","properties":{"opts":`+nested+`}}`))
	checkCalls(t, s, []call{
		{args: `{"opts":{}}`, refused: `beyond what the gateway reads at the argument "opts"`},
		{args: `{"opts":"x"}`, want: `{"opts":"x"}`},
		{args: `{}`, want: `{}`},
	})

	deep := readToolSchema(decodedSchema(t, `{"type":"object","properties":{"flag":{"default":1},"next":{"$ref":"#"}}}`))
	args := strings.Repeat(`{"next":`, 2*argrules.MaxDepth) + `{}` + strings.Repeat(`}`, 2*argrules.MaxDepth)
	out, err := deep.arguments(json.RawMessage(args), "t")
	if err != nil {
		t.Fatalf("arguments(%d levels) = %v", 2*argrules.MaxDepth, err)
	}
	if got, want := strings.Count(string(out), `"flag":1`), argrules.MaxDepth; got != want {
		t.Errorf("arguments(%d levels) wrote %d flags, want one per level down to %d", 2*argrules.MaxDepth, got, want)
	}

	many := readToolSchema(decodedSchema(t, `{"type":"object","properties":{"jobs":{"type":"array","items":{"properties":{"n":{"default":1}}}}}}`))
	elems := strings.TrimSuffix(strings.Repeat(`{},`, maxFillSteps), ",")
	if _, err := many.arguments(json.RawMessage(`{"jobs":[`+elems+`]}`), "t"); err == nil || !strings.Contains(err.Error(), "takes more than") {
		t.Errorf("arguments(%d jobs) = %v; want refused, taking more than %d steps", maxFillSteps, err, maxFillSteps)
	}
	checkCalls(t, many, []call{{args: `{"jobs":[{},{"n":2}]}`, want: `{"jobs":[{"n":1},{"n":2}]}`}})
}
