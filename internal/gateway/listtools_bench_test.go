package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listedServer is an in-process Go SDK server offering tools tools of benchSchema's input schema
// (about as many, and as large, as server-filesystem's), each answering at once.
func listedServer(tools int) *httptest.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "listed", Version: "bench"}, nil)
	for i := range tools {
		s.AddTool(&mcp.Tool{Name: fmt.Sprintf("tool%d", i), Description: "Read the lines of a file that match a pattern",
			InputSchema: json.RawMessage(benchSchema)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
			})
	}
	return httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
}

// BenchmarkCallScopeSession is what a call of a sessionScope Call ToolServer pays for its own
// session, against a call on a pooled one: connecting it alone (connect), connecting it and
// listing its tools to compare them (connect+list, what a Call call does since describedAlike),
// and a call on a pooled session (call); and the listing alone, as listTools does it (list: its
// bound counted from the bytes read, countListed) and as it did before (list-marshalled: each
// tool marshalled again to bound the listing).
func BenchmarkCallScopeSession(b *testing.B) {
	server := listedServer(14)
	defer closeUpstream(server)
	u, up := dialed(b, server, "listed", 1, DefaultMaxUpstreamMessageBytes)
	defer u.close()
	ctx := context.Background()
	b.Run("connect", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			session, err := u.client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: server.URL,
				HTTPClient: u.httpClient, DisableStandaloneSSE: true, MaxEventSize: u.maxMessage}, nil)
			if err != nil {
				b.Fatal(err)
			}
			_ = session.Close()
		}
	})
	b.Run("connect+list", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			session, err := up.connect(nil)
			if err != nil {
				b.Fatal(err)
			}
			_ = session.Close()
		}
	})
	session, err := up.pooledSession()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("call", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "tool0", Arguments: map[string]any{}}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("list", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := listTools(ctx, session, u.maxMessage); err != nil {
				b.Fatal(err)
			}
		}
	})
	// As listTools bounded the listing before countListed: each tool marshalled again, its bytes
	// summed.
	b.Run("list-marshalled", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			size := 0
			for tool, err := range session.Tools(ctx, nil) {
				if err != nil {
					b.Fatal(err)
				}
				encoded, err := json.Marshal(tool)
				if err != nil {
					b.Fatal(err)
				}
				size += len(encoded)
			}
			if size > u.maxMessage {
				b.Fatal(size)
			}
		}
	})
}
