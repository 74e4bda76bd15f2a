package gateway

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// CostReporter is the hook where the gateway reports an admitted call's outcome (phase, and the
// cost the upstream answer implies) as the plan's costReporter. Cost accounting (AgentPlan
// spec.costReporter, AgentTool spec.costPerCall) is being built on branch accounting; until it
// lands the gateway reports nothing (a nil CostReporter). The report must be written with the
// gateway's own identity, which the plan names as its cost reporter, never the agent's.
type CostReporter interface {
	ReportCall(ctx context.Context, call *safetyv1alpha1.AgentToolCall, result *mcp.CallToolResult, callErr error) error
}
