package v1alpha1

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/argrules"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/metrics"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// admitCreate decides a new call against its plan's counters and, unless it is a dry run, counts
// it in them before answering: the attempt, the call and the tool's costPerCall are counted, in
// the one replica that decides counters, by the time the agent hears yes, and reach the plan's
// status right after (usageCommitter). Nothing is listed: every fact is read by key, whatever the
// plan's history.
func (h *AgentToolCallHandler) admitCreate(ctx context.Context, req admission.Request, call *safetyv1alpha1.AgentToolCall,
	plan *safetyv1alpha1.AgentPlan, tool *safetyv1alpha1.AgentTool, compiled *safety.Policy, args argumentCheck) (outcome, error) {
	dryRun := isDryRun(req)
	reserve, err := policy.CostPerCall(tool)
	if err != nil {
		return outcome{}, err
	}
	hold := safety.Money{} // what the call holds until its final report; a dry run holds nothing
	if !dryRun {
		if hold, err = policy.HoldFor(plan, tool); err != nil {
			return outcome{}, err
		}
	}
	decide := func(p *planCounters) (outcome, error) {
		// Observed here, where the decision is the one that stands: a decision refused for a
		// re-lock (errSnapshotReplaced) is refused before it, and made again with the plan read
		// live, so that a call decided twice is one occurrence, not a repeat of itself.
		repeats := -1
		if loop := compiled.Loop(); loop.MaxRepeats >= 0 && !dryRun {
			repeats = h.loops.Observe(safety.NewCallKey(plan.Namespace+"/"+plan.Name, policy.EngineCall(call, plan, tool, policy.CallFacts{})), loop.Window)
			metrics.LoopMemoryBytes.Set(float64(h.loops.MemoryHeld()))
		}
		u, now := &p.u, h.Clock.Now()
		if plan.DeletionTimestamp != nil {
			return deny(denial{ReasonPlanNotFound, fieldPlan, fmt.Sprintf("AgentPlan %s is being deleted", plan.Name)}), nil
		}
		if reason, msg := policy.CheckStep(plan, *u, call.Spec.Step, policy.StepLimit(plan)); reason != "" {
			return deny(denial{reason, "spec.step", msg}), nil
		}
		held := p.held.held() // the holds past their until ended before the decision (chargeEnded)
		if !hold.IsZero() && p.held.full() {
			return deny(denial{safety.ReasonToolCostLimitExceeded, fieldTool, fmt.Sprintf(
				"%d calls of plan %s hold part of its budget until their cost is reported, the most it may; call again once they are",
				maxHeldCalls, plan.Name)}), nil
		}
		total, err := h.totals.total(ctx, plan.Namespace, plan.UID, u.Accumulated, now)
		if err != nil {
			return outcome{}, err
		}
		facts := policy.EngineCall(call, plan, tool, policy.CallFacts{
			AccumulatedCost: u.Accumulated, TotalCost: total, HeldCost: held, EarlierAttempts: u.Steps[call.Spec.Step]})
		if repeats >= 0 {
			facts.Context.Repeats = repeats
		}
		out, err := h.evaluate(ctx, req, call, plan, compiled, args, facts, dryRun)
		if err != nil {
			return outcome{}, err
		}
		if out.decision != decisionDeny {
			u.Admit(call.Spec.Step, reserve)
			if !hold.IsZero() {
				p.held.hold(heldKey(req, call), heldCall{amount: hold, reserve: reserve, until: now.Add(holdTTL)})
				h.totals.observeHeld(plan, p.held.held())
			}
		}
		out.tool = audit.PinOf(plan, tool)
		return out, nil
	}
	if dryRun { // decided against the stored counters, which hold nothing in flight
		u, err := policy.UsageOf(plan)
		if err != nil {
			return outcome{}, err
		}
		return decide(&planCounters{u: u})
	}
	out, err := h.submitCounted(ctx, plan, compiled.LimitsTotalCost(), decide)
	switch {
	case apierrors.IsNotFound(err):
		return deny(denial{ReasonPlanNotFound, fieldPlan, fmt.Sprintf("AgentPlan %q no longer exists", plan.Name)}), nil
	case errors.Is(err, errPlanSealed):
		return deny(denial{ReasonPlanNotFound, fieldPlan, fmt.Sprintf("AgentPlan %s is being deleted", plan.Name)}), nil
	}
	return out, err
}

// argumentCheck is a call's input to its snapshot's argument rules.
type argumentCheck struct {
	rules *argrules.Set
	in    argrules.Input
}

// evaluate runs the engine, then the argument rules (policy.WithArgumentRules), and, for a call
// that needs a person, the approval gate. It runs once per call: decisions are not re-run.
func (h *AgentToolCallHandler) evaluate(ctx context.Context, req admission.Request, call *safetyv1alpha1.AgentToolCall,
	plan *safetyv1alpha1.AgentPlan, compiled *safety.Policy, args argumentCheck, facts safety.Call, dryRun bool) (outcome, error) {
	evalStart := time.Now()
	decision := policy.WithArgumentRules(safety.Evaluate(compiled, facts), args.rules, args.in, compiled.Mode())
	metrics.EvaluationSeconds.Observe(time.Since(evalStart).Seconds())
	approval, applied := "", false
	if decision.Reason == safety.ReasonToolHumanApprovalRequired && h.approvals != nil {
		a, err := h.approvals.admit(ctx, call, plan, req.UserInfo.Username, compiled, facts, decision, h.Clock.Now(), dryRun)
		if err != nil {
			return outcome{}, err
		}
		decision, approval, applied = a.decision, a.approval, a.applied
	}
	recorded := audit.FactsOf(facts, applied)
	if !decision.Allowed() {
		d := deny(denial{decision.Reason, causeField(decision.Reason), decision.Message}) // deny redacts
		d.mode, d.snapshot = string(decision.Mode), plan.Status.Snapshot.Hash
		d.rule, d.class, d.facts = decision.RuleID, string(decision.Class), recorded
		return d, nil
	}
	// A message quotes the command; a credential in it must reach neither the agent's warning nor
	// the ledger.
	decision.Message = audit.RedactSecrets(decision.Message)
	out := outcome{mode: string(decision.Mode), snapshot: plan.Status.Snapshot.Hash, reason: decision.Reason, message: decision.Message,
		approval: approval, rule: decision.RuleID, class: string(decision.Class), facts: recorded}
	switch {
	case decision.WouldDeny:
		out.decision, out.resp = "would_deny", admission.Allowed("")
		if decision.Mode == safety.ModeWarn {
			out.resp.Warnings = []string{denial{decision.Reason, "", decision.Message}.warning()}
		}
	default:
		out.decision, out.resp = "allow", admission.Allowed("")
	}
	return out, nil
}

// submitCounted decides through the plan's counters; one that checks the project's total does so
// under the namespace's lock, with the plan's counters loaded before it: a plan whose counters take
// a recount to load must not hold up the namespace's other plans.
func (h *AgentToolCallHandler) submitCounted(ctx context.Context, plan *safetyv1alpha1.AgentPlan, limitsTotal bool,
	decide func(p *planCounters) (outcome, error)) (outcome, error) {
	if !limitsTotal {
		return h.usage.submitWith(ctx, plan, decide)
	}
	if err := h.usage.preload(ctx, plan); err != nil {
		return outcome{}, err
	}
	defer h.totals.lockNamespace(plan.Namespace)()
	return h.usage.submitWith(ctx, plan, decide)
}
