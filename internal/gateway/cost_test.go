package gateway_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/pkg/agent"
)

// meteredServer is a real MCP server with two tools: "metered" answers and states in its
// result's _meta that the call cost 0.4, "broken" fails. It counts the calls that reach it.
type meteredServer struct {
	URL   string
	calls atomic.Int32
}

func startMetered() (*meteredServer, func()) {
	m := &meteredServer{}
	s := mcp.NewServer(&mcp.Implementation{Name: "metered", Version: "test"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "metered", Description: "An answer that costs money"},
		func(_ context.Context, _ *mcp.CallToolRequest, in pathArgs) (*mcp.CallToolResult, any, error) {
			m.calls.Add(1)
			return &mcp.CallToolResult{Meta: mcp.Meta{gateway.MetaCost: "0.4"},
				Content: []mcp.Content{&mcp.TextContent{Text: "answer about " + in.Path}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "broken", Description: "Always fails"},
		func(_ context.Context, _ *mcp.CallToolRequest, _ pathArgs) (*mcp.CallToolResult, any, error) {
			m.calls.Add(1)
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "upstream broke"}}}, nil, nil
		})
	server := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	m.URL = server.URL
	return m, func() { closeUpstream(server) }
}

var _ = Describe("toolgate-gateway as the plan's cost reporter", Ordered, func() {
	var (
		w          *world
		brokenTool string
		upstream   *meteredServer
	)

	BeforeAll(func() {
		var stop func()
		upstream, stop = startMetered()
		DeferCleanup(stop)
		w = newWorld("gw-cost-", upstream.URL, "metered", func(o *worldObjects) {
			o.profile.Spec.MaxCostPerPlan = new(resource.MustParse("1"))
			o.server.Spec.Tools[0].ReportsCost = true
			brokenTool = o.tools[0].Name + "-broken"
			o.tools = append(o.tools, &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: brokenTool},
				Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead,
					CostPerCall: new(resource.MustParse("0.25"))}})
			o.server.Spec.Tools = append(o.server.Spec.Tools, safetyv1alpha1.ServedTool{AgentTool: brokenTool,
				UpstreamName: "broken", Arguments: safetyv1alpha1.ToolArgumentMap{Paths: []string{"path"}}})
			o.plan.Spec.CostReporter = &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount,
				Namespace: "toolgate-system", Name: "gateway"}
		})
	})

	call := func(tool, path string) *mcp.CallToolResult {
		GinkgoHelper()
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"path": path}})
		Expect(err).NotTo(HaveOccurred())
		return res
	}
	usage := func() safetyv1alpha1.PlanUsage {
		GinkgoHelper()
		key := client.ObjectKey{Namespace: w.ns, Name: "plan"}
		Expect(counters.Store(ctx, key)).To(Succeed()) // the gate answers before it stores them
		plan := &safetyv1alpha1.AgentPlan{}
		Expect(k8sClient.Get(ctx, key, plan)).To(Succeed())
		return plan.Status.Usage
	}
	costOf := func(s string) *resource.Quantity { return new(resource.MustParse(s)) }
	// costIs matches a status.cost equal to s as an amount, whatever its spelling ("0.25", "250m").
	costIs := func(s string) OmegaMatcher {
		return HaveField("Cost", WithTransform(func(q *resource.Quantity) bool {
			return q != nil && q.Cmp(*costOf(s)) == 0
		}, BeTrue()))
	}

	It("reports a failed upstream call as Failed, at its tool's costPerCall", func() {
		res := call(brokenTool, "a.txt")
		Expect(res.IsError).To(BeTrue())
		Expect(res.Content[0].(*mcp.TextContent).Text).To(Equal("upstream broke"), "the upstream's own error, passed on")
		Expect(w.callStatuses()).To(ConsistOf(And(HaveField("Phase", safetyv1alpha1.CallPhaseFailed),
			costIs("0.25"), HaveField("FinishedAt", Not(BeNil())))))
		Expect(usage().AccumulatedCost).To(Equal("0.25"))
	})

	It("reports the cost the upstream states, and refuses ToolCostLimitExceeded once the reports reach the limit", func() {
		Expect(call(w.readTool, "b.txt").IsError).To(BeFalse()) // 0.25 spent before it
		Expect(usage().AccumulatedCost).To(Equal("0.65"))
		Expect(call(w.readTool, "c.txt").IsError).To(BeFalse()) // 0.65 spent before it
		Expect(usage()).To(And(HaveField("AccumulatedCost", "1.05"), HaveField("ReportedCost", "1.05")))
		Expect(w.callStatuses()).To(ConsistOf(
			HaveField("Phase", safetyv1alpha1.CallPhaseFailed),
			And(HaveField("Phase", safetyv1alpha1.CallPhaseSucceeded), costIs("0.4")),
			And(HaveField("Phase", safetyv1alpha1.CallPhaseSucceeded), costIs("0.4"))))

		By("without the reports the plan would have spent 0.25 of its 1; with them it has spent 1.05")
		res := call(w.readTool, "d.txt")
		Expect(res.IsError).To(BeTrue())
		Expect(reasonIn(res)).To(Equal("ToolCostLimitExceeded"))
		Expect(res.Content[0].(*mcp.TextContent).Text).To(HavePrefix("[ToolCostLimitExceeded] "))
		Expect(upstream.calls.Load()).To(Equal(int32(3)), "the refused call never reached the upstream")
	})

	It("takes no cost report from the agent itself", func() {
		cfg, err := testenv.AgentConfig(ctx, cluster.Config, w.ns, agentSA)
		Expect(err).NotTo(HaveOccurred())
		agentClient, err := client.New(cfg, client.Options{Scheme: cluster.Scheme})
		Expect(err).NotTo(HaveOccurred())
		// The agent may read no call; the name of one of its own is all a report needs.
		var calls safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(w.ns))).To(Succeed())
		Expect(calls.Items).NotTo(BeEmpty())
		mine := &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: w.ns, Name: calls.Items[0].Name}}
		mine.Status.Cost = costOf("1000")
		err = agent.Report(ctx, agentClient, mine)
		Expect(err).To(MatchError(And(ContainSubstring("InvalidUpdate"),
			ContainSubstring("only plan plan's cost reporter (%s) may report cost", gatewayIdentity))))
		Expect(usage().AccumulatedCost).To(Equal("1.05"), "the refused report changed nothing")
	})
})

var _ = Describe("toolgate-gateway reporting for an agent that hangs up", Ordered, func() {
	It("lets the upstream finish and reports the cost it states, when the agent hung up before the answer", func() {
		started, release := make(chan struct{}, 1), make(chan struct{})
		var cancelled atomic.Bool
		s := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "test"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "slow", Description: "Answers, at a cost, after its caller gave up"},
			func(ctx context.Context, _ *mcp.CallToolRequest, _ pathArgs) (*mcp.CallToolResult, any, error) {
				started <- struct{}{}
				select {
				case <-ctx.Done(): // the agent's hang-up reached the upstream: its cost is lost
					cancelled.Store(true)
					return nil, nil, ctx.Err()
				case <-release:
					return &mcp.CallToolResult{Meta: mcp.Meta{gateway.MetaCost: "0.4"},
						Content: []mcp.Content{&mcp.TextContent{Text: "done, at a cost"}}}, nil, nil
				}
			})
		server := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
		DeferCleanup(closeUpstream, server)
		w := newWorld("gw-hangup-", server.URL, "slow", func(o *worldObjects) {
			o.server.Spec.Tools[0].ReportsCost = true
			o.plan.Spec.CostReporter = &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount,
				Namespace: "toolgate-system", Name: "gateway"}
		})

		// The agent calls on a session of its own and hangs up mid-call: it closes its
		// connections, which ends the request's context in the gateway.
		var mu sync.Mutex
		var conns []net.Conn
		dialer := &net.Dialer{}
		transport := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := dialer.DialContext(ctx, network, addr)
			if err == nil {
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
			}
			return c, err
		}}
		DeferCleanup(transport.CloseIdleConnections)
		agent := testenv.BearerClientOver(transport, w.token)
		session, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "test"}, nil).Connect(ctx,
			&mcp.StreamableClientTransport{Endpoint: gatewayURL, HTTPClient: agent, DisableStandaloneSSE: true}, nil)
		Expect(err).NotTo(HaveOccurred())
		hungUp := make(chan struct{})
		go func() {
			defer GinkgoRecover()
			defer close(hungUp)
			select {
			case <-started:
			case <-time.After(waitTimeout):
				Fail("the call never reached the upstream")
			}
			mu.Lock()
			defer mu.Unlock()
			for _, c := range conns {
				_ = c.Close()
			}
		}()
		_, err = session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "x"}})
		Expect(err).To(HaveOccurred(), "the agent hung up before the answer")
		<-hungUp
		// Without the fix the hang-up reaches the upstream within milliseconds, as its context's
		// end; this waits long past that (it cannot fail the fixed gateway, only miss a slow one).
		Consistently(cancelled.Load).WithTimeout(2*time.Second).WithPolling(20*time.Millisecond).Should(BeFalse(),
			"the agent's hang-up cancelled the admitted upstream call")
		close(release) // the upstream finishes after the agent has gone
		Eventually(func(g Gomega) {
			var calls safetyv1alpha1.AgentToolCallList
			g.Expect(k8sClient.List(ctx, &calls, client.InNamespace(w.ns))).To(Succeed())
			g.Expect(calls.Items).To(ConsistOf(HaveField("Status", And(
				HaveField("Phase", safetyv1alpha1.CallPhaseSucceeded), HaveField("FinishedAt", Not(BeNil())),
				HaveField("Cost", WithTransform(func(q *resource.Quantity) string {
					if q == nil {
						return ""
					}
					return q.String()
				}, Equal("400m")))))))
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
		Expect(cancelled.Load()).To(BeFalse(), "the agent's hang-up cancelled the admitted upstream call")
		key := client.ObjectKey{Namespace: w.ns, Name: "plan"}
		Expect(counters.Store(ctx, key)).To(Succeed())
		plan := &safetyv1alpha1.AgentPlan{}
		Expect(k8sClient.Get(ctx, key, plan)).To(Succeed())
		Expect(plan.Status.Usage.ReportedCost).To(Equal("0.4"), "the stated cost counts against the plan")
	})
})
