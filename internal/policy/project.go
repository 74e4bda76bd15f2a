package policy

import (
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// RulesFromProject converts a project's policy (nil when the namespace has none) and the resolved
// autonomy level into the engine's project rules.
func RulesFromProject(spec *safetyv1alpha1.ProjectPolicySpec, level safetyv1alpha1.AutonomyLevel) safety.ProjectRules {
	rules := safety.ProjectRules{Autonomy: safety.AutonomyLevel(level)}
	if spec == nil {
		return rules
	}
	for _, r := range spec.CommandRules {
		rules.CommandRules = append(rules.CommandRules, safety.Rule{
			ID:      r.ID,
			Action:  safety.RuleAction(strings.ToLower(string(r.Action))),
			Reason:  r.Reason,
			Pattern: r.Pattern,
		})
	}
	for _, c := range spec.Commands {
		rules.Commands = append(rules.Commands, safety.ProjectCommand{
			ID: c.ID, Command: c.Command, RequireConfirmation: c.RequireConfirmation,
		})
	}
	if pp := spec.PathPolicy; pp != nil {
		rules.Paths = safety.PathPolicy{ZeroAccess: pp.ZeroAccess, ReadOnly: pp.ReadOnly, NoWrite: pp.NoWrite, NoDelete: pp.NoDelete}
	}
	rules.Workspace = spec.Workspace
	rules.WriteRoots = spec.WriteRoots
	return rules
}

// ValidateProjectRules compiles a project's rules and returns one error per invalid field, with
// paths under path (the ProjectPolicy's spec).
func ValidateProjectRules(spec *safetyv1alpha1.ProjectPolicySpec, path *field.Path) field.ErrorList {
	ferrs := safety.ValidateRules(RulesFromProject(spec, safetyv1alpha1.AutonomyLevelDefault))
	errs := make(field.ErrorList, 0, len(ferrs))
	for _, fe := range ferrs {
		errs = append(errs, field.Invalid(path.Child(projectFieldName(fe.Field)), nil, fe.Detail))
	}
	return append(errs, validateArgumentRules(spec, path)...)
}

// projectFieldName maps an engine field path onto the API's JSON names where they differ.
func projectFieldName(engineField string) string {
	if rest, ok := strings.CutPrefix(engineField, "paths."); ok {
		return "pathPolicy." + rest
	}
	return engineField
}
