package v1alpha1

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// The project total counts every plan's spend once: while it exists, while it is being settled
// (deleted from the informer before the ProjectPolicy shows it settled, or the other way round),
// and after.
func TestProjectTotalsCountEachPlanOnce(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	c := fake.NewClientBuilder().WithScheme(scheme).WithStatusSubresource(&safetyv1alpha1.ProjectPolicy{}).Build()
	ctx, now := context.Background(), time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	totals := newProjectTotals(c)
	plan := func(uid, cost string) *safetyv1alpha1.AgentPlan {
		return &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: uid, UID: types.UID(uid)},
			Status: safetyv1alpha1.AgentPlanStatus{Usage: safetyv1alpha1.PlanUsage{AccumulatedCost: cost}}}
	}
	want := func(step, total string, planUID types.UID, planCost string) {
		t.Helper()
		got, err := totals.total(ctx, "ns", planUID, safety.MustParseMoney(planCost), now)
		if err != nil {
			t.Fatal(err)
		}
		if got != safety.MustParseMoney(total) {
			t.Errorf("%s: total %s, want %s", step, got, total)
		}
	}
	settle := func(cost string, uids ...string) {
		t.Helper()
		pp := &safetyv1alpha1.ProjectPolicy{}
		err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "project"}, pp)
		if err != nil {
			pp = &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "project"}}
			if err := c.Create(ctx, pp); err != nil {
				t.Fatal(err)
			}
		}
		pp.Status.Settled = &safetyv1alpha1.SettledPlans{Cost: cost, UIDs: uids}
		if err := c.Status().Update(ctx, pp); err != nil {
			t.Fatal(err)
		}
	}

	totals.observe(plan("a", "1"))
	totals.observe(plan("b", "2"))
	want("two plans", "3", "a", "0")
	want("a's batch adds what it has decided and not written", "3.5", "a", "1.5")
	totals.observe(plan("a", "0.5"))
	want("a stale event never lowers a plan's figure", "3", "a", "0")

	totals.forget("ns", "a", now)
	want("a deleted before the ProjectPolicy shows it settled still counts", "3", "b", "0")
	settle("1", "a")
	want("then it counts once, as settled", "3", "b", "0")
	settle("1")
	want("and still once when its uid is dropped", "3", "b", "0")

	settle("3", "b")
	want("b settled while the informer still has it counts once", "3", "c", "0")
	totals.forget("ns", "b", now)
	want("and once after the informer forgets it", "3", "c", "0")

	totals.observe(plan("c", "1"))
	totals.forget("ns", "c", now)
	want("a deleted plan not yet settled counts", "4", "d", "0")
	now = now.Add(departedTTL + time.Second)
	want("a deleted plan never seen settled stops counting after departedTTL", "3", "d", "0")
}
