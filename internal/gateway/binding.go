package gateway

import (
	"context"
	"fmt"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
)

// PlanResolver finds the plan a caller's calls belong to. The plan always comes from the
// caller's binding, never from the request.
type PlanResolver func(ctx context.Context, c client.Reader, caller *Caller) (string, error)

// NoPlanError is a caller that no plan, or more than one, is bound to.
type NoPlanError struct{ Message string }

func (e *NoPlanError) Error() string { return e.Message }

// CallerPlan applies the binding rule the webhook enforces (policy.CallerPlan): the active plan
// bound to the caller's pod, else the one active pod-less plan of its ServiceAccount.
func CallerPlan(ctx context.Context, c client.Reader, caller *Caller) (string, error) {
	var plans safetyv1alpha1.AgentPlanList
	if err := c.List(ctx, &plans, client.InNamespace(caller.Namespace), noDeepCopy); err != nil {
		return "", fmt.Errorf("listing the plans of namespace %s: %w", caller.Namespace, err)
	}
	now := time.Now()
	name, why := policy.CallerPlan(plans.Items, caller.ServiceAccount, caller.Pod, now)
	if name == "" {
		name = endedPlan(plans.Items, caller, now)
	}
	if name == "" {
		return "", &NoPlanError{Message: fmt.Sprintf("namespace %s: %s", caller.Namespace, why)}
	}
	return name, nil
}

// endedPlan is, for a caller no active plan fits, the plan it had: the latest one past its
// deadline that fits its binding (its pod's, else its ServiceAccount's pod-less one). The call is
// submitted naming it so that the webhook refuses it PlanExpired, which says what happened and is
// in the ledger; an ended plan admits nothing, so this gives the caller no choice of plan. ""
// when there is none.
func endedPlan(plans []safetyv1alpha1.AgentPlan, caller *Caller, now time.Time) string {
	var best *safetyv1alpha1.AgentPlan
	rank := func(p *safetyv1alpha1.AgentPlan) int { // a pod's own plan before a pod-less one
		if caller.Pod != "" && p.Spec.PodName == caller.Pod {
			return 2
		}
		if p.Spec.PodName == "" {
			return 1
		}
		return 0
	}
	for i := range plans {
		p := &plans[i]
		if p.Spec.ServiceAccountName != caller.ServiceAccount || p.DeletionTimestamp != nil ||
			policy.PlanActive(p, now) || rank(p) == 0 {
			continue
		}
		if best == nil || rank(p) > rank(best) ||
			(rank(p) == rank(best) && policy.PlanDeadline(p).After(policy.PlanDeadline(best))) {
			best = p
		}
	}
	if best == nil {
		return ""
	}
	return best.Name
}
