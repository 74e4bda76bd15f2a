package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// approvedByFlag names the approval --approved stands for.
const approvedByFlag = "--approved"

// approvalGate decides again a call the engine denied for want of human approval, the way the
// webhook's approval gate does (internal/webhook/v1alpha1/approvals.go): with HumanApproved set
// when a ToolApproval of the files admits the call (policy.ApprovalMismatch, the webhook's
// matcher) or --approved says a person approved it; otherwise the denial says how to approve the
// call and why the approvals there are do not apply, in the webhook's words. Offline an approval
// is only read, never used up. One without metadata.creationTimestamp counts as created now.
func (oc *offlineCluster) approvalGate(ctx context.Context, call *safetyv1alpha1.AgentToolCall, compiled *safety.Policy,
	facts safety.Call, first safety.Decision, flag bool, now time.Time) (safety.Decision, string, error) {
	var list safetyv1alpha1.ToolApprovalList
	if err := oc.c.List(ctx, &list, client.InNamespace(call.Namespace)); err != nil {
		return first, "", err
	}
	slices.SortFunc(list.Items, func(a, b safetyv1alpha1.ToolApproval) int { return strings.Compare(a.Name, b.Name) })
	var match []safetyv1alpha1.ToolApproval
	var why []string
	for _, a := range list.Items {
		if a.Spec.Plan != call.Spec.Plan {
			continue
		}
		if a.CreationTimestamp.IsZero() {
			a.CreationTimestamp = metav1.NewTime(now)
		}
		if m := policy.ApprovalMismatch(&a, call, now); m != "" {
			why = append(why, fmt.Sprintf("ToolApproval %s does not apply: %s", a.Name, m))
			continue
		}
		match = append(match, a)
	}
	used := ""
	switch {
	case len(match) > 0:
		slices.SortFunc(match, func(a, b safetyv1alpha1.ToolApproval) int {
			return policy.ApprovalExpiry(&a).Compare(policy.ApprovalExpiry(&b))
		})
		used = match[0].Namespace + "/" + match[0].Name
	case flag:
		used = approvedByFlag
	default:
		return withApprovalHint(first, call, why), "", nil
	}
	facts.Context.HumanApproved = true
	approved := safety.Evaluate(compiled, facts)
	if !approved.Allowed() || approved.WouldDeny {
		return approved, "", nil
	}
	return approved, used, nil
}

// withApprovalHint is the webhook's denial text for a call that needs approval: the command that
// approves exactly this call, and why the approvals that exist do not apply (at most three).
func withApprovalHint(d safety.Decision, call *safetyv1alpha1.AgentToolCall, mismatches []string) safety.Decision {
	const maxListed = 3
	if len(mismatches) > maxListed {
		mismatches = append(mismatches[:maxListed:maxListed], fmt.Sprintf("and %d more", len(mismatches)-maxListed))
	}
	d.Message += "; a person can approve this call with: " + policy.ApprovalCommand(call)
	if len(mismatches) > 0 {
		d.Message += " (" + strings.Join(mismatches, "; ") + ")"
	}
	return d
}
