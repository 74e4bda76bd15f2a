package policy

import (
	"slices"
	"strings"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// OwnPrefix starts every annotation and finalizer toolgate writes on its objects.
const OwnPrefix = "safety.toolgate.dev/"

// ownCallFinalizers are the finalizers toolgate's controllers put on an AgentToolCall.
var ownCallFinalizers = []string{safetyv1alpha1.UsageFinalizer}

// IsOwnAnnotation says whether an annotation key is toolgate's: only the operator writes those.
func IsOwnAnnotation(key string) bool { return strings.HasPrefix(key, OwnPrefix) }

// IsOwnCallFinalizer says whether a finalizer is one toolgate's controllers put on a call (and
// remove once they are done with it).
func IsOwnCallFinalizer(f string) bool { return slices.Contains(ownCallFinalizers, f) }
