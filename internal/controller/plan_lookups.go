package controller

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// ApprovalsOfPlan lists the ToolApprovals in namespace that name plan, selected by the API server.
func ApprovalsOfPlan(ctx context.Context, r client.Reader, namespace, plan string) ([]safetyv1alpha1.ToolApproval, error) {
	var list safetyv1alpha1.ToolApprovalList
	err := r.List(ctx, &list, client.InNamespace(namespace), client.MatchingFields{safetyv1alpha1.ToolApprovalPlanField: plan})
	return list.Items, err
}

// PlansOfServiceAccount lists the AgentPlans in namespace whose agent is serviceAccount: the only
// plans a binding can conflict with (policy.BindingConflict).
func PlansOfServiceAccount(ctx context.Context, r client.Reader, namespace, serviceAccount string) ([]safetyv1alpha1.AgentPlan, error) {
	var list safetyv1alpha1.AgentPlanList
	err := r.List(ctx, &list, client.InNamespace(namespace), client.MatchingFields{safetyv1alpha1.AgentPlanServiceAccountField: serviceAccount})
	return list.Items, err
}
