package argrules_test

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/argrules"
)

func TestCompileRefusesBadRules(t *testing.T) {
	cases := []struct {
		name  string
		rules []argrules.Rule
		want  string // "index.field: detail fragment"
	}{
		{name: "a syntax error", rules: []argrules.Rule{{Name: "a", Expression: "args.amount <"}}, want: "0.expression: does not compile"},
		{name: "an unknown variable", rules: []argrules.Rule{{Name: "a", Expression: "amount < 400"}}, want: "0.expression: does not compile"},
		{name: "not a bool", rules: []argrules.Rule{{Name: "a", Expression: "size(command)"}}, want: "0.expression: must evaluate to a bool, not int"},
		{name: "a type error", rules: []argrules.Rule{{Name: "a", Expression: "command < 4"}}, want: "0.expression: does not compile"},
		{name: "the second rule", rules: []argrules.Rule{{Name: "a", Expression: "true"}, {Name: "b", Expression: "args."}}, want: "1.expression: does not compile"},
		{name: "a repeated name", rules: []argrules.Rule{{Name: "a", Expression: "true"}, {Name: "a", Expression: "true"}}, want: "1.name: used twice"},
		{name: "no name", rules: []argrules.Rule{{Expression: "true"}}, want: "0.name: needs a name"},
		{name: "too long", rules: []argrules.Rule{{Name: "a", Expression: strings.Repeat("true && ", 600) + "true"}}, want: "0.expression: expression is"},
		{name: "an estimated cost over the limit",
			rules: []argrules.Rule{{Name: "a", Expression: "args.items.all(x, args.items.all(y, x == y))"}},
			want:  "0.expression: its estimated cost"},
		{name: "a string scan per element over the limit",
			rules: []argrules.Rule{{Name: "a", Expression: "args.items.all(x, paths.all(p, command.contains(p)))"}},
			want:  "0.expression: its estimated cost"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			set, errs := argrules.Compile(tc.rules)
			if set != nil || len(errs) == 0 {
				t.Fatalf("Compile() = %v, %v; want errors", set, errs)
			}
			idx, rest, _ := strings.Cut(tc.want, ".")
			field, detail, _ := strings.Cut(rest, ": ")
			for _, e := range errs {
				if strings.Contains(e.Error(), "argumentRules["+idx+"]."+field+": ") && strings.Contains(e.Detail, detail) {
					return
				}
			}
			t.Errorf("errors %v, want one for rule %s field %s containing %q", errs, idx, field, detail)
		})
	}
}

func TestEvaluate(t *testing.T) {
	rules := []argrules.Rule{
		{Name: "amount", Tools: []string{"pay"}, Expression: "args.amount < 400", Message: "payments are below 400"},
		{Name: "recipient", Tools: []string{"pay"}, Expression: "args.recipient.endsWith('@example.com')"},
		{Name: "no-push", Expression: "!command.contains('git push')"},
		{Name: "tmp-only", Tools: []string{"write"}, Expression: "paths.all(p, p.startsWith('/tmp/'))"},
		{Name: "flagged", Tools: []string{"flag"}, Expression: "args.flag"},
		{Name: "tags", Tools: []string{"tag"}, Expression: "args.tags.all(t, t in ['a', 'b']) && size(args.tags) <= 3"},
		{Name: "nested", Tools: []string{"nest"}, Expression: "args.meta.owner.name == 'ops' && args.meta.count >= 2"},
		{Name: "optional", Tools: []string{"opt"}, Expression: "!has(args.limit) || args.limit <= 10"},
		{Name: "cwd", Tools: []string{"opt"}, Expression: "cwd == '' || cwd.startsWith('/work')"},
	}
	set, errs := argrules.Compile(rules)
	if errs != nil {
		t.Fatalf("Compile() = %v", errs)
	}
	cases := []struct {
		name      string
		in        argrules.Input
		wantRule  string // "" admits
		wantEval  bool
		wantInMsg string
	}{
		{name: "an amount below the limit", in: pay(`{"amount": 399, "recipient": "a@example.com"}`)},
		{name: "a fractional amount below the limit", in: pay(`{"amount": 399.99, "recipient": "a@example.com"}`)},
		{name: "an amount at the limit", in: pay(`{"amount": 400, "recipient": "a@example.com"}`), wantRule: "amount", wantInMsg: "payments are below 400"},
		{name: "an amount in exponent form", in: pay(`{"amount": 4e2, "recipient": "a@example.com"}`), wantRule: "amount"},
		{name: "a negative amount is below", in: pay(`{"amount": -5, "recipient": "a@example.com"}`)},
		{name: "an amount as a string", in: pay(`{"amount": "399", "recipient": "a@example.com"}`), wantRule: "amount", wantEval: true, wantInMsg: "no such overload"},
		{name: "an amount as a list", in: pay(`{"amount": [1], "recipient": "a@example.com"}`), wantRule: "amount", wantEval: true},
		{name: "an amount that is null", in: pay(`{"amount": null, "recipient": "a@example.com"}`), wantRule: "amount", wantEval: true},
		{name: "no amount", in: pay(`{"recipient": "a@example.com"}`), wantRule: "amount", wantEval: true, wantInMsg: "no such key"},
		{name: "a respelled amount key is no amount", in: pay(`{"аmount": 1, "recipient": "a@example.com"}`), wantRule: "amount", wantEval: true},
		{name: "no arguments at all", in: argrules.Input{Tool: "pay"}, wantRule: "amount", wantEval: true},
		{name: "a recipient elsewhere", in: pay(`{"amount": 1, "recipient": "a@example.com.evil.io"}`), wantRule: "recipient", wantInMsg: "endsWith"},
		{name: "a recipient with a different case", in: pay(`{"amount": 1, "recipient": "a@EXAMPLE.com"}`), wantRule: "recipient"},
		{name: "rules of other tools do not apply", in: argrules.Input{Tool: "read", Extra: mustParse(`{"amount": 100000}`)}},
		{name: "a command rule", in: argrules.Input{Tool: "shell", Command: "make && git push --force"}, wantRule: "no-push"},
		{name: "a path rule", in: argrules.Input{Tool: "write", Paths: []string{"/tmp/a", "/etc/passwd"}}, wantRule: "tmp-only"},
		{name: "no paths pass a path rule", in: argrules.Input{Tool: "write"}},
		{name: "a bool that is true", in: argrules.Input{Tool: "flag", Extra: mustParse(`{"flag": true}`)}},
		{name: "a dyn that is not a bool", in: argrules.Input{Tool: "flag", Extra: mustParse(`{"flag": "true"}`)}, wantRule: "flagged", wantEval: true, wantInMsg: "not a bool"},
		{name: "a list rule", in: argrules.Input{Tool: "tag", Extra: mustParse(`{"tags": ["a", "b"]}`)}},
		{name: "a list with another value", in: argrules.Input{Tool: "tag", Extra: mustParse(`{"tags": ["a", "c"]}`)}, wantRule: "tags"},
		{name: "a huge list is bounded by its own size", in: argrules.Input{Tool: "tag", Extra: mustParse(`{"tags": [` + strings.Repeat(`"a",`, 1000) + `"a"]}`)}, wantRule: "tags"},
		{name: "a nested map", in: argrules.Input{Tool: "nest", Extra: mustParse(`{"meta": {"owner": {"name": "ops"}, "count": 2}}`)}},
		{name: "a nested map with another owner", in: argrules.Input{Tool: "nest", Extra: mustParse(`{"meta": {"owner": {"name": "dev"}, "count": 2}}`)}, wantRule: "nested"},
		{name: "a nested map of the wrong shape", in: argrules.Input{Tool: "nest", Extra: mustParse(`{"meta": {"owner": "ops", "count": 2}}`)}, wantRule: "nested", wantEval: true},
		{name: "an optional key absent", in: argrules.Input{Tool: "opt"}},
		{name: "an optional key too large", in: argrules.Input{Tool: "opt", Extra: mustParse(`{"limit": 11}`)}, wantRule: "optional"},
		{name: "the cwd", in: argrules.Input{Tool: "opt", Cwd: "/etc"}, wantRule: "cwd"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := set.Evaluate(tc.in)
			if tc.wantRule == "" {
				if v != nil {
					t.Fatalf("Evaluate() = %+v, want admitted", v)
				}
				return
			}
			if v == nil || v.Rule != tc.wantRule || v.EvalError != tc.wantEval || !strings.Contains(v.Message, tc.wantInMsg) {
				t.Fatalf("Evaluate() = %+v, want rule %s (evaluation error %v) with %q", v, tc.wantRule, tc.wantEval, tc.wantInMsg)
			}
		})
	}
}

// The estimate assumes the arguments are within ParseExtra's bounds; the runtime limit holds
// whatever the input: arguments that skipped ParseExtra and are far larger are still stopped.
func TestRuntimeCostLimitDenies(t *testing.T) {
	set, errs := argrules.Compile([]argrules.Rule{{Name: "no-secret", Expression: "!args.body.contains('SECRET')"}})
	if errs != nil {
		t.Fatalf("Compile() = %v", errs)
	}
	small := strings.Repeat("x", argrules.MaxExtraBytes)
	if v := set.Evaluate(argrules.Input{Tool: "t", Extra: map[string]any{"body": small}}); v != nil {
		t.Fatalf("Evaluate(%d bytes) = %+v, want admitted", len(small), v)
	}
	huge := strings.Repeat("x", 20*argrules.CostLimit) // contains costs a tenth of a unit per byte
	v := set.Evaluate(argrules.Input{Tool: "t", Extra: map[string]any{"body": huge}})
	if v == nil || !v.EvalError || !strings.Contains(v.Message, "cost") {
		t.Fatalf("Evaluate(%d bytes) = %+v, want a denial for the cost limit", len(huge), v)
	}
}

func TestNoRulesAdmitEverything(t *testing.T) {
	set, errs := argrules.Compile(nil)
	if errs != nil || set.Len() != 0 || set.Evaluate(argrules.Input{Tool: "x"}) != nil {
		t.Fatalf("Compile(nil) = %v, %v", set, errs)
	}
}

func pay(extra string) argrules.Input {
	return argrules.Input{Tool: "pay", Extra: mustParse(extra)}
}

func mustParse(raw string) map[string]any {
	v, err := argrules.ParseExtra([]byte(raw))
	if err != nil {
		panic(err)
	}
	return v
}

// The forms docs/argument-rules.md teaches for naming a type refuse the other types an agent may
// send, where the obvious forms admit them.
func TestTheDocumentedTypedFormsRefuseOtherTypes(t *testing.T) {
	const joinedTo = "args.to.join(',').matches('^[a-z0-9][a-z0-9._+-]*@example[.]com(,[a-z0-9][a-z0-9._+-]*@example[.]com)*$')"
	cases := []struct {
		expr, extra string
		admit       bool
	}{
		{expr: "args.force != true", extra: `{"force": "true"}`, admit: true}, // the obvious form, evaded
		{expr: "args.force == false", extra: `{"force": "true"}`},
		{expr: "args.force == false", extra: `{"force": "false"}`},
		{expr: "args.force == false", extra: `{"force": [false]}`},
		{expr: "args.force == false", extra: `{"force": false}`, admit: true},
		{expr: "size(args.to) <= 20", extra: `{"to": "a@x.io,b@x.io,c@x.io"}`, admit: true}, // evaded
		{expr: "type(args.to) == list && size(args.to) <= 3", extra: `{"to": "a@x.io,b@x.io,c@x.io"}`},
		{expr: "type(args.to) == list && size(args.to) <= 3", extra: `{"to": ["a@x.io", "b@x.io"]}`, admit: true},
		{expr: joinedTo, extra: `{"to": ["a@example.com", "b.c+d@example.com"]}`, admit: true},
		{expr: joinedTo, extra: `{"to": ["a@example.com", "x@evil.io,b@example.com"]}`},
		{expr: joinedTo, extra: `{"to": ["a@example.com", 1]}`},
		{expr: joinedTo, extra: `{"to": "a@example.com"}`},
		{expr: joinedTo, extra: `{"to": []}`},
	}
	for _, tc := range cases {
		set, errs := argrules.Compile([]argrules.Rule{{Name: "r", Expression: tc.expr}})
		if errs != nil {
			t.Fatalf("Compile(%s) = %v", tc.expr, errs)
		}
		if v := set.Evaluate(argrules.Input{Tool: "t", Extra: mustParse(tc.extra)}); (v == nil) != tc.admit {
			t.Errorf("%s over %s = %+v, want admitted %v", tc.expr, tc.extra, v, tc.admit)
		}
	}
}
