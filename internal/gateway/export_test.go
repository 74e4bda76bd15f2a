package gateway

import (
	"context"
	"errors"
	"net/http/httptest"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Authenticate runs the gateway's bearer-token check alone, for tests of what it learns.
func (g *Gateway) Authenticate(ctx context.Context, token string) (*Caller, error) {
	ti, err := g.authn.verify(ctx, token, nil)
	if err != nil {
		return nil, err
	}
	c, ok := callerOf(ti)
	if !ok {
		return nil, errors.New("no caller in the token info")
	}
	return c, nil
}

// StatedCost is statedCost, for tests of what an upstream may state.
var StatedCost = statedCost

// ServerBuilds is how many MCP servers the gateway has built so far.
func (g *Gateway) ServerBuilds() int {
	g.offerings.mu.Lock()
	defer g.offerings.mu.Unlock()
	return g.offerings.builds
}

// pooledSession is a session of up's pool (upstream.session), for the tests that use one directly.
func (up *upstream) pooledSession() (*mcp.ClientSession, error) {
	p, err := up.session()
	if err != nil {
		return nil, err
	}
	return p.session, nil
}

// slotSession is the session slot i of up's pool holds, nil when it holds none.
func (up *upstream) slotSession(i int) *mcp.ClientSession {
	if p := up.slots[i].session.Load(); p != nil {
		return p.session
	}
	return nil
}

// closeUpstream closes a test upstream server, ending the connections clients hold to it first: a
// gateway holds a stream open on each pooled session (for changes of its tools: toolChanges),
// which httptest's Close alone waits for without end.
func closeUpstream(server *httptest.Server) {
	server.CloseClientConnections()
	server.Close()
}

// CloseUpstream is closeUpstream, for the suite's specs.
var CloseUpstream = closeUpstream
