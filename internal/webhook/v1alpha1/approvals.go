package v1alpha1

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=toolapprovals,verbs=get;list;watch
// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=toolapprovals/status,verbs=get;update;patch

// maxUseAttempts bounds the optimistic-concurrency retries when several replicas race for the
// last use of one approval; each retry re-reads it, so losing every race means it is used up.
const maxUseAttempts = 5

// approvalGate lets a call that needs human approval through when a person's ToolApproval matches
// it, and counts the use. It reads approvals live, not from the cache: an approval a person just
// created must work on the agent's next try, and a stale use count must never admit a call twice.
// The status update's resourceVersion precondition makes a single-use approval admit exactly one
// call even when replicas race; within a replica the handler's per-plan lock serialises them.
type approvalGate struct {
	live   client.Reader
	writer client.StatusClient
}

// admitted is the outcome of consulting approvals: the decision to give and the approval used.
type admitted struct {
	decision safety.Decision
	approval string // namespace/name of the ToolApproval used; empty when none was
	// applied says decision was made with a person's approval applied (facts.HumanApproved):
	// a matching approval a later check then denied uses nothing, but its record must say on
	// which facts that check decided, or its rule cannot be replayed.
	applied bool
}

// admit re-decides a call the engine denied for want of human approval. It uses an approval only
// when the call passes every check with it; a call a later check denies uses nothing.
func (g *approvalGate) admit(ctx context.Context, call *safetyv1alpha1.AgentToolCall, plan *safetyv1alpha1.AgentPlan,
	requester string, compiled *safety.Policy, facts safety.Call, first safety.Decision, now time.Time, dryRun bool) (admitted, error) {
	candidates, mismatches, err := g.candidates(ctx, call, plan, now)
	if err != nil {
		return admitted{}, err
	}
	if len(candidates) == 0 {
		return admitted{decision: withApprovalHint(first, call, mismatches)}, nil
	}
	approved, clean := policy.DecideWithApproval(compiled, facts)
	if !clean {
		return admitted{decision: approved, applied: true}, nil
	}
	for i := range candidates {
		a := &candidates[i]
		used := dryRun
		if !dryRun {
			if used, err = g.use(ctx, a, call, requester, now); err != nil {
				return admitted{}, err
			}
		}
		if used {
			return admitted{decision: approved, approval: a.Namespace + "/" + a.Name, applied: true}, nil
		}
	}
	return admitted{decision: withApprovalHint(first, call, []string{"every matching approval was used up just now"})}, nil
}

// candidates lists the approvals of the call's plan that admit it, soonest to expire first,
// and explains why the others for its plan do not.
func (g *approvalGate) candidates(ctx context.Context, call *safetyv1alpha1.AgentToolCall, plan *safetyv1alpha1.AgentPlan,
	now time.Time) ([]safetyv1alpha1.ToolApproval, []string, error) {
	approvals, err := controller.ApprovalsOfPlan(ctx, g.live, call.Namespace, call.Spec.Plan)
	if err != nil {
		return nil, nil, fmt.Errorf("listing the ToolApprovals of plan %s/%s: %w", call.Namespace, call.Spec.Plan, err)
	}
	match, why := policy.MatchApprovals(approvals, call, plan.CreationTimestamp.Time, now)
	return match, why, nil
}

// use counts one use of a, re-reading it after a lost race; false means it no longer admits call.
func (g *approvalGate) use(ctx context.Context, a *safetyv1alpha1.ToolApproval, call *safetyv1alpha1.AgentToolCall,
	requester string, now time.Time) (bool, error) {
	for range maxUseAttempts {
		if policy.ApprovalMismatch(a, call, now) != "" {
			return false, nil
		}
		a.Status.Used++
		a.Status.UsedBy = append(a.Status.UsedBy, safetyv1alpha1.ApprovalUse{
			Call: call.Name, Requester: requester, Time: metav1.NewTime(now)})
		err := g.writer.Status().Update(ctx, a)
		switch {
		case err == nil:
			return true, nil
		case apierrors.IsNotFound(err):
			return false, nil
		case !apierrors.IsConflict(err):
			return false, fmt.Errorf("counting a use of ToolApproval %s: %w", a.Name, err)
		}
		// Into a fresh object: decoding into a would keep this attempt's use where the response
		// omits an empty status.
		fresh := &safetyv1alpha1.ToolApproval{}
		if err := g.live.Get(ctx, client.ObjectKeyFromObject(a), fresh); err != nil {
			if apierrors.IsNotFound(err) {
				return false, nil
			}
			return false, fmt.Errorf("re-reading ToolApproval %s: %w", a.Name, err)
		}
		*a = *fresh
	}
	return false, nil
}

// withApprovalHint tells the agent what to ask a person for.
func withApprovalHint(d safety.Decision, call *safetyv1alpha1.AgentToolCall, mismatches []string) safety.Decision {
	d.Message += policy.ApprovalHint(call, mismatches)
	return d
}
