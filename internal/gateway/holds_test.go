package gateway_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
)

// heldUpstream serves one tool, "slow", which states no cost: it counts each call in received and
// answers it once released() is closed (or the call is cancelled). It returns the server's URL;
// the server is closed after the container.
func heldUpstream(received *atomic.Int32, released func() <-chan struct{}) string {
	s := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "test"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "slow", Description: "answers when the test lets it; states no cost"},
		func(ctx context.Context, _ *mcp.CallToolRequest, in pathArgs) (*mcp.CallToolResult, any, error) {
			received.Add(1)
			select {
			case <-released():
			case <-ctx.Done():
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "answer about " + in.Path}}}, nil, nil
		})
	server := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	DeferCleanup(closeUpstream, server)
	return server.URL
}

// A call of a tool with a maxCostPerCall holds it from admission until the gateway's final report
// of the call, so calls in flight through two gateway replicas at once are not both judged against a
// spend that counts neither; and the gateway's report, a cost of 0 included, releases it.
var _ = Describe("what a call in flight through the gateway holds", Ordered, func() {
	var (
		w        *world
		received atomic.Int32
		release  chan struct{}
		replicas [2]*mcp.ClientSession
	)

	BeforeAll(func() {
		url := heldUpstream(&received, func() <-chan struct{} { return release })
		w = newWorld("gw-holds-", url, "slow", func(o *worldObjects) {
			o.profile.Spec.MaxCostPerPlan = new(resource.MustParse("1"))
			o.tools[0].Spec.MaxCostPerCall = new(resource.MustParse("1")) // no costPerCall: a call is free unless stated otherwise
			reportedByTheGateway(o.plan)
		})
		for i := range replicas { // two replicas of the gateway, each with its own turns
			replicas[i] = connectedTo(startGateway(func(*gateway.Options) {}), w.token)
		}
	})

	usage := func() safetyv1alpha1.PlanUsage {
		GinkgoHelper()
		key := client.ObjectKey{Namespace: w.ns, Name: "plan"}
		Expect(counters.Store(ctx, key)).To(Succeed())
		plan := &safetyv1alpha1.AgentPlan{}
		Expect(k8sClient.Get(ctx, key, plan)).To(Succeed())
		return plan.Status.Usage
	}
	call := func(session *mcp.ClientSession, path string) *mcp.CallToolResult {
		GinkgoHelper()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": path}})
		Expect(err).NotTo(HaveOccurred())
		return res
	}

	It("refuses a second call through another replica while the first holds the budget, and admits it once the first is reported", func() {
		release = make(chan struct{})
		first := make(chan *mcp.CallToolResult, 1)
		go func() {
			defer GinkgoRecover()
			first <- call(replicas[0], "a.txt")
		}()
		Eventually(received.Load).Should(Equal(int32(1)), "the first call is in flight upstream")

		By("the second replica knows nothing of the first call; the plan's counters do")
		res := call(replicas[1], "b.txt")
		Expect(res.IsError).To(BeTrue())
		Expect(reasonIn(res)).To(Equal("ToolCostLimitExceeded"))
		Expect(res.Content[0].(*mcp.TextContent).Text).To(ContainSubstring("with 1 held for calls whose cost is not reported yet"))
		Expect(received.Load()).To(Equal(int32(1)), "the refused call never reached the upstream")

		close(release)
		Expect((<-first).IsError).To(BeFalse())
		By("the gateway reported the first call final, at a cost of 0, which released its hold")
		Expect(w.callStatuses()).To(ContainElement(And(HaveField("Phase", safetyv1alpha1.CallPhaseSucceeded),
			HaveField("Cost", WithTransform(func(q *resource.Quantity) bool { return q != nil && q.IsZero() }, BeTrue())),
			HaveField("Conditions", WithTransform(func(c []metav1.Condition) bool {
				return meta.IsStatusConditionTrue(c, safetyv1alpha1.CallCostFinalCondition)
			}, BeTrue())))))
		Expect(call(replicas[1], "b.txt").IsError).To(BeFalse())
		Expect(received.Load()).To(Equal(int32(2)))
		Expect(usage().AccumulatedCost).To(BeEmpty(), "both calls were free")
	})

	It("releases the hold of a call the agent marked finished while it ran: the gateway's report says its cost is final", func() {
		release = make(chan struct{})
		before := received.Load()
		first := make(chan *mcp.CallToolResult, 1)
		go func() {
			defer GinkgoRecover()
			first <- call(replicas[0], "c.txt")
		}()
		Eventually(received.Load).Should(Equal(before+1), "the call is in flight upstream")

		By("the agent marks its call finished itself, with its own token, while it runs")
		cfg := rest.AnonymousClientConfig(cluster.Config)
		cfg.BearerToken = w.token
		agent, err := client.New(cfg, client.Options{Scheme: cluster.Scheme})
		Expect(err).NotTo(HaveOccurred())
		var calls safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(w.ns))).To(Succeed())
		inFlight := calls.Items[slices.IndexFunc(calls.Items, func(c safetyv1alpha1.AgentToolCall) bool { return c.Status.Phase == "" })]
		inFlight.Status.Phase = safetyv1alpha1.CallPhaseSucceeded
		for _, t := range []string{"A", "B", "C", "D"} { // the schema's 4: a merge by type would find no room for CostFinal
			meta.SetStatusCondition(&inFlight.Status.Conditions, metav1.Condition{Type: "Agent" + t,
				Status: metav1.ConditionTrue, Reason: "Agent", Message: "the agent's own"})
		}
		Expect(agent.Status().Update(ctx, &inFlight)).To(Succeed())
		res := call(replicas[1], "d.txt")
		Expect(reasonIn(res)).To(Equal("ToolCostLimitExceeded"), "the agent's word ends no hold")

		close(release)
		Expect((<-first).IsError).To(BeFalse())
		By("the gateway's report of it, its cost final, releases its hold")
		Expect(call(replicas[1], "d.txt").IsError).To(BeFalse())
		reported := &safetyv1alpha1.AgentToolCall{}
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(&inFlight), reported)).To(Succeed())
		Expect(reported.Status.Cost).NotTo(BeNil(), "the conditions the agent wrote first did not keep the cost out")
		Expect(meta.IsStatusConditionTrue(reported.Status.Conditions, safetyv1alpha1.CallCostFinalCondition)).To(BeTrue())
	})
})
