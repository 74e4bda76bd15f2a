package manifests

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// A ReadWriteOncePod claim (which the schema offers for ledger.accessMode) can be used by one pod
// only. Under the Deployment's default strategy (RollingUpdate, maxSurge 25% → one extra pod of
// one replica, maxUnavailable 0) every rollout — a helm upgrade that changes the pod template, a
// `kubectl rollout restart`, a new image — starts the new pod first; it can never mount the claim,
// and the old pod is not stopped until the new one is ready: the rollout hangs for ever. A chart
// that offers the mode must render a strategy that lets the old pod go first (Recreate, or a
// rolling update with maxSurge 0), or refuse the value.
func TestChartRolloutCanReplaceTheOnlyPodOfAReadWriteOncePodClaim(t *testing.T) {
	const rwop = "ledger.accessMode=ReadWriteOncePod"
	if _, err := helmTemplate(t, "toolgate", operatorNamespace, "--set", rwop); err != nil {
		return // refused: fine
	}
	deploy, _ := newReferences(t, renderChart(t, "--set", rwop), operatorNamespace).manager(t)
	strategy, _, _ := unstructured.NestedString(deploy.Object, "spec", "strategy", "type")
	if strategy == "Recreate" {
		return
	}
	surge, found, _ := unstructured.NestedFieldNoCopy(deploy.Object, "spec", "strategy", "rollingUpdate", "maxSurge")
	if found && (surge == int64(0) || surge == "0" || surge == "0%") {
		return
	}
	t.Errorf("ledger.accessMode=ReadWriteOncePod renders the manager's Deployment with strategy %q (maxSurge %v): "+
		"the surge pod can never mount the claim and the old pod is never stopped, so every rollout hangs",
		strategy, surge)
}
