package audit

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"k8s.io/apimachinery/pkg/runtime"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// readDecisions appends ds to a fresh journal and reads their fields back as replay does.
func readDecisions(t *testing.T, ds ...Decision) []DecisionFields {
	t.Helper()
	dir := t.TempDir()
	j, err := ledger.Open(Config(nil, dir, "w", nil))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = j.Close() }()
	l := &Log{Journal: j}
	for _, d := range ds {
		if err := l.RecordDecision(context.Background(), d); err != nil {
			t.Fatal(err)
		}
	}
	lines, err := ledger.Tail(dir, 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []DecisionFields
	for _, raw := range lines {
		var rec struct {
			Kind   string         `json:"kind"`
			Fields DecisionFields `json:"fields"`
		}
		if err := json.Unmarshal(raw, &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Kind == KindDecision {
			out = append(out, rec.Fields)
		}
	}
	return out
}

func TestDecisionRecordReadsBack(t *testing.T) {
	args := safetyv1alpha1.ToolArguments{Command: "go test ./...", Paths: []string{"src/a.go", "src/b.go"}, Cwd: "/workspace", ProjectDir: "/workspace"}
	pin := &ToolPin{UID: "5d7c0e1a-2b3c-4d5e-8f9a-0b1c2d3e4f5a", Generation: 3, Writes: true, Checkpointable: true, ActionClass: "execute", SkillCategory: "build"}
	facts := &Facts{AccumulatedCost: safety.MustParseMoney("1.25"), TotalCost: safety.MustParseMoney("40.1"), EarlierAttempts: 2,
		Repeats: 1, HumanApproved: true, RequireCheckpoints: true}
	d := Decision{Decision: "deny", Reason: "ToolSafetyViolation", Message: "no", Mode: "Enforce", Namespace: "ns", Plan: "p",
		Call: "c", Tool: "shell", Step: "s", Requester: "system:serviceaccount:ns:coder", SnapshotHash: "sha256:ab",
		Approval: "ns/a", RuleID: "damage-control:git-push-force", Class: "execute",
		Request: &CallRequest{UID: "0b9f6a2e-8c1d-4f5e-9a7b-3c2d1e0f4a5b", Arguments: args, SandboxID: "sbx-1"}, AgentTool: pin, Facts: facts}
	got := readDecisions(t, d)
	want := DecisionFields{Decision: "deny", Reason: "ToolSafetyViolation", Mode: "Enforce", Namespace: "ns", Plan: "p", Call: "c",
		UID: d.Request.UID, Tool: "shell", Step: "s", Requester: d.Requester, SnapshotHash: "sha256:ab", Approval: "ns/a",
		RuleID: d.RuleID, Class: "execute", Arguments: &args, ArgumentsDigest: policy.ArgumentsDigest(args), SandboxID: "sbx-1",
		AgentTool: pin, Facts: facts}
	if diff := cmp.Diff([]DecisionFields{want}, got, cmp.Comparer(func(a, b safety.Money) bool { return a.Cmp(b) == 0 })); diff != "" {
		t.Errorf("decision record read back (-want +got):\n%s", diff)
	}
}

// A credential in the command and a cut command both leave the recorded arguments unequal to the
// digest of the full ones: what tells replay (and an auditor) the record is not the whole call.
func TestDecisionArgumentsRedactedAndTruncatedAgainstTheirDigest(t *testing.T) {
	for name, cmd := range map[string]string{
		"bearer token": `curl -H "Authorization: Bearer abcdefghijklmnop0123456789" https://api.example.com`,
		"long":         "echo " + strings.Repeat("x", ledger.DefaultMaxStringLength), // longer than any admitted one
	} {
		t.Run(name, func(t *testing.T) {
			args := safetyv1alpha1.ToolArguments{Command: cmd}
			got := readDecisions(t, Decision{Decision: "allow", Request: &CallRequest{UID: "u", Arguments: args}})
			if len(got) != 1 || got[0].Arguments == nil {
				t.Fatalf("no arguments recorded: %+v", got)
			}
			if got[0].Arguments.Command == cmd {
				t.Fatalf("command recorded verbatim: %q", cmd)
			}
			if got[0].ArgumentsDigest != policy.ArgumentsDigest(args) {
				t.Errorf("digest %s is not the full arguments' %s", got[0].ArgumentsDigest, policy.ArgumentsDigest(args))
			}
			if policy.ArgumentsDigest(*got[0].Arguments) == got[0].ArgumentsDigest {
				t.Error("the recorded arguments match the digest, so nothing shows they were altered")
			}
		})
	}
}

// A call's extra arguments (an MCP tool's JSON) are recorded as JSON the journal redacts key by
// key: what the call asked for reads back and still hashes to its digest, so replay can apply
// the argument rules to it; a credential among them is redacted and the digest says so.
func TestDecisionExtraArgumentsRecorded(t *testing.T) {
	extra := func(raw string) safetyv1alpha1.ToolArguments {
		return safetyv1alpha1.ToolArguments{Paths: []string{"ledger.csv"}, Extra: &runtime.RawExtension{Raw: []byte(raw)}}
	}
	plain := extra(`{"amount":399.50,"memo":"rent","recipient":"ops@example.com","tags":["a","b"],"n":10000000000000000000}`)
	got := readDecisions(t, Decision{Decision: "allow", Request: &CallRequest{UID: "u", Arguments: plain}})
	if len(got) != 1 || got[0].Arguments == nil || got[0].Arguments.Extra == nil {
		t.Fatalf("no extra arguments recorded: %+v", got)
	}
	if d := policy.ArgumentsDigest(*got[0].Arguments); d != got[0].ArgumentsDigest || d != policy.ArgumentsDigest(plain) {
		t.Errorf("recorded extra arguments %s hash to %s, want the call's %s", got[0].Arguments.Extra.Raw, d, policy.ArgumentsDigest(plain))
	}
	secret := extra(`{"amount":1,"password":"hunter2-correct-horse"}`)
	got = readDecisions(t, Decision{Decision: "allow", Request: &CallRequest{UID: "u", Arguments: secret}})
	if len(got) != 1 || got[0].Arguments == nil || got[0].Arguments.Extra == nil {
		t.Fatalf("no extra arguments recorded: %+v", got)
	}
	if strings.Contains(string(got[0].Arguments.Extra.Raw), "hunter2") {
		t.Errorf("a password among the extra arguments was recorded: %s", got[0].Arguments.Extra.Raw)
	}
	if policy.ArgumentsDigest(*got[0].Arguments) == got[0].ArgumentsDigest {
		t.Error("the redacted extra arguments match the digest, so nothing shows they were altered")
	}
}
