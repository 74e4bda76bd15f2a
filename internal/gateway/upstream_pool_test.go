package gateway_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
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
	addr      string
	forgotten *forgottenAnswer // nil: the Go SDK's own answer to a session it does not know
	server    *httptest.Server
	answered  atomic.Int32 // calls answered since the last restart
	sessions  atomic.Int32 // sessions initialized since the last restart
	known     sync.Map     // the IDs of those sessions
}

// forgottenAnswer is how a server answers a request on a session it does not know: servers and
// SDKs differ in the status, and in whether the body is a JSON-RPC error and with which id.
type forgottenAnswer struct {
	name   string
	status int
	body   func(id any) string // id: the request's JSON-RPC id
}

var forgottenAnswers = []*forgottenAnswer{
	nil, // the Go SDK's: HTTP 404, "session not found" in plain text
	{name: "the TypeScript SDK's transport's: 404 and a JSON-RPC error without an id", status: http.StatusNotFound,
		body: func(any) string {
			return `{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}`
		}},
	{name: "Python's SDK's: 404 and a JSON-RPC error with an id of its own", status: http.StatusNotFound,
		body: func(any) string {
			return `{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Session not found"}}`
		}},
	{name: "server-everything's: 400 and a JSON-RPC error with the request's id", status: http.StatusBadRequest,
		body: func(id any) string {
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id,
				"error": map[string]any{"code": -32000, "message": "Bad Request: No valid session ID provided"}})
			return string(b)
		}},
	{name: "older Python SDKs': 400 in plain text", status: http.StatusBadRequest,
		body: func(any) string { return "Bad Request: No valid session ID provided" }},
}

func (f *forgottenAnswer) String() string {
	if f == nil {
		return "the Go SDK's: 404 in plain text"
	}
	return f.name
}

func startRestartable(forgotten *forgottenAnswer) *restartableServer {
	GinkgoHelper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	r := &restartableServer{addr: l.Addr().String(), forgotten: forgotten}
	r.serve(l)
	DeferCleanup(func() { closeUpstream(r.server) })
	return r
}

func (r *restartableServer) URL() string { return "http://" + r.addr }

func (r *restartableServer) serve(l net.Listener) {
	s := mcp.NewServer(&mcp.Implementation{Name: "restartable", Version: "test"}, &mcp.ServerOptions{
		InitializedHandler: func(context.Context, *mcp.InitializedRequest) { r.sessions.Add(1) },
		GetSessionID: func() string {
			id := rand.Text()
			r.known.Store(id, true)
			return id
		}})
	mcp.AddTool(s, &mcp.Tool{Name: "read_file", Description: "Read a file"},
		func(_ context.Context, _ *mcp.CallToolRequest, in pathArgs) (*mcp.CallToolResult, any, error) {
			r.answered.Add(1)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "read " + in.Path}}}, nil, nil
		})
	var handler http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	if f := r.forgotten; f != nil {
		sdk := handler
		handler = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if id := req.Header.Get("Mcp-Session-Id"); id != "" {
				if _, ok := r.known.Load(id); !ok {
					var msg struct{ ID any }
					_ = json.NewDecoder(req.Body).Decode(&msg)
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(f.status)
					_, _ = io.WriteString(w, f.body(msg.ID))
					return
				}
			}
			sdk.ServeHTTP(w, req)
		})
	}
	r.server = httptest.NewUnstartedServer(handler)
	r.server.Listener = l
	r.server.Start()
}

// restart replaces the server with a new one on the same address.
func (r *restartableServer) restart() {
	GinkgoHelper()
	closeUpstream(r.server)
	r.answered.Store(0)
	r.sessions.Store(0)
	r.known.Clear()
	l, err := net.Listen("tcp", r.addr)
	Expect(err).NotTo(HaveOccurred())
	r.serve(l)
}

var _ = Describe("toolgate-gateway's sessions with an upstream server that restarts", func() {
	for _, forgotten := range forgottenAnswers {
		restartsAnswering(forgotten)
	}
})

// restartsAnswering is the spec of an upstream that restarts and answers the gateway's forgotten
// sessions as forgotten says.
func restartsAnswering(forgotten *forgottenAnswer) {
	Describe("answering a session it does not know as "+forgotten.String(), Ordered, func() {
		var (
			w        *world
			upstream *restartableServer
		)

		BeforeAll(func() {
			upstream = startRestartable(forgotten)
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
			// At most a pool's worth, twice: each pooled session listens (for its tools' changes), and
			// a stream that finds the restart before a call does ends its session, which its slot
			// connects again, listed and compared, before a call's refusal has the pool forgotten.
			Expect(upstream.sessions.Load()).To(And(BeNumerically(">=", 1), BeNumerically("<=", 2*gateway.DefaultUpstreamSessions)))
			Eventually(w.callStatuses).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(And(
				HaveLen(reads), HaveEach(HaveField("Phase", safetyv1alpha1.CallPhaseSucceeded))),
				"no admitted call was reported Failed for the gateway's stale sessions")
		})
	})
}

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
