package gateway

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// deadline bounds how long the test waits for what should happen at once; it is no sleep.
const deadline = 10 * time.Second

// TestAForgottenUpstreamIsClosedInTheBackgroundAndConnectsNoMoreSessions forgets an upstream
// while a call is in flight on one of its sessions: forget returns without waiting for that call
// (which is still answered), and the forgotten upstream hands out no session again, connected
// already or new, so none is left open that nothing would ever close.
func TestAForgottenUpstreamIsClosedInTheBackgroundAndConnectsNoMoreSessions(t *testing.T) {
	var sessions atomic.Int32
	held, release := make(chan struct{}), make(chan struct{})
	s := mcp.NewServer(&mcp.Implementation{Name: "held", Version: "test"}, &mcp.ServerOptions{
		InitializedHandler: func(context.Context, *mcp.InitializedRequest) { sessions.Add(1) }})
	mcp.AddTool(s, &mcp.Tool{Name: "hold"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		close(held)
		<-release
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "held"}}}, nil, nil
	})
	server := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer closeUpstream(server)
	released := false
	defer func() {
		if !released {
			close(release)
		}
	}()

	u, up := dialed(t, server, "held", 2, DefaultMaxUpstreamMessageBytes)
	defer u.close()
	u.mu.Lock()
	u.byName["held"] = up
	u.mu.Unlock()
	session, err := up.pooledSession()
	if err != nil {
		t.Fatal(err)
	}
	answered := make(chan error, 1)
	go func() {
		_, err := session.CallTool(context.Background(), &mcp.CallToolParams{Name: "hold", Arguments: map[string]any{}})
		answered <- err
	}()
	select {
	case <-held:
	case <-time.After(deadline):
		t.Fatal("the call did not reach the server")
	}
	connected := sessions.Load()

	forgotten := make(chan struct{})
	go func() {
		u.forget("held", up)
		close(forgotten)
	}()
	select {
	case <-forgotten:
	case <-time.After(deadline):
		t.Fatal("forget waited for the call in flight on one of the upstream's sessions")
	}
	for range 2 * len(up.slots) { // every slot, twice
		if _, err := up.pooledSession(); !errors.Is(err, errUpstreamClosed) {
			t.Fatalf("a forgotten upstream's session: %v, want %v", err, errUpstreamClosed)
		}
	}
	if n := sessions.Load(); n != connected {
		t.Fatalf("the forgotten upstream connected %d sessions more", n-connected)
	}

	close(release)
	released = true
	select {
	case err := <-answered:
		if err != nil {
			t.Fatalf("the call in flight: %v", err)
		}
	case <-time.After(deadline):
		t.Fatal("the call in flight was not answered")
	}
}

// dialed is a pool of sessions sessions with server, registered as ToolServer name, and its
// upstream, connected (its first session) and its tools listed; the caller closes the pool.
func dialed(t testing.TB, server *httptest.Server, name string, sessions, limit int) (*upstreams, *upstream) {
	t.Helper()
	u := newUpstreams(server.Client(), "test", sessions, limit)
	up, err := u.dial(&safetyv1alpha1.ToolServer{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: safetyv1alpha1.ToolServerSpec{URL: server.URL}})
	if err != nil {
		u.close()
		t.Fatal(err)
	}
	return u, up
}

// TestACallTakesAnotherSessionWhileItsSlotConnects holds the connect of a pool's second session
// at the upstream: a call that the round robin gives that slot meanwhile takes the pool's
// connected session instead of waiting for the connect (up to connectTimeout), and once the
// connect ends the slot hands out its own new session.
func TestACallTakesAnotherSessionWhileItsSlotConnects(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "slow-connect", Version: "test"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo"}}}, nil, nil
	})
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	var initializes atomic.Int32
	held, release := make(chan struct{}), make(chan struct{})
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"method":"initialize"`)) && initializes.Add(1) == 2 {
			close(held)
			<-release
		}
		mcpHandler.ServeHTTP(w, r)
	}))
	defer closeUpstream(server)
	released := false
	defer func() {
		if !released {
			close(release)
		}
	}()

	u, up := dialed(t, server, "slow-connect", 2, DefaultMaxUpstreamMessageBytes)
	defer u.close()
	first := up.slotSession(1) // the dial's, in the round robin's first slot
	if first == nil || up.slotSession(0) != nil {
		t.Fatal("the dial did not connect the pool's second slot alone")
	}
	type got struct {
		session *mcp.ClientSession
		err     error
	}
	connecting := make(chan got, 1)
	go func() { // slot 0: connects, held at the upstream
		session, err := up.pooledSession()
		connecting <- got{session, err}
	}()
	select {
	case <-held:
	case <-time.After(deadline):
		t.Fatal("the second session's connect did not reach the server")
	}
	meanwhile := make(chan got, 2)
	go func() {
		for range 2 { // slot 1, connected; then slot 0, connecting
			session, err := up.pooledSession()
			meanwhile <- got{session, err}
		}
	}()
	for i := range 2 {
		select {
		case g := <-meanwhile:
			if g.err != nil || g.session != first {
				t.Fatalf("call %d while a slot connects: %p, %v; want the connected session %p", i, g.session, g.err, first)
			}
		case <-time.After(deadline):
			t.Fatalf("call %d waited for the other slot's connect", i)
		}
	}

	close(release)
	released = true
	var second got
	select {
	case second = <-connecting:
	case <-time.After(deadline):
		t.Fatal("the held connect did not end")
	}
	if second.err != nil || second.session == nil || second.session == first {
		t.Fatalf("the slot's own connect: %p, %v; want a new session", second.session, second.err)
	}
	if _, err := second.session.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{}}); err != nil {
		t.Fatalf("a call on the new session: %v", err)
	}
	if got := up.slotSession(0); got != second.session {
		t.Fatalf("slot 0 holds %p, want its new session %p", got, second.session)
	}
}
