package gateway_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recordingServer is a real MCP server (the Go SDK's, over Streamable HTTP) serving files of one
// directory. It records every tools/call it receives: the proof of what reached it.
type recordingServer struct {
	URL   string
	mu    sync.Mutex
	calls []upstreamCall
	// sessions counts the MCP sessions clients have initialized with it.
	sessions atomic.Int32
	// traceparents are the _meta["traceparent"] of the read_file calls it received, "" for none.
	traceparents []string
	// protocols are the MCP protocol versions its requests named.
	protocols []string
}

type upstreamCall struct {
	Tool string
	Path string
}

type pathArgs struct {
	Path string `json:"path" jsonschema:"the file, relative to the served directory"`
}

func startUpstream(dir string) (*recordingServer, func()) { return startUpstreamWith(dir, nil) }

// startUpstreamWith is startUpstream with the SDK's handler options: a Stateless server speaks
// protocol 2026-07-28 (it answers server/discover), a stateful one 2025-11-25.
func startUpstreamWith(dir string, opts *mcp.StreamableHTTPOptions) (*recordingServer, func()) {
	rec := &recordingServer{}
	s := mcp.NewServer(&mcp.Implementation{Name: "files", Version: "test"}, &mcp.ServerOptions{
		InitializedHandler: func(context.Context, *mcp.InitializedRequest) { rec.sessions.Add(1) }})
	mcp.AddTool(s, &mcp.Tool{Name: "read_file", Description: "Read a file"},
		func(_ context.Context, req *mcp.CallToolRequest, in pathArgs) (*mcp.CallToolResult, any, error) {
			rec.record("read_file", in.Path)
			tp, _ := req.Params.Meta["traceparent"].(string)
			rec.mu.Lock()
			rec.traceparents = append(rec.traceparents, tp)
			rec.mu.Unlock()
			data, err := os.ReadFile(filepath.Join(dir, filepath.Clean("/"+in.Path)))
			if err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "delete_everything", Description: "Offered upstream, never registered"},
		func(_ context.Context, _ *mcp.CallToolRequest, in pathArgs) (*mcp.CallToolResult, any, error) {
			rec.record("delete_everything", in.Path)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "deleted"}}}, nil, nil
		})
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, opts)
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get("Mcp-Protocol-Version"); v != "" {
			rec.mu.Lock()
			rec.protocols = append(rec.protocols, v)
			rec.mu.Unlock()
		}
		sdk.ServeHTTP(w, r)
	}))
	rec.URL = server.URL
	return rec, func() { closeUpstream(server) }
}

func (r *recordingServer) record(tool, path string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, upstreamCall{Tool: tool, Path: path})
}

// Calls returns what the server has received so far.
func (r *recordingServer) Calls() []upstreamCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]upstreamCall(nil), r.calls...)
}

// Protocols returns the MCP protocol versions the server's requests named so far.
func (r *recordingServer) Protocols() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.protocols...)
}
