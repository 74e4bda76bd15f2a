package gateway

import (
	"context"
	"errors"
	"runtime"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// TestAMeteredTurnIsOnePlansAtATimeAndLeavesNothingBehind: a second call of the same plan waits
// for the first's release (or gives up with its context, changing nothing), another plan's call
// does not wait, and once every call has left no entry is kept for any plan.
func TestAMeteredTurnIsOnePlansAtATimeAndLeavesNothingBehind(t *testing.T) {
	var m meteredTurns
	first, err := m.wait(t.Context(), "ns/a")
	if err != nil {
		t.Fatal(err)
	}
	other, err := m.wait(t.Context(), "ns/b")
	if err != nil {
		t.Fatalf("another plan's call waited: %v", err)
	}
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := m.wait(cancelled, "ns/a"); !errors.Is(err, context.Canceled) {
		t.Fatalf("a second call of the plan, its context ended: %v, want it to give up", err)
	}
	got := make(chan error, 1)
	go func() {
		second, err := m.wait(t.Context(), "ns/a")
		if err == nil {
			second()
		}
		got <- err
	}()
	first()
	if err := <-got; err != nil {
		t.Fatalf("the second call after the first's release: %v", err)
	}
	other()
	m.mu.Lock()
	n := len(m.byPlan)
	m.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d plans still have an entry after every call left", n)
	}
}

// TestAPlansMeteredCallsWaitInABoundedQueue: with one call in turn and maxMeteredWaiting
// waiting, the next call of the plan is refused at once, and another plan's is not.
func TestAPlansMeteredCallsWaitInABoundedQueue(t *testing.T) {
	var m meteredTurns
	release, err := m.wait(t.Context(), "ns/a")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stopWaiting := context.WithCancel(t.Context())
	gaveUp := make(chan error, maxMeteredWaiting)
	for range maxMeteredWaiting {
		go func() {
			_, err := m.wait(ctx, "ns/a")
			gaveUp <- err
		}()
	}
	waiting := func() int {
		m.mu.Lock()
		defer m.mu.Unlock()
		return m.byPlan["ns/a"].users
	}
	for waiting() < 1+maxMeteredWaiting { // the waiters' goroutines have all queued
		runtime.Gosched()
	}
	if _, err := m.wait(t.Context(), "ns/a"); err == nil {
		t.Fatal("a call past the bound was queued")
	}
	other, err := m.wait(t.Context(), "ns/b")
	if err != nil {
		t.Fatalf("another plan's call: %v", err)
	}
	other()
	stopWaiting()
	for range maxMeteredWaiting {
		if err := <-gaveUp; !errors.Is(err, context.Canceled) {
			t.Fatalf("a waiter whose context ended: %v", err)
		}
	}
	release()
	if n := len(m.byPlan); n != 0 {
		t.Fatalf("%d plans keep an entry", n)
	}
}

// TestAPlanGoneBeforeItsTurnIsLeftToTheWebhook: a plan deleted between resolving the caller's
// plan and taking its metered turn takes no turn and no error, so the call is still submitted and
// the webhook refuses it (PlanNotFound) with a ledger record; a plan that names the gateway as its
// reporter takes the turn, and one that names another reporter does not.
func TestAPlanGoneBeforeItsTurnIsLeftToTheWebhook(t *testing.T) {
	scheme := kruntime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	const identity = "system:serviceaccount:toolgate-system:gateway"
	reporter := func(name string) *safetyv1alpha1.CostReporter {
		return &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount, Namespace: "toolgate-system", Name: name}
	}
	reader := fake.NewClientBuilder().WithScheme(scheme).WithObjects(
		&safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "ours"},
			Spec: safetyv1alpha1.AgentPlanSpec{CostReporter: reporter("gateway")}},
		&safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "theirs"},
			Spec: safetyv1alpha1.AgentPlanSpec{CostReporter: reporter("billing")}},
	).Build()
	g := &Gateway{reporter: &costReporter{reader: reader, identity: identity}}
	rt := &route{served: safetyv1alpha1.ServedTool{AgentTool: "metered", ReportsCost: true}}
	for _, c := range []struct {
		plan string
		turn bool
	}{{"gone", false}, {"theirs", false}, {"ours", true}} {
		turn, err := g.meteredTurn(t.Context(), "ns", c.plan, rt)
		if err != nil || (turn != nil) != c.turn {
			t.Errorf("plan %s: a turn %v, %v; want a turn %v and no error", c.plan, turn != nil, err, c.turn)
		}
		turn.end()
	}
}
