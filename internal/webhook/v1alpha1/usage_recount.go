package v1alpha1

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// recount counts the plan's calls that exist now, as the counters would have counted them: one
// call and one attempt of its step each, reserving its tool's costPerCall as the plan pinned it,
// and its reported cost. It is a lower bound of the true counters (deleted calls are not seen), so
// load takes the larger of it and the stored counters: a replica that stopped after admitting
// calls, and before storing their counts, loses none of the calls that are still there. It runs
// once per plan when a replica starts deciding it, never per admission.
func (c *usageCommitter) recount(ctx context.Context, plan *safetyv1alpha1.AgentPlan) (policy.Usage, error) {
	var calls safetyv1alpha1.AgentToolCallList
	if err := c.cache.List(ctx, &calls, client.InNamespace(plan.Namespace), client.MatchingFields{controller.CallPlanIndex: plan.Name},
		client.UnsafeDisableDeepCopy); err != nil {
		return policy.Usage{}, fmt.Errorf("recounting the calls of plan %s/%s: %w", plan.Namespace, plan.Name, err)
	}
	u := policy.Usage{}
	for i := range calls.Items {
		call := &calls.Items[i]
		if call.CreationTimestamp.Before(&plan.CreationTimestamp) {
			continue // a call of an earlier plan of the same name
		}
		reserve, err := policy.CostPerCall(policy.ToolAsPinned(plan, &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: call.Spec.Tool}}))
		if err != nil {
			reserve = safety.Money{} // unreadable: counted as reserving nothing, a lower bound still
		}
		u.Admit(call.Spec.Step, reserve)
		if reported, err := policy.ReportedCost(call.Status.Cost); err == nil {
			u.Report(reserve, safety.Money{}, reported)
		}
	}
	return u, nil
}
