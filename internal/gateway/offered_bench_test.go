package gateway

import (
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// BenchmarkToolsListPlanPolicy: what tools/list spends deciding which of 10 registered tools a
// locked plan could use, with its snapshot compiled once per gateway (cached, as now) and once
// per list (compiled, as before), on an in-memory client.
//
//	go test ./internal/gateway -run X -bench ToolsListPlanPolicy -count 6
func BenchmarkToolsListPlanPolicy(b *testing.B) {
	scheme := runtime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		b.Fatal(err)
	}
	profile, _ := safety.Builtin(safety.BuiltinSandboxed)
	hash, err := policy.SnapshotHash(profile, safetyv1alpha1.AutonomyLevelDefault, nil)
	if err != nil {
		b.Fatal(err)
	}
	plan := &safetyv1alpha1.AgentPlan{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", CreationTimestamp: metav1.Now()},
		Spec:       safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "agent", ActiveDeadlineSeconds: new(int64(86400))},
		Status: safetyv1alpha1.AgentPlanStatus{Snapshot: &safetyv1alpha1.PlanSnapshot{
			Provenance: safetyv1alpha1.ProvenanceDefault, Level: safetyv1alpha1.AutonomyLevelDefault,
			Safety: policy.SpecFromProfile(profile), Hash: hash, Epoch: 1}},
	}
	objs := make([]client.Object, 0, 11)
	objs = append(objs, plan)
	tools := make([]string, 0, 10)
	for i := range 10 {
		name := fmt.Sprintf("tool-%d", i)
		tools = append(tools, name)
		objs = append(objs, &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}})
	}
	reader := fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).Build()
	caller := &Caller{Namespace: "ns", ServiceAccount: "agent"}
	for _, way := range []struct {
		name   string
		cached bool
	}{{"cached", true}, {"compiled", false}} {
		b.Run(way.name, func(b *testing.B) {
			g := &Gateway{opts: Options{Reader: reader, ResolvePlan: CallerPlan}, policies: policy.NewSnapshotCache()}
			b.ReportAllocs()
			for b.Loop() {
				if !way.cached {
					g.policies = policy.NewSnapshotCache()
				}
				usable, err := g.usableTools(b.Context(), caller)
				if err != nil || usable == nil {
					b.Fatalf("no answer: %v", err)
				}
				n := 0
				for _, t := range tools {
					if usable(t) {
						n++
					}
				}
				if n != len(tools) {
					b.Fatalf("%d of %d read tools usable under sandboxed", n, len(tools))
				}
			}
		})
	}
}
