package gateway

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// unserved is the MCP error for a registered tool the gateway does not offer, saying why: no
// ToolServer names it (the platform's registration is incomplete: -32602, as before), or the
// ToolServer that names it cannot be offered now (its connect failed or is still running, or its
// upstream does not offer the tool: -32603, the gateway's side). Without the reason, a tool whose
// server was down answered "no ToolServer serves it", which sent an operator looking in the wrong
// place. Read only on this error path.
func (g *Gateway) unserved(ctx context.Context, tool string) error {
	var servers safetyv1alpha1.ToolServerList
	if err := g.opts.Reader.List(ctx, &servers, noDeepCopy); err == nil {
		for _, ts := range servingOrder(servers.Items) { // the one that serves it
			for _, served := range ts.Spec.Tools {
				if served.AgentTool != tool {
					continue
				}
				r := route{server: ts, served: served}
				return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf(
					"tool %q is registered and ToolServer %s serves it, but the gateway cannot offer it now: %s",
					tool, ts.Name, g.upstreams.why(ts, r.upstreamName()))}
			}
		}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("tool %q is registered but no ToolServer serves it", tool)}
}

// why says why ts's upstream does not offer its tool upstreamName now.
func (u *upstreams) why(ts *safetyv1alpha1.ToolServer, upstreamName string) string {
	u.mu.Lock()
	defer u.mu.Unlock()
	if up, ok := u.byName[ts.Name]; ok && up.uid == ts.UID && up.generation == ts.Generation {
		if _, offered := up.tools[upstreamName]; !offered {
			return fmt.Sprintf("its upstream offers no tool named %q", upstreamName)
		}
		return "its upstream describes the tool with a schema the gateway cannot serve (see the gateway's log)"
	}
	if a, ok := u.attempts[ts.Name]; ok && a.uid == ts.UID && a.generation == ts.Generation && isClosed(a.done) && a.err != nil {
		return fmt.Sprintf("its last connect failed (tried again from %s): %v", a.retryAt.UTC().Format("15:04:05"), a.err)
	}
	return "the gateway is still connecting to it"
}
