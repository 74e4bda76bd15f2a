package gateway_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
)

// A reportsCost tool's maxCostPerCall is what a call costs when the upstream may have run it but
// its cost could not be read: no call may be cheaper because its answer went unread.
var _ = Describe("a reportsCost tool's maxCostPerCall", Ordered, func() {
	const limit = 64 << 10
	var (
		w       *world
		agent   *mcp.ClientSession
		toolFor = map[string]string{} // upstream tool → AgentTool
	)

	BeforeAll(func() {
		s := mcp.NewServer(&mcp.Implementation{Name: "priced", Version: "test"}, nil)
		answer := func(text, cost string) *mcp.CallToolResult {
			res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
			if cost != "" {
				res.Meta = mcp.Meta{gateway.MetaCost: cost}
			}
			return res
		}
		for name, handler := range map[string]mcp.ToolHandlerFor[pathArgs, any]{
			"priced": func(context.Context, *mcp.CallToolRequest, pathArgs) (*mcp.CallToolResult, any, error) {
				return answer("small", "0.3"), nil, nil
			},
			"unpriced": func(context.Context, *mcp.CallToolRequest, pathArgs) (*mcp.CallToolResult, any, error) {
				return answer("small, its cost not stated", ""), nil, nil
			},
			"huge": func(context.Context, *mcp.CallToolRequest, pathArgs) (*mcp.CallToolResult, any, error) {
				return answer(strings.Repeat("x", 4*limit), "0.2"), nil, nil
			},
			"refuses": func(context.Context, *mcp.CallToolRequest, pathArgs) (*mcp.CallToolResult, any, error) {
				return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "no such file"}
			},
			"crashes": func(context.Context, *mcp.CallToolRequest, pathArgs) (*mcp.CallToolResult, any, error) {
				return answer("never sent: the proxy in front answers 502", ""), nil, nil
			},
		} {
			mcp.AddTool(s, &mcp.Tool{Name: name, Description: name}, handler)
		}
		sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
			&mcp.StreamableHTTPOptions{JSONResponse: true})
		server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			if bytes.Contains(body, []byte(`"name":"crashes"`)) { // a proxy's answer for a server that died mid-call
				http.Error(w, "bad gateway", http.StatusBadGateway)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			sdk.ServeHTTP(w, r)
		}))
		DeferCleanup(closeUpstream, server)
		w = newWorld("gw-maxcost-", server.URL, "priced", func(o *worldObjects) {
			reportedByTheGateway(o.plan)
			o.tools[0].Spec.CostPerCall = new(resource.MustParse("0.1"))
			o.tools[0].Spec.MaxCostPerCall = new(resource.MustParse("0.9"))
			o.server.Spec.Tools[0].ReportsCost = true
			toolFor["priced"] = o.tools[0].Name
			for _, upstream := range []string{"unpriced", "huge", "refuses", "crashes", "cheap-ceiling"} {
				name := o.tools[0].Name + "-" + upstream
				toolFor[upstream] = name
				tool := o.tools[0].DeepCopy()
				tool.ObjectMeta = metav1.ObjectMeta{Name: name}
				served := *o.server.Spec.Tools[0].DeepCopy()
				served.AgentTool, served.UpstreamName = name, upstream
				if upstream == "cheap-ceiling" { // a ceiling under the price: the price holds
					tool.Spec.CostPerCall, tool.Spec.MaxCostPerCall = new(resource.MustParse("1")), new(resource.MustParse("0.5"))
					served.UpstreamName = "huge"
				}
				o.tools = append(o.tools, tool)
				o.server.Spec.Tools = append(o.server.Spec.Tools, served)
			}
		})
		agent = connectedTo(startGateway(func(o *gateway.Options) { o.MaxUpstreamMessageBytes = limit }), w.token)
	})

	// costOf calls upstream's tool and returns the cost the gateway reported on its AgentToolCall.
	costOf := func(upstream string) string {
		GinkgoHelper()
		before := len(w.callStatuses())
		_, _ = agent.CallTool(ctx, &mcp.CallToolParams{Name: toolFor[upstream], Arguments: map[string]any{"path": upstream + ".txt"}})
		var cost *resource.Quantity
		Eventually(func(g Gomega) {
			var calls safetyv1alpha1.AgentToolCallList
			g.Expect(k8sClient.List(ctx, &calls, client.InNamespace(w.ns))).To(Succeed())
			g.Expect(calls.Items).To(HaveLen(before + 1))
			for _, c := range calls.Items {
				if c.Spec.Tool == toolFor[upstream] {
					g.Expect(c.Status.Cost).NotTo(BeNil(), "the gateway reports the call's cost")
					cost = c.Status.Cost
				}
			}
		}).Should(Succeed())
		return cost.String()
	}

	It("reports a stated cost as stated", func() {
		Expect(costOf("priced")).To(Equal("300m"))
	})
	It("reports maxCostPerCall, not costPerCall, for a call whose answer was over the bound and went unread", func() {
		Expect(costOf("huge")).To(Equal("900m"))
	})
	It("reports maxCostPerCall for an answer that states no cost", func() {
		Expect(costOf("unpriced")).To(Equal("900m"))
	})
	It("reports maxCostPerCall for a JSON-RPC error from the upstream: one may come after its tool ran", func() {
		Expect(costOf("refuses")).To(Equal("900m"))
	})
	It("reports maxCostPerCall for a call a proxy in front of the upstream answered 502", func() {
		Expect(costOf("crashes")).To(Equal("900m"))
	})
	It("reports costPerCall when it is above maxCostPerCall: a ceiling never makes a call cheaper", func() {
		Expect(costOf("cheap-ceiling")).To(Equal("1"))
	})
})

// The API server refuses a negative maxCostPerCall, or one over the largest cost.
var _ = Describe("an AgentTool's maxCostPerCall", func() {
	It("is refused below zero or over 1000000000", func() {
		for _, tc := range []struct{ max, message string }{
			{"-1", "must not be negative"},
			{"1000000001", "at most 1000000000"},
		} {
			tool := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{GenerateName: "gw-maxcost-bad-"},
				Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead,
					MaxCostPerCall: new(resource.MustParse(tc.max))}}
			Expect(k8sClient.Create(ctx, tool)).To(MatchError(And(ContainSubstring("maxCostPerCall"), ContainSubstring(tc.message))),
				"maxCostPerCall %s", tc.max)
		}
	})
})
