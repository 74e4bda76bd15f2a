package v1alpha1

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
)

// The tool registry and the ledger's own configuration have no rules beyond their schema (but an
// AuditLedger holding published heads may not be deleted, auditledger_delete.go); their webhooks
// exist so that every change of them is a config record (recorded).
// +kubebuilder:webhook:path=/validate-safety-toolgate-dev-v1alpha1-agenttool,mutating=false,failurePolicy=fail,sideEffects=NoneOnDryRun,groups=safety.toolgate.dev,resources=agenttools,verbs=create;update;delete,versions=v1alpha1,name=vagenttool-v1alpha1.toolgate.dev,admissionReviewVersions=v1,timeoutSeconds=5
//
// The AuditLedger's update and delete fail closed (deleting it while it holds published heads is
// refused, auditledger_delete.go); its create does not: the install creates the cluster's
// AuditLedger (config/default, the chart) together with this webhook's configuration, before the
// operator serves it, and creating the AuditLedger where there is none erases nothing. A create
// while the operator is down is admitted unrecorded (docs/ledger.md).
// +kubebuilder:webhook:path=/validate-safety-toolgate-dev-v1alpha1-auditledger,mutating=false,failurePolicy=fail,sideEffects=NoneOnDryRun,groups=safety.toolgate.dev,resources=auditledgers,verbs=update;delete,versions=v1alpha1,name=vauditledger-v1alpha1.toolgate.dev,admissionReviewVersions=v1,timeoutSeconds=5
// +kubebuilder:webhook:path=/validate-safety-toolgate-dev-v1alpha1-auditledger,mutating=false,failurePolicy=ignore,sideEffects=NoneOnDryRun,groups=safety.toolgate.dev,resources=auditledgers,verbs=create,versions=v1alpha1,name=vauditledger-create-v1alpha1.toolgate.dev,admissionReviewVersions=v1,timeoutSeconds=5

// admitAll is the validator of a kind whose schema says everything.
type admitAll[T client.Object] struct{}

func (admitAll[T]) ValidateCreate(context.Context, T) (admission.Warnings, error)    { return nil, nil }
func (admitAll[T]) ValidateUpdate(context.Context, T, T) (admission.Warnings, error) { return nil, nil }
func (admitAll[T]) ValidateDelete(context.Context, T) (admission.Warnings, error)    { return nil, nil }

// setupRecordedKinds registers the AgentTool and AuditLedger webhooks, which record (without a
// config log they still refuse what their validators refuse: the webhook configuration names
// their paths either way).
func setupRecordedKinds(mgr ctrl.Manager, log audit.ConfigLog) error {
	if err := ctrl.NewWebhookManagedBy(mgr, &safetyv1alpha1.AgentTool{}).
		WithValidator(withConfigRecord[*safetyv1alpha1.AgentTool](admitAll[*safetyv1alpha1.AgentTool]{}, log, mgr.GetClient())).
		Complete(); err != nil {
		return err
	}
	return ctrl.NewWebhookManagedBy(mgr, &safetyv1alpha1.AuditLedger{}).
		WithValidator(withConfigRecord[*safetyv1alpha1.AuditLedger](AuditLedgerValidator{}, log, mgr.GetClient())).
		Complete()
}
