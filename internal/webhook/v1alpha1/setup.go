package v1alpha1

import (
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/toolgate/toolgate/internal/metrics"
)

// AgentToolCallPath is where the API server sends AgentToolCall admission reviews.
const AgentToolCallPath = "/validate-safety-toolgate-dev-v1alpha1-agenttoolcall"

// SetupWithManager registers every toolgate admission webhook with mgr; main.go and the envtest
// suites share it. The AgentToolCall handler reads facts through the manager's cache, whose
// indexes the controller package registers.
func SetupWithManager(mgr ctrl.Manager, clk clock.PassiveClock) error {
	if clk == nil {
		clk = clock.RealClock{}
	}
	for _, setup := range []func(ctrl.Manager) error{
		SetupSafetyProfileWebhookWithManager,
		SetupAutomationProfileWebhookWithManager,
		SetupProjectPolicyWebhookWithManager,
	} {
		if err := setup(mgr); err != nil {
			return err
		}
	}
	metrics.Register()
	handler := NewAgentToolCallHandler(mgr.GetClient(), admission.NewDecoder(mgr.GetScheme()), clk)
	mgr.GetWebhookServer().Register(AgentToolCallPath, &webhook.Admission{Handler: handler})
	return nil
}
