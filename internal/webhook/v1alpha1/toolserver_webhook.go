package v1alpha1

import (
	ctrl "sigs.k8s.io/controller-runtime"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
)

// A ToolServer is policy as much as an AgentTool: its argument map names which of an MCP tool's
// arguments the engine checks as the command and the paths, and its URL or Service says where an
// admitted call runs. Its schema says everything; its webhook exists so that every change of it
// is a config record, with its spec.
// +kubebuilder:webhook:path=/validate-safety-toolgate-dev-v1alpha1-toolserver,mutating=false,failurePolicy=fail,sideEffects=NoneOnDryRun,groups=safety.toolgate.dev,resources=toolservers,verbs=create;update;delete,versions=v1alpha1,name=vtoolserver-v1alpha1.toolgate.dev,admissionReviewVersions=v1,timeoutSeconds=5

// setupToolServerWebhook registers the ToolServer webhook, which only records (without a config
// log it admits everything: the webhook configuration names its path either way).
func setupToolServerWebhook(mgr ctrl.Manager, log audit.ConfigLog) error {
	return ctrl.NewWebhookManagedBy(mgr, &safetyv1alpha1.ToolServer{}).
		WithValidator(withConfigRecord[*safetyv1alpha1.ToolServer](admitAll[*safetyv1alpha1.ToolServer]{}, log, mgr.GetClient())).
		Complete()
}
