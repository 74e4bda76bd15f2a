package controller

import (
	"context"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// revokeApprovals deletes the ToolApprovals that name a plan being deleted, before the plan is
// released. An approval names its plan by name only, and creation times have whole seconds, so a
// plan created again under the name in the second an approval for the deleted one was made could
// not tell that approval from its own (policy.MatchApprovals): it would admit the new plan's agent
// (perhaps another ServiceAccount, under another profile) what a person approved for the old one.
// While the plan is being deleted no new plan can have its name, and the ToolApproval webhook
// refuses approvals for it, so every approval naming it now is the deleted plan's. The ledger
// keeps each approval's record and its uses.
func revokeApprovals(ctx context.Context, c client.Client, live client.Reader, plan *safetyv1alpha1.AgentPlan) error {
	approvals, err := ApprovalsOfPlan(ctx, live, plan.Namespace, plan.Name)
	if err != nil {
		return fmt.Errorf("listing the ToolApprovals of plan %s/%s: %w", plan.Namespace, plan.Name, err)
	}
	for i := range approvals {
		a := &approvals[i]
		if err := c.Delete(ctx, a, client.Preconditions{UID: &a.UID}); client.IgnoreNotFound(err) != nil {
			return fmt.Errorf("revoking ToolApproval %s/%s of deleted plan %s: %w", a.Namespace, a.Name, plan.Name, err)
		}
	}
	return nil
}
