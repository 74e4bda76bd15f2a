package gateway

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgate/toolgate/pkg/toolcall"
)

// The tool error a denial becomes is read by a model and shown in a person's terminal (Claude
// Code prints tool results): the agent's text in it shows as escapes, not as a terminal's effect.
func TestADenialsToolErrorShowsHiddenText(t *testing.T) {
	r := toolcall.Result{Reason: "ToolSafetyViolation", Message: "rm -rf ~\x1b[2K\rls \u202ex\u200b"}
	res := denied(r)
	text := res.Content[0].(*mcp.TextContent).Text
	if want := `[ToolSafetyViolation] rm -rf ~\x1B[2K\rls \u202Ex\u200B`; text != want {
		t.Errorf("the tool error says %q, want %q", text, want)
	}
}
