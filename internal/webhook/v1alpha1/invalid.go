// Package v1alpha1 holds toolgate's admission webhooks: validators for the configuration kinds,
// each a thin adapter over a pure ValidateX function, and the AgentToolCall enforcement handler.
package v1alpha1

import (
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// invalid turns field errors into a 422 Invalid status with one cause per field, or nil. Never an
// aggregate or fmt error: those reach the client as a 403 without causes.
func invalid(kind, name string, errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewInvalid(safetyv1alpha1.GroupVersion.WithKind(kind).GroupKind(), name, errs)
}
