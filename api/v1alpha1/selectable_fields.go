package v1alpha1

// Selectable fields (+kubebuilder:selectablefield) by which the API server selects the objects of
// a list. A live lookup by one transfers and decodes what it is for, not every plan or approval
// its namespace has held: ended plans are never cleaned up, so a namespace's grow with its history.
const (
	// AgentPlanServiceAccountField selects a ServiceAccount's plans: the only ones its binding
	// can conflict with, and the only ones its calls can belong to.
	AgentPlanServiceAccountField = "spec.serviceAccountName"
	// ToolApprovalPlanField selects the approvals made for one plan.
	ToolApprovalPlanField = "spec.plan"
)
