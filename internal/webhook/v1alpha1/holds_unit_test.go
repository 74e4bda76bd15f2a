package v1alpha1

import (
	"context"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// heldWorld is recountWorld's plan naming a cost reporter, with the tool "capped" pinned at
// costPerCall 0.1 and maxCostPerCall 1: each of its calls holds 0.9 until its first report.
func heldWorld(t *testing.T, calls ...safetyv1alpha1.AgentToolCall) *usageCommitter {
	t.Helper()
	c, plan := recountWorld(t, safetyv1alpha1.PlanUsage{}, calls...)
	plan.Spec.CostReporter = &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount, Name: "meter"}
	if err := c.Update(context.Background(), plan); err != nil { // the status is the subresource's to write
		t.Fatal(err)
	}
	plan.Status.Tools = append(plan.Status.Tools, safetyv1alpha1.PinnedTool{Name: "capped", CostPerCall: quantity("0.1"), MaxCostPerCall: quantity("1")})
	if err := c.Status().Update(context.Background(), plan); err != nil {
		t.Fatal(err)
	}
	return newUsageCommitter(c, c, newProjectTotals(c), time.Now)
}

// A replica that takes a plan over counts, from the calls that exist, what the unreported ones
// hold: a call with a reported cost has released its hold.
func TestARecountHoldsForTheCallsNotReportedYet(t *testing.T) {
	committer := heldWorld(t, callOf("c1", "capped", "a", ""), callOf("c2", "capped", "b", "0.4"), callOf("c3", "capped", "c", ""),
		callOf("c4", "paid", "d", ""))
	plan := &safetyv1alpha1.AgentPlan{}
	if err := committer.live.Get(context.Background(), client.ObjectKey{Namespace: "ns", Name: "p"}, plan); err != nil {
		t.Fatal(err)
	}
	u := countersOf(t, committer, plan)
	if got, want := [3]string{u.Held.String(), u.Released.String(), u.Outstanding().String()}, [3]string{"2.7", "0.9", "1.8"}; got != want {
		t.Fatalf("held, released, outstanding after the recount: %v, want %v", got, want)
	}
	if got, want := u.Accumulated.String(), "1.1"; got != want { // 0.1 + 0.4 + 0.1, and 0.5 for paid, which holds nothing
		t.Fatalf("accumulated %s, want %s", got, want)
	}
}

// The first report of a call releases what it held once, however often the API server asks about
// it (a store that failed, a conflict retry); a later report of the call releases nothing, and
// another call's first report releases its own hold.
func TestTheFirstReportReleasesItsCallsHoldOnce(t *testing.T) {
	committer := heldWorld(t)
	plan := &safetyv1alpha1.AgentPlan{}
	if err := committer.live.Get(context.Background(), client.ObjectKey{Namespace: "ns", Name: "p"}, plan); err != nil {
		t.Fatal(err)
	}
	held, reserve := safety.MustParseMoney("0.9"), safety.MustParseMoney("0.1")
	if _, err := committer.submit(context.Background(), plan, func(u *policy.Usage) (outcome, error) {
		for _, step := range []string{"a", "b"} {
			u.Admit(step, reserve)
			u.Hold(held)
		}
		return outcome{}, nil
	}); err != nil {
		t.Fatal(err)
	}
	first, second := callOf("c1", "capped", "a", ""), callOf("c2", "capped", "b", "")
	first.UID, second.UID = "uid-1", "uid-2"
	reportedFirst := first.DeepCopy()
	reportedFirst.Status.Cost = quantity("0.3")
	for _, step := range []struct {
		name     string
		old      *safetyv1alpha1.AgentToolCall
		r        callCost
		released string
	}{
		{"the first report", &first, callCost{reserve: reserve, held: held, after: safety.MustParseMoney("0.3")}, "0.9"},
		{"the same report asked about again", &first, callCost{reserve: reserve, held: held, after: safety.MustParseMoney("0.3")}, "0.9"},
		{"a later report of the same call", reportedFirst, callCost{reserve: reserve, held: held, before: safety.MustParseMoney("0.3"),
			after: safety.MustParseMoney("0.5")}, "0.9"},
		{"another call's first report, of cost 0", &second, callCost{reserve: reserve, held: held}, "1.8"},
	} {
		if err := committer.submitReport(context.Background(), plan, step.old, step.r); err != nil {
			t.Fatal(err)
		}
		if got := countersOf(t, committer, plan).Released.String(); got != step.released {
			t.Fatalf("%s: released %s, want %s", step.name, got, step.released)
		}
	}
	if got := countersOf(t, committer, plan).Accumulated.String(); got != "0.6" { // 0.5 for the first call, 0.1 for the second
		t.Fatalf("accumulated %s, want 0.6", got)
	}
}
