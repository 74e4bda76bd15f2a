package gateway_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
)

type sizeArgs struct {
	Path string `json:"path"`
	Size int    `json:"size"`
	// Hold keeps the call on the upstream until the test releases it.
	Hold bool `json:"hold,omitempty"`
}

// bigServer is a real MCP server whose tool "big" answers with as many bytes as asked for, as
// one JSON body or as a server-sent event. A call that asks to be held waits until released; a
// call of size -1 is answered with a body that is not JSON-RPC, as by a broken server; one of size
// -2 with an event stream that ends before the call's answer, as when a proxy in front of the
// server times the stream out or the handler crashes; one of size -503 with HTTP 503, as by an
// overloaded server; one of size -404 with HTTP 404, as by a proxy in front of the server that
// 404s on what a call asks for, which the MCP client cannot tell from a session forgotten; and
// one of size -413 with HTTP 413, as by a proxy that takes smaller requests. Once told to forget its sessions, it answers HTTP 404 to every request naming
// one of them, as a restarted server does, while the calls running on them go on.
type bigServer struct {
	URL      string
	held     chan struct{} // a held call has reached the tool
	release  chan struct{} // closed: held calls answer
	once     sync.Once
	sessions atomic.Int32 // sessions initialized
	heldRuns atomic.Int32 // held calls that reached the tool
	answered atomic.Int32 // calls of a size of 0 or more the tool answered
	refused  atomic.Int32 // calls of size -404 or -413 answered HTTP 404 or 413
	lists    atomic.Int32 // tools/list requests

	mu        sync.Mutex
	seen      map[string]bool // session IDs requests named
	forgotten map[string]bool
}

func startBig(jsonResponse bool) *bigServer {
	GinkgoHelper()
	b := &bigServer{held: make(chan struct{}), release: make(chan struct{}), seen: map[string]bool{}, forgotten: map[string]bool{}}
	s := mcp.NewServer(&mcp.Implementation{Name: "big", Version: "test"}, &mcp.ServerOptions{
		InitializedHandler: func(context.Context, *mcp.InitializedRequest) { b.sessions.Add(1) }})
	mcp.AddTool(s, &mcp.Tool{Name: "big", Description: "Answers with as many bytes as asked for"},
		func(_ context.Context, _ *mcp.CallToolRequest, in sizeArgs) (*mcp.CallToolResult, any, error) {
			if in.Hold {
				b.heldRuns.Add(1)
				select {
				case b.held <- struct{}{}:
				case <-b.release:
				}
				<-b.release
			}
			defer b.answered.Add(1)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", in.Size)}}}, nil, nil
		})
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{JSONResponse: jsonResponse})
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id := r.Header.Get("Mcp-Session-Id"); id != "" {
			b.mu.Lock()
			b.seen[id] = true
			gone := b.forgotten[id]
			b.mu.Unlock()
			if gone {
				http.Error(w, "session not found", http.StatusNotFound)
				return
			}
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var params struct{ Arguments sizeArgs }
		if msg, err := jsonrpc.DecodeMessage(body); err == nil {
			call, ok := msg.(*jsonrpc.Request)
			if ok && call.Method == "tools/list" {
				b.lists.Add(1)
			}
			if ok && call.Method == "tools/call" &&
				json.Unmarshal(call.Params, &params) == nil && params.Arguments.Size < 0 {
				switch params.Arguments.Size {
				case -404, -413:
					b.refused.Add(1)
					http.Error(w, "refused", -params.Arguments.Size)
					return
				case -503:
					http.Error(w, "overloaded", http.StatusServiceUnavailable)
					return
				case -2:
					w.Header().Set("Content-Type", "text/event-stream")
					w.WriteHeader(http.StatusOK)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, "not JSON-RPC")
				return
			}
		}
		sdk.ServeHTTP(w, r)
	}))
	DeferCleanup(closeUpstream, server)
	DeferCleanup(b.releaseHeld) // before the server closes: it waits for its handlers
	b.URL = server.URL
	return b
}

// forgetSessions makes b answer HTTP 404 to every request naming a session it has seen so far.
func (b *bigServer) forgetSessions() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for id := range b.seen {
		b.forgotten[id] = true
	}
}

// twoAgentsOnBig sets up a world served by a new bigServer (answering as JSON or as an event
// stream) and a gateway of its own that keeps sessions sessions with it, and returns the world's
// agent's MCP session with that gateway and another agent's, of a plan of its own.
func twoAgentsOnBig(prefix string, jsonResponse bool, sessions int) (w *world, big *bigServer, agent, other *mcp.ClientSession) {
	GinkgoHelper()
	big = startBig(jsonResponse)
	w = newWorld(prefix, big.URL, "big")
	otherToken := w.agent("other")
	url := startGateway(func(o *gateway.Options) { o.UpstreamSessions = sessions })
	return w, big, connectedTo(url, w.token), connectedTo(url, otherToken)
}

// releaseHeld lets every held call answer, now and from now on.
func (b *bigServer) releaseHeld() { b.once.Do(func() { close(b.release) }) }

type answer struct {
	res *mcp.CallToolResult
	err error
}

// callBig calls w's tool, served by a bigServer, on session.
func callBig(session *mcp.ClientSession, w *world, args sizeArgs) (*mcp.CallToolResult, error) {
	return session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool,
		Arguments: map[string]any{"path": args.Path, "size": args.Size, "hold": args.Hold}})
}

// startCallBig starts callBig; its answer comes on the channel.
func startCallBig(session *mcp.ClientSession, w *world, args sizeArgs) <-chan answer {
	answered := make(chan answer, 1)
	go func() {
		res, err := callBig(session, w, args)
		answered <- answer{res, err}
	}()
	return answered
}

// hold starts a call of session that the upstream holds, and returns once it is there; its answer
// comes on the channel once b releases it.
func (b *bigServer) hold(session *mcp.ClientSession, w *world) <-chan answer {
	GinkgoHelper()
	DeferCleanup(b.releaseHeld)
	held := startCallBig(session, w, sizeArgs{Path: "held.txt", Size: 10, Hold: true})
	Eventually(b.held).Should(Receive(), "the call is on the upstream")
	return held
}

// reportedByTheGateway makes a plan name the suite's gateway as its cost reporter.
func reportedByTheGateway(plan *safetyv1alpha1.AgentPlan) {
	plan.Spec.CostReporter = &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount,
		Namespace: "toolgate-system", Name: "gateway"}
}

// answerModes are the two ways a bigServer answers, for specs that run under each.
var answerModes = []struct {
	name string
	json bool
}{{"answering as one JSON body", true}, {"answering as a server-sent event", false}}

var _ = Describe("an upstream answer over the gateway's limit for one message", func() {
	const limit = 64 << 10
	for _, mode := range answerModes {
		Context(mode.name, Ordered, func() {
			var (
				w                 *world
				big               *bigServer
				agent, other      *mcp.ClientSession
				succeeded, failed = HaveField("Phase", safetyv1alpha1.CallPhaseSucceeded), HaveField("Phase", safetyv1alpha1.CallPhaseFailed)
			)
			BeforeAll(func() {
				big = startBig(mode.json)
				w = newWorld("gw-big-", big.URL, "big", func(o *worldObjects) { reportedByTheGateway(o.plan) })
				otherToken := w.agent("other", reportedByTheGateway)
				// One session with the upstream: every call below is on it.
				url := startGateway(func(o *gateway.Options) { o.MaxUpstreamMessageBytes, o.UpstreamSessions = limit, 1 })
				agent, other = connectedTo(url, w.token), connectedTo(url, otherToken)
			})
			It("fails that call alone, reported Failed: another agent's call on the same session is answered, and the session goes on", func() {
				held := big.hold(other, w)
				sessions := big.sessions.Load() // the suite's gateway has one too: it offers every ToolServer's tools

				// An MCP error naming the ToolServer and the limit.
				_, err := callBig(agent, w, sizeArgs{Path: "a.txt", Size: 4 * limit})
				Expect(err).To(MatchError(And(ContainSubstring("ToolServer "+w.ns+"-files"), ContainSubstring("65536 bytes"),
					ContainSubstring("--max-upstream-message-bytes"))))
				Eventually(w.callStatuses).Should(ContainElement(failed))

				big.releaseHeld()
				var a answer
				Eventually(held).Should(Receive(&a))
				Expect(a.err).NotTo(HaveOccurred(), "the other agent's call was on the session the answer came on")
				Expect(a.res.IsError).To(BeFalse())
				Expect(a.res.Content[0].(*mcp.TextContent).Text).To(HaveLen(10))

				res, err := callBig(agent, w, sizeArgs{Path: "b.txt", Size: limit / 2})
				Expect(err).NotTo(HaveOccurred())
				Expect(res.IsError).To(BeFalse())
				Expect(res.Content[0].(*mcp.TextContent).Text).To(HaveLen(limit / 2))
				Expect(big.sessions.Load()).To(Equal(sessions), "the gateway's one session with the upstream went on")
				Eventually(w.callStatuses).Should(ConsistOf(failed, succeeded, succeeded))
			})
		})
	}
})

var _ = Describe("the gateway's limit for one upstream message", func() {
	It("is at least 4 KiB, so that the error taking an answer's place fits within it", func() {
		opts := gatewayOptions
		opts.MaxUpstreamMessageBytes = gateway.MinMaxUpstreamMessageBytes - 1
		_, err := gateway.New(opts)
		Expect(err).To(MatchError(And(ContainSubstring("--max-upstream-message-bytes"), ContainSubstring("4095"),
			ContainSubstring("at least 4096"))))
		opts.MaxUpstreamMessageBytes = gateway.MinMaxUpstreamMessageBytes
		gw, err := gateway.New(opts)
		Expect(err).NotTo(HaveOccurred())
		gw.Close()
	})
})
