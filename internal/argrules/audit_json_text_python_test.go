package argrules_test

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/argrules"
)

// Python's json.loads, which the Python MCP SDK's servers call on a string sent for an argument
// not typed as a plain string (FuncMetadata.pre_parse_json), takes more than RFC 8259 JSON: NaN,
// Infinity and -Infinity as numbers, and a number past float64's range (1e400 as inf, an integer
// of 400 digits as itself), both of which Go's encoding/json refuses. Text holding one of them
// was no JSON text to the rules, so a rule reading opts.force judged the string as holding no
// force, while the tool decoded {"force": true, ...} from it.
func TestJSONTextAsPythonDecodesIt(t *testing.T) {
	for _, s := range []string{
		`{"force": true, "x": NaN}`,
		`{"force": true, "x": Infinity}`,
		`[{"force": true}, -Infinity]`,
		`{"force": true, "x": 1e400}`,
		`{"force": true, "x": 1` + strings.Repeat("0", 400) + `}`,
	} {
		if _, ok := argrules.JSONText(s); !ok {
			t.Errorf("JSONText(%q) is not JSON text; Python's json.loads decodes it", s)
		}
	}
	// Neither decoder reads these: NaN inside a string is a string, and bare words are no JSON.
	for _, s := range []string{`{"force": "NaN"} x`, `{"force": nan}`, `[Infinityx]`, `{"a": NaN`, `[Nope]`} {
		if v, ok := argrules.JSONText(s); ok {
			t.Errorf("JSONText(%q) = %v; want no JSON text", s, v)
		}
	}
	set, errs := argrules.Compile([]argrules.Rule{
		{Name: "no-force", Tools: []string{"deploy"}, Expression: "!has(args.opts.force) || args.opts.force == false"},
	})
	if errs != nil {
		t.Fatalf("Compile() = %v", errs)
	}
	extra := mustParse(`{"opts": "{\"force\": true, \"retries\": NaN}"}`)
	if v := set.Evaluate(argrules.Input{Tool: "deploy", Extra: extra}); v == nil || !strings.Contains(v.Message, "JSON text") {
		t.Errorf("Evaluate(opts as JSON text with NaN) = %v; want it refused as JSON text", v)
	}
}
