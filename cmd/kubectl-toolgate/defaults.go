package main

import (
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// schemaDefaults gives an object read from a file the defaults the API server gives it from the CRD
// schema (the +kubebuilder:default markers) when it is stored, so the operator's code sees offline
// what it sees in the cluster. It matters where a default is copied rather than interpreted: the
// plan's snapshot holds the ProjectPolicy's spec as stored, defaulted profileRef kinds included,
// and its hash covers it. TestOfflineDefaultsAreTheSchemas checks these against the API server.
func schemaDefaults(obj client.Object) {
	switch o := obj.(type) {
	case *safetyv1alpha1.SafetyProfile:
		safetySpecDefaults(&o.Spec)
	case *safetyv1alpha1.AutomationProfile:
		if o.Spec.Level == "" {
			o.Spec.Level = safetyv1alpha1.AutonomyLevelDefault
		}
		if o.Spec.Safety != nil {
			safetySpecDefaults(o.Spec.Safety)
		}
	case *safetyv1alpha1.ProjectPolicy:
		refDefaults(o.Spec.ProfileRef)
		for i := range o.Spec.AllowedProfiles {
			refDefaults(&o.Spec.AllowedProfiles[i])
		}
		for i := range o.Spec.Actions {
			refDefaults(o.Spec.Actions[i].ProfileRef)
		}
	case *safetyv1alpha1.AgentPlan:
		refDefaults(o.Spec.ProfileRef)
		if o.Spec.ActiveDeadlineSeconds == nil {
			o.Spec.ActiveDeadlineSeconds = new(safetyv1alpha1.DefaultActiveDeadlineSeconds)
		}
	case *safetyv1alpha1.ToolApproval:
		if o.Spec.ExpirationSeconds == 0 {
			o.Spec.ExpirationSeconds = 3600
		}
		if o.Spec.Uses == 0 {
			o.Spec.Uses = 1
		}
	}
}

func safetySpecDefaults(s *safetyv1alpha1.SafetyProfileSpec) {
	def := safety.DefaultProfile()
	for _, f := range []struct {
		field **bool
		value bool
	}{
		{&s.RequireSandbox, def.RequireSandbox}, {&s.RequireCheckpoints, def.RequireCheckpoints},
		{&s.AllowUnsafeTools, def.AllowUnsafeTools}, {&s.RequireHumanApproval, def.RequireHumanApproval},
		{&s.ReadOnly, def.ReadOnly},
	} {
		if *f.field == nil {
			*f.field = new(f.value)
		}
	}
	if s.MaxRetriesPerStep == nil {
		s.MaxRetriesPerStep = new(safety.DefaultMaxRetriesPerStep)
	}
	if s.MaxStepsPerPlan == nil {
		s.MaxStepsPerPlan = new(safety.DefaultMaxStepsPerPlan)
	}
	if s.EnforcementMode == "" {
		s.EnforcementMode = safetyv1alpha1.EnforcementModeEnforce
	}
}

func refDefaults(r *safetyv1alpha1.ProfileRef) {
	if r != nil && r.Kind == "" {
		r.Kind = safetyv1alpha1.ProfileKindAutomationProfile
	}
}
