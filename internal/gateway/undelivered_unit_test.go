package gateway

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestADeliveryCountsOnlyA404ForItsSessionAsRefused sends a call's requests through the recording
// HTTP client to a server answering each as asked: only HTTP 404 to a request naming a session
// leaves the call unreceived, and only when every request of the call was so refused.
func TestADeliveryCountsOnlyA404ForItsSessionAsRefused(t *testing.T) {
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var status int
		_, _ = fmt.Sscan(r.URL.Query().Get("status"), &status)
		w.WriteHeader(status)
	}))
	defer closeUpstream(server)
	c := recordDeliveries(server.Client())
	send := func(d *delivery, status int, session string, version ...string) {
		t.Helper()
		req, err := http.NewRequestWithContext(withDelivery(context.Background(), d), http.MethodPost,
			fmt.Sprintf("%s/?status=%d", server.URL, status), http.NoBody)
		if err != nil {
			t.Fatal(err)
		}
		if session != "" {
			req.Header.Set(sessionIDHeader, session)
		}
		for _, v := range version {
			req.Header.Set(protocolVersionHeader, v)
		}
		resp, err := c.Do(req)
		if err == nil {
			_ = resp.Body.Close()
		}
	}
	missing := fmt.Errorf("sending \"tools/call\": %w", mcp.ErrSessionMissing)
	for _, tc := range []struct {
		name       string
		requests   func(d *delivery)
		err        error
		unreceived bool
	}{
		{"404 for its session", func(d *delivery) { send(d, http.StatusNotFound, "s1") }, missing, true},
		{"404 for its session, protocol 2025-11-25", func(d *delivery) { send(d, http.StatusNotFound, "s1", "2025-11-25") }, missing, true},
		// Under 2026-07-28 a handled call answered MethodNotFound is a 404: were a proxy to
		// rewrite its body, the SDK would say the session is missing.
		{"404 for its session, protocol 2026-07-28", func(d *delivery) { send(d, http.StatusNotFound, "s1", "2026-07-28") }, missing, false},
		{"404 for its session, a later protocol", func(d *delivery) { send(d, http.StatusNotFound, "s1", "2027-01-01") }, missing, false},
		{"404 naming no session", func(d *delivery) { send(d, http.StatusNotFound, "") }, missing, false},
		{"answered", func(d *delivery) { send(d, http.StatusOK, "s1") }, missing, false},
		{"a 500", func(d *delivery) { send(d, http.StatusInternalServerError, "s1") }, missing, false},
		{"refused, then answered", func(d *delivery) {
			send(d, http.StatusNotFound, "s1")
			send(d, http.StatusOK, "s1")
		}, missing, false},
		{"never sent, the session closed", func(*delivery) {}, fmt.Errorf("%w: calling \"tools/call\"", mcp.ErrConnectionClosed), true},
		{"never sent, another error", func(*delivery) {}, errors.New("marshaling call parameters"), false},
		{"404 for its session, another error", func(d *delivery) { send(d, http.StatusNotFound, "s1") }, errors.New("Not Found"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &delivery{}
			tc.requests(d)
			if got := d.unreceived(tc.err); got != tc.unreceived {
				t.Errorf("unreceived = %v, want %v (started %d, refused %d)", got, tc.unreceived, d.started, d.refused)
			}
		})
	}
}

// TestARequestInProgressCountsAsReceived holds a call's request at the server: until it is
// answered, the call may be running there, whatever its error says.
func TestARequestInProgressCountsAsReceived(t *testing.T) {
	arrived, release := make(chan struct{}), make(chan struct{})
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		close(arrived)
		<-release
		w.WriteHeader(http.StatusNotFound)
	}))
	defer closeUpstream(server)
	defer close(release)
	d := &delivery{}
	req, err := http.NewRequestWithContext(withDelivery(context.Background(), d), http.MethodPost, server.URL, http.NoBody)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(sessionIDHeader, "s1")
	go func() {
		if resp, err := recordDeliveries(server.Client()).Do(req); err == nil {
			_ = resp.Body.Close()
		}
	}()
	<-arrived
	if d.unreceived(mcp.ErrSessionMissing) {
		t.Error("a call whose request is still at the server counts as unreceived")
	}
}

// TestACallOnAnEndedSessionIsUnreceived closes a real SDK session and calls on it, as a call that
// took a pool's session just before it ended does: the SDK sends nothing and fails the call with
// mcp.ErrConnectionClosed, and the call counts as unreceived, so forward may send it again.
func TestACallOnAnEndedSessionIsUnreceived(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "test"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo"}}}, nil, nil
	})
	server := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer closeUpstream(server)
	u, up := dialed(t, server, "echo", 1, DefaultMaxUpstreamMessageBytes)
	defer u.close()
	session, err := up.pooledSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := session.Close(); err != nil {
		t.Fatal(err)
	}
	d := &delivery{}
	_, err = session.CallTool(withDelivery(context.Background(), d), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{}})
	if !errors.Is(err, mcp.ErrConnectionClosed) {
		t.Fatalf("the call on the ended session failed with %v, not mcp.ErrConnectionClosed", err)
	}
	if !d.unreceived(err) {
		t.Errorf("a call the SDK did not send counts as received (started %d)", d.started)
	}
	u.failed("echo", up, session, err)
	if next, err := up.pooledSession(); err != nil || next == session {
		t.Errorf("the pool handed out the ended session again (%v), or no session: %v", next == session, err)
	}
}
