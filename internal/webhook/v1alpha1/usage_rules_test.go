package v1alpha1

import (
	"context"
	"errors"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// The committer's rules around a plan's end and a replica's stop, on the in-memory client (see
// usage_recount_test.go).

func admitOne(ctx context.Context, c *usageCommitter, plan *safetyv1alpha1.AgentPlan, step string) error {
	_, err := c.submit(ctx, plan, func(u *policy.Usage) (outcome, error) { u.Admit(step, safety.Money{}); return outcome{}, nil })
	return err
}

func TestASealedPlanCountsNothingMoreEvenForAStaleRead(t *testing.T) {
	c, plan := recountWorld(t, safetyv1alpha1.PlanUsage{})
	committer := newUsageCommitter(c, c, newProjectTotals(c), time.Now)
	store := &CounterStore{}
	store.attach(committer)
	ctx := context.Background()
	if err := admitOne(ctx, committer, plan, "a"); err != nil {
		t.Fatal(err)
	}
	// The plan controller settles the deleted plan; a request that read the plan before the
	// deletion (no deletionTimestamp in its copy) was still queued.
	if err := store.Seal(ctx, plan); err != nil {
		t.Fatal(err)
	}
	if err := admitOne(ctx, committer, plan.DeepCopy(), "b"); !errors.Is(err, errPlanSealed) {
		t.Fatalf("a decision after the seal: %v, want errPlanSealed", err)
	}
	assertStored(t, c, plan, policy.Usage{Calls: 1, Steps: map[string]int32{"a": 1}})
}

func TestSealingAfterATakeoverSettlesTheRecount(t *testing.T) {
	// This replica never decided the plan: its status says one call, three exist.
	c, plan := recountWorld(t, safetyv1alpha1.PlanUsage{Calls: 1, StepAttempts: map[string]int32{"a": 1}},
		callOf("c1", "free", "a", ""), callOf("c2", "free", "a", ""), callOf("c3", "free", "b", ""))
	store := &CounterStore{}
	store.attach(newUsageCommitter(c, c, newProjectTotals(c), time.Now))
	if err := store.Seal(context.Background(), plan); err != nil {
		t.Fatal(err)
	}
	assertStored(t, c, plan, policy.Usage{Calls: 3, Steps: map[string]int32{"a": 2, "b": 1}})
}

func TestAStaleRequestLeavesTheCurrentPlansCountsAlone(t *testing.T) {
	c, plan := recountWorld(t, safetyv1alpha1.PlanUsage{})
	gate := make(chan struct{})
	committer := newUsageCommitter(c, gatedStatus{c, gate}, newProjectTotals(c), time.Now)
	ctx := context.Background()
	for range 3 {
		if err := admitOne(ctx, committer, plan, "a"); err != nil {
			t.Fatal(err)
		}
	}
	stale := plan.DeepCopy()
	stale.UID = types.UID("an-earlier-plan-of-the-same-name")
	if err := admitOne(ctx, committer, stale, "a"); !errors.Is(err, errPlanReplaced) {
		t.Fatalf("a request with another plan's UID: %v, want errPlanReplaced", err)
	}
	close(gate)
	store := &CounterStore{}
	store.attach(committer)
	if err := store.Store(ctx, client.ObjectKeyFromObject(plan)); err != nil {
		t.Fatal(err)
	}
	assertStored(t, c, plan, policy.Usage{Calls: 3, Steps: map[string]int32{"a": 3}})
}

func TestAStoppedCommitterDecidesNothingAndStoresWhatItHeld(t *testing.T) {
	c, plan := recountWorld(t, safetyv1alpha1.PlanUsage{})
	committer := newUsageCommitter(c, c, newProjectTotals(c), time.Now)
	committer.flushInterval = time.Hour // only the stop writes
	ctx, cancel := context.WithCancel(context.Background())
	// The first decision's write goes at once (nothing written before); the second waits.
	for range 2 {
		if err := admitOne(context.Background(), committer, plan, "a"); err != nil {
			t.Fatal(err)
		}
	}
	cancel()
	if err := committer.Start(ctx); err != nil {
		t.Fatal(err)
	}
	assertStored(t, c, plan, policy.Usage{Calls: 2, Steps: map[string]int32{"a": 2}})
	if err := admitOne(context.Background(), committer, plan, "a"); !errors.Is(err, errStopping) {
		t.Fatalf("a decision after the stop: %v, want errStopping", err)
	}
}
