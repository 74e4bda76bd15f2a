package controller_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
)

// steppingClock moves on by step at every reading: a reconcile that reads the clock more than
// once sees time pass between the readings, as a slow status write makes it do.
type steppingClock struct {
	mu   sync.Mutex
	t    time.Time
	step time.Duration
}

func (c *steppingClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.t
	c.t = c.t.Add(c.step)
	return now
}

func (c *steppingClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// A plan whose deadline passes during its reconcile must not be left Active=True with nothing
// scheduled to end it: either the reconcile already wrote Active=False, or it asks to run again.
func TestReconcileNeverLeavesAnActivePlanWithoutItsDeadlineRequeue(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	created := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	deadline := created.Add(time.Second)
	for _, start := range []time.Duration{-900, -500, -300, -100, -10, 0, 200} {
		for _, step := range []time.Duration{50, 200, 400, 800} {
			plan := &safetyv1alpha1.AgentPlan{
				ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "brief", CreationTimestamp: metav1.NewTime(created),
					Finalizers: []string{safetyv1alpha1.PlanFinalizer}},
				Spec:   safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "agent", ActiveDeadlineSeconds: new(int64(1))},
				Status: safetyv1alpha1.AgentPlanStatus{Snapshot: &safetyv1alpha1.PlanSnapshot{Epoch: 1, ProfileName: "unrestricted"}},
			}
			c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(plan).WithStatusSubresource(plan).Build()
			clk := &steppingClock{t: deadline.Add(start * time.Millisecond), step: step * time.Millisecond}
			r := &controller.AgentPlanReconciler{Client: c, APIReader: c, Clock: clk}
			res, err := r.Reconcile(context.Background(), ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "ns", Name: "brief"}})
			if err != nil {
				t.Fatalf("start %v, step %v: %v", start, step, err)
			}
			got := &safetyv1alpha1.AgentPlan{}
			if err := c.Get(context.Background(), types.NamespacedName{Namespace: "ns", Name: "brief"}, got); err != nil {
				t.Fatal(err)
			}
			active := meta.FindStatusCondition(got.Status.Conditions, safetyv1alpha1.AgentPlanActiveCondition)
			if active == nil {
				t.Fatalf("start %v, step %v: no Active condition written", start, step)
			}
			if active.Status == metav1.ConditionTrue && res.RequeueAfter <= 0 {
				t.Errorf("clock from deadline%+vms by %vms a reading: Active=True (%s) and no requeue to end it",
					int64(start), int64(step), active.Message)
			}
		}
	}
}
