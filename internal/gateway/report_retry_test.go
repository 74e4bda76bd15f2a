package gateway_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
)

// flakyReporter is the gateway's own client, whose status writes the API server is made to fail
// with 503 Service Unavailable while failing is set (every other request is the real one).
type flakyReporter struct {
	failing  atomic.Bool
	attempts atomic.Int32
}

func (f *flakyReporter) client() client.Client {
	GinkgoHelper()
	real, err := client.NewWithWatch(gatewayOptions.APIServer, client.Options{Scheme: cluster.Scheme})
	Expect(err).NotTo(HaveOccurred())
	return interceptor.NewClient(real, interceptor.Funcs{
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch,
			opts ...client.SubResourcePatchOption) error {
			f.attempts.Add(1)
			if f.failing.Load() {
				return apierrors.NewServiceUnavailable("the test makes status writes fail")
			}
			return c.SubResource(sub).Patch(ctx, obj, patch, opts...)
		},
	})
}

// meteredUpstream is an MCP server whose one tool, "metered", states a cost of 0.4 in every answer;
// reached counts the calls it got.
func meteredUpstream(reached *atomic.Int32) string {
	GinkgoHelper()
	s := mcp.NewServer(&mcp.Implementation{Name: "metered", Version: "test"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "metered", Description: "An answer that costs money"},
		func(_ context.Context, _ *mcp.CallToolRequest, _ pathArgs) (*mcp.CallToolResult, any, error) {
			reached.Add(1)
			return &mcp.CallToolResult{Meta: mcp.Meta{gateway.MetaCost: "0.4"},
				Content: []mcp.Content{&mcp.TextContent{Text: "answered"}}}, nil, nil
		})
	server := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	DeferCleanup(closeUpstream, server)
	return server.URL
}

// meteredWorld is a world whose plan names the gateway as its cost reporter, under a budget of
// 0.3, with its one tool served by upstreamURL's "metered", which states its cost.
func meteredWorld(prefix, upstreamURL string) *world {
	GinkgoHelper()
	return newWorld(prefix, upstreamURL, "metered", func(o *worldObjects) {
		o.profile.Spec.MaxCostPerPlan = new(resource.MustParse("0.3"))
		o.server.Spec.Tools[0].ReportsCost = true
		o.plan.Spec.CostReporter = &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount,
			Namespace: "toolgate-system", Name: "gateway"}
	})
}

var _ = Describe("toolgate-gateway when its reports fail", func() {
	It("tries a report again after the API server's transient failures, before the agent is answered", func() {
		var reached atomic.Int32
		w := meteredWorld("gw-report-retry-", meteredUpstream(&reached))
		flaky := &flakyReporter{}
		flaky.failing.Store(true)
		url := startGateway(func(o *gateway.Options) { o.Reporter = flaky.client() })
		session := connectedTo(url, w.token)

		// The API server comes back while the report is being tried.
		go func() {
			defer GinkgoRecover()
			Eventually(flaky.attempts.Load).Should(BeNumerically(">=", 3))
			flaky.failing.Store(false)
		}()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "a.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse())

		// Written before the answer: no waiting for it here.
		statuses := w.callStatuses()
		Expect(statuses).To(HaveLen(1))
		Expect(statuses[0].Phase).To(Equal(safetyv1alpha1.CallPhaseSucceeded))
		Expect(statuses[0].Cost).NotTo(BeNil())
		Expect(statuses[0].Cost.Cmp(resource.MustParse("0.4"))).To(BeZero(), "the cost the upstream stated")
		Expect(flaky.attempts.Load()).To(BeNumerically(">=", 4), "three refused tries, then the one written")
	})

	It("keeps the plan's metered turn while a metered call's report still fails, so the next call is judged with its cost", func() {
		var reached atomic.Int32
		w := meteredWorld("gw-report-held-", meteredUpstream(&reached))
		flaky := &flakyReporter{}
		flaky.failing.Store(true)
		url := startGateway(func(o *gateway.Options) {
			o.Reporter = flaky.client()
			o.ReportTimeout = 300 * time.Millisecond // the agent is answered after this, unreported
		})
		session := connectedTo(url, w.token)
		call := func() *mcp.CallToolResult {
			GinkgoHelper()
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "a.txt"}})
			Expect(err).NotTo(HaveOccurred())
			return res
		}

		Expect(call().IsError).To(BeFalse(), "admitted with nothing spent; its 0.4 is not yet reported")
		Expect(w.callStatuses()).To(ConsistOf(HaveField("Cost", BeNil())), "its report failed")

		// The plan's next metered call waits for the report, however long it fails...
		second := make(chan *mcp.CallToolResult, 1)
		go func() {
			defer GinkgoRecover()
			second <- call()
		}()
		Consistently(second, "1s").ShouldNot(Receive(), "the turn is still the first call's")
		Expect(reached.Load()).To(Equal(int32(1)))

		// ...and once it is written, is judged with the first call's 0.4 counted: over the 0.3.
		flaky.failing.Store(false)
		var res *mcp.CallToolResult
		Eventually(second).Should(Receive(&res))
		Expect(res.IsError).To(BeTrue())
		Expect(reasonIn(res)).To(Equal("ToolCostLimitExceeded"))
		Expect(reached.Load()).To(Equal(int32(1)), "the refused call never reached the upstream")
		plan := &safetyv1alpha1.AgentPlan{}
		key := client.ObjectKey{Namespace: w.ns, Name: "plan"}
		Expect(counters.Store(ctx, key)).To(Succeed())
		Expect(k8sClient.Get(ctx, key, plan)).To(Succeed())
		Expect(plan.Status.Usage.ReportedCost).To(Equal("0.4"))
	})
})
