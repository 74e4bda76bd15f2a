package hook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/pkg/agent"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// Gate decides tool uses by asking toolgate.
type Gate struct {
	// Client authenticates as the pod's ServiceAccount, with its pod-bound token.
	Client    client.Client
	Namespace string
	// Plan returns the plan the pod's calls belong to.
	Plan func(ctx context.Context) (string, error)
	// AskForApprovals answers ask, not deny, for a call that needs a person's approval, which
	// lets the person at the agent's prompt run it on their own say, with no ToolApproval and no
	// admitted AgentToolCall (the ledger holds only the denial). Off by default: a person
	// approves with a ToolApproval, which the ledger records, and the agent retries.
	AskForApprovals bool
	// Broken, when set, is why the hook cannot ask toolgate at all (no token, no API server
	// address): every call it would submit is denied with it.
	Broken error
	// GatewayServer names the MCP server that is toolgate's gateway in the agent's MCP
	// configuration: its tools (mcp__NAME__TOOL) are admitted here without a call of their own,
	// since the gateway gates each of them, with the command and path arguments its ToolServers
	// map, and records it. Empty: every tool is submitted.
	GatewayServer string
	// ProjectDir is the coding agent's project directory (Claude Code's CLAUDE_PROJECT_DIR), where
	// the paths its links lead to are written as named (withLinkTargets); empty: the payload's cwd.
	// When absolute it is sent as the call's spec.arguments.projectDir, so that the engine takes
	// it to hold the project's protected files (.env, .git) wherever the agent has cd'ed: a grep -r
	// of it from /tmp asks as one from inside it does, and rm -rf of it is denied.
	ProjectDir string
}

// GatedByGateway says whether tool is one of the gateway's, which the gateway gates itself:
// mcp__NAME__TOOL where TOOL neither starts with '_' nor holds "__", so that the tools of a server
// named "NAME_", "NAME__" or "NAME__x" (mcp__NAME___read, mcp__NAME__x__read) are not taken for
// the gateway's.
func (g *Gate) GatedByGateway(tool string) bool {
	rest, ok := strings.CutPrefix(tool, "mcp__"+g.GatewayServer+"__")
	return g.GatewayServer != "" && ok && rest != "" && rest[0] != '_' && !strings.Contains(rest, "__")
}

// ValidGatewayServer checks a gateway server's name: letters, digits, '-' and single '_' inside
// it, so that no other server's tools share the gateway's prefix (GatedByGateway). The name
// alone does not make the tools the gateway's: only a managed server set, which users cannot add
// to, does.
func ValidGatewayServer(name string) error {
	if name == "" || strings.Contains(name, "__") || strings.HasPrefix(name, "_") || strings.HasSuffix(name, "_") ||
		strings.IndexFunc(name, func(r rune) bool {
			return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') && r != '-' && r != '_'
		}) >= 0 {
		return fmt.Errorf("--gateway-mcp-server %q: a server name is letters, digits, '-' and single '_' inside it", name)
	}
	return nil
}

// Decide answers one payload. It always answers: a payload it cannot read, a plan it cannot
// find and an API server it cannot reach deny, with the reason, so a broken gate never admits.
func (g *Gate) Decide(ctx context.Context, raw []byte) Output {
	in, err := ParseInput(raw)
	if err != nil {
		return answer(Deny, "toolgate-hook refused the payload: "+err.Error())
	}
	if g.GatedByGateway(in.ToolName) {
		return answer(Allow, "toolgate's gateway (MCP server "+g.GatewayServer+") gates the call of "+in.ToolName+" itself")
	}
	if err := remoteHost(in); err != nil {
		return remoteHostDenial(err)
	}
	if g.Broken != nil {
		return answer(Deny, "toolgate-hook cannot ask toolgate, so no tool may run: "+g.Broken.Error())
	}
	plan, err := g.Plan(ctx)
	if noPlan, ok := errors.AsType[*toolcall.NoPlanError](err); ok {
		return answer(Deny, toolcall.Result{Reason: toolcall.ReasonPlanNotFound, Message: noPlan.Message}.Text())
	} else if err != nil {
		return answer(Deny, "toolgate-hook found no plan for this pod, so no tool may run: "+err.Error())
	}
	inv := Invocation(in, g.Namespace, plan)
	if filepath.IsAbs(g.ProjectDir) {
		inv.ProjectDir = g.ProjectDir
	}
	if inv.Arguments, err = withTreeLinkTargets(inv.Arguments, inv.Map.TreePaths, in.Cwd, g.ProjectDir); err != nil {
		return answer(Deny, "toolgate-hook refused the tool input: "+err.Error())
	}
	call, err := toolcall.Build(inv)
	if err != nil {
		return answer(Deny, "toolgate-hook refused the tool input: "+err.Error())
	}
	if err := withLinkTargets(call, in.Cwd, g.ProjectDir); err != nil {
		return answer(Deny, "toolgate-hook refused the tool input: "+err.Error())
	}
	out := Answer(call.Spec.Tool, agent.Submit(ctx, g.Client, call))
	if !g.AskForApprovals && out.HookSpecificOutput.PermissionDecision == Ask {
		out.HookSpecificOutput.PermissionDecision = Deny
	}
	return out
}

// Answer turns the result of submitting a call into the hook's decision: admitted is allow, a
// call that needs a person is ask (the reason carries the command that approves it), any other
// denial is deny with "[Reason] message", and an error that is no denial (the API server is
// unreachable, the token expired) denies too: the hook fails closed.
func Answer(tool string, err error) Output {
	if err == nil {
		return answer(Allow, "toolgate admitted the call of "+tool)
	}
	reason := agent.ReasonOf(err)
	if reason == "" {
		return answer(Deny, fmt.Sprintf("toolgate could not decide the call of %s, so it is denied: %v", tool, err))
	}
	msg := err.Error()
	if re, ok := errors.AsType[*agent.RequestError](err); ok {
		msg = re.Message
	}
	text := toolcall.Result{Reason: reason, Message: msg}.Text()
	if reason == safety.ReasonToolHumanApprovalRequired {
		return answer(Ask, text)
	}
	return answer(Deny, text)
}

// Run reads one payload from stdin (at most MaxPayloadBytes), decides it and writes the answer
// to stdout. It returns an error only when the answer cannot be written.
func Run(ctx context.Context, stdin io.Reader, stdout io.Writer, g *Gate) error {
	raw, err := io.ReadAll(io.LimitReader(stdin, MaxPayloadBytes+1))
	var out Output
	switch {
	case err != nil:
		out = answer(Deny, "toolgate-hook could not read the payload: "+err.Error())
	case len(raw) > MaxPayloadBytes:
		out = answer(Deny, fmt.Sprintf("toolgate-hook refused the payload: it is larger than %d bytes", MaxPayloadBytes))
	default:
		out = g.Decide(ctx, raw)
	}
	return writeJSON(stdout, out)
}
