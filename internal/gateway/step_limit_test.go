package gateway_test

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolgate/toolgate/internal/policy"
)

// A call that names no step is a step of its own (the tool and a digest of its arguments,
// toolcall.StepFor), and a plan that declares no spec.steps holds at most its profile's
// maxStepsPerPlan distinct steps: an agent's distinct calls through the gateway (or the hook,
// which cannot name steps at all) are bounded by it for the rest of the plan. docs/gateway.md and
// docs/hook.md say so; this pins what they say.
var _ = Describe("toolgate-gateway's derived steps", Ordered, func() {
	var w *world
	BeforeAll(func() {
		up, stop := startUpstream(GinkgoT().TempDir())
		DeferCleanup(stop)
		w = newWorld("gw-steps-", up.URL, "read_file",
			func(o *worldObjects) { o.profile.Spec.MaxStepsPerPlan = new(int32(2)) })
	})

	It("counts each distinct call as a step against maxStepsPerPlan, and a repeat as the same step", func() {
		call := func(path string) *mcp.CallToolResult {
			GinkgoHelper()
			res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": path}})
			Expect(err).NotTo(HaveOccurred())
			return res
		}
		for _, path := range []string{"a.txt", "b.txt"} {
			res := call(path)
			Expect(res.Meta).NotTo(HaveKey("safety.toolgate.dev/denial"), "%s: %+v", path, res.Content)
		}
		res := call("c.txt")
		Expect(res.IsError).To(BeTrue())
		Expect(res.Content[0].(*mcp.TextContent).Text).To(HavePrefix("[" + policy.ReasonStepLimitExceeded + "]"))
		res = call("a.txt")
		Expect(res.Meta).NotTo(HaveKey("safety.toolgate.dev/denial"), "a repeat is a retry of its step: %+v", res.Content)
	})
})
