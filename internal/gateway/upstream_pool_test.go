package gateway_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolgate/toolgate/internal/gateway"
)

// restartableServer is a real, stateful MCP server (the Go SDK's) on a fixed address that can be
// restarted: the new one knows none of the old one's sessions, as after an upstream pod restart.
type restartableServer struct {
	addr     string
	server   *httptest.Server
	answered atomic.Int32 // calls answered since the last restart
	sessions atomic.Int32 // sessions initialized since the last restart
}

func startRestartable() *restartableServer {
	GinkgoHelper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	r := &restartableServer{addr: l.Addr().String()}
	r.serve(l)
	DeferCleanup(func() { r.server.Close() })
	return r
}

func (r *restartableServer) URL() string { return "http://" + r.addr }

func (r *restartableServer) serve(l net.Listener) {
	s := mcp.NewServer(&mcp.Implementation{Name: "restartable", Version: "test"}, &mcp.ServerOptions{
		InitializedHandler: func(context.Context, *mcp.InitializedRequest) { r.sessions.Add(1) }})
	mcp.AddTool(s, &mcp.Tool{Name: "read_file", Description: "Read a file"},
		func(_ context.Context, _ *mcp.CallToolRequest, in pathArgs) (*mcp.CallToolResult, any, error) {
			r.answered.Add(1)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "read " + in.Path}}}, nil, nil
		})
	r.server = httptest.NewUnstartedServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	r.server.Listener = l
	r.server.Start()
}

// restart replaces the server with a new one on the same address.
func (r *restartableServer) restart() {
	GinkgoHelper()
	r.server.Close()
	r.answered.Store(0)
	r.sessions.Store(0)
	l, err := net.Listen("tcp", r.addr)
	Expect(err).NotTo(HaveOccurred())
	r.serve(l)
}

var _ = Describe("toolgate-gateway's sessions with an upstream server that restarts", Ordered, func() {
	var (
		w        *world
		upstream *restartableServer
	)

	BeforeAll(func() {
		upstream = startRestartable()
		w = newWorld("gw-restart-", upstream.URL(), "read_file")
	})

	var reads int
	read := func() (*mcp.CallToolResult, error) { // each of another file: no loop
		reads++
		return w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool,
			Arguments: map[string]any{"path": fmt.Sprintf("f%d.txt", reads)}})
	}

	It("reconnects after the upstream restarted, and keeps no more sessions than its pool", func() {
		for range gateway.DefaultUpstreamSessions + 1 { // every session of the pool connected
			res, err := read()
			Expect(err).NotTo(HaveOccurred())
			Expect(res.IsError).To(BeFalse())
		}
		Expect(upstream.sessions.Load()).To(BeEquivalentTo(gateway.DefaultUpstreamSessions))

		upstream.restart()
		_, err := read()
		Expect(err).To(MatchError(ContainSubstring("ToolServer "+w.ns+"-files")),
			"a session the new server does not know fails at the transport, and the agent is told")
		res, err := read()
		Expect(err).NotTo(HaveOccurred(), "the gateway reconnected")
		Expect(res.IsError).To(BeFalse())
		Expect(upstream.answered.Load()).To(BeEquivalentTo(1))
		Expect(upstream.sessions.Load()).To(And(BeNumerically(">=", 1), BeNumerically("<=", gateway.DefaultUpstreamSessions)))
	})
})
