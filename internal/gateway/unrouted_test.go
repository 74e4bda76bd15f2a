package gateway_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
)

// behindOnTool is a gateway's view that has not seen AgentTool tool yet, nor the plans' pins of it
// (made by the admission of their first call of it), as an informer cache that lags the API
// server's has not: the webhook knows the tool, the gateway does not.
type behindOnTool struct {
	client.Reader
	tool string
}

func (r behindOnTool) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if _, ok := obj.(*safetyv1alpha1.AgentTool); ok && key.Name == r.tool {
		return apierrors.NewNotFound(safetyv1alpha1.GroupVersion.WithResource("agenttools").GroupResource(), key.Name)
	}
	if err := r.Reader.Get(ctx, key, obj, opts...); err != nil {
		return err
	}
	if plan, ok := obj.(*safetyv1alpha1.AgentPlan); ok { // a new slice: the cache's may be shared
		plan.Status.Tools = slices.DeleteFunc(slices.Clone(plan.Status.Tools),
			func(p safetyv1alpha1.PinnedTool) bool { return p.Name == r.tool })
	}
	return nil
}

func (r behindOnTool) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	if err := r.Reader.List(ctx, list, opts...); err != nil {
		return err
	}
	if tools, ok := list.(*safetyv1alpha1.AgentToolList); ok { // a new slice: the cache's items are shared
		tools.Items = slices.DeleteFunc(slices.Clone(tools.Items), func(t safetyv1alpha1.AgentTool) bool { return t.Name == r.tool })
	}
	return nil
}

var _ = Describe("a call admitted for a tool the gateway did not route", func() {
	It("is reported failed, never sent, costing what it reserved and holding nothing more; the agent is told to call again", func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "a.txt"), []byte("A"), 0o600)).To(Succeed())
		upstream, stop := startUpstream(dir)
		DeferCleanup(stop)
		w := newWorld("gw-unrouted-", upstream.URL, "read_file", func(o *worldObjects) {
			o.profile.Spec.MaxCostPerPlan = new(resource.MustParse("1"))
			o.tools[0].Spec.CostPerCall = new(resource.MustParse("0.5"))
			o.tools[0].Spec.MaxCostPerCall = new(resource.MustParse("1")) // a call holds 0.5 more until its final report
			reportedByTheGateway(o.plan)
		})
		lagging := connectedTo(startGateway(func(o *gateway.Options) {
			o.Reader = behindOnTool{Reader: o.Reader, tool: w.readTool}
		}), w.token)

		_, err := lagging.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "a.txt"}})
		Expect(err).To(MatchError(And(ContainSubstring("not served when this call was routed"), ContainSubstring("call again"))))
		Expect(upstream.Calls()).To(BeEmpty(), "the call was never sent")
		Eventually(w.callStatuses).WithTimeout(waitTimeout).Should(ConsistOf(And(
			HaveField("Phase", safetyv1alpha1.CallPhaseFailed),
			HaveField("Cost", HaveValue(WithTransform(func(q resource.Quantity) string { return q.String() }, Equal("0")))))),
			"the gateway, the plan's cost reporter, reports the admitted call it did not send")

		By("the report released the call's hold: 0.5 reserved of the budget of 1, nothing held")
		key := client.ObjectKey{Namespace: w.ns, Name: "plan"}
		Eventually(func(g Gomega) {
			g.Expect(counters.Store(ctx, key)).To(Succeed())
			plan := &safetyv1alpha1.AgentPlan{}
			g.Expect(k8sClient.Get(ctx, key, plan)).To(Succeed())
			g.Expect(plan.Status.Usage.AccumulatedCost).To(Equal("0.5"))
		}).WithTimeout(waitTimeout).Should(Succeed())
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "a.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "admitted through a gateway that routes the tool: %s", res.Content[0].(*mcp.TextContent).Text)
		Expect(upstream.Calls()).To(ConsistOf(upstreamCall{Tool: "read_file", Path: "a.txt"}))
	})
})
