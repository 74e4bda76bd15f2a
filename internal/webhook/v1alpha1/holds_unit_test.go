package v1alpha1

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// A hold ends at its call's release, once, or at its until; a call held already keeps its first
// hold; and the table's order stays within twice the calls it holds however many come and go.
func TestAHoldEndsAtItsReleaseOnceOrAtItsUntil(t *testing.T) {
	m := safety.MustParseMoney
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	var h heldCalls
	h.hold("a", heldCall{amount: m("0.9"), until: start.Add(holdTTL)})
	h.hold("b", heldCall{amount: m("0.5"), until: start.Add(holdTTL + time.Minute)})
	h.hold("a", heldCall{amount: m("7"), until: start.Add(2 * holdTTL)}) // the same call again: its first hold stands
	h.hold("free", heldCall{amount: safety.Money{}, until: start.Add(holdTTL)})
	for _, step := range []struct {
		name string
		do   func() bool
		at   time.Time
		want string
	}{
		{"both held", func() bool { return true }, start, "1.4"},
		{"a released", func() bool { return h.release("a") }, start, "0.5"},
		{"a released again: nothing more", func() bool { return !h.release("a") }, start, "0.5"},
		{"b before its until", func() bool { return true }, start.Add(holdTTL + time.Minute - time.Nanosecond), "0.5"},
		{"b at its until", func() bool { return true }, start.Add(holdTTL + time.Minute), "0"},
		{"b released after it ended: nothing", func() bool { return !h.release("b") }, start.Add(2 * holdTTL), "0"},
	} {
		if !step.do() {
			t.Fatalf("%s: the release did not do what it should", step.name)
		}
		h.expire(step.at)
		if got := h.held(); got != m(step.want) {
			t.Fatalf("%s: outstanding %s, want %s", step.name, got, step.want)
		}
	}
	if charged, ok := h.chargedFor("b"); !ok || charged != m("0.5") {
		t.Errorf("b's hold ended unreported: charged %s (%v), want 0.5", charged, ok)
	}
	if _, ok := h.chargedFor("a"); ok {
		t.Errorf("a was released, and charged all the same")
	}
	// A recount on an API server whose clock runs ahead finds b again: it is not held, nor charged, twice.
	h.hold("b", heldCall{amount: m("0.5"), until: start.Add(3 * holdTTL)})
	if len(h.byCall) != 0 {
		t.Errorf("b, charged already, is held again")
	}

	for i := range 10 * maxHeldCalls {
		call := types.UID(fmt.Sprintf("c-%d", i))
		h.hold(call, heldCall{amount: m("0.1"), until: start.Add(holdTTL + time.Duration(i))})
		if i%2 == 0 {
			h.release(call)
		}
		if len(h.order) > 2*len(h.byCall)+64 {
			t.Fatalf("after %d calls the order holds %d entries for %d calls held", i+1, len(h.order), len(h.byCall))
		}
	}
	if !h.full() {
		t.Errorf("%d calls held, and the table is not full", len(h.byCall))
	}
	h.expire(start)
	if got, want := h.held(), m("0.1").Nanos()*int64(len(h.byCall)); got.Nanos() != want {
		t.Errorf("outstanding %s, want %s", got, safety.MoneyFromNanos(want))
	}
}

// A replica that takes a plan over recounts the holds from the calls stored: each call of a tool
// with a ceiling whose cost its reporter has not said is final (CallCostFinalCondition) and that
// was created less than holdTTL ago. A call with a cost but no final phase may cost more yet, and
// still holds; so does one with a cost and a final phase the agent may have written after it.
func TestARecountHoldsForTheCallsNotFinallyReported(t *testing.T) {
	now := time.Now()
	final := toolcall.CostFinal("the plan's reporter", metav1.NewTime(now))
	reported := callOf("reported", "capped", "b", "0.4")
	reported.Status.Phase, reported.Status.Conditions = safetyv1alpha1.CallPhaseSucceeded, []metav1.Condition{final}
	reportedRunning := callOf("reported-running", "capped", "b", "0.3") // the reporter's word, whatever the phase
	reportedRunning.Status.Phase, reportedRunning.Status.Conditions = safetyv1alpha1.CallPhaseRunning, []metav1.Condition{final}
	growing := callOf("growing", "capped", "c", "0.2")
	growing.Status.Phase = safetyv1alpha1.CallPhaseRunning
	// The agent marked it finished after its reporter's cost, reported while it ran: nothing says
	// that cost is final.
	agentFinishedAfterCost := callOf("agent-finished-after-cost", "capped", "c", "0.2")
	agentFinishedAfterCost.Status.Phase = safetyv1alpha1.CallPhaseSucceeded
	stale := callOf("stale", "capped", "d", "")
	stale.CreationTimestamp = metav1.NewTime(now.Add(-holdTTL - time.Minute))
	agentSaysDone := callOf("agent-says-done", "capped", "e", "")
	agentSaysDone.Status.Phase = safetyv1alpha1.CallPhaseSucceeded
	calls := []safetyv1alpha1.AgentToolCall{callOf("running", "capped", "a", ""), reported, reportedRunning, growing,
		agentFinishedAfterCost, stale, agentSaysDone, callOf("uncapped", "paid", "f", "")}
	for i := range calls {
		calls[i].UID = types.UID(calls[i].Name)
		if calls[i].CreationTimestamp.IsZero() {
			calls[i].CreationTimestamp = metav1.NewTime(now.Add(-time.Minute)) // in flight
		}
	}
	committer := heldWorld(t, calls...)
	plan := planP(t, committer.live)
	countersOf(t, committer, plan)
	held := committer.plans[client.ObjectKeyFromObject(plan)].held
	if got, want := held.held(), safety.MustParseMoney("3.6"); got != want {
		t.Fatalf("outstanding after the recount %s, want %s (running, growing, agent-finished-after-cost, agent-says-done)", got, want)
	}
	for _, call := range []types.UID{"running", "growing", "agent-finished-after-cost", "agent-says-done"} {
		if _, ok := held.byCall[call]; !ok {
			t.Errorf("call %s holds nothing after the recount", call)
		}
	}
}

// heldWorld is recountWorld's plan naming a cost reporter, with the tool "capped" pinned at
// costPerCall 0.1 and maxCostPerCall 1: each of its calls holds 0.9 until its final report.
func heldWorld(t *testing.T, calls ...safetyv1alpha1.AgentToolCall) *usageCommitter {
	t.Helper()
	c, plan := recountWorld(t, safetyv1alpha1.PlanUsage{}, calls...)
	plan.Spec.CostReporter = &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount, Name: "meter"}
	if err := c.Update(context.Background(), plan); err != nil { // the status is the subresource's to write
		t.Fatal(err)
	}
	plan.Status.Snapshot = &safetyv1alpha1.PlanSnapshot{Safety: safetyv1alpha1.SafetyProfileSpec{MaxCostPerPlan: quantity("10")}}
	plan.Status.Tools = append(plan.Status.Tools, safetyv1alpha1.PinnedTool{Name: "capped", CostPerCall: quantity("0.1"), MaxCostPerCall: quantity("1")})
	if err := c.Status().Update(context.Background(), plan); err != nil {
		t.Fatal(err)
	}
	return newUsageCommitter(c, c, newProjectTotals(c), time.Now)
}

// admitHeld admits a call of step "a" at the capped tool's reservation (0.1) and has it hold the
// rest of its ceiling (0.9) until holdTTL from the committer's now, as an admission does
// (agenttoolcall_facts.go): the namespace's totals see the hold too.
func admitHeld(t *testing.T, committer *usageCommitter, plan *safetyv1alpha1.AgentPlan, call types.UID) {
	t.Helper()
	reserve := safety.MustParseMoney("0.1")
	if _, err := committer.submitWith(context.Background(), plan, func(p *planCounters) (outcome, error) {
		p.u.Admit("a", reserve)
		p.held.hold(call, heldCall{amount: safety.MustParseMoney("0.9"), reserve: reserve, until: committer.nowFunc().Add(holdTTL)})
		committer.totals.observeHeld(plan, p.held.held())
		return outcome{}, nil
	}); err != nil {
		t.Fatal(err)
	}
}

// A hold that ends unreported is charged: the call costs its ceiling (what its reports added so
// far included, not on top), and a late report counts only what it states beyond it.
func TestAHoldThatEndsUnreportedIsChargedOnce(t *testing.T) {
	committer := heldWorld(t)
	clk := clocktesting.NewFakePassiveClock(time.Now()) // read by the flusher too
	committer.nowFunc = clk.Now
	plan := planP(t, committer.live)
	reserve := safety.MustParseMoney("0.1")
	admitHeld(t, committer, plan, "late")
	late := callOf("late", "capped", "a", "")
	late.UID = "late"
	for _, step := range []struct {
		name          string
		advance       time.Duration
		before, after string // a report, if after is set
		want          string
	}{
		{"held, not charged", holdTTL / 2, "", "", "0.1"},
		{"a report while it runs counts as reported", 0, "0", "0.4", "0.4"},
		{"still held just before its until", holdTTL/2 - time.Second, "", "", "0.4"},
		{"ended unreported: charged up to its ceiling, what the report added included", time.Second, "", "", "1"},
		{"a later decision charges nothing more", holdTTL, "", "", "1"},
		{"a late report within the ceiling adds nothing", 0, "0.4", "0.5", "1"},
		{"one beyond it adds what is beyond", 0, "0.5", "1.5", "1.5"},
	} {
		clk.SetTime(clk.Now().Add(step.advance))
		if step.after != "" {
			if err := committer.settle(context.Background(), plan, late.UID,
				&costReport{reserve, safety.MustParseMoney(step.before), safety.MustParseMoney(step.after)}, false); err != nil {
				t.Fatal(err)
			}
			late.Status.Cost = quantity(step.after)
		}
		if got := countersOf(t, committer, plan).Accumulated; got != safety.MustParseMoney(step.want) {
			t.Fatalf("%s: accumulated %s, want %s", step.name, got, step.want)
		}
	}
}

// A report of a call admitted before a re-lock counts from what its admission reserved, as its
// hold recorded it, while it holds and after its hold was charged: policy.ReservedBy can then only
// say that the plan no longer pins its price (nothing), which counted the reservation twice.
func TestAReportAfterARelockCountsFromWhatTheCallsHoldRecorded(t *testing.T) {
	committer := heldWorld(t)
	clk := clocktesting.NewFakePassiveClock(time.Now())
	committer.nowFunc = clk.Now
	plan := planP(t, committer.live)
	admitHeld(t, committer, plan, "early") // reserved 0.1, holds 0.9
	early := callOf("early", "capped", "a", "")
	early.UID = "early"
	nothing := safety.Money{} // what policy.ReservedBy says of it after a re-lock
	for _, step := range []struct {
		name          string
		advance       time.Duration
		before, after string
		want          string
	}{
		{"a report while it holds counts beyond its 0.1", 0, "0", "0.3", "0.3"},
		{"its hold ends unreported: charged up to its ceiling", holdTTL, "", "", "1"},
		{"a late report counts beyond the ceiling, 0.1 and 0.9", 0, "0.3", "1.2", "1.2"},
	} {
		clk.SetTime(clk.Now().Add(step.advance))
		if step.after != "" {
			if err := committer.settle(context.Background(), plan, early.UID,
				&costReport{nothing, safety.MustParseMoney(step.before), safety.MustParseMoney(step.after)}, false); err != nil {
				t.Fatal(err)
			}
			early.Status.Cost = quantity(step.after)
		}
		if got := countersOf(t, committer, plan).Accumulated; got != safety.MustParseMoney(step.want) {
			t.Fatalf("%s: accumulated %s, want %s", step.name, got, step.want)
		}
	}
}

// A hold past its until counts in the other plans' view of the namespace's total until its plan
// is charged for it, however long the plan stays idle; deleting the plan charges it with the rest.
func TestAnEndedHoldCountsForOthersUntilChargedAndIsSettledWithItsPlan(t *testing.T) {
	committer := heldWorld(t)
	clk := clocktesting.NewFakePassiveClock(time.Now()) // read by the flusher too
	committer.nowFunc = clk.Now
	ctx := context.Background()
	api := committer.live.(client.Client)
	plan := planP(t, api)
	reserve := safety.MustParseMoney("0.1")
	admitHeld(t, committer, plan, "idle")
	clk.SetTime(clk.Now().Add(2 * holdTTL)) // the plan makes no decision meanwhile
	total, err := committer.totals.total(ctx, "ns", "another-plan", safety.Money{}, clk.Now())
	if err != nil {
		t.Fatal(err)
	}
	if want := safety.MustParseMoney("1"); total != want {
		t.Fatalf("another plan sees the namespace's total at %s, want %s: the ended hold is spent, if not yet charged", total, want)
	}
	store := &CounterStore{}
	store.attach(committer)
	if err := store.Seal(ctx, plan); err != nil {
		t.Fatal(err)
	}
	assertStored(t, api, plan, policy.Usage{Calls: 1, Steps: map[string]int32{"a": 1}, Reserved: reserve, Accumulated: safety.MustParseMoney("1")})
}

// A plan whose calls hold part of its budget stays in memory while idle, for its next decision to
// charge what ends unreported; once the plan is deleted no decision of it comes, and its counters
// are forgotten with the holds (its spend was settled when it was sealed).
func TestADeletedPlanIsForgottenWithItsHolds(t *testing.T) {
	committer := heldWorld(t)
	clk := &termClock{now: time.Now()}
	committer.nowFunc = clk.Now
	ctx := context.Background()
	plan := planP(t, committer.live)
	admitHeld(t, committer, plan, "running")
	store := &CounterStore{}
	store.attach(committer)
	if err := store.Store(ctx, client.ObjectKeyFromObject(plan)); err != nil {
		t.Fatal(err)
	}
	kept := func() bool {
		clk.idle()
		committer.counters(types.NamespacedName{Namespace: "other", Name: fmt.Sprint(clk.Now().UnixNano())}) // sweeps
		committer.mu.Lock()
		defer committer.mu.Unlock()
		_, ok := committer.plans[client.ObjectKeyFromObject(plan)]
		return ok
	}
	if !kept() {
		t.Fatal("an idle plan with a call in flight was forgotten: its hold would never be charged")
	}
	committer.planDeleted(plan)
	if kept() {
		t.Fatal("a deleted plan's counters stayed in memory for a hold no decision will ever end")
	}
	committer.mu.Lock()
	defer committer.mu.Unlock()
	if len(committer.deleted) != 0 {
		t.Fatalf("the deleted plan is still noted once forgotten: %v", committer.deleted)
	}
}

// A replica that takes over a plan being deleted recounts the holds of its calls in flight, and
// seals it with them charged: the load that finds the plan being deleted seals it too, and that
// must not skip the charge, or deleting the plan gives back what its calls in flight held.
func TestSealAfterATakeoverChargesTheRecountedHolds(t *testing.T) {
	running := callOf("running", "capped", "a", "")
	running.UID, running.CreationTimestamp = "running", metav1.NewTime(time.Now().Truncate(time.Second))
	committer := heldWorld(t, running)
	ctx := context.Background()
	api := committer.live.(client.Client)
	plan := deletePlan(t, api)
	store := &CounterStore{}
	store.attach(committer)
	if err := store.Seal(ctx, plan); err != nil {
		t.Fatal(err)
	}
	reserve := safety.MustParseMoney("0.1")
	assertStored(t, api, plan, policy.Usage{Calls: 1, Steps: map[string]int32{"a": 1}, Reserved: reserve, Accumulated: safety.MustParseMoney("1")})
}

// The reporter's final report of a call that reaches the webhook after its plan was deleted, but
// before the plan is sealed, is counted: it releases the call's hold, so a report dropped as "the
// plan's spend is final" would take the call's cost out of the spend settled into the project.
func TestAFinalReportBeforeTheSealIsCountedInTheSettledSpend(t *testing.T) {
	committer := heldWorld(t)
	ctx := context.Background()
	api := committer.live.(client.Client)
	plan := planP(t, api)
	reserve := safety.MustParseMoney("0.1")
	admitHeld(t, committer, plan, "call")
	plan = deletePlan(t, api)
	call := callOf("call", "capped", "a", "")
	call.UID = "call"
	reported := call.DeepCopy()
	reported.Status.Phase, reported.Status.Cost = safetyv1alpha1.CallPhaseSucceeded, quantity("0.8")
	h := &AgentToolCallHandler{usage: committer, totals: committer.totals}
	tool := policy.ToolAsPinned(plan, &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: "capped"}})
	report, err := costReportOf(plan, tool, &call, reported)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.usage.settle(ctx, plan, call.UID, report, true); err != nil {
		t.Fatal(err)
	}
	store := &CounterStore{}
	store.attach(committer)
	if err := store.Seal(ctx, plan); err != nil {
		t.Fatal(err)
	}
	assertStored(t, api, plan, policy.Usage{Calls: 1, Steps: map[string]int32{"a": 1}, Reserved: reserve,
		Reported: safety.MustParseMoney("0.8"), Accumulated: safety.MustParseMoney("0.8")})
}

// deletePlan starts the deletion of plan ns/p, which its finalizer holds, and returns it as stored
// then (its deletionTimestamp set).
func deletePlan(t *testing.T, api client.Client) *safetyv1alpha1.AgentPlan {
	t.Helper()
	ctx := context.Background()
	plan := planP(t, api)
	// A patch, not an update: the committer's flusher may store the plan's counters meanwhile,
	// and an update of the plan as read would then conflict.
	base := plan.DeepCopy()
	plan.Finalizers = append(plan.Finalizers, safetyv1alpha1.PlanFinalizer)
	if err := api.Patch(ctx, plan, client.MergeFrom(base)); err != nil {
		t.Fatal(err)
	}
	if err := api.Delete(ctx, plan); err != nil {
		t.Fatal(err)
	}
	if err := api.Get(ctx, client.ObjectKeyFromObject(plan), plan); err != nil || plan.DeletionTimestamp == nil {
		t.Fatalf("the plan is not being deleted: %v", err)
	}
	return plan
}

// planP is plan ns/p as r reads it.
func planP(t *testing.T, r client.Reader) *safetyv1alpha1.AgentPlan {
	t.Helper()
	plan := &safetyv1alpha1.AgentPlan{}
	if err := r.Get(context.Background(), client.ObjectKey{Namespace: "ns", Name: "p"}, plan); err != nil {
		t.Fatal(err)
	}
	return plan
}
