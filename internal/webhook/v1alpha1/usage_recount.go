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

// recountPage bounds what one page of the recount holds: a call may be 282 KiB with its arguments.
const recountPage = 50

// recount counts the plan's calls that exist now, as the counters would have counted them: one
// call and one attempt of its step each, reserving its tool's costPerCall as the plan pinned it,
// and its reported cost. It is a lower bound of the true counters (deleted calls are not seen), so
// load takes the larger of it and the stored counters: a replica that stopped after admitting
// calls, and before storing their counts, loses none of the calls that are still there. It runs
// once per plan when a replica starts deciding it, never per admission, and reads the API server
// (the manager caches finished calls only), a page at a time, selecting the plan's calls there.
func (c *usageCommitter) recount(ctx context.Context, plan *safetyv1alpha1.AgentPlan) (policy.Usage, error) {
	u := policy.Usage{}
	opts := []client.ListOption{client.InNamespace(plan.Namespace), client.MatchingFields{controller.CallPlanField: plan.Name},
		client.Limit(recountPage)}
	for {
		var calls safetyv1alpha1.AgentToolCallList
		if err := c.live.List(ctx, &calls, opts...); err != nil {
			return policy.Usage{}, fmt.Errorf("recounting the calls of plan %s/%s: %w", plan.Namespace, plan.Name, err)
		}
		for i := range calls.Items {
			recountCall(&u, plan, &calls.Items[i])
		}
		if calls.Continue == "" {
			return u, nil
		}
		opts = append(opts[:3], client.Continue(calls.Continue))
	}
}

// recountCall adds one stored call of plan to u.
func recountCall(u *policy.Usage, plan *safetyv1alpha1.AgentPlan, call *safetyv1alpha1.AgentToolCall) {
	if call.CreationTimestamp.Before(&plan.CreationTimestamp) {
		return // a call of an earlier plan of the same name
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
