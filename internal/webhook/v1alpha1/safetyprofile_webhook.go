package v1alpha1

import (
	"context"
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// +kubebuilder:webhook:path=/validate-safety-toolgate-dev-v1alpha1-safetyprofile,mutating=false,failurePolicy=fail,sideEffects=NoneOnDryRun,groups=safety.toolgate.dev,resources=safetyprofiles,verbs=create;update;delete,versions=v1alpha1,name=vsafetyprofile-v1alpha1.toolgate.dev,admissionReviewVersions=v1,timeoutSeconds=5

// SafetyProfileValidator checks what the schema cannot: that tool patterns compile and money is exact.
type SafetyProfileValidator struct{}

// ValidateSafetyProfile returns one error per invalid field of a SafetyProfile.
func ValidateSafetyProfile(sp *safetyv1alpha1.SafetyProfile) field.ErrorList {
	_, errs := policy.CheckedProfileFromSpec(&sp.Spec, field.NewPath("spec"))
	return errs
}

// ValidateCreate validates a new SafetyProfile.
func (SafetyProfileValidator) ValidateCreate(_ context.Context, sp *safetyv1alpha1.SafetyProfile) (admission.Warnings, error) {
	return builtinWarning(sp), invalid("SafetyProfile", sp.Name, ValidateSafetyProfile(sp))
}

// ValidateUpdate validates a changed SafetyProfile.
func (SafetyProfileValidator) ValidateUpdate(_ context.Context, _, sp *safetyv1alpha1.SafetyProfile) (admission.Warnings, error) {
	return builtinWarning(sp), invalid("SafetyProfile", sp.Name, ValidateSafetyProfile(sp))
}

// ValidateDelete admits every deletion; the operator recreates deleted built-ins.
func (SafetyProfileValidator) ValidateDelete(context.Context, *safetyv1alpha1.SafetyProfile) (admission.Warnings, error) {
	return nil, nil
}

func builtinWarning(sp *safetyv1alpha1.SafetyProfile) admission.Warnings {
	if slices.Contains(safety.BuiltinNames(), sp.Name) {
		return admission.Warnings{"SafetyProfile " + sp.Name + " is built in: the operator restores its definition"}
	}
	return nil
}

// SetupSafetyProfileWebhookWithManager registers the SafetyProfile validator; log, when set, records every change it admits.
func SetupSafetyProfileWebhookWithManager(mgr ctrl.Manager, log audit.ConfigLog) error {
	return ctrl.NewWebhookManagedBy(mgr, &safetyv1alpha1.SafetyProfile{}).
		WithValidator(withConfigRecord[*safetyv1alpha1.SafetyProfile](SafetyProfileValidator{}, log, mgr.GetClient())).
		Complete()
}
