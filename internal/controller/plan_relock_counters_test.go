package controller_test

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
)

// relockNotes records what the plan controller tells the webhook's counters of re-locks.
type relockNotes struct{ epochs []int32 }

func (*relockNotes) Seal(context.Context, *safetyv1alpha1.AgentPlan) error { return nil }
func (n *relockNotes) Relocked(plan *safetyv1alpha1.AgentPlan) {
	n.epochs = append(n.epochs, plan.Status.Snapshot.Epoch)
}

// The plan controller tells the webhook's counters of a re-lock as soon as it is written, so that
// no decision of the plan made after it uses the snapshot it replaced while the webhook's cache
// catches up (webhookv1alpha1's relock_stale_test.go); a reconcile that re-locks nothing tells
// nothing.
func TestTheCountersLearnOfARelockOnceItIsWritten(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	plan := &safetyv1alpha1.AgentPlan{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", CreationTimestamp: metav1.NewTime(now),
			Finalizers: []string{safetyv1alpha1.PlanFinalizer}},
		Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "agent"},
	}
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(plan).WithStatusSubresource(plan).
		WithIndex(&safetyv1alpha1.AgentPlan{}, safetyv1alpha1.AgentPlanServiceAccountField, controller.IndexPlanServiceAccount).Build()
	notes := &relockNotes{}
	r := &controller.AgentPlanReconciler{Client: c, APIReader: c, Clock: clocktesting.NewFakePassiveClock(now),
		Recorder: events.NewFakeRecorder(16), Counters: notes}
	key := types.NamespacedName{Namespace: "ns", Name: "p"}
	reconcile := func(step string) *safetyv1alpha1.AgentPlan {
		t.Helper()
		if _, err := r.Reconcile(context.Background(), ctrl.Request{NamespacedName: key}); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		got := &safetyv1alpha1.AgentPlan{}
		if err := c.Get(context.Background(), key, got); err != nil {
			t.Fatal(err)
		}
		return got
	}

	if got := reconcile("first lock"); got.Status.Snapshot == nil || got.Status.Snapshot.Epoch != 1 {
		t.Fatalf("first lock: snapshot %+v", got.Status.Snapshot)
	}
	reconcile("nothing asked")
	if len(notes.epochs) != 0 {
		t.Fatalf("told of re-locks %v before any", notes.epochs)
	}
	asked := &safetyv1alpha1.AgentPlan{}
	if err := c.Get(context.Background(), key, asked); err != nil {
		t.Fatal(err)
	}
	asked.Annotations = map[string]string{safetyv1alpha1.RelockAnnotation: "stop"}
	if err := c.Update(context.Background(), asked); err != nil {
		t.Fatal(err)
	}
	if got := reconcile("re-lock"); got.Status.Snapshot.Epoch != 2 {
		t.Fatalf("re-lock: epoch %d, want 2", got.Status.Snapshot.Epoch)
	}
	reconcile("the same token again")
	if len(notes.epochs) != 1 || notes.epochs[0] != 2 {
		t.Errorf("the counters were told of re-locks %v, want [2]", notes.epochs)
	}
}
