package gateway

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// upstream is one connected ToolServer and the tools it offered when the gateway connected.
type upstream struct {
	generation int64
	session    *mcp.ClientSession
	tools      map[string]*mcp.Tool
}

// upstreams keeps one MCP client session per ToolServer, reconnecting when its spec changes or a
// call on the session failed at the transport.
type upstreams struct {
	client     *mcp.Client
	httpClient *http.Client
	mu         sync.Mutex
	byName     map[string]*upstream
}

func newUpstreams(httpClient *http.Client, version string) *upstreams {
	return &upstreams{
		client:     mcp.NewClient(&mcp.Implementation{Name: "toolgate-gateway", Version: version}, nil),
		httpClient: httpClient,
		byName:     map[string]*upstream{},
	}
}

func (u *upstreams) get(ctx context.Context, ts *safetyv1alpha1.ToolServer) (*upstream, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if up, ok := u.byName[ts.Name]; ok && up.generation == ts.Generation {
		return up, nil
	}
	if old, ok := u.byName[ts.Name]; ok {
		_ = old.session.Close()
		delete(u.byName, ts.Name)
	}
	session, err := u.client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint: ts.Spec.URL, HTTPClient: u.httpClient, DisableStandaloneSSE: true,
	}, nil)
	if err != nil {
		return nil, fmt.Errorf("connecting to ToolServer %s at %s: %w", ts.Name, ts.Spec.URL, err)
	}
	up := &upstream{generation: ts.Generation, session: session, tools: map[string]*mcp.Tool{}}
	for tool, err := range session.Tools(ctx, nil) {
		if err != nil {
			_ = session.Close()
			return nil, fmt.Errorf("listing the tools of ToolServer %s: %w", ts.Name, err)
		}
		up.tools[tool.Name] = tool
	}
	u.byName[ts.Name] = up
	return up, nil
}

// forget drops a session whose call failed, so that the next call reconnects.
func (u *upstreams) forget(name string, up *upstream) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.byName[name] == up {
		_ = up.session.Close()
		delete(u.byName, name)
	}
}

func (u *upstreams) close() {
	u.mu.Lock()
	defer u.mu.Unlock()
	for name, up := range u.byName {
		_ = up.session.Close()
		delete(u.byName, name)
	}
}
