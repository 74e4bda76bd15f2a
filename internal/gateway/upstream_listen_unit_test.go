package gateway

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAPooledSessionServesCallsWhenItsUpstreamOffersNoListeningStream: an upstream (or a proxy
// before it) that holds a pooled session's listening GET unanswered, or answers it 500, still
// serves calls on pooled sessions, connected well within connectTimeout; one that serves the
// stream gets it (the GET stays open). Before listenOrNothing, the first made every pooled connect
// fail after connectTimeout and the second made every session fail at once.
func TestAPooledSessionServesCallsWhenItsUpstreamOffersNoListeningStream(t *testing.T) {
	for name, get := range map[string]func(w http.ResponseWriter, r *http.Request, sdk http.Handler){
		"held unanswered": func(_ http.ResponseWriter, r *http.Request, _ http.Handler) { <-r.Context().Done() },
		"answered 500": func(w http.ResponseWriter, _ *http.Request, _ http.Handler) {
			http.Error(w, "no", http.StatusInternalServerError)
		},
		"served": func(w http.ResponseWriter, r *http.Request, sdk http.Handler) { sdk.ServeHTTP(w, r) },
	} {
		t.Run(name, func(t *testing.T) {
			s := mcp.NewServer(&mcp.Implementation{Name: "listen", Version: "test"}, nil)
			mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo"}}}, nil, nil
			})
			sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
			var gets, open atomic.Int32
			server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodGet {
					sdk.ServeHTTP(w, r)
					return
				}
				gets.Add(1)
				open.Add(1)
				defer open.Add(-1)
				get(w, r, sdk)
			}))
			defer closeUpstream(server)

			start := time.Now()
			u, up := dialed(t, server, "listen", 1, DefaultMaxUpstreamMessageBytes)
			defer u.close()
			if took := time.Since(start); took > connectTimeout/2 {
				t.Fatalf("the pooled session connected in %v", took)
			}
			session, err := up.pooledSession()
			if err != nil {
				t.Fatal(err)
			}
			res, err := session.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{}})
			if err != nil || res.IsError {
				t.Fatalf("a call on the pooled session: %v, %+v", err, res)
			}
			if gets.Load() == 0 {
				t.Fatal("the pooled session asked for no listening stream")
			}
			if name == "served" && open.Load() != 1 {
				t.Fatalf("%d listening streams open, want the session's one", open.Load())
			}
		})
	}
}
