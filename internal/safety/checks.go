package safety

import (
	"fmt"
	"slices"
	"strings"
)

// failure is the outcome of a failed check: which typed error, which rule, what to say. A check
// returns nil when it passes and builds a failure only when it fails, so the admitting path
// allocates nothing. A pointer rather than the struct by value: a passing check then returns one
// register, where the struct (six words) went through the stack at every step of the chain and
// cost the allow path a store-forwarding stall per check (docs/benchmarks-engine.md).
type failure struct {
	kind errKind
	ask  bool // a person could admit the call (Verdict ask)
	rule string
	msg  string
}

// profileChain runs steps 1-9 of the enforcement order (docs/engine.md), in the style of
// cert-manager's policy chain: pure functions of the policy and the call, evaluated in order, the
// first failure deciding. The calls are written out rather than looped over a table of function
// values so the call never escapes to the heap: the admitting path allocates nothing. Steps 1 and
// 3 also run without a profile (read-only plans and the context's checkpoint flag); the others need
// one.
func profileChain(p *Policy, c *Call) *failure {
	if f := checkReadOnly(p, c); f != nil {
		return f
	}
	if f := checkToolLists(p, c); f != nil {
		return f
	}
	if f := checkCheckpoints(p, c); f != nil {
		return f
	}
	if f := checkUnsafe(p, c); f != nil {
		return f
	}
	if f := checkSkillCategory(p, c); f != nil {
		return f
	}
	if f := checkSandbox(p, c); f != nil {
		return f
	}
	if f := checkHumanApproval(p, c); f != nil {
		return f
	}
	if f := checkCost(p, c); f != nil {
		return f
	}
	return checkRetries(p, c)
}

func checkReadOnly(p *Policy, c *Call) *failure {
	if !c.Tool.Writes {
		return nil
	}
	if c.Context.ReadOnlyPlan {
		return &failure{kind: kindAccessDenied, rule: RuleReadOnlyPlan,
			msg: fmt.Sprintf("tool %q writes and the plan is read-only", c.Tool.Name)}
	}
	if p.profile != nil && p.profile.ReadOnly {
		return &failure{kind: kindAccessDenied, rule: RuleReadOnlyProfile,
			msg: fmt.Sprintf("tool %q writes and the safety profile is read-only", c.Tool.Name)}
	}
	return nil
}

func checkToolLists(p *Policy, c *Call) *failure {
	if p.profile == nil {
		return nil
	}
	if pat, ok := p.denied.match(c.Tool.Name); ok {
		return &failure{kind: kindAccessDenied, rule: RuleDenyList,
			msg: fmt.Sprintf("tool %q is on the safety profile's deny-list (pattern %q)", c.Tool.Name, pat)}
	}
	if !p.allowed.empty() {
		if _, ok := p.allowed.match(c.Tool.Name); !ok {
			return &failure{kind: kindAccessDenied, rule: RuleAllowList,
				msg: fmt.Sprintf("tool %q is not on the safety profile's allow-list", c.Tool.Name)}
		}
	}
	return nil
}

func checkCheckpoints(p *Policy, c *Call) *failure {
	required := c.Context.RequireCheckpoints || (p.profile != nil && p.profile.RequireCheckpoints)
	// Read-only tools have nothing to checkpoint.
	if required && c.Tool.Writes && !c.Tool.Checkpointable {
		return &failure{kind: kindCheckpointRequired, rule: RuleRequireCheckpoints,
			msg: fmt.Sprintf("tool %q writes and cannot checkpoint, but checkpoints are required (require_checkpoints)", c.Tool.Name)}
	}
	return nil
}

func checkUnsafe(p *Policy, c *Call) *failure {
	if p.profile != nil && c.Tool.Unsafe && !p.profile.AllowUnsafeTools {
		return &failure{kind: kindSafetyViolation, rule: RuleUnsafeTool,
			msg: fmt.Sprintf("tool %q is marked unsafe and the safety profile does not allow unsafe tools (allow_unsafe_tools=false)", c.Tool.Name)}
	}
	return nil
}

func checkSkillCategory(p *Policy, c *Call) *failure {
	if p.profile == nil || len(p.categories) == 0 {
		return nil
	}
	if !c.Tool.HasSkillCategory {
		return &failure{kind: kindSafetyViolation, rule: RuleNoSkillCategory,
			msg: fmt.Sprintf("tool %q has no skill category, but the safety profile allows only the skill categories [%s]", c.Tool.Name, strings.Join(p.categories, ", "))}
	}
	if slices.Contains(p.categories, c.Tool.SkillCategory) {
		return nil
	}
	return &failure{kind: kindSafetyViolation, rule: RuleSkillCategory,
		msg: fmt.Sprintf("skill category %q of tool %q is not in the allowed skill categories [%s]", c.Tool.SkillCategory, c.Tool.Name, strings.Join(p.categories, ", "))}
}

func checkSandbox(p *Policy, c *Call) *failure {
	if p.profile != nil && p.profile.RequireSandbox && c.Tool.Writes && strings.TrimSpace(c.Context.SandboxID) == "" {
		return &failure{kind: kindSandboxRequired, rule: RuleRequireSandbox,
			msg: fmt.Sprintf("tool %q writes and no sandbox id is set, but the safety profile requires a sandbox (require_sandbox)", c.Tool.Name)}
	}
	return nil
}

func checkHumanApproval(p *Policy, c *Call) *failure {
	if p.profile != nil && p.profile.RequireHumanApproval && !c.Context.HumanApproved {
		return &failure{kind: kindHumanApprovalRequired, ask: true, rule: RuleHumanApproval,
			msg: fmt.Sprintf("tool %q needs human approval (require_human_approval) and none was granted", c.Tool.Name)}
	}
	return nil
}

func checkCost(p *Policy, c *Call) *failure {
	if p.profile == nil {
		return nil
	}
	held := c.Context.HeldCost
	if m := p.profile.MaxCostPerPlan; m != nil && c.Context.AccumulatedCost.SaturatingAdd(held).Cmp(*m) >= 0 {
		return &failure{kind: kindCostLimitExceeded, rule: RuleMaxCostPerPlan,
			msg: fmt.Sprintf("the plan's accumulated cost %s%s has reached max_cost_per_plan %s", c.Context.AccumulatedCost, heldNote(held), *m)}
	}
	if m := p.profile.MaxTotalCost; m != nil && c.Context.TotalCost.SaturatingAdd(held).Cmp(*m) >= 0 {
		return &failure{kind: kindCostLimitExceeded, rule: RuleMaxTotalCost,
			msg: fmt.Sprintf("the total accumulated cost %s%s has reached max_total_cost %s", c.Context.TotalCost, heldNote(held), *m)}
	}
	return nil
}

// heldNote says what the plan's calls in flight hold, when they hold anything.
func heldNote(held Money) string {
	if held.IsZero() {
		return ""
	}
	return fmt.Sprintf(", with %s held for calls whose cost is not reported yet,", held)
}

func checkRetries(p *Policy, c *Call) *failure {
	if p.profile == nil {
		return nil
	}
	if m := p.profile.MaxRetriesPerStep; m != nil && c.Context.StepRetryCount > *m {
		return &failure{kind: kindRetryLimitExceeded, rule: RuleMaxRetriesPerStep,
			msg: fmt.Sprintf("the step was retried %d times, more than max_retries_per_step %d", c.Context.StepRetryCount, *m)}
	}
	return nil
}

func checkLoop(p *Policy, c *Call) *failure {
	if p.loop.MaxRepeats > 0 && c.Context.Repeats > p.loop.MaxRepeats {
		return &failure{kind: kindLoopDetected, rule: RuleLoopDetected,
			msg: fmt.Sprintf("the same call to tool %q was made %d times within %s, more than the %d allowed", c.Tool.Name, c.Context.Repeats, p.loop.Window, p.loop.MaxRepeats)}
	}
	return nil
}
