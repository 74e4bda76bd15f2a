package main

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/policy"
)

// test prints the decision as the webhook words it: the agent's text in the message and the call
// shows as escapes.
func TestTestResultShowsHiddenText(t *testing.T) {
	r := &testResult{Decision: decisionDeny, Reason: "ToolSafetyViolation",
		Message: "command \"x\" is blocked; raw: rm -rf ~\x1b[2K\rls",
		Call:    resultCall{Namespace: "ns", Name: "c", Plan: "p\u202e", Tool: "t\u0085", Step: "s\u200b"}}
	var out strings.Builder
	r.print(&out)
	if got := out.String(); policy.Visible(got) != strings.ReplaceAll(got, "\n", `\n`) {
		t.Errorf("test printed characters that do not show as themselves:\n%q", got)
	}
	for _, want := range []string{`raw: rm -rf ~\x1B[2K\rls`, `plan p\u202E, tool t\u0085, step s\u200B`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("test printed\n%s\nwithout %s", out.String(), want)
		}
	}
}

// explain prints the plan's Locked condition, whose message may quote what the plan names.
func TestExplainShowsHiddenTextInTheCondition(t *testing.T) {
	ex := &explanation{Namespace: "ns", Plan: "p",
		Condition: &explainCondition{Status: "False", Reason: "ProfileNotFound",
			Message: "SafetyProfile x\x1b[2K\u202e is missing"}}
	var out strings.Builder
	ex.print(&out)
	if !strings.Contains(out.String(), `SafetyProfile x\x1B[2K\u202E is missing`) {
		t.Errorf("explain printed %q", out.String())
	}
}
