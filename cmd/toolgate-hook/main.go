// Command toolgate-hook is toolgate's PreToolUse hook for coding agents such as Claude Code: the
// agent runs it before every tool use with a JSON payload on stdin, and it answers allow, ask or
// deny on stdout after asking toolgate (an AgentToolCall of the pod's plan, created with the
// pod's own ServiceAccount token). It always exits 0 with an answer; whatever keeps it from
// toolgate's decision (no token, no plan, an unreachable API server) denies. See docs/hook.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/toolgate/toolgate/internal/cliflags"

	"github.com/toolgate/toolgate/internal/hook"
)

func main() {
	var (
		cfg             hook.Config
		plan            string
		timeout         time.Duration
		askForApprovals bool
		gatewayServer   string
	)
	flag.StringVar(&cfg.Server, "server", "", "the API server's URL; default: the in-cluster address")
	flag.StringVar(&cfg.TokenFile, "token-file", hook.DefaultTokenFile,
		"the pod's ServiceAccount token (a projected token file works)")
	flag.StringVar(&cfg.CAFile, "certificate-authority", hook.DefaultCAFile, "CA bundle that verifies the API server")
	flag.StringVar(&cfg.Namespace, "namespace", "", "the pod's namespace; default: the mounted ServiceAccount's")
	flag.StringVar(&plan, "plan", "",
		"the AgentPlan to submit to; default: the active plan bound to this pod or its ServiceAccount")
	flag.DurationVar(&timeout, "timeout", 50*time.Second,
		"how long to wait for toolgate's decision (keep it under the agent's hook timeout)")
	flag.BoolVar(&askForApprovals, "ask-for-approvals", false,
		"answer ask instead of deny when toolgate needs a person's approval, so the person at the prompt may run "+
			"the call without a ToolApproval (default: deny; only a ToolApproval admits it)")
	flag.StringVar(&gatewayServer, "gateway-mcp-server", "",
		"the name of the MCP server that is toolgate's gateway: its tools (mcp__NAME__*) are admitted without a call "+
			"of their own, since the gateway gates them; name it only when managed-mcp.json fixes the agent's MCP servers")
	// Exit 0 without an answer is success to the agent, which then runs the tool: help, a bad
	// flag and a stray argument (after which no flag is read) exit 2, the protocol's block.
	flag.CommandLine.Init(os.Args[0], flag.ContinueOnError)
	if err := flag.CommandLine.Parse(os.Args[1:]); err != nil {
		os.Exit(2) // the flag package has said what is wrong on stderr
	}
	if err := cliflags.FlagsOnly("toolgate-hook", flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "toolgate-hook:", err)
		os.Exit(2)
	}

	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	gate, err := newGate(cfg, plan)
	if err != nil {
		gate = &hook.Gate{Broken: err}
	}
	gate.AskForApprovals = askForApprovals
	if gatewayServer != "" {
		if err := hook.ValidGatewayServer(gatewayServer); err != nil {
			fmt.Fprintln(os.Stderr, "toolgate-hook:", err)
			os.Exit(2) // the protocol's "block", with the reason on stderr: a misconfigured hook admits nothing
		}
		gate.GatewayServer = gatewayServer
	}
	if err := hook.Run(ctx, os.Stdin, os.Stdout, gate); err != nil {
		fmt.Fprintln(os.Stderr, "toolgate-hook:", err)
		os.Exit(2) // no answer could be written: exit 2 is the protocol's "block"
	}
}

func newGate(cfg hook.Config, plan string) (*hook.Gate, error) {
	rc, ns, err := cfg.REST()
	if err != nil {
		return nil, err
	}
	c, err := hook.NewClient(rc)
	if err != nil {
		return nil, fmt.Errorf("building the API client: %w", err)
	}
	// Claude Code sets CLAUDE_PROJECT_DIR for its hooks: the session's project, which the agent's
	// cd does not move.
	g := &hook.Gate{Client: c, Namespace: ns, Plan: hook.BoundPlan(c, ns), ProjectDir: os.Getenv("CLAUDE_PROJECT_DIR")}
	if plan != "" {
		g.Plan = hook.NamedPlan(plan)
	}
	return g, nil
}
