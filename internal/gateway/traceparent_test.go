package gateway_test

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/pkg/agent"
)

// An MCP client carries its trace context in the request's _meta["traceparent"] (the
// OpenTelemetry conventions for MCP); the gateway puts it on the AgentToolCall it creates, as
// pkg/agent does, so the webhook's decision span joins the agent's trace. Before, a call through
// the gateway always started a trace of its own. The traceparent only links spans: one that does
// not parse, or is no string, is dropped and the call is decided and answered as without it.
var _ = Describe("the gateway carries the MCP client's trace context", Ordered, func() {
	var (
		ns, readTool string
		session      *mcp.ClientSession
	)
	const valid = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

	BeforeAll(func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello"), 0o600)).To(Succeed())
		upstream, stop := startUpstream(dir)
		DeferCleanup(stop)
		w := newWorld("gwtrace-", upstream.URL, "read_file")
		ns, readTool, session = w.ns, w.readTool, w.session
	})

	annotationOf := func(step string) (string, bool) {
		GinkgoHelper()
		var calls safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(ns))).To(Succeed())
		for _, c := range calls.Items {
			if c.Spec.Step == step {
				tp, ok := c.Annotations[agent.TraceparentAnnotation]
				return tp, ok
			}
		}
		Fail("no call of step " + step)
		return "", false
	}

	DescribeTable("admits the call, carrying only a valid traceparent",
		func(step string, traceparent any, want string) {
			res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: readTool,
				Arguments: map[string]any{"path": "notes.txt"}, Meta: mcp.Meta{"traceparent": traceparent, "safety.toolgate.dev/step": step}})
			Expect(err).NotTo(HaveOccurred())
			Expect(res.IsError).To(BeFalse())
			tp, ok := annotationOf(step)
			if want == "" {
				Expect(ok).To(BeFalse(), "an invalid traceparent is dropped, not stored: %q", tp)
				return
			}
			Expect(tp).To(Equal(want))
		},
		Entry("a valid one", "valid", valid, valid),
		Entry("garbage", "garbage", "not a traceparent", ""),
		Entry("reserved flag bits", "flags", strings.TrimSuffix(valid, "01")+"ff", ""),
		Entry("8 KB of it (the request limit bounds it)", "oversized", valid+"-"+strings.Repeat("x", 8_000), ""),
		Entry("a number", "number", 42, ""),
	)
})
