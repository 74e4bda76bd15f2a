package gateway_test

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

var _ = Describe("toolgate-gateway with a ToolServer that states the directory its upstream resolves relative paths from", Ordered, func() {
	var (
		w   *world
		big *bigServer
	)

	BeforeAll(func() {
		big = startBig(true)
		w = newWorld("gw-wd-", big.URL, "big", func(o *worldObjects) {
			o.server.Spec.Tools[0].Arguments.WorkingDirectory = "/etc"
		})
	})

	It("judges a relative path from there: the upstream would read /etc/shadow", func() {
		answered := big.answered.Load()
		res, err := callBig(w.session, w, sizeArgs{Path: "shadow", Size: 1})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeTrue())
		Expect(res.Content[0].(*mcp.TextContent).Text).To(HavePrefix("[ToolAccessDenied] "))
		Expect(res.Content[0].(*mcp.TextContent).Text).To(ContainSubstring("/etc/shadow"))
		Expect(big.answered.Load()).To(Equal(answered), "the upstream never saw it")

		res, err = callBig(w.session, w, sizeArgs{Path: "hostname", Size: 1})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "a file of that directory the policy does not protect")

		var calls safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(w.ns))).To(Succeed())
		Expect(calls.Items).NotTo(BeEmpty())
		for _, c := range calls.Items {
			Expect(c.Spec.Arguments.Cwd).To(Equal("/etc"), "the call records where its paths are resolved from")
		}
	})

	It("refuses a ToolServer whose directory is not absolute, naming the field", func() {
		ts := &safetyv1alpha1.ToolServer{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Name: w.ns + "-files"}, ts)).To(Succeed())
		ts.Spec.Tools[0].Arguments.WorkingDirectory = "etc"
		Expect(k8sClient.Update(ctx, ts)).To(MatchError(ContainSubstring("workingDirectory")))
	})
})
