package v1alpha1

import (
	"context"

	"k8s.io/apimachinery/pkg/util/validation/field"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/policy"
)

// +kubebuilder:rbac:groups="",resources=namespaces,verbs=get

// +kubebuilder:webhook:path=/validate-safety-toolgate-dev-v1alpha1-projectpolicy,mutating=false,failurePolicy=fail,sideEffects=NoneOnDryRun,groups=safety.toolgate.dev,resources=projectpolicies,verbs=create;update;delete,versions=v1alpha1,name=vprojectpolicy-v1alpha1.toolgate.dev,admissionReviewVersions=v1,timeoutSeconds=5

// ProjectPolicyValidator compiles a project's regular expressions, globs and commands, and keeps
// the settled spend of deleted plans from being deleted with the policy that holds it.
type ProjectPolicyValidator struct {
	// Reader reads namespaces live (the manager caches none).
	Reader client.Reader
}

// ValidateProjectPolicy returns one error per invalid field of a ProjectPolicy, including every
// profile it names outside its own allowedProfiles.
func ValidateProjectPolicy(pp *safetyv1alpha1.ProjectPolicy) field.ErrorList {
	spec := field.NewPath("spec")
	return append(policy.ValidateProjectRules(&pp.Spec, spec), policy.ValidateAllowedProfiles(&pp.Spec, spec)...)
}

// ValidateCreate validates a new ProjectPolicy.
func (ProjectPolicyValidator) ValidateCreate(_ context.Context, pp *safetyv1alpha1.ProjectPolicy) (admission.Warnings, error) {
	return nil, invalid("ProjectPolicy", pp.Name, ValidateProjectPolicy(pp))
}

// ValidateUpdate validates a changed ProjectPolicy; running plans keep the policy they locked.
func (ProjectPolicyValidator) ValidateUpdate(_ context.Context, _, pp *safetyv1alpha1.ProjectPolicy) (admission.Warnings, error) {
	return nil, invalid("ProjectPolicy", pp.Name, ValidateProjectPolicy(pp))
}

// ValidateDelete refuses deleting a policy that holds settled spend while its namespace stays.
func (v ProjectPolicyValidator) ValidateDelete(ctx context.Context, pp *safetyv1alpha1.ProjectPolicy) (admission.Warnings, error) {
	d, err := settledSpendHeld(ctx, v.Reader, pp)
	if err != nil || d == nil {
		return nil, err
	}
	return nil, d.statusError()
}

// SetupProjectPolicyWebhookWithManager registers the ProjectPolicy validator; log, when set, records every change it admits.
func SetupProjectPolicyWebhookWithManager(mgr ctrl.Manager, log audit.ConfigLog) error {
	return ctrl.NewWebhookManagedBy(mgr, &safetyv1alpha1.ProjectPolicy{}).
		WithValidator(withConfigRecord[*safetyv1alpha1.ProjectPolicy](ProjectPolicyValidator{Reader: mgr.GetAPIReader()}, log, mgr.GetClient())).
		Complete()
}
