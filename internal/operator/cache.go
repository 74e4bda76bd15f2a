package operator

import (
	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
)

// CacheOptions is what the manager keeps in memory: every object without its managedFields (the
// API server's field-ownership bookkeeping, often larger than the object, which nothing here
// reads), and of AgentToolCalls only the finished ones (controller.FinishedCalls, selected by
// the API server), without their arguments. Admission reads a call's arguments from the
// request, never from the cache, and the controllers read only a call's plan, tool, step and
// status; a call's arguments may be 40 KiB and a plan holds thousands of calls within their TTL.
// Nothing writes a cached call back (the controllers only delete calls), so the stripped copy
// never reaches the API server. main.go and the test managers use it.
func CacheOptions() cache.Options {
	return cache.Options{
		DefaultTransform: StripManagedFields,
		ByObject: map[client.Object]cache.ByObject{
			&safetyv1alpha1.AgentToolCall{}: {Transform: SlimCall, Field: controller.FinishedCalls()},
		},
	}
}

// StripManagedFields drops metadata.managedFields from an object on its way into the cache.
func StripManagedFields(obj any) (any, error) {
	if m, err := meta.Accessor(obj); err == nil {
		m.SetManagedFields(nil)
	}
	return obj, nil
}

// SlimCall is StripManagedFields plus dropping an AgentToolCall's arguments.
func SlimCall(obj any) (any, error) {
	if c, ok := obj.(*safetyv1alpha1.AgentToolCall); ok {
		c.Spec.Arguments = safetyv1alpha1.ToolArguments{}
	}
	return StripManagedFields(obj)
}
