package policy_test

import (
	"os"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/argrules"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/testenv"
)

// The sample project's argument rules are the ones docs/argument-rules.md teaches, so an admin
// copies them: each respelling of a payment an agent may try is refused by them, and ordinary
// payments are not.
func TestTheSampleArgumentRulesHoldAgainstRespellings(t *testing.T) {
	set := sampleArgumentRules(t)
	cases := []struct {
		name, extra, cwd string
		deny             bool
	}{
		{name: "an ordinary payment", extra: `{"amount": 120.5, "recipient": "ops.team+rent@example.com", "memo": "rent"}`},
		{name: "an ordinary payment in the workspace", extra: `{"amount": 1, "recipient": "a@example.com"}`, cwd: "/workspace"},
		{name: "a payment at the limit", extra: `{"amount": 400, "recipient": "a@example.com"}`, deny: true},
		{name: "a negative amount", extra: `{"amount": -100000, "recipient": "a@example.com"}`, deny: true},
		{name: "no amount", extra: `{"recipient": "a@example.com"}`, deny: true},
		{name: "a list of recipients", extra: `{"amount": 1, "recipient": "x@evil.io,y@example.com"}`, deny: true},
		{name: "recipients separated by a space", extra: `{"amount": 1, "recipient": "x@evil.io y@example.com"}`, deny: true},
		{name: "a display name", extra: `{"amount": 1, "recipient": "<x@evil.io> y@example.com"}`, deny: true},
		{name: "a second @", extra: `{"amount": 1, "recipient": "x@evil.io@example.com"}`, deny: true},
		{name: "a quoted local part", extra: `{"amount": 1, "recipient": "\"x@evil.io\"@example.com"}`, deny: true},
		{name: "a trailing newline", extra: `{"amount": 1, "recipient": "a@example.com\n"}`, deny: true},
		{name: "a percent-encoded @", extra: `{"amount": 1, "recipient": "x%40evil.io@example.com"}`, deny: true},
		{name: "a full-width @", extra: `{"amount": 1, "recipient": "x@evil.io＠example.com"}`, deny: true},
		{name: "a subdomain of another domain", extra: `{"amount": 1, "recipient": "a@example.com.evil.io"}`, deny: true},
		{name: "a list instead of a string", extra: `{"amount": 1, "recipient": ["x@evil.io", "a@example.com"]}`, deny: true},
		{name: "a cwd climbing out of the workspace", extra: `{"amount": 1, "recipient": "a@example.com"}`, cwd: "/workspace/../etc", deny: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			call := &safetyv1alpha1.AgentToolCall{Spec: safetyv1alpha1.AgentToolCallSpec{Tool: "send-payment",
				Arguments: safetyv1alpha1.ToolArguments{Cwd: tc.cwd, Extra: &runtime.RawExtension{Raw: []byte(tc.extra)}}}}
			in, err := policy.ArgumentRuleInput(call)
			if err != nil {
				t.Fatal(err)
			}
			if v := set.Evaluate(in); (v != nil) != tc.deny {
				t.Fatalf("Evaluate(%s) = %+v, want denied %v", tc.extra, v, tc.deny)
			}
		})
	}
}

func sampleArgumentRules(t *testing.T) *argrules.Set {
	t.Helper()
	path, err := testenv.Path("config", "samples", "project_payments.yaml")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := testenv.DecodeYAML(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		if o.GetKind() != "ProjectPolicy" {
			continue
		}
		var pp safetyv1alpha1.ProjectPolicy
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, &pp); err != nil {
			t.Fatal(err)
		}
		set, errs := argrules.Compile(policy.ArgumentRulesFromProject(&pp.Spec))
		if errs != nil || set.Len() == 0 {
			t.Fatalf("the sample's argument rules: %v (%d)", errs, set.Len())
		}
		return set
	}
	t.Fatal("no ProjectPolicy in the sample")
	return nil
}
