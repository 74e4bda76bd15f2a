package gateway_test

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// A tool that searches the trees below its arguments reads every file in them: mapped as
// treePaths, the engine judges the call as the same search through a shell (grep -r), so the
// protected files inside a tree are protected from the search as from a read.
var _ = Describe("toolgate-gateway with a ToolServer tool whose argument is a tree it searches", Ordered, func() {
	var (
		w        *world
		upstream *recordingServer
	)

	BeforeAll(func() {
		var stop func()
		upstream, stop = startUpstream(GinkgoT().TempDir())
		DeferCleanup(stop)
		w = newWorld("gw-tree-", upstream.URL, "read_file", func(o *worldObjects) {
			o.server.Spec.Tools[0].Arguments = safetyv1alpha1.ToolArgumentMap{TreePaths: []string{"path"}}
		})
	})

	call := func(path string) *mcp.CallToolResult {
		GinkgoHelper()
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": path}})
		Expect(err).NotTo(HaveOccurred())
		return res
	}

	It("refuses a search of a tree that holds a protected file, which its root alone does not name", func() {
		res := call("/etc")
		Expect(reasonIn(res)).To(Equal("ToolAccessDenied"))
		Expect(res.Content[0].(*mcp.TextContent).Text).To(ContainSubstring("recursive read"))
		By("and asks a person for a search of the project, which may hold its .env")
		Expect(reasonIn(call("."))).To(Equal("ToolHumanApprovalRequired"))
		Expect(upstream.Calls()).To(BeEmpty(), "the upstream never saw them")
	})

	It("admits a search of a tree the policy does not reach, recording the search as the call's command", func() {
		res := call("src")
		Expect(res.IsError).To(BeTrue(), "the upstream has no file src; the call was admitted and forwarded")
		Expect(reasonIn(res)).To(BeEmpty())
		Expect(upstream.Calls()).To(ConsistOf(upstreamCall{Tool: "read_file", Path: "src"}))
		var calls safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(w.ns))).To(Succeed())
		Expect(calls.Items).To(ContainElement(HaveField("Spec.Arguments", And(
			HaveField("Command", "grep -r -e '' -- src"), HaveField("Paths", ConsistOf("src"))))))
	})

	It("refuses a ToolServer that maps both a command and tree paths, naming the field", func() {
		ts := &safetyv1alpha1.ToolServer{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Name: w.ns + "-files"}, ts)).To(Succeed())
		ts.Spec.Tools[0].Arguments.Command = "cmd"
		Expect(k8sClient.Update(ctx, ts)).To(MatchError(And(ContainSubstring("treePaths"),
			ContainSubstring("command and treePaths cannot both be set"))))
	})
})
