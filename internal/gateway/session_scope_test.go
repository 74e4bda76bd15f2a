package gateway_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
)

// statefulServer is a real MCP server (the Go SDK's) whose tools keep state per session, as a
// shell server keeps its working directory or a browser server its page: remember stores a
// value in the caller's session, recall answers what the session holds ("nothing" when empty).
type statefulServer struct {
	URL string
	// sessions counts the sessions clients have initialized with it.
	sessions   atomic.Int32
	mu         sync.Mutex
	remembered map[string]string // by session id
}

type rememberArgs struct {
	Value string `json:"value" jsonschema:"what to remember"`
}

func startStateful() *statefulServer {
	GinkgoHelper()
	st := &statefulServer{remembered: map[string]string{}}
	s := mcp.NewServer(&mcp.Implementation{Name: "stateful", Version: "test"}, &mcp.ServerOptions{
		InitializedHandler: func(context.Context, *mcp.InitializedRequest) { st.sessions.Add(1) }})
	mcp.AddTool(s, &mcp.Tool{Name: "remember", Description: "Remember a value in this session"},
		func(_ context.Context, req *mcp.CallToolRequest, in rememberArgs) (*mcp.CallToolResult, any, error) {
			st.mu.Lock()
			defer st.mu.Unlock()
			st.remembered[req.Session.ID()] = in.Value
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "remembered"}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "recall", Description: "What this session remembers"},
		func(_ context.Context, req *mcp.CallToolRequest, _ pathArgs) (*mcp.CallToolResult, any, error) {
			st.mu.Lock()
			defer st.mu.Unlock()
			v, ok := st.remembered[req.Session.ID()]
			if !ok {
				v = "nothing"
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: v}}}, nil, nil
		})
	server := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	DeferCleanup(closeUpstream, server)
	st.URL = server.URL
	return st
}

var _ = Describe("a ToolServer's sessionScope: whether calls of different plans share an upstream session", Ordered, func() {
	var (
		w            *world
		upstream     *statefulServer
		remember     string
		mine, theirs *mcp.ClientSession // the world's agent's plan, and another plan's agent
		toolServer   string
	)

	BeforeAll(func() {
		upstream = startStateful()
		w = newWorld("gw-scope-", upstream.URL, "recall", func(o *worldObjects) {
			remember = o.tools[0].Name + "-remember"
			toolServer = o.server.Name
			o.tools = append(o.tools, &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: remember},
				Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}})
			o.server.Spec.Tools = append(o.server.Spec.Tools,
				safetyv1alpha1.ServedTool{AgentTool: remember, UpstreamName: "remember"})
		})
		By("running a gateway with one upstream session per ToolServer, so that Shared is one session for every plan")
		url := startGateway(func(o *gateway.Options) { o.UpstreamSessions = 1 })
		mine = connectedTo(url, w.token)
		theirs = connectedTo(url, w.agent("other"))
	})

	text := func(s *mcp.ClientSession, tool string, args map[string]any) string {
		GinkgoHelper()
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "admitted and answered: %v", res.Content)
		return res.Content[0].(*mcp.TextContent).Text
	}

	It("defaults to Shared, which keeps the gateway's pooled session: one plan's call sees what another's left", func() {
		ts := &safetyv1alpha1.ToolServer{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Name: toolServer}, ts)).To(Succeed())
		Expect(ts.Spec.SessionScope).To(Equal(safetyv1alpha1.ToolServerSessionScopeShared), "the API server's default")
		Expect(text(mine, remember, map[string]any{"value": "mine"})).To(Equal("remembered"))
		before := upstream.sessions.Load()
		Expect(text(theirs, w.readTool, map[string]any{"path": "x"})).To(Equal("mine"), "the other plan's call ran in the same session")
		Expect(upstream.sessions.Load()).To(Equal(before), "no session was opened for it")
	})

	It("with Call, gives every call a session of its own, so no plan's call sees another's state", func() {
		ts := &safetyv1alpha1.ToolServer{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Name: toolServer}, ts)).To(Succeed())
		ts.Spec.SessionScope = safetyv1alpha1.ToolServerSessionScopeCall
		Expect(k8sClient.Update(ctx, ts)).To(Succeed())
		Expect(text(mine, remember, map[string]any{"value": "mine again"})).To(Equal("remembered"))
		before := upstream.sessions.Load()
		Expect(text(theirs, w.readTool, map[string]any{"path": "x"})).To(Equal("nothing"), "another plan's call")
		Expect(text(mine, w.readTool, map[string]any{"path": "x"})).To(Equal("nothing"), "and the next call of the same plan")
		Expect(upstream.sessions.Load()).To(Equal(before+2), "one new session per call")
	})

	It("refuses a sessionScope that is neither, naming the field", func() {
		ts := &safetyv1alpha1.ToolServer{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Name: toolServer}, ts)).To(Succeed())
		ts.Spec.SessionScope = "Plan"
		Expect(k8sClient.Update(ctx, ts)).To(MatchError(ContainSubstring("spec.sessionScope")))
	})
})
