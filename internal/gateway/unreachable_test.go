package gateway_test

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
)

// blackhole accepts connections and never answers, as a ToolServer behind a dropped route does.
type blackhole struct {
	URL      string
	accepted atomic.Int32
}

func startBlackhole() *blackhole {
	GinkgoHelper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	b := &blackhole{URL: "http://" + lis.Addr().String() + "/mcp"}
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			b.accepted.Add(1)
			mu.Lock()
			held = append(held, c) // held open, never read: the connect waits for its timeout
			mu.Unlock()
		}
	}()
	DeferCleanup(func() {
		_ = lis.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			_ = c.Close()
		}
	})
	return b
}

var _ = Describe("toolgate-gateway with a ToolServer that never answers", Ordered, func() {
	It("goes on offering the other ToolServers' tools, without every request waiting for the one that does not answer", func() {
		upstream, stop := startMetered()
		DeferCleanup(stop)
		w := newWorld("gw-blackhole-", upstream.URL, "metered")
		hole := startBlackhole()
		lostTool := w.ns + "-lost"
		tool := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: lostTool},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead, Description: "never answers"}}
		server := &safetyv1alpha1.ToolServer{ObjectMeta: metav1.ObjectMeta{Name: w.ns + "-blackhole"},
			Spec: safetyv1alpha1.ToolServerSpec{URL: hole.URL, Tools: []safetyv1alpha1.ServedTool{{
				AgentTool: lostTool, UpstreamName: "lost", Arguments: safetyv1alpha1.ToolArgumentMap{Paths: []string{"path"}}}}}}
		Expect(k8sClient.Create(ctx, tool)).To(Succeed())
		DeferCleanup(func() { _ = k8sClient.Delete(ctx, tool) })
		Expect(k8sClient.Create(ctx, server)).To(Succeed())
		DeferCleanup(func() { _ = k8sClient.Delete(ctx, server) })

		// Each listing gets far less than the connect's 30 s timeout: a gateway that waits for
		// the connect on every request (or holds a lock all requests need while it connects)
		// runs out of it.
		list := func() []string {
			GinkgoHelper()
			lctx, cancel := context.WithTimeout(ctx, 15*time.Second)
			defer cancel()
			res, err := w.session.ListTools(lctx, nil)
			Expect(err).NotTo(HaveOccurred())
			names := make([]string, 0, len(res.Tools))
			for _, t := range res.Tools {
				names = append(names, t.Name)
			}
			return names
		}
		By("listing until the gateway has seen the new ToolServer and begun to connect to it")
		Eventually(func(g Gomega) {
			g.Expect(list()).To(ContainElement(w.readTool))
			g.Expect(hole.accepted.Load()).To(BeNumerically(">=", 1))
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
		By("listing again while that connect still waits for its answer")
		for range 3 {
			Expect(list()).To(And(ContainElement(w.readTool), Not(ContainElement(lostTool))))
		}
		Expect(w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "a.txt"}})).
			To(HaveField("IsError", BeFalse()), "a call to the answering ToolServer goes through")
		By("a call of the tool it serves says so, rather than that no ToolServer serves it")
		_, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: lostTool, Arguments: map[string]any{"path": "a.txt"}})
		// Still connecting, unless the connect's 30 s ran out while the listings above waited.
		Expect(err).To(MatchError(MatchRegexp(`ToolServer %s serves it, but the gateway cannot offer it now: `+
			`(the gateway is still connecting to it|its last connect failed)`, server.Name)))
	})
})

var _ = Describe("toolgate-gateway with a ToolServer that stops answering once its tools are offered", Ordered, func() {
	It("reports Failed a call it admitted and could not forward", func() {
		upstream := startRestartable(nil)
		w := newWorld("gw-gone-", upstream.URL(), "read_file", func(o *worldObjects) { reportedByTheGateway(o.plan) })
		// Two sessions: listing connects the first, and the call below is the first on the second.
		url := startGateway(func(o *gateway.Options) { o.UpstreamSessions = 2 })
		agent := connectedTo(url, w.token)
		Eventually(func(g Gomega) {
			res, err := agent.ListTools(ctx, nil)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(res.Tools).To(ContainElement(HaveField("Name", w.readTool)))
		}).Should(Succeed())

		closeUpstream(upstream.server)
		_, err := agent.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "a.txt"}})
		Expect(err).To(MatchError(ContainSubstring("connecting to ToolServer " + w.ns + "-files")))
		Eventually(w.callStatuses).Should(ConsistOf(HaveField("Phase", safetyv1alpha1.CallPhaseFailed)),
			"the admitted call is reported, though it never reached the upstream")
	})
})
