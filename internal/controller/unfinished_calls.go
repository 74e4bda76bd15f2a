package controller

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// unfinishedPage bounds what one page of a listing of unfinished calls holds: a call may be
// 282 KiB with its arguments (as the webhook's recount, usage_recount.go).
const unfinishedPage = 50

// UnfinishedCalls selects, on the API server, the AgentToolCalls not finished: the complement of
// FinishedCalls, which a field selector can say ("neither of the two").
func UnfinishedCalls() fields.Selector {
	return fields.AndSelectors(
		fields.OneTermNotEqualSelector(CallPhaseField, string(safetyv1alpha1.CallPhaseSucceeded)),
		fields.OneTermNotEqualSelector(CallPhaseField, string(safetyv1alpha1.CallPhaseFailed)))
}

// listUnfinished calls each for the unfinished calls naming plan, read from the API server a
// page at a time (the manager caches finished calls only), selected there by plan and phase.
// It stops at the first error each returns.
func listUnfinished(ctx context.Context, live client.Reader, plan types.NamespacedName, each func(*safetyv1alpha1.AgentToolCall) error) error {
	sel := fields.AndSelectors(UnfinishedCalls(), fields.OneTermEqualSelector(CallPlanField, plan.Name))
	return pagedCalls(ctx, live, []client.ListOption{client.InNamespace(plan.Namespace), client.MatchingFieldsSelector{Selector: sel}}, each)
}

// pagedCalls lists the calls opts select, a page at a time, calling each for every one.
func pagedCalls(ctx context.Context, live client.Reader, opts []client.ListOption, each func(*safetyv1alpha1.AgentToolCall) error) error {
	next := ""
	for {
		page := append([]client.ListOption{client.Limit(unfinishedPage)}, opts...)
		if next != "" {
			page = append(page, client.Continue(next))
		}
		var calls safetyv1alpha1.AgentToolCallList
		if err := live.List(ctx, &calls, page...); err != nil {
			return fmt.Errorf("listing unfinished AgentToolCalls: %w", err)
		}
		for i := range calls.Items {
			if err := each(&calls.Items[i]); err != nil {
				return err
			}
		}
		if next = calls.Continue; next == "" {
			return nil
		}
	}
}

// sweepUnfinished queues, once when the controller starts (on the leader), every plan that an
// unfinished call names, in the background. A plan that exists is queued by its own create event
// anyway; this finds the plans deleted while no leader ran, or before a restart, whose calls
// would otherwise be left for ever: their deletion event is not seen again. It is one listing of
// the unfinished calls per start, a page at a time (again after a failure), not a poll.
func (r *UnfinishedCallReconciler) sweepUnfinished(ctx context.Context, q workqueue.TypedRateLimitingInterface[reconcile.Request]) error {
	go func() {
		for wait := 10 * time.Second; ; wait = min(2*wait, 5*time.Minute) {
			err := r.queuePlansOfUnfinished(ctx, q)
			if err == nil || ctx.Err() != nil {
				return
			}
			ctrl.LoggerFrom(ctx).Error(err, "Sweeping the unfinished calls of deleted plans", "again in", wait)
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
		}
	}()
	return nil
}

// queuePlansOfUnfinished queues every plan an unfinished call names, once.
func (r *UnfinishedCallReconciler) queuePlansOfUnfinished(ctx context.Context, q workqueue.TypedRateLimitingInterface[reconcile.Request]) error {
	seen := map[types.NamespacedName]bool{}
	return pagedCalls(ctx, r.APIReader, []client.ListOption{client.MatchingFieldsSelector{Selector: UnfinishedCalls()}},
		func(call *safetyv1alpha1.AgentToolCall) error {
			if key := (types.NamespacedName{Namespace: call.Namespace, Name: call.Spec.Plan}); !seen[key] {
				seen[key] = true
				q.Add(reconcile.Request{NamespacedName: key})
			}
			return nil
		})
}
