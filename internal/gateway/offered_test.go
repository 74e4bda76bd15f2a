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
		// unsafe, otherCategory and uncategorized are readers the profile excludes; uncheckpointed
		// a writer that cannot checkpoint.
		unsafe, otherCategory, uncategorized, uncheckpointed string
		upstream                                             *recordingServer
	)

	BeforeAll(func() {
		var stop func()
		upstream, stop = startUpstream(GinkgoT().TempDir())
		DeferCleanup(stop)
		w = newWorld("gw-list-", upstream.URL, "read_file", func(o *worldObjects) {
			read := o.tools[0].Name
			hidden, writer = read+"-denied", read+"-writer"
			unsafe, otherCategory, uncategorized = read+"-unsafe", read+"-network", read+"-uncategorized"
			uncheckpointed = read + "-uncheckpointed"
			o.profile.Spec.DeniedTools = []string{"*-denied"}
			o.profile.Spec.AllowedSkillCategories = []string{"files"}
			o.plan.Spec.ReadOnly = true
			o.tools[0].Spec.SkillCategory = "files"
			reader := func(name, category string, unsafe bool) *safetyv1alpha1.AgentTool {
				return &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: name},
					Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead, SkillCategory: category,
						Unsafe: unsafe}}
			}
			o.tools = append(o.tools, reader(hidden, "files", false), reader(unsafe, "files", true),
				reader(otherCategory, "network", false), reader(uncategorized, "", false),
				&safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: writer},
					Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassWrite, Writes: true,
						Checkpointable: true, SkillCategory: "files"}},
				&safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: uncheckpointed},
					Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassWrite, Writes: true,
						SkillCategory: "files"}})
			for _, t := range []string{hidden, unsafe, otherCategory, uncategorized} {
				o.server.Spec.Tools = append(o.server.Spec.Tools, safetyv1alpha1.ServedTool{AgentTool: t, UpstreamName: "read_file"})
			}
			o.server.Spec.Tools = append(o.server.Spec.Tools,
				safetyv1alpha1.ServedTool{AgentTool: writer, UpstreamName: "delete_everything"},
				safetyv1alpha1.ServedTool{AgentTool: uncheckpointed, UpstreamName: "delete_everything"})
		})
	})

	It("shows only the tools the caller's plan could use", func() {
		res, err := w.session.ListTools(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Tools).To(ConsistOf(HaveField("Name", w.readTool)),
			"the deny-listed tool, the unsafe one, the ones of another category or none and, in a read-only plan, "+
				"the writing tools are hidden")
	})

	It("hides from a plan that requires checkpoints the writers that cannot checkpoint, and only those", func() {
		s := connectedTo(gatewayURL, w.agent("checkpointing", func(p *safetyv1alpha1.AgentPlan) {
			p.Spec.RequireCheckpoints = true
		}))
		res, err := s.ListTools(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Tools).To(ConsistOf(HaveField("Name", w.readTool), HaveField("Name", writer)))
		By("and a plan that does not require them sees both writers")
		s = connectedTo(gatewayURL, w.agent("writing"))
		res, err = s.ListTools(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Tools).To(ConsistOf(HaveField("Name", w.readTool), HaveField("Name", writer),
			HaveField("Name", uncheckpointed)))
	})

	It("still refuses a hidden tool with the engine's reason when it is called anyway", func() {
		for tool, reason := range map[string]string{hidden: "ToolAccessDenied", writer: "ToolAccessDenied",
			uncheckpointed: "ToolAccessDenied", unsafe: "ToolSafetyViolation", otherCategory: "ToolSafetyViolation",
			uncategorized: "ToolSafetyViolation"} {
			res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"path": "x"}})
			Expect(err).NotTo(HaveOccurred())
			Expect(reasonIn(res)).To(Equal(reason), tool)
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

// Under a ProjectPolicy's writeRoots the engine refuses every call of a tool registered to execute
// or dispatch (write-root-execute: its commands could write anywhere), whatever the call carries:
// the plan can never use it, so tools/list must not show it. It was listed, since the rule is
// not among the first checks. A writer stays listed (its paths may lie inside the roots), and
// the hidden executor called anyway is refused with the engine's reason, never sent.
var _ = Describe("tools/list under write-root confinement", Ordered, func() {
	var (
		w                *world
		executor, writer string
		upstream         *recordingServer
	)
	BeforeAll(func() {
		var stop func()
		upstream, stop = startUpstream(GinkgoT().TempDir())
		DeferCleanup(stop)
		w = newWorld("gw-list-roots-", upstream.URL, "read_file", func(o *worldObjects) {
			read := o.tools[0].Name
			executor, writer = read+"-exec", read+"-writer"
			o.project.Spec.WriteRoots = []string{"/work/out"}
			o.tools = append(o.tools,
				&safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: executor},
					Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassExecute, Writes: true}},
				&safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: writer},
					Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassWrite, Writes: true}})
			o.server.Spec.Tools = append(o.server.Spec.Tools,
				safetyv1alpha1.ServedTool{AgentTool: executor, UpstreamName: "delete_everything",
					Arguments: safetyv1alpha1.ToolArgumentMap{Paths: []string{"path"}}},
				safetyv1alpha1.ServedTool{AgentTool: writer, UpstreamName: "delete_everything",
					Arguments: safetyv1alpha1.ToolArgumentMap{Paths: []string{"path"}}})
		})
	})

	It("hides a tool that executes, which the confinement refuses whatever its call, and shows the writer", func() {
		res, err := w.session.ListTools(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Tools).To(ConsistOf(HaveField("Name", w.readTool), HaveField("Name", writer)))
	})

	It("still refuses the hidden executor with the engine's reason when it is called anyway", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: executor, Arguments: map[string]any{"path": "/work/out/x"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(reasonIn(res)).To(Equal("ToolAccessDenied"))
		Expect(upstream.Calls()).To(BeEmpty())
	})
})
