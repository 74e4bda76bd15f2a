package argrules_test

import (
	"testing"

	"github.com/toolgate/toolgate/internal/argrules"
)

// A rule may name a key by comparing the keys of args it iterates with it: !args.exists(k, k ==
// 'force') says as much as !('force' in args), which refuses {"Force": true} (a Go tool ignores
// case, a Python one takes a camelCase alias). Compared so, the key was not named, and the
// respelling was admitted.
func TestAKeyComparedWithTheKeysARuleIteratesIsNamed(t *testing.T) {
	set, errs := argrules.Compile([]argrules.Rule{
		{Name: "exists", Tools: []string{"a"}, Expression: "!args.exists(k, k == 'force')"},
		{Name: "all", Tools: []string{"b"}, Expression: "args.all(k, 'dry_run' != k)"},
		{Name: "in", Tools: []string{"c"}, Expression: "!args.opts.exists(k, k in ['force', 'dry_run'])"},
	})
	if errs != nil {
		t.Fatalf("Compile() = %v", errs)
	}
	for name, tc := range map[string]struct{ tool, extra string }{
		"Force for force":         {"a", `{"Force": true}`},
		"dryRun for dry_run":      {"b", `{"dryRun": true}`},
		"opts.Force in an object": {"c", `{"opts": {"Force": true}}`},
		"a path to opts.dry_run":  {"c", `{"opts": {}, "opts.dry_run": true}`},
	} {
		t.Run(name, func(t *testing.T) {
			if v := set.Evaluate(argrules.Input{Tool: tc.tool, Extra: mustParse(tc.extra)}); v == nil {
				t.Fatalf("Evaluate(%s) admitted it: the rule refuses the key, a tool reads the respelling as it", tc.extra)
			}
		})
	}
	for name, tc := range map[string]struct{ tool, extra string }{
		"other keys":          {"a", `{"forced_at": 1}`},
		"other keys too":      {"b", `{"dry": true}`},
		"a list of strings":   {"c", `{"opts": ["Force"]}`},
		"options without one": {"c", `{"opts": {"verbose": true}}`},
	} {
		t.Run(name, func(t *testing.T) {
			if v := set.Evaluate(argrules.Input{Tool: tc.tool, Extra: mustParse(tc.extra)}); v != nil {
				t.Fatalf("Evaluate(%s) = %q; want it admitted", tc.extra, v.Message)
			}
		})
	}
}
