package v1alpha1

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
)

// checkReporter decides who may change a call's status: its cost only the plan's costReporter
// (a plan that names none takes no reported cost: each call costs its reservation); its phase and
// conditions the plan's ServiceAccount or the reporter. Users that are not ServiceAccounts (the
// operator, an administrator) may report phases where RBAC lets them, but never cost.
func (h *AgentToolCallHandler) checkReporter(ctx context.Context, req admission.Request, old, call *safetyv1alpha1.AgentToolCall) (*denial, error) {
	user := req.UserInfo.Username
	plan := &safetyv1alpha1.AgentPlan{}
	if err := h.get(ctx, client.ObjectKey{Namespace: call.Namespace, Name: call.Spec.Plan}, plan, h.behind); apierrors.IsNotFound(err) {
		return &denial{ReasonAgentIdentityMismatch, fieldPlan, fmt.Sprintf("call %s belongs to plan %s, which does not exist", call.Name, call.Spec.Plan)}, nil
	} else if err != nil {
		return nil, fmt.Errorf("reading plan %s of call %s: %w", call.Spec.Plan, call.Name, err)
	}
	// A call of an earlier plan of the same name is no call of this one: its reporter and agent may
	// not move it (its spend was settled with that plan), whoever the new plan trusts.
	if strings.HasPrefix(user, "system:serviceaccount:") && !callOfPlan(plan, call) {
		return &denial{ReasonAgentIdentityMismatch, fieldPlan, fmt.Sprintf(
			"call %s belongs to an earlier plan named %s, which was deleted; no one reports on it for the plan of that name now", call.Name, plan.Name)}, nil
	}
	reporter := policy.CostReporterUser(plan)
	if !sameCost(old, call) && user != reporter {
		if reporter == "" {
			return &denial{ReasonInvalidUpdate, fieldCost, fmt.Sprintf(
				"plan %s names no spec.costReporter, so no one may report cost: each call costs its tool's costPerCall", plan.Name)}, nil
		}
		return &denial{ReasonInvalidUpdate, fieldCost, fmt.Sprintf(
			"only plan %s's cost reporter (%s) may report cost, not %s", plan.Name, reporter, user)}, nil
	}
	// The reporter's word that a cost is final ends the call's hold, and is what a replica taking
	// the plan over recounts holds by: nobody else may write it, or take it away.
	if !sameCostFinal(old, call) && user != reporter {
		return &denial{ReasonInvalidUpdate, fieldConditions, fmt.Sprintf(
			"only plan %s's cost reporter may write condition %s, which says a call's cost is final, not %s",
			plan.Name, safetyv1alpha1.CallCostFinalCondition, user)}, nil
	}
	agent := serviceAccountUser(plan.Namespace, plan.Spec.ServiceAccountName)
	if strings.HasPrefix(user, "system:serviceaccount:") && user != reporter && user != agent {
		return &denial{ReasonAgentIdentityMismatch, fieldPlan, fmt.Sprintf(
			"only the plan's ServiceAccount or its cost reporter may report on call %s, not %s", call.Name, user)}, nil
	}
	// The plan's ServiceAccount reports with a token the plan takes, as it creates (tokenBinding,
	// one check for both): another pod of the same ServiceAccount may not end this pod's calls,
	// nor a pod with a plan of its own those of its ServiceAccount's pod-less plan.
	if user == agent {
		return h.tokenBinding(ctx, req, plan)
	}
	return nil, nil
}

// settleReport counts a trusted report of call in its plan's counters before it is stored: the
// cost it reports (costReportOf), and, when the plan's reporter, user, moves the call to a final
// phase with a cost or says its cost is final (policy.CostFinal), the release of what the call held
// (the reporter's own word that nothing more is to come: a cost reported while the call runs
// keeps the hold, since a reporter may report a cost as it grows; an agent that marks its own
// call finished releases nothing, and its hold then ends with holdTTL). The plan is read once,
// and both are one decision of its counters (usageCommitter.settle). checkReporter has already
// made sure that only the reporter changes a cost or says it is final.
func (h *AgentToolCallHandler) settleReport(ctx context.Context, user string, old, call *safetyv1alpha1.AgentToolCall) error {
	count := !sameCost(old, call)
	release := (!finalPhase(old) && finallyReported(call)) || (!policy.CostFinal(old) && policy.CostFinal(call))
	if !count && !release {
		return nil
	}
	plan, err := h.planOfReport(ctx, call)
	if plan == nil || err != nil {
		return err
	}
	var report *costReport
	if count {
		var tool *safetyv1alpha1.AgentTool
		if tool, err = h.pinnedTool(ctx, plan, call); err == nil {
			report, err = costReportOf(plan, tool, old, call)
		}
	}
	release = release && user == policy.CostReporterUser(plan)
	if err == nil && (report != nil || release) {
		err = h.usage.settle(ctx, plan, old.UID, report, release)
	}
	if apierrors.IsNotFound(err) || errors.Is(err, errPlanSealed) {
		return nil // a deleted plan's spend is final
	}
	return err
}

// pinnedTool is call's tool as plan pins it now (policy.ToolAsPinned); a deleted tool still has
// its pin.
func (h *AgentToolCallHandler) pinnedTool(ctx context.Context, plan *safetyv1alpha1.AgentPlan, call *safetyv1alpha1.AgentToolCall) (*safetyv1alpha1.AgentTool, error) {
	live := &safetyv1alpha1.AgentTool{}
	if err := h.get(ctx, client.ObjectKey{Name: call.Spec.Tool}, live, nil); client.IgnoreNotFound(err) != nil {
		return nil, fmt.Errorf("reading tool %s: %w", call.Spec.Tool, err)
	}
	live.Name = call.Spec.Tool
	return policy.ToolAsPinned(plan, live), nil
}

// costReportOf is a report moving call's cost from old's to its own: the call then costs the
// larger of its reservation (its tool's costPerCall when it was admitted: as its hold recorded it,
// else policy.ReservedBy) and the report, so accumulatedCost grows by what the report adds beyond
// both, once for each stored cost of the call (report_memo.go).
func costReportOf(plan *safetyv1alpha1.AgentPlan, tool *safetyv1alpha1.AgentTool, old, call *safetyv1alpha1.AgentToolCall) (*costReport, error) {
	before, err := policy.ReportedCost(old.Status.Cost)
	if err != nil {
		return nil, err
	}
	after, err := policy.ReportedCost(call.Status.Cost)
	if err != nil {
		return nil, err
	}
	reserve, err := policy.ReservedBy(plan, tool, old)
	if err != nil {
		return nil, err
	}
	return &costReport{reserve: reserve, before: before, after: after}, nil
}

// planOfReport reads the plan a report of call counts in: nil when it was deleted (its spend is
// final, and settled), or when call belongs to an earlier plan of the same name (a report of it
// must neither charge nor release the plan that took the name).
func (h *AgentToolCallHandler) planOfReport(ctx context.Context, call *safetyv1alpha1.AgentToolCall) (*safetyv1alpha1.AgentPlan, error) {
	plan := &safetyv1alpha1.AgentPlan{}
	if err := h.get(ctx, client.ObjectKey{Namespace: call.Namespace, Name: call.Spec.Plan}, plan, h.behind); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("reading plan %s: %w", call.Spec.Plan, err)
	}
	if !callOfPlan(plan, call) {
		return nil, nil
	}
	return plan, nil
}

// sameCostFinal says old and call carry the same CallCostFinalCondition, or neither has one.
func sameCostFinal(old, call *safetyv1alpha1.AgentToolCall) bool {
	a := meta.FindStatusCondition(old.Status.Conditions, safetyv1alpha1.CallCostFinalCondition)
	b := meta.FindStatusCondition(call.Status.Conditions, safetyv1alpha1.CallCostFinalCondition)
	return (a == nil) == (b == nil) && (a == nil || equality.Semantic.DeepEqual(*a, *b))
}

// finallyReported says call carries its cost and a final phase.
func finallyReported(call *safetyv1alpha1.AgentToolCall) bool {
	return call.Status.Cost != nil && finalPhase(call)
}

// finalPhase says call's phase is Succeeded or Failed, from which it never moves.
func finalPhase(call *safetyv1alpha1.AgentToolCall) bool {
	return phaseOrder[call.Status.Phase] == phaseOrder[safetyv1alpha1.CallPhaseSucceeded]
}

func sameCost(old, call *safetyv1alpha1.AgentToolCall) bool {
	a, b := old.Status.Cost, call.Status.Cost
	return (a == nil) == (b == nil) && (a == nil || a.Cmp(*b) == 0)
}

// fieldCost is the field cost report denials point at; fieldConditions those of the reporter's
// word that a cost is final.
const (
	fieldCost       = "status.cost"
	fieldConditions = "status.conditions"
)
