package argrules_test

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/argrules"
)

// Each of the arguments' values is bounded, and so is their sum: a list of 1024 elements holds
// elements of 16 bytes on average, not 16 KiB each. The estimate of a rule that does linear work
// per element (an anchored match of each recipient) is the work over all the arguments, and it
// compiles; a rule whose work is quadratic in the arguments is still refused.
func TestTheEstimateCountsTheArgumentsOnce(t *testing.T) {
	for _, expr := range []string{
		"args.to.all(a, a.matches('^[a-z0-9][a-z0-9._+-]*@example[.]com$'))",
		"args.items.all(i, i.name.matches('^[a-z]+$') && i.amount < 100)",
		"args.all(k, args[k].size() < 100)",
	} {
		if _, errs := argrules.Compile([]argrules.Rule{{Name: "a", Expression: expr}}); errs != nil {
			t.Errorf("Compile(%s) = %v, want it compiled", expr, errs)
		}
	}
	for _, expr := range []string{
		"args.items.all(x, args.items.all(y, x == y))",
		"args.items.all(x, args.items.exists(y, y.contains(x)))",
		"args.items.all(i, args.text.contains(i))",
	} {
		if _, errs := argrules.Compile([]argrules.Rule{{Name: "a", Expression: expr}}); errs == nil ||
			!strings.Contains(errs[0].Detail, "estimated cost") {
			t.Errorf("Compile(%s) = %v, want its estimated cost refused", expr, errs)
		}
	}
}

// What the estimate admits stays within the runtime limit on the largest arguments of either
// shape: one element of nearly 16 KiB, or a thousand short ones.
func TestAnElementWiseMatchStaysWithinTheRuntimeLimit(t *testing.T) {
	set, errs := argrules.Compile([]argrules.Rule{{Name: "to",
		Expression: "args.to.all(a, a.matches('^[a-z0-9][a-z0-9._+-]*@example[.]com$'))"}})
	if errs != nil {
		t.Fatal(errs)
	}
	long := `{"to": ["` + strings.Repeat("a", argrules.MaxExtraBytes-40) + `@example.com"]}`
	many := `{"to": [` + strings.TrimSuffix(strings.Repeat(`"a@example.com",`, 1000), ",") + `]}`
	for name, raw := range map[string]string{"long": long, "many": many} {
		if v := set.Evaluate(argrules.Input{Tool: "t", Extra: mustParse(raw)}); v != nil {
			t.Errorf("%s: Evaluate() = %+v, want admitted", name, v)
		}
	}
}
