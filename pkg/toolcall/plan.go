package toolcall

import (
	"context"
	"fmt"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
)

// ReasonPlanNotFound is the reason of a call whose caller no plan, or more than one, is bound to;
// it is the webhook's reason for a call naming a plan that does not exist.
const ReasonPlanNotFound = "PlanNotFound"

// NoPlanError is a caller that no plan, or more than one, is bound to. Every door answers it as
// the denial [PlanNotFound] message (Result.Text), which writes nothing.
type NoPlanError struct{ Message string }

func (e *NoPlanError) Error() string { return e.Message }

// CallerPlan is the plan the calls of a ServiceAccount's token (bound to pod, or to none) belong
// to, by the binding rule the webhook enforces (policy.CallerPlan): the active plan bound to its
// pod, else the one active pod-less plan of its ServiceAccount. A caller no active plan fits gets
// the plan it had (endedPlan), while that plan exists (the endedplan controller deletes it
// endedPlanTTLSeconds after it ended), so that its call is submitted naming it and refused
// PlanExpired by the webhook, in the ledger. The gateway, the hook and pkg/agent's callers all take the plan
// here; none chooses between plans. opts are added to the listing (a cache's UnsafeDisableDeepCopy).
func CallerPlan(ctx context.Context, c client.Reader, namespace, serviceAccount, pod string,
	opts ...client.ListOption) (string, error) {
	var plans safetyv1alpha1.AgentPlanList
	if err := c.List(ctx, &plans, append([]client.ListOption{client.InNamespace(namespace)}, opts...)...); err != nil {
		return "", fmt.Errorf("listing the plans of namespace %s: %w", namespace, err)
	}
	now := time.Now()
	name, why := policy.CallerPlan(plans.Items, serviceAccount, pod, now)
	if name == "" {
		name = endedPlan(plans.Items, serviceAccount, pod, now)
	}
	if name == "" {
		return "", &NoPlanError{Message: fmt.Sprintf("namespace %s: %s", namespace, why)}
	}
	return name, nil
}

// endedPlan is, for a caller no active plan fits, the plan it had: the latest one past its
// deadline that fits its binding (its pod's, else its ServiceAccount's pod-less one). An ended
// plan admits nothing, so this gives the caller no choice of plan. "" when there is none.
func endedPlan(plans []safetyv1alpha1.AgentPlan, serviceAccount, pod string, now time.Time) string {
	var best *safetyv1alpha1.AgentPlan
	rank := func(p *safetyv1alpha1.AgentPlan) int { // a pod's own plan before a pod-less one
		if pod != "" && p.Spec.PodName == pod {
			return 2
		}
		if p.Spec.PodName == "" {
			return 1
		}
		return 0
	}
	for i := range plans {
		p := &plans[i]
		if p.Spec.ServiceAccountName != serviceAccount || p.DeletionTimestamp != nil ||
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
