package argrules_test

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/argrules"
)

// A rule that reads a key below an argument (args.opts.force) and allows it to be absent with
// has() judges an argument sent as a string of JSON text as having no such key: has() of a key of
// a string is false, not an error. A tool may decode that text and read the key all the same: the
// Python MCP SDK's servers json.loads a string sent for any argument not typed as a plain string
// (FuncMetadata.pre_parse_json), since models often send objects and lists so, and many a tool
// does the same by hand. So {"opts": "{\"force\": true}"} was admitted by a rule refusing
// {"opts": {"force": true}}: the string must be refused where a rule reads keys below it.
func TestJSONTextWhereARuleReadsBelowIsRefused(t *testing.T) {
	set, errs := argrules.Compile([]argrules.Rule{
		{Name: "no-force", Tools: []string{"deploy"}, Expression: "!has(args.opts.force) || args.opts.force == false"},
		{Name: "each-no-force", Tools: []string{"batch"}, Expression: "args.jobs.all(j, !has(j.force) || !j.force)"},
		{Name: "indexed", Tools: []string{"first"}, Expression: "!has(args.jobs[0].force) || !args.jobs[0].force"},
		{Name: "unfollowed", Tools: []string{"wrapped"}, Expression: "!has(dyn(args.opts).force) || !dyn(args.opts).force"},
	})
	if errs != nil {
		t.Fatalf("Compile() = %v", errs)
	}
	for name, tc := range map[string]struct{ tool, extra, inMsg string }{
		"an object as JSON text":              {"deploy", `{"opts": "{\"force\": true}"}`, `"opts"`},
		"an object as JSON text with space":   {"deploy", `{"opts": " \n{\"force\": true}\t"}`, `"opts"`},
		"an element as JSON text":             {"batch", `{"jobs": ["{\"force\": true}"]}`, `"jobs.0"`},
		"the list as JSON text":               {"batch", `{"jobs": "[{\"force\": true}]"}`, `"jobs"`},
		"an indexed element as JSON text":     {"first", `{"jobs": ["{\"force\": true}"]}`, `"jobs.0"`},
		"JSON text the check cannot follow":   {"wrapped", `{"opts": "{\"force\": true}"}`, `"opts"`},
		"JSON text of an array of the object": {"deploy", `{"opts": "[{\"force\": true}]"}`, `"opts"`},
		"JSON text behind a no-break space":   {"deploy", `{"opts": "\u00a0{\"force\": true}"}`, `"opts"`},
	} {
		t.Run(name, func(t *testing.T) {
			v := set.Evaluate(argrules.Input{Tool: tc.tool, Extra: mustParse(tc.extra)})
			if v == nil {
				t.Fatalf("Evaluate(%s) admitted it: the rule found no key in the string, a tool decoding it reads force: true", tc.extra)
			}
			if !strings.Contains(v.Message, "JSON text") || !strings.Contains(v.Message, tc.inMsg) {
				t.Errorf("message %q, want it to name %s as JSON text", v.Message, tc.inMsg)
			}
		})
	}
	// Near misses: the object itself, a string that is no JSON text (no tool reads a key from
	// it), and JSON text where the rule reads no key below it, are judged as before.
	for name, tc := range map[string]struct{ tool, extra string }{
		"the object itself":                 {"deploy", `{"opts": {"force": false}}`},
		"options without force":             {"deploy", `{"opts": {}}`},
		"a plain string":                    {"deploy", `{"opts": "fast"}`},
		"a string of a JSON scalar":         {"deploy", `{"opts": "true"}`},
		"JSON text in a key the rule skips": {"deploy", `{"opts": {"force": false}, "body": "{\"force\": true}"}`},
		"elements that are objects":         {"batch", `{"jobs": [{"force": false}, {}]}`},
	} {
		t.Run(name, func(t *testing.T) {
			if v := set.Evaluate(argrules.Input{Tool: tc.tool, Extra: mustParse(tc.extra)}); v != nil {
				t.Fatalf("Evaluate(%s) = %q; want it admitted", tc.extra, v.Message)
			}
		})
	}
}

// A tool that trims a string before decoding it (JavaScript's trim(), Python's strip()) removes
// more than JSON's own space: a no-break space, a line or paragraph separator, a form feed, a
// byte-order mark. JSON text behind them is JSON text to that tool, and so to the rules.
func TestJSONTextBehindSpaceATrimRemoves(t *testing.T) {
	for _, space := range []string{"\u00a0", "\u2028", "\u2029", "\u3000", "\ufeff", "\f", "\v", "\u0085", "\u1680", "\u202f"} {
		s := space + `{"force": true}` + space
		if _, ok := argrules.JSONText(s); !ok {
			t.Errorf("JSONText(%q) is not JSON text; a tool trimming it first decodes {\"force\": true}", s)
		}
	}
	for _, s := range []string{`x{"force": true}`, "\u200b" + `{"force": true}`, `"{}"`, `1`, ``, " \u00a0 "} {
		if v, ok := argrules.JSONText(s); ok {
			t.Errorf("JSONText(%q) = %v; want no JSON text", s, v)
		}
	}
}
