package v1alpha1

import "github.com/toolgate/toolgate/internal/policy"

// Reason codes of request-integrity denials: the checks the webhook runs before the engine.
// Engine reasons (ToolAccessDenied, ...) are in internal/safety.
const (
	ReasonPlanNotFound          = "PlanNotFound"
	ReasonPlanNotLocked         = "PlanNotLocked"
	ReasonAgentIdentityMismatch = "AgentIdentityMismatch"
	ReasonToolNotRegistered     = "ToolNotRegistered"
	ReasonInvalidUpdate         = "InvalidUpdate"
	ReasonBadRequest            = "BadRequest"
	ReasonLedgerUnavailable     = "LedgerUnavailable"
	ReasonStepLimitExceeded     = policy.ReasonStepLimitExceeded
	ReasonStepNotInPlan         = policy.ReasonStepNotInPlan
)

// Fields denials point at.
const (
	fieldPlan        = "spec.plan"
	fieldTool        = "spec.tool"
	fieldApprover    = "spec.approver"
	fieldFinalizers  = "metadata.finalizers"
	fieldAnnotations = "metadata.annotations"
)

// decisionDeny is the ledger's name for a refusal.
const decisionDeny = "deny"
