package policy

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

func TestStepAttempts(t *testing.T) {
	call := func(uid, plan, step string) safetyv1alpha1.AgentToolCall {
		return safetyv1alpha1.AgentToolCall{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: uid, UID: types.UID(uid)},
			Spec:       safetyv1alpha1.AgentToolCallSpec{Plan: plan, Step: step},
		}
	}
	calls := []safetyv1alpha1.AgentToolCall{
		call("a", "p", "s"), call("b", "p", "s"), call("c", "p", "other"), call("d", "q", "s"),
	}
	plan := func(usage safetyv1alpha1.PlanUsage) *safetyv1alpha1.AgentPlan {
		return &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p"},
			Status: safetyv1alpha1.AgentPlanStatus{Usage: usage}}
	}
	for _, tc := range []struct {
		name  string
		usage safetyv1alpha1.PlanUsage
		want  int32
	}{
		{"the calls of the plan's step", safetyv1alpha1.PlanUsage{}, 2},
		{"plus the settled attempts", safetyv1alpha1.PlanUsage{Settled: &safetyv1alpha1.SettledUsage{
			Steps: []safetyv1alpha1.StepUsage{{Step: "s", Attempts: 3}}}}, 5},
		{"a settled call that still exists counts once", safetyv1alpha1.PlanUsage{Settled: &safetyv1alpha1.SettledUsage{
			Steps: []safetyv1alpha1.StepUsage{{Step: "s", Attempts: 3}}, UIDs: []string{"a"}}}, 4},
		{"the plan's own total is a floor", safetyv1alpha1.PlanUsage{
			Steps: []safetyv1alpha1.StepUsage{{Step: "s", Attempts: 9}}}, 9},
		{"a lower total does not lower the count", safetyv1alpha1.PlanUsage{
			Steps: []safetyv1alpha1.StepUsage{{Step: "s", Attempts: 1}}}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := StepAttempts(plan(tc.usage), calls, "s", 0); got != tc.want {
				t.Errorf("StepAttempts = %d, want %d", got, tc.want)
			}
		})
	}
}
