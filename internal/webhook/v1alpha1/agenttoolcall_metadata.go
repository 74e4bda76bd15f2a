package v1alpha1

import (
	"fmt"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
)

// createMetadata refuses a new call whose metadata would let the agent act on toolgate's
// bookkeeping: an owner reference (the garbage collector would delete the call for the agent,
// perhaps before its completion is recorded), any finalizer (toolgate puts none on calls, so a call
// created with one could never be released by the TTL, not even with toolgate's own name), or one
// of toolgate's own annotations (such as the completion-record mark).
func createMetadata(call *safetyv1alpha1.AgentToolCall) *denial {
	if len(call.OwnerReferences) > 0 {
		return &denial{ReasonBadRequest, "metadata.ownerReferences", "an AgentToolCall may not have owner references; its lifetime is toolgate's"}
	}
	if len(call.Finalizers) > 0 {
		return &denial{ReasonBadRequest, fieldFinalizers, fmt.Sprintf(
			"finalizer %q: an AgentToolCall is created without finalizers; its lifetime is toolgate's", call.Finalizers[0])}
	}
	for k := range call.Annotations {
		if policy.IsOwnAnnotation(k) {
			return &denial{ReasonBadRequest, fieldAnnotations, fmt.Sprintf("annotation %q is toolgate's own; only the operator writes it", k)}
		}
	}
	if n := growableValues(call); n > maxGrowableValues {
		return tooManyValues(n)
	}
	return nil
}
