package argrules_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/argrules"
)

// What argument rules add to an admission: decoding the extra arguments (every call that has
// them) and evaluating the rules (docs/argument-rules.md has the numbers).
//
//	go test ./internal/argrules/ -run '^$' -bench . -benchmem -count 5

var benchExtra = []byte(`{"amount": 399.5, "recipient": "ops@example.com", "memo": "rent for December", "tags": ["a", "b"]}`)

func BenchmarkParseExtra(b *testing.B) {
	for b.Loop() {
		if _, err := argrules.ParseExtra(benchExtra); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEvaluateTwoRules(b *testing.B) {
	set, errs := argrules.Compile([]argrules.Rule{
		{Name: "amount", Expression: "args.amount < 400"},
		{Name: "recipient", Expression: "args.recipient.endsWith('@example.com')"},
	})
	if errs != nil {
		b.Fatal(errs)
	}
	extra, err := argrules.ParseExtra(benchExtra)
	if err != nil {
		b.Fatal(err)
	}
	in := argrules.Input{Tool: "pay", Extra: extra}
	for b.Loop() {
		if v := set.Evaluate(in); v != nil {
			b.Fatal(v)
		}
	}
}

func BenchmarkEvaluateNoRules(b *testing.B) {
	var set *argrules.Set
	in := argrules.Input{Tool: "pay"}
	for b.Loop() {
		if v := set.Evaluate(in); v != nil {
			b.Fatal(v)
		}
	}
}

func BenchmarkCompileTwoRules(b *testing.B) {
	rules := []argrules.Rule{
		{Name: "amount", Expression: "args.amount < 400"},
		{Name: "recipient", Expression: "args.recipient.endsWith('@example.com')"},
	}
	for b.Loop() {
		if _, errs := argrules.Compile(rules); errs != nil {
			b.Fatal(errs)
		}
	}
}

// A rule naming as many keys as its length allows, against as many keys as the arguments may
// hold: checking them for respellings is indexed, not every named key against every key.
func BenchmarkEvaluateManyNamedKeys(b *testing.B) {
	var names []string
	keys := make([]string, 0, 256)
	for i := 0; len(strings.Join(names, " || ")) < argrules.MaxExpressionLength-20; i++ {
		names = append(names, fmt.Sprintf("has(args.k%d)", i))
	}
	for i := range 256 {
		keys = append(keys, fmt.Sprintf(`"x_%d.k%d": 1`, i, i))
	}
	set, errs := argrules.Compile([]argrules.Rule{{Name: "many", Expression: strings.Join(names, " || ")}})
	if errs != nil {
		b.Fatal(errs)
	}
	extra, err := argrules.ParseExtra([]byte("{" + strings.Join(keys, ",") + "}"))
	if err != nil {
		b.Fatal(err)
	}
	in := argrules.Input{Tool: "t", Extra: extra}
	for b.Loop() {
		if v := set.Evaluate(in); v == nil || v.Rule != "many" {
			b.Fatal(v)
		}
	}
}
