package argrules_test

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/argrules"
)

// A rule reads a key by its exact name, a tool often by a looser one: Go's encoding/json matches
// keys regardless of case, and many Python servers take a field's camelCase alias. So a key of
// the call that respells, by case or by the separators '_' and '-', a key a rule names is
// refused: the rule would judge the key's absence while the tool takes the respelling for it.
func TestRespellingsOfTheKeysARuleReadsDeny(t *testing.T) {
	set, errs := argrules.Compile([]argrules.Rule{
		{Name: "no-force", Tools: []string{"push"}, Expression: "!has(args.force) || !args.force"},
		{Name: "dry-run", Tools: []string{"deploy"}, Expression: "has(args.dry_run) ? args.dry_run : true"},
		{Name: "nested", Tools: []string{"nest"}, Expression: "!has(args.opts) || !has(args.opts.force) || !args.opts.force"},
		{Name: "indexed", Tools: []string{"index"}, Expression: "!('limit' in args) || args['limit'] <= 10"},
		{Name: "deep", Tools: []string{"deep"}, Expression: "!has(args.a.b) || !has(args.a.b.c)"},
		{Name: "in", Tools: []string{"opt"}, Expression: "!('max_items' in args.opts)"},
	})
	if errs != nil {
		t.Fatalf("Compile() = %v", errs)
	}
	cases := []struct {
		name, tool, extra string
		want              string // "" admits; otherwise the rule and a phrase of its message
	}{
		{name: "the key in another case", tool: "push", extra: `{"Force": true}`, want: `no-force: "Force" respells "force"`},
		{name: "the key in upper case", tool: "push", extra: `{"FORCE": true, "remote": "origin"}`, want: `"FORCE" respells "force"`},
		{name: "the key with a separator", tool: "push", extra: `{"for-ce": true}`, want: `"for-ce" respells "force"`},
		{name: "a camelCase alias", tool: "deploy", extra: `{"dryRun": false}`, want: `dry-run: "dryRun" respells "dry_run"`},
		{name: "the key beside its alias", tool: "deploy", extra: `{"dry_run": true, "dryRun": false}`, want: `dry-run: "dryRun" respells "dry_run"`},
		{name: "a kebab-case alias", tool: "deploy", extra: `{"dry-run": false}`, want: `"dry-run" respells "dry_run"`},
		{name: "a nested respelling", tool: "nest", extra: `{"opts": {"Force": true}}`, want: `"opts.Force" respells "opts.force"`},
		{name: "a respelled parent", tool: "nest", extra: `{"Opts": {"force": true}}`, want: `"Opts" respells "opts"`},
		{name: "a respelling of an indexed key", tool: "index", extra: `{"Limit": 1000}`, want: `"Limit" respells "limit"`},
		{name: "a respelling of a key tested with in", tool: "opt", extra: `{"opts": {"maxItems": 1000}}`, want: `"opts.maxItems" respells "opts.max_items"`},
		// A JavaScript tool that sets its options by path (lodash's set, a config loader) reads a
		// dotted or bracketed key as the nested one.
		{name: "a dotted path to the nested key", tool: "nest", extra: `{"opts.force": true}`, want: `"opts.force" is a path to "opts.force"`},
		{name: "a bracketed path beside the parent", tool: "nest", extra: `{"opts": {}, "opts[\"Force\"]": true}`, want: `"opts[\"Force\"]" is a path to "opts.force"`},
		{name: "a dotted path below the parent", tool: "deep", extra: `{"a": {"b.c": true}}`, want: `"a.b.c" is a path to "a.b.c"`},
		// Near misses: the exact key, other keys, and rules of other tools.
		{name: "a dotted key to another option", tool: "nest", extra: `{"opts.verbose": true, "file.name": "x"}`},
		{name: "a dotted key that only starts like it", tool: "nest", extra: `{"opts": {"force": false}, "opts_force.x": 1}`},
		{name: "the exact key", tool: "push", extra: `{"force": false, "Remote": "origin"}`},
		{name: "no key", tool: "push", extra: ``},
		{name: "a longer key", tool: "push", extra: `{"forced": true, "force_push_allowed": true}`},
		{name: "the exact nested key", tool: "nest", extra: `{"opts": {"force": false, "Verbose": true}}`},
		{name: "the exact snake_case key", tool: "deploy", extra: `{"dry_run": true}`},
		{name: "a rule of another tool", tool: "deploy", extra: `{"dry_run": true, "Force": true}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := set.Evaluate(argrules.Input{Tool: tc.tool, Extra: mustParse(tc.extra)})
			if tc.want == "" {
				if v != nil {
					t.Fatalf("Evaluate() = %+v, want admitted", v)
				}
				return
			}
			if v == nil || !strings.Contains(v.Message, tc.want) {
				t.Fatalf("Evaluate() = %+v, want a denial with %q", v, tc.want)
			}
		})
	}
}
