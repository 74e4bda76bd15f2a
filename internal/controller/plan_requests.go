package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// planRequests are the cached plans that opts select and keep (nil: all) accepts, as requests: how
// a change elsewhere (a profile, the AuditLedger) has the plans it concerns looked at again. The
// cache's objects are listed without a copy: only their keys are kept, and keep only reads, so an
// AuditLedger edit does not copy every plan of the cluster.
func planRequests(ctx context.Context, c client.Reader, keep func(*safetyv1alpha1.AgentPlan) bool, opts ...client.ListOption) []reconcile.Request {
	var plans safetyv1alpha1.AgentPlanList
	if err := c.List(ctx, &plans, append(opts, client.UnsafeDisableDeepCopy)...); err != nil {
		ctrl.LoggerFrom(ctx).Error(err, "Listing AgentPlans")
		return nil
	}
	var reqs []reconcile.Request
	for i := range plans.Items {
		if keep == nil || keep(&plans.Items[i]) {
			reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&plans.Items[i])})
		}
	}
	return reqs
}
