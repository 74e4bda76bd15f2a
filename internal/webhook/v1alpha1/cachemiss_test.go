package v1alpha1

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
)

// A plan and tool created a moment ago, or a plan locked a moment ago, are not refused because
// this replica's informer cache has not caught up: a miss is read from the API server.
func TestCacheMissIsReadFromTheAPIServer(t *testing.T) {
	h, _ := newBenchAgentToolCallHandler(t) // its Reader holds the locked plan and the tools
	scheme := runtime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	lagging := fake.NewClientBuilder().WithScheme(scheme).
		WithIndex(&safetyv1alpha1.AgentToolCall{}, controller.CallPlanIndex, controller.IndexCallPlan).Build()
	unlocked := &safetyv1alpha1.AgentPlan{}
	if err := h.Reader.Get(context.Background(), client.ObjectKey{Namespace: "ns", Name: "p"}, unlocked); err != nil {
		t.Fatal(err)
	}
	unlocked.ResourceVersion, unlocked.Status.Snapshot = "", nil
	stale := fake.NewClientBuilder().WithScheme(scheme).WithObjects(unlocked).
		WithIndex(&safetyv1alpha1.AgentToolCall{}, controller.CallPlanIndex, controller.IndexCallPlan).Build()

	full := h.Reader
	for name, cache := range map[string]client.Reader{"the cache has nothing": lagging, "the cache has the plan unlocked": stale} {
		srv := &webhook.Admission{Handler: h}
		h.Reader, h.Live = cache, full
		if r := serve(t, srv, review(t, agentUser, benchCall("c-"+name[:5], "read-file", ""))).Response; !r.Allowed {
			t.Errorf("%s: %s", name, r.Result.Message)
		}
		h.Live = nil
		if r := serve(t, srv, review(t, agentUser, benchCall("d-"+name[:5], "read-file", ""))).Response; r.Allowed {
			t.Errorf("%s, without the API server to ask: admitted", name)
		}
	}
}
