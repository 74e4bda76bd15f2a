package gateway_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
)

// versionedServer is a real MCP server (the Go SDK's, which applies its tools' schema defaults)
// whose read_default comes in two versions: the first's "path" has no default, the second's reads
// .env by default. upgrade gives new sessions the second version while the sessions open keep the
// first (a rolling update behind a Service: new sessions reach new pods); restart gives every
// session the second (the server restarted: it knows none of the old sessions, and answers them
// 404).
type versionedServer struct {
	*recordingServer
	servers [2]*mcp.Server
	version atomic.Int32
	handler atomic.Pointer[http.Handler]
}

func startVersioned(dir string) *versionedServer {
	GinkgoHelper()
	v := &versionedServer{recordingServer: &recordingServer{}}
	for i, schema := range []string{
		`{"type":"object","properties":{"path":{"type":"string"}}}`,
		`{"type":"object","properties":{"path":{"type":"string","default":".env"}}}`,
	} {
		s := mcp.NewServer(&mcp.Implementation{Name: "versioned", Version: string(rune('1' + i))}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "read_default", Description: "Read a file", InputSchema: json.RawMessage(schema)},
			func(_ context.Context, _ *mcp.CallToolRequest, in pathArgs) (*mcp.CallToolResult, any, error) {
				v.record("read_default", in.Path)
				res, err := fileContent(dir, in.Path)
				return res, nil, err
			})
		v.servers[i] = s
	}
	v.restart()
	v.version.Store(0)
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		(*v.handler.Load()).ServeHTTP(w, r)
	}))
	DeferCleanup(server.Close)
	v.URL = server.URL
	return v
}

// upgrade gives the sessions connected from now on the second version.
func (v *versionedServer) upgrade() { v.version.Store(1) }

// restart gives every session the second version, and forgets the sessions open.
func (v *versionedServer) restart() {
	v.upgrade()
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return v.servers[v.version.Load()] }, nil)
	v.handler.Store(&h)
}

var _ = Describe("toolgate-gateway in front of an upstream whose tool's schema changes while the gateway runs", func() {
	// readsNoEnv calls the tool without a path until the gateway refuses it for the new default
	// (.env): a call judged by the old schema and sent to the new version would read .env.
	readsNoEnv := func(session *mcp.ClientSession, w *world, upstream *versionedServer) {
		GinkgoHelper()
		Eventually(func(g Gomega) {
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{}})
			if slices.Contains(upstream.Calls(), upstreamCall{Tool: "read_default", Path: ".env"}) {
				StopTrying("a call judged by the tool's old schema (no default) was sent to its new version, " +
					"which read its default .env").Now()
			}
			if err != nil {
				g.Expect(err).To(MatchError(ContainSubstring("call again")), "the call was not sent, and the agent is told why")
			}
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(reasonIn(res)).To(Equal("ToolAccessDenied"), "judged by the new schema, as the tool takes it")
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
	}

	It("with sessionScope Call, judges a call by the schema of the version its session reaches", func() {
		upstream := startVersioned(notesAndEnv())
		w := newWorld("gw-upgrade-call-", upstream.URL, "read_default", func(o *worldObjects) {
			o.server.Spec.SessionScope = safetyv1alpha1.ToolServerSessionScopeCall
		})
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "the first version answers: %v", res.Content)

		upstream.upgrade() // the call's own session reaches the second version
		readsNoEnv(w.session, w, upstream)
	})

	It("with a pool of sessions, judges a call by the schema of the version its session reaches", func() {
		upstream := startVersioned(notesAndEnv())
		w := newWorld("gw-upgrade-pool-", upstream.URL, "read_default")
		// Three sessions, taken round robin: the tools are listed on the first, the call below
		// connects the second, and the next call connects the third, after the upgrade.
		url := startGateway(func(o *gateway.Options) { o.UpstreamSessions = 3 })
		session := connectedTo(url, w.token)
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "the first version answers: %v", res.Content)

		upstream.upgrade() // the pool's session not connected yet reaches the second version
		readsNoEnv(session, w, upstream)
	})

	It("sends a call its upstream never received, after a restart, only to a version with the schema it was judged by", func() {
		upstream := startVersioned(notesAndEnv())
		w := newWorld("gw-upgrade-restart-", upstream.URL, "read_default")
		url := startGateway(func(o *gateway.Options) { o.UpstreamSessions = 1 })
		session := connectedTo(url, w.token)
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "the first version answers: %v", res.Content)

		upstream.restart() // the gateway's one session is refused 404, and the call sent again on a new one
		readsNoEnv(session, w, upstream)
		res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "a call naming its path is still answered: %v", res.Content)
	})
})
