package gateway_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/toolgate/toolgate/internal/metrics"
)

// upstreamDelay is how long the slow upstream takes to answer each call.
const upstreamDelay = 300 * time.Millisecond

// waitParts are the parts of toolgate_gateway_call_seconds that are waits, not the gateway's own.
var waitParts = []string{"agent", "api_server", "report", "upstream", "turn"}

// ownOf is what the waits leave of the total.
func ownOf(d partTotals) float64 {
	own := d["total"].sum
	for _, part := range waitParts {
		own -= d[part].sum
	}
	return own
}

// observed is one histogram's count and sum of seconds.
type observed struct {
	count uint64
	sum   float64
}

// partTotals are one outcome's histograms, by part.
type partTotals map[string]observed

func gatewayCallSeconds(outcome string) partTotals {
	GinkgoHelper()
	totals := partTotals{}
	read := func(part string, o prometheus.Observer) {
		var m dto.Metric
		Expect(o.(prometheus.Metric).Write(&m)).To(Succeed())
		totals[part] = observed{m.GetHistogram().GetSampleCount(), m.GetHistogram().GetSampleSum()}
	}
	for _, part := range waitParts {
		read(part, metrics.GatewayCallSeconds.WithLabelValues(outcome, part))
	}
	read("total", metrics.GatewayCallSeconds.WithLabelValues(outcome, "total"))
	read("own", metrics.GatewayOwnSeconds.WithLabelValues(outcome))
	return totals
}

// observedSince is what was observed in each part between before and after.
func observedSince(before, after partTotals) partTotals {
	d := partTotals{}
	for part, a := range after {
		d[part] = observed{a.count - before[part].count, a.sum - before[part].sum}
	}
	return d
}

var _ = Describe("where a call's time in the gateway goes (toolgate_gateway_call_seconds)", Ordered, func() {
	var (
		session  *mcp.ClientSession
		readTool string
	)

	BeforeAll(func() {
		s := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "test"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "slow_read", Description: "Read, slowly"},
			func(ctx context.Context, _ *mcp.CallToolRequest, in pathArgs) (*mcp.CallToolResult, any, error) {
				time.Sleep(upstreamDelay)
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "read " + in.Path}}}, nil, nil
			})
		upstream := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
		DeferCleanup(closeUpstream, upstream)
		w := newWorld("timing-", upstream.URL, "slow_read")
		session, readTool = w.session, w.readTool
	})

	It("splits a forwarded call into the API server's wait, the upstream's and the gateway's own", func() {
		before := gatewayCallSeconds("forwarded")
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: readTool, Arguments: map[string]any{"path": "a.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse())
		d := observedSince(before, gatewayCallSeconds("forwarded"))
		for part, p := range d {
			Expect(p.count).To(Equal(uint64(1)), "one observation of %s", part)
		}
		Expect(d["upstream"].sum).To(BeNumerically(">=", upstreamDelay.Seconds()), "the upstream's answer is waited for")
		Expect(d["api_server"].sum).To(BeNumerically(">", 0), "the AgentToolCall create is waited for")
		Expect(d["turn"].sum).To(BeZero(), "no metered turn: the plan names no cost reporter")
		Expect(d["report"].sum).To(BeZero(), "no report: the plan names no cost reporter")
		Expect(d["own"].sum).To(BeNumerically(">", 0))
		Expect(d["own"].sum).To(BeNumerically("~", ownOf(d), 1e-9), "own is what the waits leave of the total")
		// The upstream's wait is left out of the gateway's own: a bound relative to the total, as an
		// absolute one (own under the upstream's delay) failed whenever a loaded machine stalled the
		// gateway's own work for that long.
		Expect(d["own"].sum).To(BeNumerically("<=", d["total"].sum-upstreamDelay.Seconds()),
			"the upstream's wait is not the gateway's own")
	})

	It("times a denied call with no upstream part, and a call the gateway did not submit not at all", func() {
		forwarded, denied := gatewayCallSeconds("forwarded"), gatewayCallSeconds("denied")
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: readTool, Arguments: map[string]any{"path": ".env"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(reasonIn(res)).To(Equal("ToolAccessDenied"))
		d := observedSince(denied, gatewayCallSeconds("denied"))
		Expect(d["total"].count).To(Equal(uint64(1)))
		Expect(d["upstream"].sum).To(BeZero(), "a denied call never reaches the upstream")
		Expect(d["api_server"].sum).To(BeNumerically(">", 0))
		Expect(d["own"].sum).To(BeNumerically("~", ownOf(d), 1e-9))

		_, err = session.ListTools(ctx, nil) // no tools/call: not timed
		Expect(err).NotTo(HaveOccurred())
		_, err = session.CallTool(ctx, &mcp.CallToolParams{Name: readTool, Arguments: map[string]any{"path": 7}})
		Expect(err).To(HaveOccurred(), "a mapped path that is no string is refused before anything is created")
		Expect(observedSince(forwarded, gatewayCallSeconds("forwarded"))["total"].count).To(BeZero())
		Expect(observedSince(denied, gatewayCallSeconds("denied"))["total"].count).To(Equal(uint64(1)))
	})
})
