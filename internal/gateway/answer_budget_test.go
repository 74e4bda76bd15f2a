package gateway_test

import (
	"context"
	"fmt"
	"net"
	"strings"
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

var _ = Describe("toolgate-gateway's budget for answers held at once, with an agent that does not read its answer", Ordered, func() {
	const large = 12 << 20 // more than the connection's buffers hold: the gateway's write waits for the agent
	// Two answers of 12 MiB, each encoded and decoded several times under the race detector, take
	// about 18 s on an idle 2-core machine (most of it the detector's checks of the copies), and
	// more than waitTimeout on a busy one. A write that never gave up would hold the budget until
	// the connection closed, so a longer wait still tells a broken deadline from a slow machine.
	const largeTimeout = 4 * waitTimeout
	var (
		w     *world
		big   *bigServer
		url   string
		other *mcp.ClientSession
	)

	BeforeAll(func() {
		big = startBig(true)
		w = newWorld("gw-slow-reader-", big.URL, "big")
		otherToken := w.agent("other")
		// The deadline is also what the other agent's one write of its own 12 MiB answer must meet
		// while it reads: about 60 ms on an idle machine, 120 ms beside two busy loops, under -race.
		// One second left a loaded CI less margin than a GC pause or two; five cost four more
		// seconds of waiting for the unread answer's write to give up.
		url = startGateway(func(o *gateway.Options) { o.AnswerWriteTimeout = 5 * time.Second })
		other = connectedTo(url, otherToken)
	})

	It("holds the budget only as long as one write of the answer may wait", func() {
		conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(conn.Close)
		Expect(conn.(*net.TCPConn).SetReadBuffer(4096)).To(Succeed())
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":{"path":"unread.txt","size":%d}}}`,
			w.readTool, large)
		_, err = fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"+
			"Accept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-06-18\r\nContent-Length: %d\r\n\r\n%s",
			w.token, len(body), body)
		Expect(err).NotTo(HaveOccurred())
		Eventually(big.answered.Load).WithTimeout(largeTimeout).Should(BeEquivalentTo(1), "the upstream answered the unread call")

		// Its answer holds all but 4 MiB of the budget until its write gives up; this one waits for it.
		waiting, cancel := context.WithTimeout(ctx, largeTimeout)
		defer cancel()
		res, err := other.CallTool(waiting, &mcp.CallToolParams{Name: w.readTool,
			Arguments: map[string]any{"path": "read.txt", "size": large}})
		Expect(err).NotTo(HaveOccurred(), "answered once the unread answer's write gave up")
		Expect(res.IsError).To(BeFalse())
		Expect(res.Content[0].(*mcp.TextContent).Text).To(HaveLen(large))
	})
})
