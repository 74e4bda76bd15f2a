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

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
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
		w = newWorld("gw-restart-", upstream.URL(), "read_file", func(o *worldObjects) { reportedByTheGateway(o.plan) })
	})

	var reads int
	read := func() (*mcp.CallToolResult, error) { // each of another file: no loop
		reads++
		return w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool,
			Arguments: map[string]any{"path": fmt.Sprintf("f%d.txt", reads)}})
	}

	It("sends a call the restarted upstream refused for its old session again on a new one, where it runs once", func() {
		for range gateway.DefaultUpstreamSessions + 1 { // every session of the pool connected
			res, err := read()
			Expect(err).NotTo(HaveOccurred())
			Expect(res.IsError).To(BeFalse())
		}
		Expect(upstream.sessions.Load()).To(BeEquivalentTo(gateway.DefaultUpstreamSessions))

		upstream.restart()
		res, err := read()
		Expect(err).NotTo(HaveOccurred(), "the new server refused the call for a session it does not know (HTTP 404), "+
			"which it answers without running the call: the gateway connected again and sent it again")
		Expect(res.IsError).To(BeFalse())
		Expect(upstream.answered.Load()).To(BeEquivalentTo(1), "the call ran once")
		for range gateway.DefaultUpstreamSessions { // on every slot of the new pool: no stale session is left to fail a call
			res, err := read()
			Expect(err).NotTo(HaveOccurred())
			Expect(res.IsError).To(BeFalse())
		}
		Expect(upstream.answered.Load()).To(BeEquivalentTo(1 + gateway.DefaultUpstreamSessions))
		Expect(upstream.sessions.Load()).To(And(BeNumerically(">=", 1), BeNumerically("<=", gateway.DefaultUpstreamSessions)))
		Eventually(w.callStatuses).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(And(
			HaveLen(reads), HaveEach(HaveField("Phase", safetyv1alpha1.CallPhaseSucceeded))),
			"no admitted call was reported Failed for the gateway's stale sessions")
	})
})

var _ = Describe("toolgate-gateway's sessions with an upstream server one of whose answers breaks a session", Ordered, func() {
	var (
		w            *world
		big          *bigServer
		agent, other *mcp.ClientSession
	)

	BeforeAll(func() { w, big, agent, other = twoAgentsOnBig("gw-broken-", true, 2) })

	It("drops that session alone: another agent's call on the pool's other session is answered", func() {
		// Round robin: the held call and the next are on the pool's two sessions.
		held := big.hold(other, w)
		sessions := big.sessions.Load() // the pool's two, and the suite's gateway's: it offers every ToolServer's tools
		var a answer
		// Answered without waiting for the held call: dropping the whole pool closed the held
		// call's session too, which the SDK does gracefully, waiting for that call to end.
		Eventually(startCallBig(agent, w, sizeArgs{Path: "broken.txt", Size: -1})).Should(Receive(&a))
		Expect(a.err).To(MatchError(ContainSubstring("ToolServer "+w.ns+"-files")),
			"an answer that is not JSON-RPC fails at the transport, and the agent is told")

		big.releaseHeld()
		Eventually(held).Should(Receive(&a))
		Expect(a.err).NotTo(HaveOccurred(), "the other agent's call was on the session that did not fail")
		Expect(a.res.IsError).To(BeFalse())

		for i := range 2 { // on each session of the pool
			res, err := callBig(agent, w, sizeArgs{Path: fmt.Sprintf("after%d.txt", i), Size: 10})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.IsError).To(BeFalse())
		}
		Expect(big.sessions.Load()).To(Equal(sessions+1), "the failed session alone was connected again")
	})
})

var _ = Describe("toolgate-gateway's sessions with an upstream server that fails calls without ending the session", Ordered, func() {
	var (
		w            *world
		big          *bigServer
		agent, other *mcp.ClientSession
	)

	// One session with the upstream: every call below is on it.
	BeforeAll(func() { w, big, agent, other = twoAgentsOnBig("gw-busy-", false, 1) })

	It("fails those calls alone and keeps the session (the SDK ends it for neither a 503 nor a stream cut short)", func() {
		held := big.hold(other, w)
		sessions := big.sessions.Load() // the gateway's one, and the suite's gateway's
		for i := range 3 {              // an agent whose calls fail upstream, again and again
			_, err := callBig(agent, w, sizeArgs{Path: fmt.Sprintf("busy%d.txt", i), Size: -503})
			Expect(err).To(MatchError(And(ContainSubstring("ToolServer "+w.ns+"-files"), ContainSubstring("Service Unavailable"))))
			_, err = callBig(agent, w, sizeArgs{Path: fmt.Sprintf("cut%d.txt", i), Size: -2})
			Expect(err).To(MatchError(And(ContainSubstring("ToolServer "+w.ns+"-files"), ContainSubstring("terminated without response"))))
		}
		res, err := callBig(agent, w, sizeArgs{Path: "during.txt", Size: 10})
		Expect(err).NotTo(HaveOccurred(), "a call on the same session while the other agent's call is still held")
		Expect(res.IsError).To(BeFalse())

		big.releaseHeld()
		var a answer
		Eventually(held).Should(Receive(&a))
		Expect(a.err).NotTo(HaveOccurred())
		Expect(a.res.IsError).To(BeFalse())
		res, err = callBig(agent, w, sizeArgs{Path: "after.txt", Size: 10})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse())
		Expect(big.sessions.Load()).To(Equal(sessions), "no session was connected again")
	})
})
