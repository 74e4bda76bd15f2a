package v1alpha1

import safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"

// Reason codes of the plan binding and ceiling rules: calls denied because their plan has ended,
// and AgentPlans refused at admission.
const (
	// ReasonPlanExpired: the call's plan is past its activeDeadlineSeconds.
	ReasonPlanExpired = "PlanExpired"
	// ReasonPlanConflict: the plan may not stand beside an active plan of its ServiceAccount (one
	// without a pod, or one of the same pod).
	ReasonPlanConflict = safetyv1alpha1.AgentPlanConflictReason
	// ReasonPlanAuthoredByAgent: the plan's own ServiceAccount tried to create or re-lock it.
	ReasonPlanAuthoredByAgent = "PlanAuthoredByAgent"
	// ReasonProfileNotAllowed: the plan names a profile outside the project's allowedProfiles.
	ReasonProfileNotAllowed = safetyv1alpha1.AgentPlanProfileNotAllowedReason
)

// decisionAllow is the ledger's name for an acceptance.
const decisionAllow = "allow"
