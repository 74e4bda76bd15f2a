package controller

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// patchStatus writes obj's status when the reconcile changed it: before is the copy taken before
// the status was computed, and nothing but the status changes after that copy.
func patchStatus[T client.Object](ctx context.Context, c client.Client, obj, before T) error {
	if equality.Semantic.DeepEqual(before, obj) {
		return nil
	}
	if err := c.Status().Patch(ctx, obj, client.MergeFrom(before)); err != nil {
		return fmt.Errorf("writing status of %s: %w", obj.GetName(), err)
	}
	return nil
}

// countLockedPlans counts the plans whose snapshot was resolved from kind/name.
func countLockedPlans(ctx context.Context, c client.Reader, kind, name string) (int32, error) {
	var plans safetyv1alpha1.AgentPlanList
	if err := c.List(ctx, &plans, client.MatchingFields{PlanSourceIndex: SourceKey(kind, name)}); err != nil {
		return 0, fmt.Errorf("counting plans locked to %s %s: %w", kind, name, err)
	}
	return int32(len(plans.Items)), nil
}

// readyCondition is Ready=True with reason Valid, or Ready=False with the reason and message given.
func readyCondition(conds *[]metav1.Condition, generation int64, clk clock.PassiveClock, reason, msg string) {
	status := metav1.ConditionTrue
	if reason != safetyv1alpha1.ReadyReason {
		status = metav1.ConditionFalse
	}
	meta.SetStatusCondition(conds, metav1.Condition{
		Type: safetyv1alpha1.ReadyCondition, Status: status, Reason: reason, Message: msg,
		ObservedGeneration: generation, LastTransitionTime: metav1.NewTime(clk.Now()),
	})
}

// profilesOfPlan maps a plan to the profiles its snapshot came from, so their counts follow.
func profilesOfPlan(kind string) handler.MapFunc {
	return func(_ context.Context, o client.Object) []reconcile.Request {
		snap := o.(*safetyv1alpha1.AgentPlan).Status.Snapshot
		if snap == nil {
			return nil
		}
		var reqs []reconcile.Request
		for _, s := range snap.Sources {
			if s.Kind == kind {
				reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKey{Name: s.Name}})
			}
		}
		return reqs
	}
}
