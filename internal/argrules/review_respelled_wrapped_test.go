package argrules_test

import (
	"testing"

	"github.com/toolgate/toolgate/internal/argrules"
)

// The respelling check inside a list follows the comprehension's variable only when a key is read
// straight off it (j.dry_run). A rule that reaches the same element through an expression around
// the variable — dyn(j), a conditional, a one-element list or map literal, or a list literal
// around args' list — judges one key while a tool taking the alias reads the other, and the
// respelling ({"dry_run": true, "dryRun": false}) is admitted. The same wrappers around args itself
// (dyn(args).dry_run) escape the top-level check too.
func TestReviewRespellingsThroughAWrappedElementDeny(t *testing.T) {
	const extra = `{"jobs": [{"dry_run": true, "dryRun": false}]}`
	for name, expr := range map[string]string{
		"dyn around the variable":            "args.jobs.all(j, dyn(j).dry_run == true)",
		"a conditional around the variable":  "args.jobs.all(j, (true ? j : j).dry_run == true)",
		"a list literal around the variable": "args.jobs.all(j, [j].all(x, x.dry_run == true))",
		"a map literal around the variable":  "args.jobs.all(j, {'a': j}.a.dry_run == true)",
		"a list literal around args' list":   "[args.jobs].all(l, l.all(j, j.dry_run == true))",
	} {
		t.Run(name, func(t *testing.T) {
			set, errs := argrules.Compile([]argrules.Rule{{Name: "each-dry-run", Tools: []string{"batch-deploy"}, Expression: expr}})
			if errs != nil {
				t.Fatalf("Compile(%q) = %v", expr, errs)
			}
			if v := set.Evaluate(argrules.Input{Tool: "batch-deploy", Extra: mustParse(extra)}); v == nil {
				t.Fatalf("Evaluate(%s) under %q admitted it: the rule judged dry_run, a tool taking the alias reads dryRun=false", extra, expr)
			}
		})
	}
	for name, expr := range map[string]string{
		"dyn around args":            "dyn(args).dry_run == true",
		"a conditional around args":  "(true ? args : args).dry_run == true",
		"a list literal around args": "[args].all(a, a.dry_run == true)",
	} {
		t.Run("top level/"+name, func(t *testing.T) {
			set, errs := argrules.Compile([]argrules.Rule{{Name: "dry-run", Tools: []string{"deploy"}, Expression: expr}})
			if errs != nil {
				t.Fatalf("Compile(%q) = %v", expr, errs)
			}
			if v := set.Evaluate(argrules.Input{Tool: "deploy", Extra: mustParse(`{"dry_run": true, "dryRun": false}`)}); v == nil {
				t.Fatalf("under %q the respelling was admitted", expr)
			}
		})
	}
}

// The near misses: a wrapped read of a call that spells the key once is judged on its value, and a
// key read off a literal (nothing of args) checks no spelling in args. A respelling anywhere in
// the arguments is refused once a rule reads the key off a value whose place it cannot follow.
func TestWrappedReadsNearMisses(t *testing.T) {
	for name, tc := range map[string]struct {
		expr, extra string
		deny        bool
	}{
		"dyn around args, spelled once":              {"dyn(args).dry_run == true", `{"dry_run": true, "jobs": [{"dryRun": 1}]}`, true},
		"dyn around args, no alias anywhere":         {"dyn(args).dry_run == true", `{"dry_run": true, "jobs": [{"x": 1}]}`, false},
		"a literal's key, an alias in args":          {"{'dry_run': true}.dry_run && args.n == 1", `{"n": 1, "dryRun": false}`, false},
		"a literal list's element, an alias in args": {"[{'dry_run': true}].all(x, x.dry_run) && args.n == 1", `{"n": 1, "dryRun": false}`, false},
		"an index of a wrapped element":              {"args.jobs.all(j, dyn(j)['dry_run'] == true)", `{"jobs": [{"dry_run": true, "dry-run": false}]}`, true},
		"'in' on a wrapped element":                  {"args.jobs.all(j, !('force' in dyn(j)))", `{"jobs": [{"Force_": true}]}`, true},
	} {
		t.Run(name, func(t *testing.T) {
			set, errs := argrules.Compile([]argrules.Rule{{Name: "r", Tools: []string{"t"}, Expression: tc.expr}})
			if errs != nil {
				t.Fatalf("Compile(%q) = %v", tc.expr, errs)
			}
			v := set.Evaluate(argrules.Input{Tool: "t", Extra: mustParse(tc.extra)})
			if (v != nil) != tc.deny {
				t.Fatalf("Evaluate(%s) under %q = %+v; want denied %v", tc.extra, tc.expr, v, tc.deny)
			}
		})
	}
}
