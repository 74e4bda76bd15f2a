package gateway_test

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("toolgate-gateway with an upstream server that forgets a session while a call on it runs", Ordered, func() {
	var (
		w            *world
		big          *bigServer
		agent, other *mcp.ClientSession
	)

	// One session with the upstream: both calls below are on it.
	BeforeAll(func() { w, big, agent, other = twoAgentsOnBig("gw-forgets-", true, 1) })

	It("sends the call the server refused again on a new session, and never the one that was running", func() {
		held := big.hold(other, w)
		big.forgetSessions()
		res, err := callBig(agent, w, sizeArgs{Path: "refused.txt", Size: 10})
		Expect(err).NotTo(HaveOccurred(), "refused with HTTP 404 for the session, then sent again on a new one")
		Expect(res.IsError).To(BeFalse())

		// The SDK failed every call in flight on the session the server no longer knew, the
		// running one too: that one reached the upstream, so it is not sent again, even once
		// it could be (its upstream answered after the session failed).
		big.releaseHeld()
		var a answer
		Eventually(held).WithTimeout(waitTimeout).Should(Receive(&a))
		Expect(a.err).To(MatchError(ContainSubstring("session not found")))
		Expect(big.heldRuns.Load()).To(BeEquivalentTo(1), "the running call ran once")
	})
})
