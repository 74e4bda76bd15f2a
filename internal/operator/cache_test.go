package operator

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/tools/cache"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

func TestCacheKeepsWhatIsRead(t *testing.T) {
	managed := []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply}}
	call := &safetyv1alpha1.AgentToolCall{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "c", ManagedFields: managed},
		Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "p", Tool: "t", Step: "s", SandboxID: "sb",
			Arguments: safetyv1alpha1.ToolArguments{Command: "make test", Paths: []string{"a"}, Cwd: "/w"}},
		Status: safetyv1alpha1.AgentToolCallStatus{Phase: safetyv1alpha1.CallPhaseSucceeded},
	}
	want := call.DeepCopy()
	want.ManagedFields, want.Spec.Arguments = nil, safetyv1alpha1.ToolArguments{}
	opts := CacheOptions()
	var transform cache.TransformFunc
	for obj, by := range opts.ByObject {
		if _, ok := obj.(*safetyv1alpha1.AgentToolCall); ok {
			transform = by.Transform
		}
	}
	got, err := transform(call)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cached call (-want +got):\n%s", diff)
	}
	plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Name: "p", ManagedFields: managed},
		Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "agent"}}
	out, err := opts.DefaultTransform(plan)
	if err != nil {
		t.Fatal(err)
	}
	if p := out.(*safetyv1alpha1.AgentPlan); p.ManagedFields != nil || p.Spec.ServiceAccountName != "agent" {
		t.Errorf("cached plan: %+v", p)
	}
}

func TestCacheWatchesFinishedCallsOnly(t *testing.T) {
	var selector fields.Selector
	for obj, by := range CacheOptions().ByObject {
		if _, ok := obj.(*safetyv1alpha1.AgentToolCall); ok {
			selector = by.Field
		}
	}
	if selector == nil {
		t.Fatal("the AgentToolCall cache selects no fields: every create would be sent to the manager")
	}
	for phase, want := range map[safetyv1alpha1.CallPhase]bool{
		"": false, safetyv1alpha1.CallPhaseAdmitted: false, safetyv1alpha1.CallPhaseRunning: false,
		safetyv1alpha1.CallPhaseSucceeded: true, safetyv1alpha1.CallPhaseFailed: true,
	} {
		if got := selector.Matches(fields.Set{"status.phase": string(phase)}); got != want {
			t.Errorf("phase %q: cached %v, want %v (selector %s)", phase, got, want, selector)
		}
	}
}
