package gateway

import (
	"bytes"
	"context"
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

// TestAPooledSessionServesCallsWhenItsUpstreamOffersNoListeningStream: an upstream (or a proxy
// before it) that holds a pooled session's listening GET unanswered, or answers it 500, still
// serves calls on pooled sessions, connected well within connectTimeout; one that serves the
// stream gets it (the GET stays open). Before listenOrNothing, the first made every pooled connect
// fail after connectTimeout and the second made every session fail at once.
//
// Under protocol 2026-07-28 (a stateless server of the Go SDK, which answers server/discover) the
// listening stream is a POST of subscriptions/listen instead of the GET, and the SDK sends it
// inside Connect on a context that never ends: one held unanswered hung every pooled connect,
// and every call waiting for one, for good.
func TestAPooledSessionServesCallsWhenItsUpstreamOffersNoListeningStream(t *testing.T) {
	for name, listen := range map[string]func(w http.ResponseWriter, r *http.Request, sdk http.Handler){
		"held unanswered": func(_ http.ResponseWriter, r *http.Request, _ http.Handler) { <-r.Context().Done() },
		"answered 500": func(w http.ResponseWriter, _ *http.Request, _ http.Handler) {
			http.Error(w, "no", http.StatusInternalServerError)
		},
		"served": func(w http.ResponseWriter, r *http.Request, sdk http.Handler) { sdk.ServeHTTP(w, r) },
	} {
		for protocol, stateless := range map[string]bool{"2025-11-25": false, "2026-07-28": true} {
			t.Run(name+", protocol "+protocol, func(t *testing.T) {
				pooledSessionWithListening(t, stateless, name == "served", listen)
			})
		}
	}
}

// pooledSessionWithListening dials an upstream (the Go SDK's server, stateless or not) whose
// answer to a session's listening request (the GET, or the POST of subscriptions/listen) is
// listen's, and calls a tool on its pooled session; served says the listening stream is served.
func pooledSessionWithListening(t *testing.T, stateless, served bool, listen func(w http.ResponseWriter, r *http.Request, sdk http.Handler)) {
	s := mcp.NewServer(&mcp.Implementation{Name: "listen", Version: "test"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo"}}}, nil, nil
	})
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: stateless})
	var listens, open atomic.Int32
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Header.Get("Mcp-Method") != "subscriptions/listen" {
			sdk.ServeHTTP(w, r)
			return
		}
		// Read whole, as a server that holds the stream would: the server notices that the client
		// went away only once the request's body is read.
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		listens.Add(1)
		open.Add(1)
		defer open.Add(-1)
		listen(w, r, sdk)
	}))
	defer closeUpstream(server)

	// Dialled aside: before listenOrNothing saw the POST, a held one never returned.
	type dial struct {
		u   *upstreams
		up  *upstream
		err error
	}
	dials := make(chan dial, 1)
	start := time.Now()
	go func() {
		u := newUpstreams(server.Client(), "test", 1, DefaultMaxUpstreamMessageBytes)
		up, err := u.dial(&safetyv1alpha1.ToolServer{ObjectMeta: metav1.ObjectMeta{Name: "listen"},
			Spec: safetyv1alpha1.ToolServerSpec{URL: server.URL}})
		dials <- dial{u, up, err}
	}()
	var d dial
	select {
	case d = <-dials:
	case <-time.After(connectTimeout):
		t.Fatalf("the pooled session did not connect within %v", connectTimeout)
	}
	defer d.u.close()
	if d.err != nil {
		t.Fatal(d.err)
	}
	if took := time.Since(start); took > connectTimeout/2 {
		t.Fatalf("the pooled session connected in %v", took)
	}
	session, err := d.up.pooledSession()
	if err != nil {
		t.Fatal(err)
	}
	res, err := session.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("a call on the pooled session: %v, %+v", err, res)
	}
	if listens.Load() == 0 {
		t.Fatal("the pooled session asked for no listening stream")
	}
	if served && open.Load() != 1 {
		t.Fatalf("%d listening streams open, want the session's one", open.Load())
	}
}
