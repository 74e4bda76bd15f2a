package policy

import (
	"slices"
	"strings"
)

// OwnPrefix starts every annotation and finalizer toolgate writes on its objects.
const OwnPrefix = "safety.toolgate.dev/"

// ownCallFinalizers are the finalizers toolgate's controllers put on an AgentToolCall. Usage is
// counted at admission, so none holds a call any more; the usage finalizer of earlier releases
// stays toolgate's, so that only the operator may remove it from calls that still carry it.
var ownCallFinalizers = []string{OwnPrefix + "usage"}

// IsOwnAnnotation says whether an annotation key is toolgate's: only the operator writes those.
func IsOwnAnnotation(key string) bool { return strings.HasPrefix(key, OwnPrefix) }

// IsOwnCallFinalizer says whether a finalizer is one toolgate's controllers put on a call (and
// remove once they are done with it).
func IsOwnCallFinalizer(f string) bool { return slices.Contains(ownCallFinalizers, f) }
