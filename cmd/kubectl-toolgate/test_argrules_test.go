package main

import (
	"strings"
	"testing"
)

// The offline test applies the project's argument rules as the webhook does.
func TestTestArgumentRules(t *testing.T) {
	project := `apiVersion: safety.toolgate.dev/v1alpha1
kind: ProjectPolicy
metadata:
  name: project
  namespace: team-a
spec:
  argumentRules:
  - name: amount
    tools: [pay]
    expression: "args.amount < 400"
    message: payments stay below 400
`
	tool := `apiVersion: safety.toolgate.dev/v1alpha1
kind: AgentTool
metadata:
  name: pay
spec:
  writes: false
  actionClass: read
`
	call := func(extra string) string {
		return `apiVersion: safety.toolgate.dev/v1alpha1
kind: AgentToolCall
metadata:
  name: c1
  namespace: team-a
spec:
  plan: build-42
  tool: pay
  step: pay
  arguments:
    extra: ` + extra + "\n"
	}
	cases := []struct {
		extra, decision, reason, phrase string
		code                            int
	}{
		{extra: `{"amount": 399}`, decision: "allow", code: exitOK},
		{extra: `{"amount": 400}`, decision: "deny", reason: "ToolArgumentRuleViolated",
			phrase: "payments stay below 400", code: exitFailed},
		{extra: `{"amount": "1"}`, decision: "deny", reason: "ToolArgumentRuleViolated",
			phrase: "could not be evaluated", code: exitFailed},
	}
	for _, tc := range cases {
		f := file(t, "call.yaml", docs(yamlNoUnsafe, project, tool, call(tc.extra)))
		code, r := testJSON(t, "-f", f, "--profile", "no-unsafe")
		if code != tc.code || r.Decision != tc.decision || r.Reason != tc.reason || !strings.Contains(r.Message, tc.phrase) {
			t.Errorf("extra %s: exit %d, result %+v; want %s %s with %q", tc.extra, code, r, tc.decision, tc.reason, tc.phrase)
		}
	}
	f := file(t, "call.yaml", docs(yamlNoUnsafe, project, tool, call(`{"amount": 1, "Amount": 2}`)))
	code, _, errOut := runCLI(t, "test", "-f", f, "--profile", "no-unsafe")
	if code != exitUsage || !strings.Contains(errOut, "spec.arguments.extra") {
		t.Errorf("respelled keys: exit %d, stderr %q; want a usage error naming spec.arguments.extra", code, errOut)
	}
}
