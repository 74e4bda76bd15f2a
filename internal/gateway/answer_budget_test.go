package gateway_test

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/toolgate/toolgate/internal/gateway"
)

var _ = Describe("toolgate-gateway's budget for the answers it holds at once, answered as JSON", Ordered, func() {
	answerBudgetSpecs(true)
})

var _ = Describe("toolgate-gateway's budget for the answers it holds at once, answered as an event stream", Ordered, func() {
	answerBudgetSpecs(false)
})

func answerBudgetSpecs(jsonResponse bool) {
	const (
		budget = 1 << 20
		large  = 600 << 10 // two do not fit the budget
	)
	var (
		w                  *world
		big                *bigServer
		agent, other       *mcp.ClientSession
		reportHeld         chan struct{}
		releaseReport      chan struct{}
		reportsIntercepted atomic.Int32
	)

	BeforeAll(func() {
		big = startBig(jsonResponse)
		w = newWorld("gw-budget-", big.URL, "big", func(o *worldObjects) { reportedByTheGateway(o.plan) })
		otherToken := w.agent("other") // its plan names no reporter: its calls are not reported
		reportHeld, releaseReport = make(chan struct{}), make(chan struct{})
		DeferCleanup(func() {
			select {
			case <-releaseReport:
			default:
				close(releaseReport)
			}
		})
		real, err := client.NewWithWatch(gatewayOptions.APIServer, client.Options{Scheme: cluster.Scheme})
		Expect(err).NotTo(HaveOccurred())
		// The first report is held until the test lets it go: the call it reports is admitted and
		// answered upstream, and its agent's request is not answered yet.
		reporter := interceptor.NewClient(real, interceptor.Funcs{
			SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch,
				opts ...client.SubResourcePatchOption) error {
				if reportsIntercepted.Add(1) == 1 {
					close(reportHeld)
					select {
					case <-releaseReport:
					case <-ctx.Done():
						return ctx.Err()
					}
				}
				return c.SubResource(sub).Patch(ctx, obj, patch, opts...)
			},
		})
		url := startGateway(func(o *gateway.Options) {
			o.MaxUpstreamMessageBytes, o.MaxAnswerBytesHeld, o.Reporter = budget, budget, reporter
		})
		agent, other = connectedTo(url, w.token), connectedTo(url, otherToken)
	})

	It("makes a large answer wait, unread, until the request holding the budget is answered, and lets small ones through", func() {
		first := startCallBig(agent, w, sizeArgs{Path: "first.txt", Size: large})
		Eventually(reportHeld).Should(BeClosed(), "the first call's answer was read, and its report is held")

		second := startCallBig(other, w, sizeArgs{Path: "second.txt", Size: large})
		Eventually(big.answered.Load).Should(BeEquivalentTo(2), "the upstream answered the second call too")
		res, err := callBig(agent, w, sizeArgs{Path: "small.txt", Size: 100})
		Expect(err).NotTo(HaveOccurred(), "a small answer takes none of the budget")
		Expect(res.IsError).To(BeFalse())
		Consistently(second).WithTimeout(500*time.Millisecond).ShouldNot(Receive(),
			"the second large answer waits for the budget the first call's request holds")

		close(releaseReport)
		for _, c := range []<-chan answer{first, second} {
			var a answer
			Eventually(c).WithTimeout(waitTimeout).Should(Receive(&a))
			Expect(a.err).NotTo(HaveOccurred())
			Expect(a.res.IsError).To(BeFalse())
			Expect(a.res.Content).To(HaveLen(1))
			Expect(a.res.Content[0].(*mcp.TextContent).Text).To(HaveLen(large), "each answer whole")
		}
	})
}
