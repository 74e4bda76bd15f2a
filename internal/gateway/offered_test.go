package gateway_test

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/testenv"
)

var _ = Describe("tools/list through toolgate-gateway", Ordered, func() {
	var (
		w              *world
		hidden, writer string
		upstream       *recordingServer
	)

	BeforeAll(func() {
		var stop func()
		upstream, stop = startUpstream(GinkgoT().TempDir())
		DeferCleanup(stop)
		w = newWorld("gw-list-", upstream.URL, "read_file", func(o *worldObjects) {
			read := o.tools[0].Name
			hidden, writer = read+"-denied", read+"-writer"
			o.profile.Spec.DeniedTools = []string{"*-denied"}
			o.plan.Spec.ReadOnly = true
			o.tools = append(o.tools,
				&safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: hidden},
					Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}},
				&safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: writer},
					Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassWrite, Writes: true,
						Checkpointable: true}})
			o.server.Spec.Tools = append(o.server.Spec.Tools,
				safetyv1alpha1.ServedTool{AgentTool: hidden, UpstreamName: "read_file"},
				safetyv1alpha1.ServedTool{AgentTool: writer, UpstreamName: "delete_everything"})
		})
	})

	It("shows only the tools the caller's plan could use", func() {
		res, err := w.session.ListTools(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Tools).To(ConsistOf(HaveField("Name", w.readTool)),
			"the deny-listed tool and, in a read-only plan, the writing tool are hidden")
	})

	It("still refuses a hidden tool with the engine's reason when it is called anyway", func() {
		for _, tool := range []string{hidden, writer} {
			res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"path": "x"}})
			Expect(err).NotTo(HaveOccurred())
			Expect(reasonIn(res)).To(Equal("ToolAccessDenied"), tool)
		}
		Expect(upstream.Calls()).To(BeEmpty())
	})

	It("shows a caller without a plan nothing", func() {
		_, err := testenv.AgentConfig(ctx, cluster.Config, w.ns, "planless")
		Expect(err).NotTo(HaveOccurred())
		token, err := testenv.AudiencePodToken(ctx, cluster.Config, w.ns, "planless", "planless-pod", true, audience)
		Expect(err).NotTo(HaveOccurred())
		s, err := connectAs(token)
		Expect(err).NotTo(HaveOccurred())
		defer func() { _ = s.Close() }()
		res, err := s.ListTools(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Tools).To(BeEmpty())
	})
})
