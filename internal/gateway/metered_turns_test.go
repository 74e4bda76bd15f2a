package gateway_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
)

var _ = Describe("toolgate-gateway under an agent's concurrent metered calls", Ordered, func() {
	It("judges each of a plan's metered calls with the earlier ones' stated costs counted, so concurrency cannot overspend", func() {
		// Each call states a cost of 0.4 and takes a while to answer, so that calls admitted
		// together would all be upstream at once, each reserving nothing (costPerCall unset).
		var reached, inFlight, mostInFlight atomic.Int32
		s := mcp.NewServer(&mcp.Implementation{Name: "metered-slow", Version: "test"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "metered", Description: "An answer that costs money, slowly"},
			func(_ context.Context, _ *mcp.CallToolRequest, _ pathArgs) (*mcp.CallToolResult, any, error) {
				reached.Add(1)
				n := inFlight.Add(1)
				defer inFlight.Add(-1)
				for m := mostInFlight.Load(); n > m && !mostInFlight.CompareAndSwap(m, n); m = mostInFlight.Load() {
				}
				time.Sleep(200 * time.Millisecond) // widens the window a race would need; asserts nothing
				return &mcp.CallToolResult{Meta: mcp.Meta{gateway.MetaCost: "0.4"},
					Content: []mcp.Content{&mcp.TextContent{Text: "answered"}}}, nil, nil
			})
		server := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
		DeferCleanup(closeUpstream, server)
		w := newWorld("gw-metered-race-", server.URL, "metered", func(o *worldObjects) {
			o.profile.Spec.MaxCostPerPlan = new(resource.MustParse("1"))
			o.server.Spec.Tools[0].ReportsCost = true
			o.plan.Spec.CostReporter = &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount,
				Namespace: "toolgate-system", Name: "gateway"}
		})

		const calls = 6
		results := make([]*mcp.CallToolResult, calls)
		var wg sync.WaitGroup
		for i := range calls {
			wg.Go(func() {
				defer GinkgoRecover()
				res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool,
					Arguments: map[string]any{"path": fmt.Sprintf("f%d.txt", i)}})
				Expect(err).NotTo(HaveOccurred())
				results[i] = res
			})
		}
		wg.Wait()

		// Spent before each admission: 0, 0.4, 0.8 admitted (not above 1); 1.2 refuses the rest.
		var answered, refused int
		for _, res := range results {
			if res.IsError {
				Expect(reasonIn(res)).To(Equal("ToolCostLimitExceeded"))
				refused++
			} else {
				answered++
			}
		}
		Expect(answered).To(Equal(3), "admitted while what was spent before them was within the budget")
		Expect(refused).To(Equal(calls - 3))
		Expect(reached.Load()).To(Equal(int32(3)), "the refused calls never reached the upstream")
		Expect(mostInFlight.Load()).To(Equal(int32(1)), "the plan's metered calls ran one at a time")
		key := client.ObjectKey{Namespace: w.ns, Name: "plan"}
		Expect(counters.Store(ctx, key)).To(Succeed())
		plan := &safetyv1alpha1.AgentPlan{}
		Expect(k8sClient.Get(ctx, key, plan)).To(Succeed())
		Expect(plan.Status.Usage).To(And(HaveField("AccumulatedCost", "1.2"), HaveField("ReportedCost", "1.2")),
			"over the budget by the last admitted call's stated cost alone")
	})
})
