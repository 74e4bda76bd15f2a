package gateway

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"k8s.io/apimachinery/pkg/types"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// DefaultUpstreamSessions is how many MCP client sessions the gateway keeps per ToolServer. One
// session decodes every answer on one goroutine, so concurrent callers queue behind each other
// on it; a few sessions let them proceed in parallel while bounding what the gateway holds open.
const DefaultUpstreamSessions = 4

// connectTimeout bounds connecting a session to an upstream server.
const connectTimeout = 30 * time.Second

// upstream is one connected ToolServer: the tools it offered when the gateway connected, and a
// bounded pool of client sessions that connect on first use.
type upstream struct {
	// id is unique per connection, so an offering built from an earlier one (whose tools may
	// differ) is never reused.
	id         uint64
	uid        types.UID
	generation int64
	tools      map[string]*mcp.Tool
	connect    func(context.Context) (*mcp.ClientSession, error)
	slots      []slot
	next       atomic.Uint32
}

type slot struct {
	mu      sync.Mutex
	session *mcp.ClientSession
}

// session returns a session of the pool, round robin, connecting it if it is not yet.
func (up *upstream) session(ctx context.Context) (*mcp.ClientSession, error) {
	s := &up.slots[int(up.next.Add(1))%len(up.slots)]
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session == nil {
		session, err := up.connect(ctx)
		if err != nil {
			return nil, err
		}
		s.session = session
	}
	return s.session, nil
}

func (up *upstream) close() {
	for i := range up.slots {
		s := &up.slots[i]
		s.mu.Lock()
		if s.session != nil {
			_ = s.session.Close()
			s.session = nil
		}
		s.mu.Unlock()
	}
}

// upstreams keeps one upstream per ToolServer, reconnecting when its spec changes (or it was
// deleted and made again under its name) or a call on one of its sessions failed at the transport.
type upstreams struct {
	client     *mcp.Client
	httpClient *http.Client
	sessions   int
	ids        atomic.Uint64
	mu         sync.Mutex
	byName     map[string]*upstream
}

func newUpstreams(httpClient *http.Client, version string, sessions int) *upstreams {
	return &upstreams{
		client:     mcp.NewClient(&mcp.Implementation{Name: "toolgate-gateway", Version: version}, nil),
		httpClient: httpClient,
		sessions:   sessions,
		byName:     map[string]*upstream{},
	}
}

// defaultUpstreamHTTPClient keeps enough idle connections per upstream server for the pool's
// sessions and their concurrent calls; http.DefaultTransport keeps two, so under concurrency
// every other call would open a new connection.
func defaultUpstreamHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	return &http.Client{Transport: t}
}

func (u *upstreams) get(ctx context.Context, ts *safetyv1alpha1.ToolServer) (*upstream, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if up, ok := u.byName[ts.Name]; ok && up.generation == ts.Generation && up.uid == ts.UID {
		return up, nil
	}
	if old, ok := u.byName[ts.Name]; ok {
		old.close()
		delete(u.byName, ts.Name)
	}
	name, url := ts.Name, ts.Spec.URL
	connect := func(ctx context.Context) (*mcp.ClientSession, error) {
		// Not on the request's context itself: the SDK keeps the agent's MCP protocol version
		// in it, which must not become the version the gateway asks the upstream for.
		cctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
		defer cancel()
		defer context.AfterFunc(ctx, cancel)()
		session, err := u.client.Connect(cctx, &mcp.StreamableClientTransport{
			Endpoint: url, HTTPClient: u.httpClient, DisableStandaloneSSE: true,
		}, nil)
		if err != nil {
			return nil, fmt.Errorf("connecting to ToolServer %s at %s: %w", name, url, err)
		}
		return session, nil
	}
	up := &upstream{id: u.ids.Add(1), uid: ts.UID, generation: ts.Generation, tools: map[string]*mcp.Tool{},
		connect: connect, slots: make([]slot, u.sessions)}
	session, err := up.session(ctx)
	if err != nil {
		return nil, err
	}
	for tool, err := range session.Tools(ctx, nil) {
		if err != nil {
			up.close()
			return nil, fmt.Errorf("listing the tools of ToolServer %s: %w", ts.Name, err)
		}
		up.tools[tool.Name] = tool
	}
	u.byName[ts.Name] = up
	return up, nil
}

// forget drops an upstream one of whose calls failed at the transport, so that the next call
// reconnects and lists its tools again (the server may have restarted with others).
func (u *upstreams) forget(name string, up *upstream) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.byName[name] == up {
		up.close()
		delete(u.byName, name)
	}
}

func (u *upstreams) close() {
	u.mu.Lock()
	defer u.mu.Unlock()
	for name, up := range u.byName {
		up.close()
		delete(u.byName, name)
	}
}
