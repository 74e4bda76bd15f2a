package replay

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// Plans are named after their task ("fix-bug"), and a plan deleted and created again under the
// same name is a new plan with its own spec and lock. Replay with candidates resolves each plan
// again as the plan controller would, and caches the resolution by the plan's name and the
// version of the configuration objects; creating a plan changes no configuration object, so the
// second plan's decisions are replayed under the first plan's resolution. Here the second "p"
// names the built-in read-only profile and its write was denied; replayed under a candidate that
// changes nothing for namespace ns, that denial must stay a denial.
func TestReplayResolvesAPlanRecreatedUnderTheSameNameAgain(t *testing.T) {
	f := newFixture(t) // plan ns/p under "unrestricted", locked
	ctx := context.Background()
	if got := f.decide("read-src", true, safetyv1alpha1.ToolArguments{Paths: []string{"src/a.go"}}); got != "allow" {
		t.Fatalf("read-src: %s", got)
	}

	// ns/p is deleted and created again, read-only.
	second := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "plan-uid-2"},
		Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "coder",
			ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: safety.BuiltinReadOnly}}}
	if err := f.log.RecordConfig(ctx, audit.ConfigChange{Kind: "AgentPlan", Namespace: "ns", Name: "p", UID: "plan-uid",
		Operation: audit.ConfigDelete, Requester: "admin"}); err != nil {
		t.Fatal(err)
	}
	if err := f.log.RecordPlan(ctx, audit.Plan{Decision: "allow", Operation: audit.PlanCreate, Namespace: "ns", Name: "p",
		UID: "plan-uid-2", ServiceAccount: "coder", Profile: "SafetyProfile/" + safety.BuiltinReadOnly}); err != nil {
		t.Fatal(err)
	}
	snap, err := resolveWith(nil, second)
	if err != nil {
		t.Fatal(err)
	}
	second.Status.Snapshot = snap
	lock, err := audit.LockChange(second, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.log.RecordConfig(ctx, lock); err != nil {
		t.Fatal(err)
	}
	pol, err := policy.CompileSnapshot(snap)
	if err != nil {
		t.Fatal(err)
	}
	args := safetyv1alpha1.ToolArguments{Paths: []string{"src/a.go"}}
	call := safety.Call{Tool: safety.Tool{Name: "write", Writes: true, ActionClass: safety.ClassWrite},
		Args: safety.Arguments{Paths: args.Paths}}
	got := safety.Evaluate(pol, call)
	if got.Allowed() {
		t.Fatalf("fixture: a write under read-only was allowed: %+v", got)
	}
	if err := f.log.RecordDecision(ctx, audit.Decision{Decision: verdict(got), Reason: got.Reason, RuleID: got.RuleID,
		Namespace: "ns", Plan: "p", Call: "write-src", Tool: "write", SnapshotHash: snap.Hash,
		Request:   &audit.CallRequest{UID: "write-src-uid", Arguments: args},
		AgentTool: &audit.ToolPin{UID: "tool-uid-w", Generation: 1, ActionClass: "write", Writes: true},
		Facts:     audit.FactsOf(call, false)}); err != nil {
		t.Fatal(err)
	}

	// Under the recorded snapshots, nothing flips.
	rep, err := Replay(ctx, f.dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Flips) != 0 || rep.Replayed != 2 {
		t.Fatalf("recorded snapshots: replayed %d, flips %+v, unreplayable %+v", rep.Replayed, rep.Flips, rep.Unreplayable)
	}
	// Under a candidate for another namespace, nothing may flip either.
	elsewhere := &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: "other", Name: "project"},
		Spec: safetyv1alpha1.ProjectPolicySpec{PathPolicy: &safetyv1alpha1.PathPolicy{ZeroAccess: []string{"src/"}}}}
	rep, err = Replay(ctx, f.dir, []client.Object{elsewhere})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Flips) != 0 {
		t.Errorf("a candidate for another namespace flips %+v: the recreated plan was replayed under the first plan's profile", rep.Flips)
	}
}
