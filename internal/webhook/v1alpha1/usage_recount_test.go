package v1alpha1

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// The committer's rules for taking over a plan, on the in-memory client: what a replica starting
// to decide a plan must count (its stored counters, raised to the calls that exist) and what a
// write that lost a race must keep. Through the API server, the replicas and accounting specs
// (replicas_test.go, accounting_test.go) hold the same rules end to end.

func recountWorld(t *testing.T, stored safetyv1alpha1.PlanUsage, calls ...safetyv1alpha1.AgentToolCall) (client.Client, *safetyv1alpha1.AgentPlan) {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	created := metav1.NewTime(time.Now().Add(-time.Hour).Truncate(time.Second))
	plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "plan-uid", CreationTimestamp: created},
		Status: safetyv1alpha1.AgentPlanStatus{Usage: stored, Tools: []safetyv1alpha1.PinnedTool{{Name: "paid", CostPerCall: quantity("0.5")}}}}
	objs := make([]client.Object, 0, 1+len(calls))
	objs = append(objs, plan)
	for i := range calls {
		calls[i].Namespace, calls[i].Spec.Plan = "ns", "p"
		if calls[i].CreationTimestamp.IsZero() {
			calls[i].CreationTimestamp = metav1.NewTime(created.Add(time.Minute))
		}
		objs = append(objs, &calls[i])
	}
	c := fake.NewClientBuilder().WithScheme(scheme).WithIndex(&safetyv1alpha1.AgentToolCall{}, controller.CallPlanIndex, controller.IndexCallPlan).
		WithStatusSubresource(&safetyv1alpha1.AgentPlan{}).WithObjects(objs...).Build()
	got := &safetyv1alpha1.AgentPlan{}
	if err := c.Get(context.Background(), client.ObjectKeyFromObject(plan), got); err != nil {
		t.Fatal(err)
	}
	return c, got
}

func quantity(s string) *resource.Quantity { return new(resource.MustParse(s)) }

func callOf(name, tool, step, reported string) safetyv1alpha1.AgentToolCall {
	c := safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: safetyv1alpha1.AgentToolCallSpec{Tool: tool, Step: step}}
	if reported != "" {
		c.Status.Cost = quantity(reported)
	}
	return c
}

// countersOf decides one request that adds nothing and returns the counters it saw.
func countersOf(t *testing.T, c *usageCommitter, plan *safetyv1alpha1.AgentPlan) policy.Usage {
	t.Helper()
	var seen policy.Usage
	if _, err := c.submit(context.Background(), plan, func(u *policy.Usage) (outcome, error) { seen = u.Clone(); return outcome{}, nil }); err != nil {
		t.Fatal(err)
	}
	return seen
}

func TestATakingOverReplicaCountsTheCallsItsPredecessorDidNotStore(t *testing.T) {
	// The status says one call; three exist (two of step a, one of b; one reported 0.8 on a tool
	// pinned at 0.5), and one belongs to an earlier plan of the same name.
	old := callOf("before", "paid", "a", "")
	old.CreationTimestamp = metav1.NewTime(time.Now().Add(-2 * time.Hour))
	c, plan := recountWorld(t, safetyv1alpha1.PlanUsage{Calls: 1, StepAttempts: map[string]int32{"a": 1}, AccumulatedCost: "0.5", ReservedCost: "0.5"},
		callOf("c1", "paid", "a", ""), callOf("c2", "paid", "a", "0.8"), callOf("c3", "free", "b", ""), old)
	committer := newUsageCommitter(c, c, newProjectTotals(c), time.Now)
	u := countersOf(t, committer, plan)
	want := policy.Usage{Calls: 3, Steps: map[string]int32{"a": 2, "b": 1}, Reserved: safety.MustParseMoney("1"),
		Accumulated: safety.MustParseMoney("1.3"), Reported: safety.MustParseMoney("0.8")}
	if !u.Equal(want) {
		t.Fatalf("counters after the recount: %+v, want %+v", u, want)
	}
	// The recount is stored, without any admission adding to it.
	assertStored(t, c, plan, want)
}

func TestTheStoredCountersWinWhereTheyAreHigher(t *testing.T) {
	// Calls were deleted after they were counted: the recount is lower, and lowers nothing.
	c, plan := recountWorld(t, safetyv1alpha1.PlanUsage{Calls: 7, StepAttempts: map[string]int32{"a": 5}, AccumulatedCost: "3", ReservedCost: "3"},
		callOf("c1", "paid", "a", ""), callOf("c2", "free", "b", ""))
	u := countersOf(t, newUsageCommitter(c, c, newProjectTotals(c), time.Now), plan)
	want := policy.Usage{Calls: 7, Steps: map[string]int32{"a": 5, "b": 1}, Reserved: safety.MustParseMoney("3"), Accumulated: safety.MustParseMoney("3")}
	if !u.Equal(want) {
		t.Fatalf("counters: %+v, want %+v", u, want)
	}
}

func TestAWriteThatLostARaceLowersNoCounter(t *testing.T) {
	c, plan := recountWorld(t, safetyv1alpha1.PlanUsage{})
	// The committer's first write waits until the other writer has written.
	gate := make(chan struct{})
	committer := newUsageCommitter(c, gatedStatus{c, gate}, newProjectTotals(c), time.Now)
	ctx := context.Background()
	if _, err := committer.submit(ctx, plan, func(u *policy.Usage) (outcome, error) { u.Admit("a", safety.Money{}); return outcome{}, nil }); err != nil {
		t.Fatal(err)
	}
	// Meanwhile another writer (a predecessor's late write) stored step b and more calls.
	other := &safetyv1alpha1.AgentPlan{}
	if err := c.Get(ctx, client.ObjectKeyFromObject(plan), other); err != nil {
		t.Fatal(err)
	}
	other.Status.Usage = safetyv1alpha1.PlanUsage{Calls: 4, StepAttempts: map[string]int32{"b": 4}}
	if err := c.Status().Update(ctx, other); err != nil {
		t.Fatal(err)
	}
	close(gate)
	store := &CounterStore{}
	store.attach(committer)
	if err := store.Store(ctx, client.ObjectKeyFromObject(plan)); err != nil {
		t.Fatal(err)
	}
	assertStored(t, c, plan, policy.Usage{Calls: 4, Steps: map[string]int32{"a": 1, "b": 4}})
}

// gatedStatus is c's status writer, whose writes wait until gate is closed.
type gatedStatus struct {
	c    client.Client
	gate chan struct{}
}

func (g gatedStatus) Status() client.SubResourceWriter { return gatedWriter{g.c.Status(), g.gate} }

type gatedWriter struct {
	client.SubResourceWriter
	gate chan struct{}
}

func (g gatedWriter) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	<-g.gate
	return g.SubResourceWriter.Update(ctx, obj, opts...)
}

func assertStored(t *testing.T, c client.Client, plan *safetyv1alpha1.AgentPlan, want policy.Usage) {
	t.Helper()
	// A minute: the flusher may wait out its real-time max interval (5 s in
	// TestABusyPlansCountersAreWrittenAtTheMaxIntervalAndAfterAPause) before it writes, and a loaded
	// CI stretches that wait's start too; 10 s left that little margin.
	deadline := time.Now().Add(time.Minute)
	for {
		u := storedUsage(t, c, plan)
		if u.Equal(want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("stored counters %+v, want %+v", u, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// storedUsage reads the plan's counters as the API server holds them.
func storedUsage(t *testing.T, c client.Client, plan *safetyv1alpha1.AgentPlan) policy.Usage {
	t.Helper()
	got := &safetyv1alpha1.AgentPlan{}
	if err := c.Get(context.Background(), client.ObjectKeyFromObject(plan), got); err != nil {
		t.Fatal(err)
	}
	u, err := policy.UsageOf(got)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
