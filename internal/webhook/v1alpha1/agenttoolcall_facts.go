package v1alpha1

import (
	"context"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// facts assembles the engine's input from the cluster: capability and category from the
// AgentTool, read-only and checkpoint flags from the plan, cost from the plan's and project's
// usage, attempts from the calls that exist, repeats from this process's loop detector. Only the
// sandbox id and the arguments come from the call: they are what the agent asks for, and the
// engine checks them. Dry-run requests observe nothing.
func (h *AgentToolCallHandler) facts(ctx context.Context, call *safetyv1alpha1.AgentToolCall, plan *safetyv1alpha1.AgentPlan,
	tool *safetyv1alpha1.AgentTool, compiled *safety.Policy, dryRun bool) (safety.Call, *denial, error) {
	accumulated, err := policy.AccumulatedCost(plan)
	if err != nil {
		return safety.Call{}, nil, err
	}
	total, _, err := controller.ProjectTotalCost(ctx, h.Reader, plan.Namespace)
	if err != nil {
		return safety.Call{}, nil, err
	}
	retries, d, err := h.earlierAttempts(ctx, call, plan)
	if d != nil || err != nil {
		return safety.Call{}, d, err
	}
	c := policy.EngineCall(call, plan, tool, policy.CallFacts{AccumulatedCost: accumulated, TotalCost: total, EarlierAttempts: retries})
	loop := compiled.Loop()
	if loop.MaxRepeats >= 0 && !dryRun {
		c.Context.Repeats = h.loops.Observe(safety.NewCallKey(plan.Namespace+"/"+plan.Name, c), loop.Window)
	}
	return c, nil, nil
}

// earlierAttempts counts the calls already admitted for the call's step: those the plan settled
// when they were deleted, plus those in the cache that it has not settled, plus those this process
// admitted that the cache does not show yet. A settled call still in the cache (its finalizer
// being released) is counted once, through settled. Deleting calls therefore never hands a step
// its retries back. The plan's own step total (settled plus live, as the controller last wrote
// it) is a floor: it only grows, so a plan cache that lags the call cache cannot lose a call
// deleted since. A new step beyond safetyv1alpha1.MaxStepsPerPlan is refused. The caller holds the
// plan's lock in h.pending.
func (h *AgentToolCallHandler) earlierAttempts(ctx context.Context, call *safetyv1alpha1.AgentToolCall,
	plan *safetyv1alpha1.AgentPlan) (int32, *denial, error) {
	var calls safetyv1alpha1.AgentToolCallList
	if err := h.Reader.List(ctx, &calls, client.InNamespace(call.Namespace), client.MatchingFields{controller.CallPlanIndex: call.Spec.Plan}); err != nil {
		return 0, nil, fmt.Errorf("listing calls of plan %s: %w", call.Spec.Plan, err)
	}
	inCache := map[string]bool{}
	for _, c := range calls.Items {
		if c.Spec.Step == call.Spec.Step {
			inCache[c.Name] = true
		}
	}
	pending := h.pending.count(stepKey(call), func(name string) bool { return inCache[name] }, h.Clock.Now())
	n := policy.StepAttempts(plan, calls.Items, call.Spec.Step, int32(pending))
	if steps := policy.PlanSteps(plan, calls.Items); n == 0 && steps >= safetyv1alpha1.MaxStepsPerPlan {
		return 0, &denial{ReasonStepLimitExceeded, "spec.step", fmt.Sprintf(
			"plan %s already has %d steps, the most one plan may have; finish it and start a new plan", plan.Name, steps)}, nil
	}
	return n, nil, nil
}
