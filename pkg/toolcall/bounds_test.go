package toolcall_test

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/toolgate/toolgate/pkg/toolcall"
)

// The bounds Build checks are the CRD's: a bound that drifts from it would let the API server
// refuse what Build passed (as a schema error of fields the agent never named) or make Build
// refuse what the API server takes.
func TestBoundsAreTheCRDs(t *testing.T) {
	data, err := os.ReadFile("../../config/crd/bases/safety.toolgate.dev_agenttoolcalls.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.Unmarshal(data, &crd); err != nil {
		t.Fatal(err)
	}
	spec := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"]
	args := spec.Properties["arguments"]
	for _, c := range []struct {
		name string
		got  *int64
		want int
	}{
		{"spec.tool maxLength", spec.Properties["tool"].MaxLength, toolcall.MaxToolLength},
		{"spec.step maxLength", spec.Properties["step"].MaxLength, toolcall.MaxStepLength},
		{"spec.sandboxId maxLength", spec.Properties["sandboxId"].MaxLength, toolcall.MaxSandboxIDLength},
		{"spec.arguments.command maxLength", args.Properties["command"].MaxLength, toolcall.MaxCommandLength},
		{"spec.arguments.paths maxItems", args.Properties["paths"].MaxItems, toolcall.MaxPaths},
		{"spec.arguments.paths[] maxLength", args.Properties["paths"].Items.Schema.MaxLength, toolcall.MaxPathLength},
		{"spec.arguments.cwd maxLength", args.Properties["cwd"].MaxLength, toolcall.MaxCwdLength},
		{"spec.arguments.extra maxProperties", args.Properties["extra"].MaxProperties, toolcall.MaxExtraKeys},
	} {
		if c.got == nil || *c.got != int64(c.want) {
			t.Errorf("%s: the CRD says %v, toolcall %d", c.name, c.got, c.want)
		}
	}
}

// An invocation the CRD would refuse is refused by Build, naming the argument or the claim, so
// that a front door answers it as bad input rather than as the API server's failure.
func TestBuildRefusesWhatTheCRDRefuses(t *testing.T) {
	m := toolcall.ArgumentMap{Command: "cmd", Paths: []string{"path", "paths"}, Cwd: "dir"}
	tree := toolcall.ArgumentMap{TreePaths: []string{"root"}, SearchPattern: "q"}
	list := func(n int) string { return `[` + strings.TrimSuffix(strings.Repeat(`"a",`, n), ",") + `]` }
	keys := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"k` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `_` + strings.Repeat("1", i/26) + `":1`)
		}
		return "{" + b.String() + "}"
	}
	call := func(m toolcall.ArgumentMap, args string) toolcall.Invocation {
		return toolcall.Invocation{Tool: "t", Map: m, Cwd: "/", Arguments: json.RawMessage(args)}
	}
	cases := []struct {
		name, wantErr string
		inv           toolcall.Invocation
	}{
		{name: "a long tool name", wantErr: "the tool's name is 254 characters, more than 253",
			inv: toolcall.Invocation{Tool: strings.Repeat("t", 254)}},
		{name: "a step that is no DNS label", wantErr: `step "Step One" is not a DNS label`,
			inv: toolcall.Invocation{Tool: "t", Step: "Step One"}},
		{name: "a long step", wantErr: "is not a DNS label",
			inv: toolcall.Invocation{Tool: "t", Step: strings.Repeat("s", 64)}},
		{name: "a long sandbox id", wantErr: "the sandbox id is 254 characters, more than 253",
			inv: toolcall.Invocation{Tool: "t", SandboxID: strings.Repeat("s", 254)}},
		{name: "a long command", wantErr: `argument "cmd" (the command) is 8193 characters, more than 8192`,
			inv: call(m, `{"cmd":"`+strings.Repeat("c", 8193)+`"}`)},
		{name: "a long path", wantErr: `argument "paths" holds a path of 1025 characters, more than 1024`,
			inv: call(m, `{"paths":["a","`+strings.Repeat("é", 1025)+`"]}`)},
		{name: "too many paths",
			wantErr: `the arguments name 33 paths (argument "paths" brings them past the limit), more than 32`,
			inv:     call(m, `{"path":"a","paths":`+list(32)+`}`)},
		{name: "too many roots", wantErr: "the arguments name 33 paths",
			inv: call(tree, `{"root":`+list(33)+`}`)},
		{name: "a long search", wantErr: `the search of arguments ["root"] is`,
			inv: call(tree, `{"root":`+list(32)+`,"q":"`+strings.Repeat("q", 8192)+`"}`)},
		{name: "a long working directory",
			wantErr: `the working directory (argument "dir", resolved from the tool's own) is 1025 characters`,
			inv:     call(m, `{"dir":"`+strings.Repeat("d", 1024)+`"}`)},
		{name: "too many extra keys", wantErr: "hold 257 keys, more than 256",
			inv: call(m, keys(257))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := toolcall.Build(tc.inv)
			if bad, ok := errors.AsType[*toolcall.BadInvocationError](err); !ok || !strings.Contains(bad.Error(), tc.wantErr) {
				t.Fatalf("Build() error = %v, want a BadInvocationError containing %q", err, tc.wantErr)
			}
		})
	}
	// Each bound itself is allowed: at it, nothing is refused.
	atBounds := []toolcall.Invocation{
		{Tool: strings.Repeat("t", 253), Step: strings.Repeat("s", 63), SandboxID: strings.Repeat("s", 253)},
		call(m, `{"cmd":"`+strings.Repeat("c", 8192)+`","paths":`+list(31)+
			`,"path":"`+strings.Repeat("é", 1024)+`","dir":"/`+strings.Repeat("d", 1023)+`"}`),
		call(m, keys(256)),
	}
	for i, inv := range atBounds {
		if _, err := toolcall.Build(inv); err != nil {
			t.Errorf("invocation %d at the bounds: %v", i, err)
		}
	}
}
