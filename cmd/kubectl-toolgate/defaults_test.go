package main

import (
	"context"
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/diff"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// TestOfflineDefaultsAreTheSchemas: what schemaDefaults gives an object read from a file is what the
// API server gives it from the CRD schema when it is stored (a dry-run create returns it), for an
// object of every kind `test` reads with every defaulted field unset.
func TestOfflineDefaultsAreTheSchemas(t *testing.T) {
	cl := startCluster(t)
	ns := namespace(t, cl.Client, "defaults-")
	name := func(kind string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Name: fmt.Sprintf("%s-%s", ns, kind)}
	}
	ref := func() *safetyv1alpha1.ProfileRef { return &safetyv1alpha1.ProfileRef{Name: "some-profile"} }
	for _, obj := range []client.Object{
		&safetyv1alpha1.SafetyProfile{ObjectMeta: name("sp")},
		&safetyv1alpha1.AutomationProfile{ObjectMeta: name("ap"),
			Spec: safetyv1alpha1.AutomationProfileSpec{Safety: &safetyv1alpha1.SafetyProfileSpec{}}},
		&safetyv1alpha1.AgentTool{ObjectMeta: name("tool"), Spec: safetyv1alpha1.AgentToolSpec{ActionClass: "read"}},
		&safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "project"},
			Spec: safetyv1alpha1.ProjectPolicySpec{ProfileRef: ref(), AllowedProfiles: []safetyv1alpha1.ProfileRef{*ref()},
				Actions: []safetyv1alpha1.ProjectAction{
					{Name: "a", ProfileRef: ref()}, {Name: "b"}}}},
		&safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "plan"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "agent", ProfileRef: ref()}},
		&safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "call"},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "plan", Tool: "t", Step: "s"}},
	} {
		t.Run(fmt.Sprintf("%T", obj), func(t *testing.T) {
			offline := obj.DeepCopyObject().(client.Object)
			schemaDefaults(offline)
			stored := obj.DeepCopyObject().(client.Object)
			if err := cl.Client.Create(context.Background(), stored, client.DryRunAll); err != nil {
				if _, ok := obj.(*safetyv1alpha1.AgentToolCall); !ok {
					t.Fatal(err)
				}
				return // the webhook denies a call of a plan that does not exist; calls have no defaults
			}
			if want, got := specOf(stored), specOf(offline); !equality.Semantic.DeepEqual(want, got) {
				t.Errorf("the API server stores %+v, the plugin reads %+v\n%s", want, got, diff.Diff(want, got))
			}
		})
	}
}

func specOf(o client.Object) any {
	switch o := o.(type) {
	case *safetyv1alpha1.SafetyProfile:
		return o.Spec
	case *safetyv1alpha1.AutomationProfile:
		return o.Spec
	case *safetyv1alpha1.AgentTool:
		return o.Spec
	case *safetyv1alpha1.ProjectPolicy:
		return o.Spec
	case *safetyv1alpha1.AgentPlan:
		return o.Spec
	}
	return nil
}
