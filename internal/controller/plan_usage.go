package controller

import (
	"fmt"
	"slices"
	"strings"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// computeUsage derives a plan's usage from the calls that exist for it. It recomputes from
// scratch every time rather than adding deltas, so re-reconciles and restarts can neither count a
// call twice nor miss one. Denied calls are never stored; denials is carried over unchanged.
func computeUsage(calls []safetyv1alpha1.AgentToolCall, denials int64) (safetyv1alpha1.PlanUsage, error) {
	total := safety.Money{}
	attempts := map[string]int32{}
	for i := range calls {
		c := &calls[i]
		attempts[c.Spec.Step]++
		if c.Status.Cost == nil {
			continue
		}
		cost, err := policy.MoneyFromQuantity(*c.Status.Cost)
		if err != nil {
			return safetyv1alpha1.PlanUsage{}, fmt.Errorf("cost %s of AgentToolCall %s: %w", c.Status.Cost, c.Name, err)
		}
		if total, err = total.Add(cost); err != nil {
			return safetyv1alpha1.PlanUsage{}, fmt.Errorf("adding the cost of AgentToolCall %s: %w", c.Name, err)
		}
	}
	usage := safetyv1alpha1.PlanUsage{
		AccumulatedCost: total.String(),
		Calls:           int64(len(calls)),
		Denials:         denials,
	}
	for step, n := range attempts {
		usage.Steps = append(usage.Steps, safetyv1alpha1.StepUsage{Step: step, Attempts: n})
	}
	slices.SortFunc(usage.Steps, func(a, b safetyv1alpha1.StepUsage) int { return strings.Compare(a.Step, b.Step) })
	return usage, nil
}
