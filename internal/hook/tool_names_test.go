package hook_test

import (
	"testing"

	"github.com/toolgate/toolgate/internal/hook"
)

// Claude Code names an MCP tool mcp__SERVER__TOOL, and tells two servers or two tools apart by
// their exact names: "my_server" and "my-server" are two servers, "create_issue" and
// "create-issue" two tools. The AgentTool a registration admits, and the argument rules keyed by
// it, are for one of them: a tool of another server (or another tool) must not be submitted under
// the same AgentTool, where the registration and the rules written for the first would admit it.
func TestDistinctMCPToolsAreDistinctAgentTools(t *testing.T) {
	for _, pair := range [][2]string{
		{"mcp__my_server__push", "mcp__my-server__push"},
		{"mcp__github__create_issue", "mcp__github__create-issue"},
		{"mcp__github__push", "mcp__GitHub__push"},
		{"mcp__a_b__c", "mcp__a__b_c"},
	} {
		a, b := hook.AgentToolName(pair[0]), hook.AgentToolName(pair[1])
		if a == b {
			t.Errorf("AgentToolName(%q) = AgentToolName(%q) = %q: two tools Claude Code tells apart are one AgentTool",
				pair[0], pair[1], a)
		}
	}
}
