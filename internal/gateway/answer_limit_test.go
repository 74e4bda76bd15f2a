package gateway_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
)

type sizeArgs struct {
	Path string `json:"path"`
	Size int    `json:"size"`
}

// startBig serves a real MCP server whose tool "big" answers with as many bytes as asked for,
// as one JSON body or as a server-sent event.
func startBig(jsonResponse bool) (string, func()) {
	s := mcp.NewServer(&mcp.Implementation{Name: "big", Version: "test"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "big", Description: "Answers with as many bytes as asked for"},
		func(_ context.Context, _ *mcp.CallToolRequest, in sizeArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", in.Size)}}}, nil, nil
		})
	server := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{JSONResponse: jsonResponse}))
	return server.URL, server.Close
}

var _ = Describe("an upstream answer over the gateway's limit for one message", func() {
	const limit = 64 << 10
	for _, mode := range []struct {
		name string
		json bool
	}{{"as one JSON body", true}, {"as a server-sent event", false}} {
		Context(mode.name, Ordered, func() {
			var (
				w       *world
				limited *mcp.ClientSession
			)
			BeforeAll(func() {
				url, stop := startBig(mode.json)
				DeferCleanup(stop)
				w = newWorld("gw-big-", url, "big", func(o *worldObjects) {
					o.plan.Spec.CostReporter = &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount,
						Namespace: "toolgate-system", Name: "gateway"}
				})
				opts := gatewayOptions
				opts.MaxUpstreamMessageBytes = limit
				gw, err := gateway.New(opts)
				Expect(err).NotTo(HaveOccurred())
				server := httptest.NewServer(gw.Handler())
				DeferCleanup(func() { server.Close(); gw.Close() })
				limited, err = connectTo(server.URL, w.token)
				Expect(err).NotTo(HaveOccurred())
				DeferCleanup(limited.Close)
			})
			call := func(size int) (*mcp.CallToolResult, error) {
				return limited.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool,
					Arguments: map[string]any{"path": "a.txt", "size": size}})
			}
			It("fails the call, reports it Failed, and answers the next call from a new session", func() {
				// As every failure of the upstream's transport: an MCP error naming the ToolServer.
				// The limit on a JSON body is the gateway's, the one on an event the SDK's.
				_, err := call(4 * limit)
				Expect(err).To(MatchError(And(ContainSubstring("ToolServer "+w.ns+"-files"), ContainSubstring("65536 bytes"))))
				Eventually(w.callStatuses).Should(ConsistOf(HaveField("Phase", safetyv1alpha1.CallPhaseFailed)))

				res, err := call(limit / 2)
				Expect(err).NotTo(HaveOccurred())
				Expect(res.IsError).To(BeFalse())
				Expect(res.Content[0].(*mcp.TextContent).Text).To(HaveLen(limit / 2))
				Eventually(w.callStatuses).Should(ConsistOf(HaveField("Phase", safetyv1alpha1.CallPhaseFailed),
					HaveField("Phase", safetyv1alpha1.CallPhaseSucceeded)))
			})
		})
	}
})
