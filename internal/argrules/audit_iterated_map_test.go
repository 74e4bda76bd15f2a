package argrules_test

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/argrules"
)

// A comprehension over a map binds each of its keys, a string, not its values: a rule written for
// a list of objects (args.jobs.all(j, !has(j.force) || !j.force)) that reads a key off each
// element judges a map of them as elements holding no such key (has() of a key of a string is
// false), and admitted {"jobs": {"a": {"force": true}}}, whose value a tool taking a map of jobs
// by name (or Object.values, dict.values()) runs with force. Reading a key off a map's key is
// never what a rule means, so a map where a rule reads keys of each element it iterates is refused.
func TestAMapWhereARuleReadsKeysOfEachElementIsRefused(t *testing.T) {
	set, errs := argrules.Compile([]argrules.Rule{
		{Name: "each-no-force", Tools: []string{"batch"}, Expression: "args.jobs.all(j, !has(j.force) || !j.force)"},
		{Name: "none-forced", Tools: []string{"deny-list"}, Expression: "!args.jobs.exists(j, has(j.force) && j.force)"},
		{Name: "label-keys", Tools: []string{"label"}, Expression: "args.labels.all(k, k.matches('^[a-z]+$'))"},
		{Name: "by-index", Tools: []string{"index"}, Expression: "args.opts.all(k, !has(args.opts[k].force) || !args.opts[k].force)"},
	})
	if errs != nil {
		t.Fatalf("Compile() = %v", errs)
	}
	for name, tc := range map[string]struct{ tool, extra string }{
		"a map of jobs":                   {"batch", `{"jobs": {"a": {"force": true}}}`},
		"a map of jobs against exists":    {"deny-list", `{"jobs": {"a": {"force": true}}}`},
		"a map of jobs that are all fine": {"batch", `{"jobs": {"a": {"force": false}}}`},
	} {
		t.Run(name, func(t *testing.T) {
			v := set.Evaluate(argrules.Input{Tool: tc.tool, Extra: mustParse(tc.extra)})
			if v == nil {
				t.Fatalf("Evaluate(%s) admitted it: the rule read force off the map's keys, a tool taking the map reads its values", tc.extra)
			}
			if !strings.Contains(v.Message, `"jobs" is an object`) {
				t.Errorf("message %q, want it to say jobs is an object whose keys the rule iterates", v.Message)
			}
		})
	}
	// Near misses: a list of jobs is judged as before, a rule iterating a map's keys as keys
	// reads no key off them, and a map's values reached by index are its values.
	for name, tc := range map[string]struct{ tool, extra string }{
		"a list of jobs":            {"batch", `{"jobs": [{"force": false}, {}]}`},
		"a list of jobs, deny-list": {"deny-list", `{"jobs": [{"force": false}]}`},
		"a map's keys as keys":      {"label", `{"labels": {"team": "ops"}}`},
		"a map's values by index":   {"index", `{"opts": {"a": {"force": false}}}`},
	} {
		t.Run(name, func(t *testing.T) {
			if v := set.Evaluate(argrules.Input{Tool: tc.tool, Extra: mustParse(tc.extra)}); v != nil {
				t.Fatalf("Evaluate(%s) = %q; want it admitted", tc.extra, v.Message)
			}
		})
	}
	if v := set.Evaluate(argrules.Input{Tool: "batch", Extra: mustParse(`{"jobs": [{"force": true}]}`)}); v == nil {
		t.Fatalf("a forced job in a list was admitted")
	}
}
