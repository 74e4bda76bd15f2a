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
// webhook's approval gate does (internal/webhook/v1alpha1/approvals.go), with the same matcher
// and words (policy.MatchApprovals, policy.ApprovalHint): with HumanApproved set when a
// ToolApproval of the files admits the call or --approved says a person approved it; otherwise
// the denial says how to approve the call and why the approvals there are do not apply. Offline
// an approval is only read, never used up. One without metadata.creationTimestamp counts as
// created now.
func (oc *offlineCluster) approvalGate(ctx context.Context, call *safetyv1alpha1.AgentToolCall, compiled *safety.Policy,
	facts safety.Call, first safety.Decision, flag bool, now time.Time) (safety.Decision, string, error) {
	var list safetyv1alpha1.ToolApprovalList
	if err := oc.c.List(ctx, &list, client.InNamespace(call.Namespace)); err != nil {
		return first, "", err
	}
	slices.SortFunc(list.Items, func(a, b safetyv1alpha1.ToolApproval) int { return strings.Compare(a.Name, b.Name) })
	for i := range list.Items {
		if list.Items[i].CreationTimestamp.IsZero() {
			list.Items[i].CreationTimestamp = metav1.NewTime(now)
		}
	}
	// The webhook refuses, at creation, an approval whose approver is a ServiceAccount unless the
	// operator trusts it; offline nothing is trusted.
	var made []safetyv1alpha1.ToolApproval
	var refused []string
	for _, a := range list.Items {
		if strings.HasPrefix(a.Spec.Approver, "system:serviceaccount:") {
			refused = append(refused, fmt.Sprintf("ToolApproval %s would be refused: its approver %s is a ServiceAccount",
				a.Name, a.Spec.Approver))
			continue
		}
		made = append(made, a)
	}
	match, why := policy.MatchApprovals(made, call, time.Time{}, now)
	why = append(refused, why...)
	used := ""
	switch {
	case len(match) > 0:
		used = match[0].Namespace + "/" + match[0].Name
	case flag:
		used = approvedByFlag
	default:
		first.Message += policy.ApprovalHint(call, why)
		return first, "", nil
	}
	approved, clean := policy.DecideWithApproval(compiled, facts)
	if !clean {
		return approved, "", nil
	}
	return approved, used, nil
}
