package policy

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// CallFacts are what the cluster knows about a call beyond the call, its plan and its tool: the
// usage the controllers keep and the attempts that exist. The webhook reads them from the cluster;
// `kubectl toolgate test` computes them from the objects it is given, or takes them as flags.
type CallFacts struct {
	// AccumulatedCost is the plan's cost so far (its status.usage.accumulatedCost).
	AccumulatedCost safety.Money
	// TotalCost is the accumulated cost of every plan in the namespace.
	TotalCost safety.Money
	// HeldCost is what the plan's calls in flight hold until their final report (HoldFor).
	HeldCost safety.Money
	// EarlierAttempts is how many calls of the same plan step were admitted before this one.
	EarlierAttempts int32
}

// EngineCall is the engine's input for a call: capability and skill category from the registered
// AgentTool, the read-only and checkpoint flags from the plan, the facts from the cluster. Only the
// sandbox id and the arguments come from the call: they are what the agent asks for, and the
// engine checks them. Loop repeats and human approval are left for the caller to set.
func EngineCall(call *safetyv1alpha1.AgentToolCall, plan *safetyv1alpha1.AgentPlan, tool *safetyv1alpha1.AgentTool,
	f CallFacts) safety.Call {
	return safety.Call{
		Tool: safety.Tool{
			Name: tool.Name, Writes: tool.Spec.Writes, Unsafe: tool.Spec.Unsafe, Checkpointable: tool.Spec.Checkpointable,
			ActionClass: safety.ActionClass(tool.Spec.ActionClass), SkillCategory: tool.Spec.SkillCategory,
			HasSkillCategory: tool.Spec.SkillCategory != "",
		},
		Context: safety.Context{
			ReadOnlyPlan: plan.Spec.ReadOnly, RequireCheckpoints: plan.Spec.RequireCheckpoints,
			SandboxID: call.Spec.SandboxID, AccumulatedCost: f.AccumulatedCost, TotalCost: f.TotalCost,
			HeldCost: f.HeldCost, StepRetryCount: f.EarlierAttempts,
		},
		Args: safety.Arguments{Command: call.Spec.Arguments.Command, Paths: call.Spec.Arguments.Paths, Cwd: call.Spec.Arguments.Cwd,
			ProjectDir: call.Spec.Arguments.ProjectDir},
	}
}

// AccumulatedCost is a plan's status.usage.accumulatedCost as money; unset is zero.
func AccumulatedCost(plan *safetyv1alpha1.AgentPlan) (safety.Money, error) {
	s := plan.Status.Usage.AccumulatedCost
	if s == "" {
		return safety.Money{}, nil
	}
	m, err := safety.ParseMoney(s)
	if err != nil {
		return safety.Money{}, fmt.Errorf("accumulated cost of plan %s: %w", plan.Name, err)
	}
	return m, nil
}

// CompileSnapshot compiles a plan's locked snapshot into the policy the engine evaluates: the
// locked safety profile, the locked project rules and the locked autonomy level.
func CompileSnapshot(snap *safetyv1alpha1.PlanSnapshot) (*safety.Policy, error) {
	profile, errs := ProfileFromSpec(&snap.Safety, field.NewPath("status", "snapshot", "safety"))
	if len(errs) > 0 {
		return nil, errs.ToAggregate()
	}
	p, err := safety.Compile(profile, RulesFromProject(snap.Project, snap.Level))
	if err != nil {
		return nil, fmt.Errorf("compiling snapshot %s: %w", snap.Hash, err)
	}
	return p, nil
}
