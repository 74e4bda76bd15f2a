package policy

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// An approval pins a call's extra arguments too, compared in canonical form: approving a payment
// of 10 never admits one of 10000, whatever key order either was written in.
func TestApprovalPinsExtraArguments(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	extra := func(raw string) *runtime.RawExtension { return &runtime.RawExtension{Raw: []byte(raw)} }
	call := &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: "ns"},
		Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "p", Tool: "pay", Step: "s",
			Arguments: safetyv1alpha1.ToolArguments{Extra: extra(`{"amount": 10, "to": "a@example.com"}`)}}}
	approval := func(args *safetyv1alpha1.ToolArguments, digest string) *safetyv1alpha1.ToolApproval {
		return &safetyv1alpha1.ToolApproval{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", CreationTimestamp: metav1.NewTime(now.Add(-time.Minute))},
			Spec: safetyv1alpha1.ToolApprovalSpec{Plan: "p", Tool: "pay", ExpirationSeconds: 120, Uses: 1,
				Arguments: args, ArgumentsDigest: digest},
		}
	}
	reordered := safetyv1alpha1.ToolArguments{Extra: extra(`{"to":"a@example.com","amount":10}`)}
	other := safetyv1alpha1.ToolArguments{Extra: extra(`{"amount": 10000, "to": "a@example.com"}`)}
	for name, tc := range map[string]struct {
		a    *safetyv1alpha1.ToolApproval
		want string
	}{
		"the same extra arguments in another order": {approval(&reordered, ""), ""},
		"other extra arguments":                     {approval(&other, ""), "other arguments"},
		"no extra arguments":                        {approval(&safetyv1alpha1.ToolArguments{}, ""), "other arguments"},
		"the digest of the same in another order":   {approval(nil, ArgumentsDigest(reordered)), ""},
		"the digest of other extra arguments":       {approval(nil, ArgumentsDigest(other)), "other arguments"},
	} {
		got := ApprovalMismatch(tc.a, call, now)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: got %q, want %q", name, got, tc.want)
		}
	}
	// The command spells the extra arguments out, in canonical form, for the person to read; past
	// MaxReadableExtra it pins them by their digest.
	cmd := ApprovalCommand(call)
	if want := ` --extra '{"amount":10,"to":"a@example.com"}'`; !strings.HasSuffix(cmd, want) {
		t.Errorf("ApprovalCommand = %s, want it to end with %s", cmd, want)
	}
	// Past MaxReadableExtra, or when the denial's redaction would hide a value (so the command
	// would approve other arguments), it pins them by their digest.
	for _, raw := range []string{`{"note": "` + strings.Repeat("x", MaxReadableExtra) + `"}`,
		`{"amount": 10, "password": "hunter2"}`} {
		pinned := call.DeepCopy()
		pinned.Spec.Arguments.Extra = extra(raw)
		if cmd, want := ApprovalCommand(pinned), "--arguments-digest "+ArgumentsDigest(pinned.Spec.Arguments); !strings.HasSuffix(cmd, want) {
			t.Errorf("ApprovalCommand = %s, want it to end with %s", cmd, want)
		}
	}
}
