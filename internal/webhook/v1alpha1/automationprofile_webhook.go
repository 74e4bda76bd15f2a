package v1alpha1

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/policy"
)

// +kubebuilder:webhook:path=/validate-safety-toolgate-dev-v1alpha1-automationprofile,mutating=false,failurePolicy=fail,sideEffects=NoneOnDryRun,groups=safety.toolgate.dev,resources=automationprofiles,verbs=create;update;delete,versions=v1alpha1,name=vautomationprofile-v1alpha1.toolgate.dev,admissionReviewVersions=v1,timeoutSeconds=5

// AutomationProfileValidator checks the inline safety profile and that at most one profile is the
// global default.
type AutomationProfileValidator struct {
	Reader client.Reader
}

// ValidateAutomationProfile returns one error per invalid field; others are the cluster's other
// AutomationProfiles, for the single-default rule.
func ValidateAutomationProfile(ap *safetyv1alpha1.AutomationProfile, others []safetyv1alpha1.AutomationProfile) field.ErrorList {
	var errs field.ErrorList
	if ap.Spec.Safety != nil {
		_, serrs := policy.CheckedProfileFromSpec(ap.Spec.Safety, field.NewPath("spec", "safety"))
		errs = append(errs, serrs...)
	}
	annotation := field.NewPath("metadata", "annotations").Key(safetyv1alpha1.DefaultAutomationProfileAnnotation)
	switch v, set := ap.Annotations[safetyv1alpha1.DefaultAutomationProfileAnnotation]; {
	case !set || v == "false":
	case v != "true":
		errs = append(errs, field.NotSupported(annotation, v, []string{"true", "false"}))
	default:
		for i := range others {
			if others[i].Name != ap.Name && policy.IsDefaultAutomationProfile(&others[i]) {
				errs = append(errs, field.Forbidden(annotation,
					fmt.Sprintf("AutomationProfile %q is already the default; remove its annotation first", others[i].Name)))
			}
		}
	}
	return errs
}

func (v AutomationProfileValidator) validate(ctx context.Context, ap *safetyv1alpha1.AutomationProfile) error {
	var list safetyv1alpha1.AutomationProfileList
	if policy.IsDefaultAutomationProfile(ap) {
		if err := v.Reader.List(ctx, &list); err != nil {
			return fmt.Errorf("listing AutomationProfiles to check the single default: %w", err)
		}
	}
	return invalid("AutomationProfile", ap.Name, ValidateAutomationProfile(ap, list.Items))
}

// ValidateCreate validates a new AutomationProfile.
func (v AutomationProfileValidator) ValidateCreate(ctx context.Context, ap *safetyv1alpha1.AutomationProfile) (admission.Warnings, error) {
	return nil, v.validate(ctx, ap)
}

// ValidateUpdate validates a changed AutomationProfile.
func (v AutomationProfileValidator) ValidateUpdate(ctx context.Context, _, ap *safetyv1alpha1.AutomationProfile) (admission.Warnings, error) {
	return nil, v.validate(ctx, ap)
}

// ValidateDelete admits every deletion; plans locked to the profile keep their snapshot.
func (AutomationProfileValidator) ValidateDelete(context.Context, *safetyv1alpha1.AutomationProfile) (admission.Warnings, error) {
	return nil, nil
}

// SetupAutomationProfileWebhookWithManager registers the AutomationProfile validator; log, when set, records every change it admits. It reads
// with the API reader: the single-default rule must see profiles created a moment ago.
func SetupAutomationProfileWebhookWithManager(mgr ctrl.Manager, log audit.ConfigLog) error {
	return ctrl.NewWebhookManagedBy(mgr, &safetyv1alpha1.AutomationProfile{}).
		WithValidator(withConfigRecord[*safetyv1alpha1.AutomationProfile](AutomationProfileValidator{Reader: mgr.GetAPIReader()}, log, mgr.GetClient())).
		Complete()
}
