package gateway

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// route is one tool the gateway offers: a registered AgentTool that a ToolServer serves and the
// upstream server offers.
type route struct {
	server   *safetyv1alpha1.ToolServer
	served   safetyv1alpha1.ServedTool
	tool     *mcp.Tool
	upstream *upstream
}

func (r route) upstreamName() string { return cmp.Or(r.served.UpstreamName, r.served.AgentTool) }

// offering is the MCP server of one set of routes. Building one (its tools, their schemas, the
// middleware) costs more than the call it serves, so it is built once and shared by every request
// while the routes it was built from are unchanged. It holds nothing of any caller: each
// request's caller reaches the handlers in that request (its TokenInfo), never through the server.
type offering struct {
	key    string
	server *mcp.Server
}

// offerings holds the current offering; a change of routes replaces it.
type offerings struct {
	mu      sync.Mutex
	current *offering
	builds  int // how many were built, for tests
}

// serverFor is the MCP server of a request: the shared server of the tools the gateway offers now.
func (g *Gateway) serverFor(r *http.Request) *mcp.Server {
	routes, err := g.routes(r.Context())
	if err != nil {
		g.opts.Log.Error(err, "Cannot list the tools the gateway offers")
		return nil // the SDK answers 400; the error is in the gateway's log
	}
	key := routesKey(routes)
	o := &g.offerings
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.current == nil || o.current.key != key {
		o.current = &offering{key: key, server: g.newServer(routes)}
		o.builds++
	}
	return o.current.server
}

// routesKey names everything a route's handler depends on: the tool, its ToolServer's object and
// spec (uid, generation: the served tool's mapping and upstream name) and the upstream connection
// (its tools' schemas).
func routesKey(routes map[string]route) string {
	names := make([]string, 0, len(routes))
	for name := range routes {
		names = append(names, name)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, name := range names {
		rt := routes[name]
		// Names and uids hold no NUL, so these fields cannot run into each other.
		b.WriteString(name)
		b.WriteByte(0)
		b.WriteString(string(rt.server.UID))
		b.WriteByte(0)
		b.WriteString(strconv.FormatInt(rt.server.Generation, 10))
		b.WriteByte(0)
		b.WriteString(strconv.FormatUint(rt.upstream.id, 10))
		b.WriteByte(0)
	}
	return b.String()
}

// newServer builds the MCP server offering routes. A tool the SDK refuses to serve (its upstream
// declared a schema that is not a JSON object) is left out, and logged, rather than taking every
// other tool down with it. routes loses the tools left out.
func (g *Gateway) newServer(routes map[string]route) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "toolgate-gateway", Version: g.opts.Version}, &mcp.ServerOptions{
		// Tools whose list never changes to a session's knowledge: the gateway is stateless, a
		// change of what it offers is a new server, and no server sends notifications/
		// tools/list_changed. Advertised as changing (the SDK's default), it had every
		// subscriptions/listen for it (protocol 2026-07-28) held open until the agent hung up,
		// for a notification never sent: an agent could so hold every one of --max-connections,
		// serving a request no bound on its calls counts. No logging either (the SDK's default
		// when it is given none): the gateway sends an agent no log messages.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
		SetCacheable: private,
	})
	for name, rt := range routes {
		output, err := outputSchema(name, rt.tool.OutputSchema)
		if err != nil {
			g.opts.Log.Info("Offering a tool with no output schema, as its upstream's cannot be extended to admit its denials",
				"tool", name, "toolServer", rt.server.Name, "why", err.Error())
		}
		if err := addTool(s, name, &rt, output, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return g.callTool(ctx, req, &rt)
		}); err != nil {
			g.opts.Log.Error(err, "Not offering a tool its upstream describes wrongly", "tool", name,
				"toolServer", rt.server.Name)
			delete(routes, name)
		}
	}
	s.AddReceivingMiddleware(internalErrors, g.unofferedTools(routes), g.plannedTools(routes))
	return s
}

// private marks a result's cache hints (SEP-2549's cacheScope and ttlMs) as the caller's alone
// and stale at once. The SDK leaves an unset cacheScope at the protocol's default, "public", which
// lets any intermediary (a shared MCP proxy, an agent framework's cache) serve the answer to
// another caller; but what the gateway answers depends on who asks: tools/list shows only the
// tools the caller's plan could use, and a ToolServer or plan may change at any moment. The SDK
// calls it for every result that carries the hints (server/discover, the list methods,
// resources/read), so none of the gateway's answers is ever marked shareable.
func private(_ context.Context, _ mcp.Request, c *mcp.Cacheable) {
	c.CacheScope, c.TTLMs = "private", 0
}

// addTool adds rt's tool to s under name, with the upstream's input schema and output (the
// output schema the gateway offers for it: outputSchema), its schemas encoded once, here, rather
// than on every request that lists or calls it. The SDK panics on a tool it cannot serve; that is
// an error here.
func addTool(s *mcp.Server, name string, rt *route, output any, h mcp.ToolHandler) (err error) {
	tool := &mcp.Tool{Name: name, Title: rt.tool.Title, Description: rt.tool.Description, Annotations: rt.tool.Annotations}
	if tool.InputSchema, err = encodedSchema(rt.tool.InputSchema); err != nil {
		return fmt.Errorf("its input schema: %w", err)
	}
	if tool.OutputSchema, err = encodedSchema(output); err != nil {
		return fmt.Errorf("its output schema: %w", err)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	s.AddTool(tool, h)
	return nil
}

// encodedSchema is schema as JSON; nil stays nil (no schema).
func encodedSchema(schema any) (any, error) {
	if schema == nil {
		return nil, nil
	}
	data, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(data), nil
}

// noDeepCopy reads the gateway's informer cache without copying: what it reads is only read.
var noDeepCopy = client.UnsafeDisableDeepCopy

// routes lists what the gateway offers, by AgentTool name. A ToolServer that cannot be reached
// offers nothing; the others still do. Two ToolServers naming one tool: the first by name serves
// it (servingOrder), whether or not it can be offered now. Were the next one to take the tool
// while the first is down (or its upstream lacks the tool), the call would be judged by that
// one's argument map and charged by its reportsCost, which the agent cannot choose but can wait
// for: a path the first maps would reach the second's upstream unjudged.
func (g *Gateway) routes(ctx context.Context) (map[string]route, error) {
	var servers safetyv1alpha1.ToolServerList
	if err := g.opts.Reader.List(ctx, &servers, noDeepCopy); err != nil {
		return nil, fmt.Errorf("listing ToolServers: %w", err)
	}
	var tools safetyv1alpha1.AgentToolList
	if err := g.opts.Reader.List(ctx, &tools, noDeepCopy); err != nil {
		return nil, fmt.Errorf("listing AgentTools: %w", err)
	}
	registered := make(map[string]bool, len(tools.Items))
	for i := range tools.Items {
		registered[tools.Items[i].Name] = true
	}
	routes := map[string]route{}
	claimed := map[string]bool{}
	for _, ts := range servingOrder(servers.Items) {
		up, err := g.upstreams.get(ctx, ts, routesPatience)
		if err != nil {
			g.opts.Log.Error(err, "ToolServer unreachable; its tools are not offered", "toolServer", ts.Name)
		}
		for _, served := range ts.Spec.Tools {
			if claimed[served.AgentTool] {
				continue
			}
			claimed[served.AgentTool] = true
			if err != nil || !registered[served.AgentTool] {
				continue
			}
			r := route{server: ts, served: served, upstream: up}
			if r.tool = up.tools[r.upstreamName()]; r.tool != nil {
				routes[served.AgentTool] = r
			}
		}
	}
	return routes, nil
}

// servingOrder is the order in which ToolServers claim the tools they name: by name, so that
// the first by name serves a tool several name.
func servingOrder(servers []safetyv1alpha1.ToolServer) []*safetyv1alpha1.ToolServer {
	out := make([]*safetyv1alpha1.ToolServer, len(servers))
	for i := range servers {
		out[i] = &servers[i]
	}
	slices.SortFunc(out, func(a, b *safetyv1alpha1.ToolServer) int { return cmp.Compare(a.Name, b.Name) })
	return out
}
