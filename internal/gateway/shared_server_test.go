package gateway_test

import (
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
)

// The gateway builds its MCP server once per set of offered tools and shares it between callers;
// what a caller sees and what is created in its name must still be its own.
var _ = Describe("one MCP server shared by callers with different plans", Ordered, func() {
	var (
		reader         *world // a read-only plan: sees only the read tool
		writerSession  *mcp.ClientSession
		writerTool     string
		upstream       *recordingServer
		toolServerName string
	)
	const writerSA = "writer"

	names := func(s *mcp.ClientSession) []string {
		GinkgoHelper()
		res, err := s.ListTools(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		out := make([]string, 0, len(res.Tools))
		for _, t := range res.Tools {
			out = append(out, t.Name)
		}
		return out
	}

	BeforeAll(func() {
		var stop func()
		upstream, stop = startUpstream(GinkgoT().TempDir())
		DeferCleanup(stop)
		reader = newWorld("gw-shared-", upstream.URL, "read_file", func(o *worldObjects) {
			writerTool = o.tools[0].Name + "-writer"
			toolServerName = o.server.Name
			o.plan.Spec.ReadOnly = true
			o.tools = append(o.tools, &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: writerTool},
				Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassWrite, Writes: true, Checkpointable: true}})
			o.server.Spec.Tools = append(o.server.Spec.Tools,
				safetyv1alpha1.ServedTool{AgentTool: writerTool, UpstreamName: "delete_everything"})
		})

		By("binding a second agent of the namespace to a plan that may write")
		var err error
		writerSession, err = connectAs(reader.agent(writerSA))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { _ = writerSession.Close() })
	})

	It("shows each caller its own plan's tools, alternating, from one server built once", func() {
		Expect(names(reader.session)).To(ConsistOf(reader.readTool)) // builds the server for these tools
		built := theGateway.ServerBuilds()
		for range 3 {
			Expect(names(writerSession)).To(ConsistOf(reader.readTool, writerTool))
			Expect(names(reader.session)).To(ConsistOf(reader.readTool), "the read-only plan's caller never sees the writer")
		}
		Expect(theGateway.ServerBuilds()).To(Equal(built), "no server was built for any of these requests")
	})

	It("creates each caller's calls with its own token, under its own plan", func() {
		var wg sync.WaitGroup
		for _, s := range []*mcp.ClientSession{reader.session, writerSession, reader.session, writerSession} {
			wg.Go(func() {
				defer GinkgoRecover()
				res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: reader.readTool, Arguments: map[string]any{"path": "x"}})
				Expect(err).NotTo(HaveOccurred())
				Expect(res.IsError).To(BeTrue(), "the upstream has no file x; the call was still admitted and forwarded")
			})
		}
		wg.Wait()
		asReader := And(HaveKeyWithValue("requester", "system:serviceaccount:"+reader.ns+":"+agentSA),
			HaveKeyWithValue("plan", "plan"))
		asWriter := And(HaveKeyWithValue("requester", "system:serviceaccount:"+reader.ns+":"+writerSA),
			HaveKeyWithValue("plan", "plan-writer"))
		Expect(decisionsIn(reader.ns)).To(ConsistOf(
			And(asReader, HaveKeyWithValue("decision", "allow")), And(asReader, HaveKeyWithValue("decision", "allow")),
			And(asWriter, HaveKeyWithValue("decision", "allow")), And(asWriter, HaveKeyWithValue("decision", "allow"))))
	})

	It("refuses the read-only caller the writer, though the shared server offers it", func() {
		res, err := reader.session.CallTool(ctx, &mcp.CallToolParams{Name: writerTool, Arguments: map[string]any{"path": "x"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(reasonIn(res)).To(Equal("ToolAccessDenied"))
		Expect(upstream.Calls()).NotTo(ContainElement(HaveField("Tool", "delete_everything")))
	})

	It("keeps a bounded pool of sessions with the upstream server for concurrent calls", func() {
		var wg sync.WaitGroup
		for range 3 * gateway.DefaultUpstreamSessions {
			wg.Go(func() {
				defer GinkgoRecover()
				_, err := writerSession.CallTool(ctx, &mcp.CallToolParams{Name: reader.readTool,
					Arguments: map[string]any{"path": "x"}, Meta: mcp.Meta{gateway.MetaStep: "pool"}})
				Expect(err).NotTo(HaveOccurred())
			})
		}
		wg.Wait()
		Expect(upstream.sessions.Load()).To(BeEquivalentTo(gateway.DefaultUpstreamSessions),
			"every session of the pool is used, and no more are opened")
	})

	It("builds a new server when the offered tools change, which offers the new tool", func() {
		added := reader.readTool + "-new"
		at := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: added},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}}
		Expect(k8sClient.Create(ctx, at)).To(Succeed())
		DeferCleanup(func() { _ = k8sClient.Delete(ctx, at) })
		built := theGateway.ServerBuilds()
		ts := &safetyv1alpha1.ToolServer{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Name: toolServerName}, ts)).To(Succeed())
		ts.Spec.Tools = append(ts.Spec.Tools, safetyv1alpha1.ServedTool{AgentTool: added, UpstreamName: "read_file"})
		Expect(k8sClient.Update(ctx, ts)).To(Succeed())
		Expect(names(writerSession)).To(ConsistOf(reader.readTool, writerTool, added))
		Expect(theGateway.ServerBuilds()).To(Equal(built + 1))
		Expect(names(reader.session)).To(ConsistOf(reader.readTool, added))
		Expect(theGateway.ServerBuilds()).To(Equal(built+1), "the new server is shared again")
	})
})
