package gateway_test

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
)

var _ = Describe("toolgate-gateway with an upstream that refuses what a call asks for (HTTP 404, 413)", func() {
	for _, mode := range answerModes {
		Context(mode.name, Ordered, func() {
			var (
				w            *world
				big          *bigServer
				agent, other *mcp.ClientSession
			)
			BeforeAll(func() {
				big = startBig(mode.json)
				w = newWorld("gw-404-", big.URL, "big", func(o *worldObjects) { reportedByTheGateway(o.plan) })
				otherToken := w.agent("other", reportedByTheGateway)
				// One session with the upstream: every call below is on it.
				url := startGateway(func(o *gateway.Options) { o.UpstreamSessions = 1 })
				agent, other = connectedTo(url, w.token), connectedTo(url, otherToken)
			})

			It("fails each such call alone, sent once and reported Failed: the session, another agent's call on it and the tools listed are kept", func() {
				held := big.hold(other, w)
				sessions, lists := big.sessions.Load(), big.lists.Load() // the suite's gateway has a session too

				// Taken for a forgotten session (404) or a broken transport (413), each would end
				// the session, the other agent's call on it with it, and make the gateway connect
				// again; a 404 also list the tools again and send the call again, up to three times.
				for i, size := range []int{-404, -413, -404} {
					_, err := callBig(agent, w, sizeArgs{Path: fmt.Sprintf("refused%d.txt", i), Size: size})
					Expect(err).To(MatchError(And(ContainSubstring("ToolServer "+w.ns+"-files"), ContainSubstring("Bad Gateway"))))
				}
				Expect(big.refused.Load()).To(BeEquivalentTo(3), "each call was sent once: it may have run, so it is not sent again")

				big.releaseHeld()
				var a answer
				Eventually(held).WithTimeout(waitTimeout).Should(Receive(&a))
				Expect(a.err).NotTo(HaveOccurred(), "the other agent's call on the same session was answered")
				Expect(a.res.IsError).To(BeFalse())

				res, err := callBig(agent, w, sizeArgs{Path: "after.txt", Size: 10})
				Expect(err).NotTo(HaveOccurred())
				Expect(res.IsError).To(BeFalse())
				Expect(big.sessions.Load()).To(Equal(sessions), "no session was connected again")
				Expect(big.lists.Load()).To(Equal(lists), "the server's tools were not listed again")

				failed, succeeded := HaveField("Phase", safetyv1alpha1.CallPhaseFailed), HaveField("Phase", safetyv1alpha1.CallPhaseSucceeded)
				Eventually(w.callStatuses).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(
					ConsistOf(failed, failed, failed, succeeded, succeeded))
			})

			It("still takes a 404 to a session the server has forgotten for one: the call is sent again on a new session, once", func() {
				answered := big.answered.Load()
				big.forgetSessions()
				res, err := callBig(agent, w, sizeArgs{Path: "forgotten.txt", Size: 10})
				Expect(err).NotTo(HaveOccurred(), "refused with HTTP 404 for the session, as was the ping on it, then sent again")
				Expect(res.IsError).To(BeFalse())
				Expect(big.answered.Load()).To(Equal(answered+1), "the call ran once")
			})
		})
	}
})
