package gateway_test

import (
	"bytes"
	"context"
	"maps"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
)

type markupArgs struct {
	Char string `json:"char"`
	Size int    `json:"size"`
}

// startRawMarkup is a real MCP server (the Go SDK's, answering as one JSON body) whose tool
// "markup" answers with size copies of char, and which writes <, > and & as they are, as a
// TypeScript or Python server does (JSON.stringify and json.dumps leave them; the Go SDK writes
// them as \u003c, \u003e and \u0026).
func startRawMarkup() string {
	GinkgoHelper()
	s := mcp.NewServer(&mcp.Implementation{Name: "markup", Version: "test"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "markup", Description: "Answers with markup"},
		func(_ context.Context, _ *mcp.CallToolRequest, in markupArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat(in.Char, in.Size)}}}, nil, nil
		})
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{JSONResponse: true})
	raw := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&")
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet { // it answers as one body: no stream of its own (the SDK's would never end)
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		rec := httptest.NewRecorder()
		sdk.ServeHTTP(rec, r)
		body := []byte(raw.Replace(rec.Body.String()))
		maps.Copy(w.Header(), rec.Header())
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(rec.Code)
		_, _ = w.Write(bytes.Clone(body))
	}))
	DeferCleanup(closeUpstream, server)
	return server.URL
}

// The answer budget counts an answer's bytes as the upstream sends them; the SDK's server encodes
// it again for the agent with encoding/json's HTML escaping, so each <, > and & grows from one
// byte to six. Uncounted, one 16 MiB answer of < took 96 MiB to encode (and
// allocated over 1 GiB), beyond the budget's measure, and one agent could have the gateway killed.
var _ = Describe("toolgate-gateway and an answer that grows as it is encoded for the agent", Ordered, func() {
	const budget = 1 << 20
	var (
		w     *world
		agent *mcp.ClientSession
	)

	BeforeAll(func() {
		w = newWorld("gw-escaped-", startRawMarkup(), "markup", func(o *worldObjects) {
			reportedByTheGateway(o.plan)
			o.server.Spec.Tools[0].Arguments = safetyv1alpha1.ToolArgumentMap{}
		})
		agent = connectedTo(startGateway(func(o *gateway.Options) {
			o.MaxUpstreamMessageBytes, o.MaxAnswerBytesHeld = budget, budget
		}), w.token)
	})

	call := func(char string, size int) (*mcp.CallToolResult, error) {
		return agent.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool,
			Arguments: map[string]any{"char": char, "size": size}})
	}

	It("fails a call whose answer, as encoded for the agent, does not fit the budget, and reports it", func() {
		_, err := call("<", 400<<10) // 400 KiB upstream, 2.4 MiB encoded
		Expect(err).To(MatchError(And(ContainSubstring("ToolServer "+w.ns+"-files"),
			ContainSubstring("escaped"), ContainSubstring("does not fit the gateway's budget of 1048576 bytes"))))
		Eventually(w.callStatuses).Should(ConsistOf(HaveField("Phase", safetyv1alpha1.CallPhaseFailed)))
	})

	It("answers the same size of text without them, and a little markup within the budget", func() {
		res, err := call("x", 400<<10)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Content[0].(*mcp.TextContent).Text).To(HaveLen(400 << 10))
		res, err = call("&", 100<<10) // 600 KiB encoded
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Content[0].(*mcp.TextContent).Text).To(Equal(strings.Repeat("&", 100<<10)))
	})
})
