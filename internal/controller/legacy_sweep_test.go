package controller_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
)

// One call the sweep cannot release, or one that changes under it, must not keep it from the
// others: a deleted call that keeps its finalizer never goes, nor does its namespace.
func TestTheSweepReleasesEveryCallItCanAndRetriesOnesThatChanged(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	names := []string{"a-changes", "b-broken", "c-plain", "d-other"}
	objs := make([]client.Object, 0, len(names))
	for _, name := range names {
		fin := []string{legacyUsageFinalizer, "example.com/keep"}
		if name == "d-other" {
			fin = []string{"example.com/keep"}
		}
		objs = append(objs, &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, Finalizers: fin},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "p", Tool: "t", Step: "s"}})
	}
	conflicted := false
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).WithInterceptorFuncs(interceptor.Funcs{
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
			switch obj.GetName() {
			case "a-changes":
				if !conflicted { // someone wrote it after the list was read
					conflicted = true
					return apierrors.NewConflict(schema.GroupResource{Resource: "agenttoolcalls"}, obj.GetName(), errors.New("changed"))
				}
			case "b-broken":
				return errors.New("the API server refused")
			}
			return c.Patch(ctx, obj, patch, opts...)
		}}).Build()
	s := &controller.LegacyFinalizerSweep{Client: c, Reader: c}
	released, err := s.Sweep(context.Background())
	if err == nil || !strings.Contains(err.Error(), "b-broken") {
		t.Errorf("sweep error %v, want the call it could not release named", err)
	}
	if released != 2 {
		t.Errorf("released %d calls, want 2 (the one that changed, after reading it again, and the plain one)", released)
	}
	for name, want := range map[string]int{"a-changes": 1, "b-broken": 2, "c-plain": 1, "d-other": 1} {
		got := &safetyv1alpha1.AgentToolCall{}
		if err := c.Get(context.Background(), client.ObjectKey{Namespace: "ns", Name: name}, got); err != nil {
			t.Fatal(err)
		}
		if len(got.Finalizers) != want || got.Finalizers[len(got.Finalizers)-1] != "example.com/keep" {
			t.Errorf("%s: finalizers %v, want %d ending with someone else's", name, got.Finalizers, want)
		}
	}
}
