package gateway

import (
	"context"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// PlanResolver finds the plan a caller's calls belong to. The plan always comes from the
// caller's binding, never from the request.
type PlanResolver func(ctx context.Context, c client.Reader, caller *Caller) (string, error)

// NoPlanError is a caller that no plan, or more than one, is bound to.
type NoPlanError struct{ Message string }

func (e *NoPlanError) Error() string { return e.Message }

// CallerPlan is the gateway's view of the binding rule: the plan bound to the caller's pod, else
// the single plan of its ServiceAccount in its namespace, else an error.
//
// The binding rule itself belongs to the webhook (branch binding adds AgentPlan spec.podName and
// one active pod-less plan per ServiceAccount); until it lands this tree's AgentPlan names no pod,
// so this function can only apply the second half: exactly one plan of the ServiceAccount. When
// the shared rule exists, point Options.ResolvePlan at it and delete this file.
func CallerPlan(ctx context.Context, c client.Reader, caller *Caller) (string, error) {
	var plans safetyv1alpha1.AgentPlanList
	if err := c.List(ctx, &plans, client.InNamespace(caller.Namespace)); err != nil {
		return "", fmt.Errorf("listing the plans of namespace %s: %w", caller.Namespace, err)
	}
	var names []string
	for i := range plans.Items {
		if plans.Items[i].Spec.ServiceAccountName == caller.ServiceAccount {
			names = append(names, plans.Items[i].Name)
		}
	}
	switch len(names) {
	case 1:
		return names[0], nil
	case 0:
		return "", &NoPlanError{Message: fmt.Sprintf("no AgentPlan in namespace %s names ServiceAccount %s",
			caller.Namespace, caller.ServiceAccount)}
	}
	return "", &NoPlanError{Message: fmt.Sprintf("%d AgentPlans in namespace %s name ServiceAccount %s; "+
		"the gateway cannot tell which one the call belongs to", len(names), caller.Namespace, caller.ServiceAccount)}
}
