package agent_test

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/pkg/agent"
)

// Submit waits for a plan being locked (refused before anything is counted), but leaves a
// LedgerUnavailable refusal to its caller: that call was already counted, and each resubmission
// would spend the plan's limits again.
func TestSubmitResubmitsOnlyWhatCostsNothing(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		reason string
		want   int
	}{{"LedgerUnavailable", 1}, {"PlanNotLocked", 3}} {
		creates := 0
		cl := interceptor.NewClient(fake.NewClientBuilder().WithScheme(scheme).Build(), interceptor.Funcs{
			Create: func(ctx context.Context, w client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
				creates++
				if creates < 3 {
					return denied(c.reason, "", "refused for now")
				}
				return w.Create(ctx, obj, opts...)
			},
		})
		call := &safetyv1alpha1.AgentToolCall{}
		call.Namespace, call.Name = "ns", "c"
		err := agent.Submit(t.Context(), cl, call)
		if creates != c.want {
			t.Errorf("%s: %d creates, want %d (err %v)", c.reason, creates, c.want, err)
		}
		if c.reason == "LedgerUnavailable" && (agent.ReasonOf(err) != c.reason || !agent.IsRetryable(err)) {
			t.Errorf("%s: got %v, want the refusal itself, marked retryable for the caller", c.reason, err)
		}
	}
}
