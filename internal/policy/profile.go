// Package policy translates toolgate's API objects into the engine's inputs and back. Controllers
// and webhooks share it, so a profile means the same thing when it is locked, hashed and enforced.
package policy

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// ProfileFromSpec converts a SafetyProfileSpec into an engine profile. Unset fields take the
// specification's defaults, exactly as the CRD schema defaults them, so an object read before
// defaulting (an inline spec in a test, say) converts the same as one read from the API server.
func ProfileFromSpec(spec *safetyv1alpha1.SafetyProfileSpec, path *field.Path) (*safety.Profile, field.ErrorList) {
	def := safety.DefaultProfile()
	p := &safety.Profile{
		RequireSandbox:         boolOr(spec.RequireSandbox, def.RequireSandbox),
		RequireCheckpoints:     boolOr(spec.RequireCheckpoints, def.RequireCheckpoints),
		AllowUnsafeTools:       boolOr(spec.AllowUnsafeTools, def.AllowUnsafeTools),
		RequireHumanApproval:   boolOr(spec.RequireHumanApproval, def.RequireHumanApproval),
		ReadOnly:               boolOr(spec.ReadOnly, false),
		AllowedSkillCategories: spec.AllowedSkillCategories,
		AllowedTools:           spec.AllowedTools,
		DeniedTools:            spec.DeniedTools,
		MaxRetriesPerStep:      def.MaxRetriesPerStep,
		Mode:                   safety.Mode(spec.EnforcementMode),
	}
	if spec.MaxRetriesPerStep != nil {
		p.MaxRetriesPerStep = new(*spec.MaxRetriesPerStep)
	}
	if spec.MaxStepsPerPlan != nil {
		p.MaxStepsPerPlan = *spec.MaxStepsPerPlan
	}
	if p.Mode == "" {
		p.Mode = safety.ModeEnforce
	}
	var errs field.ErrorList
	var err *field.Error
	if p.MaxCostPerPlan, err = moneyFromQuantity(spec.MaxCostPerPlan, path.Child("maxCostPerPlan")); err != nil {
		errs = append(errs, err)
	}
	if p.MaxTotalCost, err = moneyFromQuantity(spec.MaxTotalCost, path.Child("maxTotalCost")); err != nil {
		errs = append(errs, err)
	}
	for _, fe := range safety.ValidateProfile(p) {
		errs = append(errs, field.Invalid(path.Child(profileFieldName(fe.Field)), nil, fe.Detail))
	}
	return p, errs
}

// CheckedProfileFromSpec is ProfileFromSpec for a profile as a platform team writes it (admitted
// by the webhooks, shown in Ready, resolved at a lock), with the checks that only such a profile
// gets: every allowedTools and deniedTools entry must be able to match an AgentTool. A locked
// snapshot is compiled with ProfileFromSpec alone, so a plan locked before a check existed is
// judged, and replayed, by the rules it was locked under.
func CheckedProfileFromSpec(spec *safetyv1alpha1.SafetyProfileSpec, path *field.Path) (*safety.Profile, field.ErrorList) {
	p, errs := ProfileFromSpec(spec, path)
	return p, append(errs, validateToolPatterns(spec.AllowedTools, spec.DeniedTools, path)...)
}

// SpecFromProfile converts an engine profile into a fully defaulted SafetyProfileSpec. The API has
// no "unlimited" retries, so an engine profile without a retry limit gets the API's maximum.
func SpecFromProfile(p *safety.Profile) safetyv1alpha1.SafetyProfileSpec {
	retries := safety.MaxRetriesLimit
	if p.MaxRetriesPerStep != nil {
		retries = *p.MaxRetriesPerStep
	}
	return safetyv1alpha1.SafetyProfileSpec{
		RequireSandbox:         new(p.RequireSandbox),
		RequireCheckpoints:     new(p.RequireCheckpoints),
		AllowUnsafeTools:       new(p.AllowUnsafeTools),
		RequireHumanApproval:   new(p.RequireHumanApproval),
		ReadOnly:               new(p.ReadOnly),
		AllowedSkillCategories: p.AllowedSkillCategories,
		AllowedTools:           p.AllowedTools,
		DeniedTools:            p.DeniedTools,
		MaxCostPerPlan:         quantityFromMoney(p.MaxCostPerPlan),
		MaxTotalCost:           quantityFromMoney(p.MaxTotalCost),
		MaxRetriesPerStep:      new(retries),
		MaxStepsPerPlan:        new(p.StepLimit()),
		EnforcementMode:        safetyv1alpha1.EnforcementMode(p.Mode),
	}
}

// MoneyFromQuantity converts an exact Kubernetes quantity into engine money.
func MoneyFromQuantity(q resource.Quantity) (safety.Money, error) {
	return safety.ParseMoney(q.AsDec().String())
}

// QuantityFromMoney converts engine money into a Kubernetes quantity.
func QuantityFromMoney(m safety.Money) resource.Quantity {
	return resource.MustParse(m.String())
}

func moneyFromQuantity(q *resource.Quantity, path *field.Path) (*safety.Money, *field.Error) {
	if q == nil {
		return nil, nil
	}
	m, err := MoneyFromQuantity(*q)
	if err != nil {
		return nil, field.Invalid(path, q.String(), fmt.Sprintf("not an exact amount of money: %v", err))
	}
	return &m, nil
}

func quantityFromMoney(m *safety.Money) *resource.Quantity {
	if m == nil {
		return nil
	}
	return new(QuantityFromMoney(*m))
}

func boolOr(b *bool, def bool) bool {
	if b == nil {
		return def
	}
	return *b
}

// profileFieldName maps an engine field path onto the API's JSON name where they differ.
func profileFieldName(engineField string) string {
	if engineField == "mode" {
		return "enforcementMode"
	}
	return engineField
}
