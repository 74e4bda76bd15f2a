package policy

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/argrules"
	"github.com/toolgate/toolgate/internal/safety"
)

// FieldExtra is the call field that holds the extra arguments.
const FieldExtra = "spec.arguments.extra"

// ArgumentRulesFromProject converts a project's argument rules (nil when the namespace has no
// policy) into argrules' input.
func ArgumentRulesFromProject(spec *safetyv1alpha1.ProjectPolicySpec) []argrules.Rule {
	if spec == nil {
		return nil
	}
	rules := make([]argrules.Rule, 0, len(spec.ArgumentRules))
	for _, r := range spec.ArgumentRules {
		rules = append(rules, argrules.Rule{Name: r.Name, Tools: r.Tools, Expression: r.Expression, Message: r.Message})
	}
	return rules
}

// validateArgumentRules compiles a project's argument rules and returns one error per invalid
// rule, naming its index and field under path (the ProjectPolicy's spec).
func validateArgumentRules(spec *safetyv1alpha1.ProjectPolicySpec, path *field.Path) field.ErrorList {
	_, ferrs := argrules.Compile(ArgumentRulesFromProject(spec))
	errs := make(field.ErrorList, 0, len(ferrs))
	for _, fe := range ferrs {
		r := spec.ArgumentRules[fe.Index]
		value := r.Expression
		if fe.Field == "name" {
			value = r.Name
		}
		errs = append(errs, field.Invalid(path.Child("argumentRules").Index(fe.Index).Child(fe.Field), value, fe.Detail))
	}
	// A rule's tools are compared exactly with AgentTool names: a name no AgentTool can have
	// ("Bash" for the hook's "bash") would leave the rule silently applying to nothing.
	for i, r := range spec.ArgumentRules {
		for j, t := range r.Tools {
			if problem := toolNameProblem(t); problem != "" {
				errs = append(errs, field.Invalid(path.Child("argumentRules").Index(i).Child("tools").Index(j), t,
					problem+"; the rule would apply to no tool"))
			}
		}
	}
	return errs
}

// CompileArgumentRules compiles the argument rules a plan locked with its snapshot: the rules'
// source is part of the snapshot, so editing the ProjectPolicy later changes no running plan.
func CompileArgumentRules(snap *safetyv1alpha1.PlanSnapshot) (*argrules.Set, error) {
	set, errs := argrules.Compile(ArgumentRulesFromProject(snap.Project))
	if len(errs) > 0 {
		return nil, fmt.Errorf("compiling the argument rules of snapshot %s: %w", snap.Hash, errs[0])
	}
	return set, nil
}

// ArgumentRuleInput is what the argument rules see of a call. An error is extra arguments that
// are refused (argrules.ParseExtra), to be reported against FieldExtra.
func ArgumentRuleInput(call *safetyv1alpha1.AgentToolCall) (argrules.Input, error) {
	args := call.Spec.Arguments
	// The working directory and paths as the engine resolves them: "/workspace/../etc" is /etc
	// to the tool, and so to a rule.
	cwd, paths := safety.ResolvedArguments(args.Cwd, args.Paths)
	in := argrules.Input{Tool: call.Spec.Tool, Command: args.Command, Paths: paths, Cwd: cwd}
	if args.Extra != nil {
		extra, err := argrules.ParseExtra(args.Extra.Raw)
		if err != nil {
			return in, err
		}
		in.Extra = extra
	}
	return in, nil
}

// canonicalExtra is the canonical JSON of a call's extra arguments, nil when it has none. Extra
// arguments that ParseExtra refuses (never admitted, but an approval may be checked against
// them) become a JSON string of their bytes: still valid JSON, and equal to no parsed object.
func canonicalExtra(args safetyv1alpha1.ToolArguments) []byte {
	if args.Extra == nil {
		return nil
	}
	extra, err := argrules.ParseExtra(args.Extra.Raw)
	if err != nil {
		b, _ := json.Marshal(string(args.Extra.Raw)) // a string always marshals
		return b
	}
	return argrules.Canonical(extra)
}

// WithArgumentRules applies a snapshot's argument rules to the engine's decision for a call: they
// run after the engine's checks, on a call the engine admitted or would admit with a person's
// approval (a rule's refusal is final, so no approval is asked for or spent on it), and deny it
// ToolArgumentRuleViolated; under a Warn or Audit profile the call is admitted as would_deny.
// A decision the engine already refused, or would refuse, is returned unchanged.
func WithArgumentRules(d safety.Decision, rules *argrules.Set, in argrules.Input, mode safety.Mode) safety.Decision {
	if d.Verdict == safety.VerdictDeny || d.WouldDeny {
		return d
	}
	v := rules.Evaluate(in)
	if v == nil {
		return d
	}
	rule := safety.RulePrefixArgumentRule + v.Rule
	out := safety.Decision{Verdict: safety.VerdictDeny, Reason: safety.ReasonToolArgumentRuleViolated, RuleID: rule,
		Message: v.Message, Class: d.Class, Mode: mode,
		Err: &safety.ToolArgumentRuleViolatedError{Violation: safety.Violation{Tool: in.Tool, RuleID: rule, Message: v.Message}}}
	if mode != safety.ModeEnforce {
		out.Verdict, out.WouldDeny = safety.VerdictAllow, true
	}
	return out
}

// LockedPolicy is a locked snapshot compiled as the webhook decides with it: the engine's policy
// and the project's argument rules. Replay compiles snapshots the same way.
type LockedPolicy struct {
	Engine *safety.Policy
	Args   *argrules.Set
}

// CompileLocked compiles a plan's locked snapshot into its LockedPolicy.
func CompileLocked(snap *safetyv1alpha1.PlanSnapshot) (*LockedPolicy, error) {
	engine, err := CompileSnapshot(snap)
	if err != nil {
		return nil, err
	}
	args, err := CompileArgumentRules(snap)
	if err != nil {
		return nil, err
	}
	return &LockedPolicy{Engine: engine, Args: args}, nil
}

// Decide is the decision on a call: the engine's checks, then the argument rules
// (WithArgumentRules), in the policy's mode.
func (l *LockedPolicy) Decide(c safety.Call, in argrules.Input) safety.Decision {
	return WithArgumentRules(safety.Evaluate(l.Engine, c), l.Args, in, l.Engine.Mode())
}
