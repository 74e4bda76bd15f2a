package manifests

import (
	"strings"
	"testing"
)

// The AgentPlan status policy is a ValidatingAdmissionPolicy (admissionregistration.k8s.io/v1,
// GA in 1.30). On an older cluster the install would fail on that one object, after the others
// were applied; the chart says what it needs before anything is. The manager's watch of finished
// calls (status.phase), its recounts (spec.plan) and the live lookups of a plan's approvals and a
// ServiceAccount's plans select by the CRDs' selectableFields, which the API server serves from
// 1.31 (CustomResourceFieldSelectors, beta and on by default; alpha and off in 1.30, where it
// drops the field and refuses the selector: every plan's admission would fail): 1.30 is refused.
func TestChartNeedsAClusterWithValidatingAdmissionPolicies(t *testing.T) {
	for _, version := range []string{"1.30.14", "1.30.0", "1.29.9", "1.28.0"} {
		out, err := helmTemplate(t, "toolgate", operatorNamespace, "--kube-version", version)
		if err == nil {
			t.Errorf("the chart rendered for Kubernetes %s, which lacks VAP v1 or CRD field selectors", version)
		} else if !strings.Contains(out, ">= 1.31.0-0") {
			t.Errorf("the refusal for Kubernetes %s does not say what the chart needs: %s", version, out)
		}
	}
	for _, version := range []string{"1.31.0", "1.37.2"} {
		if out, err := helmTemplate(t, "toolgate", operatorNamespace, "--kube-version", version); err != nil {
			t.Errorf("the chart does not render for Kubernetes %s: %v: %s", version, err, out)
		}
	}
}
