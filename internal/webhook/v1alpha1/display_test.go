package v1alpha1

import (
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// A denial's message reaches a person (kubectl prints it, the agent's operator reads it) and may
// hold the agent's text: whatever built the message, the answer writes every character that would
// not show as itself (an escape sequence, a carriage return, a bidi override) as an escape.
func TestDenialShowsHiddenText(t *testing.T) {
	d := denial{ReasonAgentIdentityMismatch, fieldPlan,
		"call c belongs to plan p\x1b[2K\rfine\u202e, which does not exist"}
	want := `call c belongs to plan p\x1B[2K\rfine\u202E, which does not exist`
	r := d.response().Result
	if r.Message != "["+ReasonAgentIdentityMismatch+"] "+want || r.Details.Causes[0].Message != want {
		t.Errorf("the denial says %q and its cause %q, want %q", r.Message, r.Details.Causes[0].Message, want)
	}
	if got := d.warning(); got != "["+ReasonAgentIdentityMismatch+"] "+want {
		t.Errorf("the warning says %q, want %q", got, want)
	}
}

// The approval command in a denial for want of approval shows the agent's command as it is: the
// person who runs it approves the call they read.
func TestApprovalDenialShowsTheCommandAsItIs(t *testing.T) {
	handler, _ := newBenchAgentToolCallHandler(t)
	c := handler.Reader.(client.Client) // the bench's in-memory cluster, which holds no approvals
	handler.approvals = &approvalGate{live: c, writer: c}
	h := newCallReviewServer(handler)
	command := "unknowncmd \u202e\u2066hidden\u2069 x\u200b"
	resp := serve(t, h, review(t, agentUser, benchCall("s", "shell", command))).Response
	if resp == nil || resp.Allowed || string(resp.Result.Details.Causes[0].Type) != safety.ReasonToolHumanApprovalRequired {
		t.Fatalf("want a denial for want of approval, got %+v", resp)
	}
	msg := resp.Result.Message
	if policy.Visible(msg) != msg {
		t.Errorf("the denial holds characters that do not show as themselves: %q", msg)
	}
	if want := `--command $'unknowncmd \u202E\u2066hidden\u2069 x\u200B'`; !strings.Contains(msg, want) {
		t.Errorf("the denial %s\ndoes not name the command as %s", msg, want)
	}
}
