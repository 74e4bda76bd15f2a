package controller

import (
	"fmt"
	"slices"
	"strings"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// computeUsage derives a plan's usage from its settled part and the calls that exist for it. The
// live part is recomputed from scratch every time rather than adding deltas, so re-reconciles and
// restarts can neither count a call twice nor miss one. A call whose UID is in settled.UIDs was
// already moved into settled (it is being deleted) and is not counted again. Denied calls are never
// stored; denials is carried over unchanged.
func computeUsage(calls []safetyv1alpha1.AgentToolCall, settled *safetyv1alpha1.SettledUsage, denials int64) (safetyv1alpha1.PlanUsage, error) {
	total, attempts, n := safety.Money{}, map[string]int32{}, int64(0)
	skip := map[string]bool{}
	if settled != nil {
		var err error
		if total, err = parseMoney(settled.AccumulatedCost); err != nil {
			return safetyv1alpha1.PlanUsage{}, fmt.Errorf("settled cost: %w", err)
		}
		for _, s := range settled.Steps {
			attempts[s.Step] += s.Attempts
		}
		for _, uid := range settled.UIDs {
			skip[uid] = true
		}
		n = settled.Calls
	}
	for i := range calls {
		c := &calls[i]
		if skip[string(c.UID)] {
			continue
		}
		n++
		attempts[c.Spec.Step]++
		var err error
		if total, err = addCost(total, c); err != nil {
			return safetyv1alpha1.PlanUsage{}, err
		}
	}
	usage := safetyv1alpha1.PlanUsage{AccumulatedCost: total.String(), Calls: n, Denials: denials, Settled: settled}
	usage.Steps = stepList(attempts)
	return usage, nil
}

// settle moves one call into settled: its cost, one call, one attempt of its step, and its UID, so
// that the next count leaves it out. The caller makes sure it is not there already.
func settle(settled *safetyv1alpha1.SettledUsage, c *safetyv1alpha1.AgentToolCall) error {
	cost, err := parseMoney(settled.AccumulatedCost)
	if err != nil {
		return fmt.Errorf("settled cost: %w", err)
	}
	if cost, err = addCost(cost, c); err != nil {
		return err
	}
	attempts := map[string]int32{c.Spec.Step: 1}
	for _, s := range settled.Steps {
		attempts[s.Step] += s.Attempts
	}
	settled.AccumulatedCost, settled.Steps = cost.String(), stepList(attempts)
	settled.Calls++
	settled.UIDs = append(settled.UIDs, string(c.UID))
	return nil
}

func addCost(total safety.Money, c *safetyv1alpha1.AgentToolCall) (safety.Money, error) {
	if c.Status.Cost == nil {
		return total, nil
	}
	cost, err := policy.MoneyFromQuantity(*c.Status.Cost)
	if err != nil {
		return total, fmt.Errorf("cost %s of AgentToolCall %s: %w", c.Status.Cost, c.Name, err)
	}
	return total.SaturatingAdd(cost), nil
}

func stepList(attempts map[string]int32) []safetyv1alpha1.StepUsage {
	steps := make([]safetyv1alpha1.StepUsage, 0, len(attempts))
	for step, n := range attempts {
		steps = append(steps, safetyv1alpha1.StepUsage{Step: step, Attempts: n})
	}
	slices.SortFunc(steps, func(a, b safetyv1alpha1.StepUsage) int { return strings.Compare(a.Step, b.Step) })
	if len(steps) == 0 {
		return nil
	}
	return steps
}

func parseMoney(s string) (safety.Money, error) {
	if s == "" {
		return safety.Money{}, nil
	}
	return safety.ParseMoney(s)
}
