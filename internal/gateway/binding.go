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
	if err := c.List(ctx, &plans, client.InNamespace(caller.Namespace)); err != nil {
		return "", fmt.Errorf("listing the plans of namespace %s: %w", caller.Namespace, err)
	}
	name, why := policy.CallerPlan(plans.Items, caller.ServiceAccount, caller.Pod, time.Now())
	if name == "" {
		return "", &NoPlanError{Message: fmt.Sprintf("namespace %s: %s", caller.Namespace, why)}
	}
	return name, nil
}
