package gateway_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/toolgate/toolgate/internal/gateway"
	"github.com/toolgate/toolgate/internal/serving"
)

// Each caller's own bounds (64 calls in flight, 64 bodies arriving) did not stop several
// ServiceAccounts together from holding every connection the listener takes, each serving a
// request, after which every other agent's new connection was closed unread. The requests a
// replica serves at once are now fewer than its connections, and shared among the callers that
// want them.
var _ = Describe("the requests a replica serves at once", Ordered, func() {
	const listener = "gateway-fair-share-test"
	var (
		w                *world
		url              string
		floodA, floodB   string
		newcomer         string
		servingConnsHeld = func() float64 {
			families, err := ctrlmetrics.Registry.Gather()
			Expect(err).NotTo(HaveOccurred())
			for _, f := range families {
				if f.GetName() != "toolgate_connections_held" {
					continue
				}
				for _, m := range f.GetMetric() {
					labels := map[string]string{}
					for _, l := range m.GetLabel() {
						labels[l.GetName()] = l.GetValue()
					}
					if labels["listener"] == listener && labels["state"] == "serving" {
						return m.GetGauge().GetValue()
					}
				}
			}
			return 0
		}
	)

	BeforeAll(func() {
		up, stop := startUpstream(GinkgoT().TempDir())
		DeferCleanup(stop)
		w = newWorld("gw-share-", up.URL, "read_file")
		floodA, floodB, newcomer = w.agent("flood-a"), w.agent("flood-b"), w.agent("newcomer")
		opts := gatewayOptions
		opts.BodyReadTimeout, opts.MaxRequestsServed = time.Minute, 6
		gw, err := gateway.New(opts)
		Expect(err).NotTo(HaveOccurred())
		// The listener as the binary's: at most 7 connections, closing a new one when all serve.
		server := httptest.NewUnstartedServer(gw.Handler())
		serving.CapConnections(server.Config, listener, 7)
		server.Start()
		DeferCleanup(func() { server.Close(); gw.Close() })
		url = server.URL
		By("verifying each agent's token once, so that no review runs while the connections are held")
		for _, token := range []string{floodA, floodB, newcomer} {
			Expect(postFrom("127.0.0.1", url, token)).To(Equal(http.StatusOK))
		}
	})

	// hold trickles a request of token's and waits until its connection serves it (its body
	// arriving) as the n-th.
	hold := func(token string, n int) net.Conn {
		GinkgoHelper()
		conn := trickling(url, token)
		DeferCleanup(func() { _ = conn.Close() })
		Eventually(servingConnsHeld).Should(BeEquivalentTo(n))
		return conn
	}
	// refused trickles a request of token's and returns the gateway's answer.
	refused := func(token string) string {
		GinkgoHelper()
		conn := trickling(url, token)
		defer func() { _ = conn.Close() }()
		Expect(conn.SetReadDeadline(time.Now().Add(30 * time.Second))).To(Succeed())
		answer, err := io.ReadAll(conn)
		Expect(err).NotTo(HaveOccurred(), "no answer within 30 s: %q", answer)
		return string(answer)
	}

	It("lets a new agent in while two ServiceAccounts hold every request they can, and gives it the next "+
		"request one of them gives back", func() {
		hold(floodA, 1)
		hold(floodA, 2)
		hold(floodA, 3)
		hold(floodB, 4)
		hold(floodB, 5)
		first := hold(floodB, 6) // two callers: 3 each
		Expect(refused(floodB)).To(And(HavePrefix("HTTP/1.1 429"), ContainSubstring("Retry-After: 1")),
			"the replica serves 6 at once")
		By("the new agent's connection is taken in and refused with a word, not closed unread")
		Expect(postFrom("127.0.0.1", url, newcomer)).To(Equal(http.StatusTooManyRequests))

		By("the flood gives one back and asks again at once: the room is the new agent's")
		Expect(first.Close()).To(Succeed())
		Eventually(servingConnsHeld).Should(BeEquivalentTo(5))
		Expect(refused(floodB)).To(And(HavePrefix("HTTP/1.1 429"),
			ContainSubstring("flood-b holds 2 requests being served by this gateway")),
			"under its share of two callers, over that of three with the new agent waiting")
		Expect(refused(floodA)).To(HavePrefix("HTTP/1.1 429"))
		Expect(postFrom("127.0.0.1", url, newcomer)).To(Equal(http.StatusOK))
	})
})
