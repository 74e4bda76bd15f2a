package v1alpha1

import ctrl "sigs.k8s.io/controller-runtime"

// SetupWithManager registers every toolgate admission webhook with mgr; main.go and the envtest
// suites share it.
func SetupWithManager(mgr ctrl.Manager) error {
	for _, setup := range []func(ctrl.Manager) error{
		SetupSafetyProfileWebhookWithManager,
		SetupAutomationProfileWebhookWithManager,
		SetupProjectPolicyWebhookWithManager,
	} {
		if err := setup(mgr); err != nil {
			return err
		}
	}
	return nil
}
