package audit

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// Review: the webhook reserves a denial's ArgumentBytes (the arguments' raw length) against the
// window's byte budget, but its record holds the arguments JSON-encoded: a byte the encoder
// escapes ('<', '>', '&', a control character) takes six bytes in the record. An agent that sends
// a window's denials at once, each of raw arguments that fit the budget together, has them all
// pass before any is charged, and the window's records are several times the budget.
func TestReviewEscapedArgumentsOverrunTheByteBudgetWhenConcurrent(t *testing.T) {
	f, clk, _ := floodFixture(t, 0)
	f.Settings = nil // the defaults: 60 denials, 64 KiB a minute
	ctx := t.Context()
	budget := FloodSettingsOf(nil).bytesPerWindow()
	const ns, requester = "ns", "system:serviceaccount:ns:coder"
	perCall := int(budget) / DefaultDeniedPerWindow * 9 / 10 // 60 of them reserve 90% of the budget
	call := &safetyv1alpha1.AgentToolCall{Spec: safetyv1alpha1.AgentToolCallSpec{SandboxID: "sbx",
		Arguments: safetyv1alpha1.ToolArguments{Command: "echo " + strings.Repeat("\x01", perCall-5)}}}
	var passed []DeniedCall
	for i := range DefaultDeniedPerWindow { // all in flight at once: none recorded yet
		d := DeniedCall{Namespace: ns, Requester: requester, Pod: "coder-0", Call: fmt.Sprintf("c-%d", i),
			Reason: "ToolSafetyViolation", Bytes: ArgumentBytes(call.Spec.Arguments)}
		if !f.Refuse(ctx, d) {
			passed = append(passed, d)
		}
	}
	before := f.Log.Journal.Stats().Bytes
	for _, d := range passed {
		if err := f.Log.RecordDecision(ctx, Decision{Decision: "deny", Reason: d.Reason, Mode: "Enforce",
			Message: "denied", Namespace: ns, Plan: "p", Call: d.Call, Tool: "shell", Step: "s", Requester: requester,
			RequesterPod: d.Pod, Request: RequestOf(call), Facts: &Facts{}}); err != nil {
			t.Fatal(err)
		}
	}
	written := f.Log.Journal.Stats().Bytes - before
	clk.Add(time.Minute)
	t.Logf("%d of %d concurrent denials of %d argument bytes passed; their records took %d bytes, budget %d",
		len(passed), DefaultDeniedPerWindow, perCall, written, budget)
	if written > 2*budget {
		t.Errorf("one window's denial records took %d bytes, %.1f times the window's budget of %d: the reservation "+
			"counts the arguments' raw length, the record holds them escaped", written, float64(written)/float64(budget), budget)
	}
}

// Review: reservations are matched to records by namespace, requester and call name, without the
// pod, though windows are per pod. Two agents of one ServiceAccount (pods coder-0 and coder-1)
// whose denials are in flight under one call name (the agent names its AgentToolCall; a denied
// one is never stored, so the name stays free) swap charges: coder-0's maximal record is charged
// to coder-1's window, and coder-1's next ordinary denial (10 KB of arguments) is refused RateLimited — losing its
// reason, approval hint and record — though coder-1 wrote one small record.
func TestReviewOnePodsRecordIsNotChargedToAnothersWindow(t *testing.T) {
	f, _, _ := floodFixture(t, 0)
	f.Settings = nil
	ctx := t.Context()
	const ns, requester = "ns", "system:serviceaccount:ns:coder"
	big, small := maximalCall(t), &safetyv1alpha1.AgentToolCall{Spec: safetyv1alpha1.AgentToolCallSpec{
		Arguments: safetyv1alpha1.ToolArguments{Command: "cat /etc/shadow"}}}
	record := func(d DeniedCall, call *safetyv1alpha1.AgentToolCall) {
		t.Helper()
		if err := f.Log.RecordDecision(ctx, Decision{Decision: "deny", Reason: d.Reason, Mode: "Enforce", Message: "denied",
			Namespace: ns, Plan: "p", Call: d.Call, Tool: "shell", Step: "s", Requester: requester,
			RequesterPod: d.Pod, Request: RequestOf(call), Facts: &Facts{}}); err != nil {
			t.Fatal(err)
		}
	}
	attacker := DeniedCall{Namespace: ns, Requester: requester, Pod: "coder-0", Call: "step-1", Reason: "ToolSafetyViolation",
		Bytes: ArgumentBytes(big.Spec.Arguments)}
	victim := DeniedCall{Namespace: ns, Requester: requester, Pod: "coder-1", Call: "step-1", Reason: "ToolSafetyViolation",
		Bytes: ArgumentBytes(small.Spec.Arguments)}
	if f.Refuse(ctx, attacker) || f.Refuse(ctx, victim) {
		t.Fatal("each pod's first denial of its window is recorded")
	}
	record(attacker, big)
	record(victim, small)
	victim.Call, victim.Bytes = "step-2", 8192+2*1024 // a script and two paths: well within a window's budget beside one small record
	if f.Refuse(ctx, victim) {
		t.Error("coder-1's second ordinary denial of the window was refused RateLimited: coder-0's maximal record, " +
			"in flight under the same call name, was charged to coder-1's window")
	}
}

// A reservation is never below what the encoder writes: each kind of byte it escapes or replaces.
func TestEncodedBytesBoundsTheEncoding(t *testing.T) {
	for _, s := range []string{"", "plain ascii", "\x01\x1f\x00", `<>&"\`, "\u2028\u2029", "\xff\xfe", "ü中𝄞",
		"a\xc3", "\xed\xa0\x80", strings.Repeat("\x01<\xff", 100)} {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := encodedBytes(s), len(b)-2; got < want {
			t.Errorf("encodedBytes(%q) = %d, below the %d bytes encoding/json writes", s, got, want)
		}
	}
}
