package argrules_test

import (
	"testing"

	"github.com/toolgate/toolgate/internal/argrules"
)

// A rule that judges each element of a list reads its keys through the comprehension's variable
// (p.dry_run), not through args. The respelling a rule refuses at the top level ({"dry_run": true,
// "dryRun": false}: a Python tool taking the camelCase alias reads false where the rule read true)
// must be refused inside each element too: the element is the object the tool reads the same way.
// (Each admitted call below is the top-level one, refused, moved one level down.)
func TestRespellingsInsideAListARuleIteratesDeny(t *testing.T) {
	set, errs := argrules.Compile([]argrules.Rule{
		{Name: "dry-run", Tools: []string{"deploy"}, Expression: "args.dry_run == true"},
		{Name: "each-dry-run", Tools: []string{"batch-deploy"},
			Expression: "args.jobs.all(j, j.dry_run == true)"},
		{Name: "each-amount", Tools: []string{"pay-many"},
			Expression: "args.payments.all(p, p.max_amount > 0 && p.max_amount < 400)"},
		{Name: "first-dry-run", Tools: []string{"first-deploy"}, Expression: "args.jobs[0].dry_run == true"},
	})
	if errs != nil {
		t.Fatalf("Compile() = %v", errs)
	}
	// The top level: refused, as respelled_test.go shows.
	if v := set.Evaluate(argrules.Input{Tool: "deploy", Extra: mustParse(`{"dry_run": true, "dryRun": false}`)}); v == nil {
		t.Fatalf("top level: admitted; want the respelling refused")
	}
	for name, tc := range map[string]struct{ tool, extra string }{
		"a camelCase alias beside the key in an element":  {"batch-deploy", `{"jobs": [{"dry_run": true, "dryRun": false}]}`},
		"a kebab-case alias beside the key in an element": {"batch-deploy", `{"jobs": [{"dry_run": true, "dry-run": false}]}`},
		"an alias beside the key in an indexed element":   {"first-deploy", `{"jobs": [{"dry_run": true, "dryRun": false}]}`},
		"an amount's alias beside it in an element":       {"pay-many", `{"payments": [{"max_amount": 1, "maxAmount": 100000}]}`},
	} {
		t.Run(name, func(t *testing.T) {
			if v := set.Evaluate(argrules.Input{Tool: tc.tool, Extra: mustParse(tc.extra)}); v == nil {
				t.Fatalf("Evaluate(%s) admitted it: the rule judged one key, a tool taking the alias reads the other", tc.extra)
			}
		})
	}
}

// The same through a key computed at run time, comprehensions nested in each other, and a
// comprehension's variable that hides one of the same name outside it; the near misses (no
// respelling, or a respelling the rule does not read) are admitted.
func TestRespellingsBelowAnyElementARuleReaches(t *testing.T) {
	set, errs := argrules.Compile([]argrules.Rule{
		{Name: "picked", Tools: []string{"pick"}, Expression: "args.opts[args.which].force == false"},
		{Name: "nested", Tools: []string{"matrix"}, Expression: "args.rows.all(r, r.cells[0].max_amount < 400)"},
		{Name: "hidden", Tools: []string{"hide"},
			Expression: "args.jobs.all(j, [{'dry_run': true}].all(j, j.dry_run)) && args.jobs.all(j, j.name != '')"},
	})
	if errs != nil {
		t.Fatalf("Compile() = %v", errs)
	}
	for name, tc := range map[string]struct {
		tool, extra string
		deny        bool
	}{
		"a computed key's object respelling the key read":  {"pick", `{"which": "b", "opts": {"b": {"force": false, "Force_": true}}}`, true},
		"a computed key's object spelling it once":         {"pick", `{"which": "b", "opts": {"b": {"force": false}}}`, false},
		"an alias in an element of an element":             {"matrix", `{"rows": [{"cells": [{"max_amount": 1}]}, {"cells": [{"max_amount": 1, "maxAmount": 9000}]}]}`, true},
		"an element of an element, spelled once":           {"matrix", `{"rows": [{"cells": [{"max_amount": 1}, {"max_amount": 2}]}]}`, false},
		"a key the hidden variable's list holds":           {"hide", `{"jobs": [{"name": "a", "dryRun": false}]}`, false},
		"a respelling of the key the outer variable reads": {"hide", `{"jobs": [{"name": "a", "Name_": ""}]}`, true},
	} {
		t.Run(name, func(t *testing.T) {
			v := set.Evaluate(argrules.Input{Tool: tc.tool, Extra: mustParse(tc.extra)})
			if (v != nil) != tc.deny {
				t.Fatalf("Evaluate(%s) = %+v; want denied %v", tc.extra, v, tc.deny)
			}
		})
	}
}
