package gateway_test

import (
	"context"
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

// behindOnTool is a gateway's view that has not seen AgentTool tool yet, as an informer cache
// that lags the API server's has not: the webhook knows the tool, the gateway does not.
type behindOnTool struct {
	client.Reader
	tool string
}

func (r behindOnTool) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if _, ok := obj.(*safetyv1alpha1.AgentTool); ok && key.Name == r.tool {
		return apierrors.NewNotFound(safetyv1alpha1.GroupVersion.WithResource("agenttools").GroupResource(), key.Name)
	}
	return r.Reader.Get(ctx, key, obj, opts...)
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
	It("is reported failed at what it reserved, never sent, and the agent told to call again", func() {
		upstream, stop := startUpstream(GinkgoT().TempDir())
		DeferCleanup(stop)
		w := newWorld("gw-unrouted-", upstream.URL, "read_file", func(o *worldObjects) {
			o.tools[0].Spec.CostPerCall = new(resource.MustParse("0.5"))
			reportedByTheGateway(o.plan)
		})
		session := connectedTo(startGateway(func(o *gateway.Options) {
			o.Reader = behindOnTool{Reader: o.Reader, tool: w.readTool}
		}), w.token)

		_, err := session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "a.txt"}})
		Expect(err).To(MatchError(And(ContainSubstring("not served when this call was routed"), ContainSubstring("call again"))))
		Expect(upstream.Calls()).To(BeEmpty(), "the call was never sent")

		Eventually(w.callStatuses).WithTimeout(waitTimeout).Should(ConsistOf(And(
			HaveField("Phase", safetyv1alpha1.CallPhaseFailed),
			HaveField("Cost", HaveValue(WithTransform(func(q resource.Quantity) string { return q.String() }, Equal("500m")))))),
			"the gateway, the plan's cost reporter, reports the admitted call it did not send")
	})
})
