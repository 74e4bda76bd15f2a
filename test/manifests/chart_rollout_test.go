package manifests

import (
	"context"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/toolgate/toolgate/internal/testenv"
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

// config/default installs the manager with one replica and a ReadWriteOnce ledger claim, as the
// chart's defaults do: its Deployment must roll out the way the chart's does, old pod first, or a
// surge pod scheduled on another node waits for the claim for ever.
func TestKustomizeRollsOutTheLedgerClaimsOnlyPodAsTheChartDoes(t *testing.T) {
	kustomized, _, err := testenv.RenderDefault(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var claimModes []any
	for _, o := range kustomized {
		if o.GetKind() == "PersistentVolumeClaim" {
			claimModes, _, _ = unstructured.NestedSlice(o.Object, "spec", "accessModes")
		}
	}
	if len(claimModes) != 1 || claimModes[0] == "ReadWriteMany" {
		t.Fatalf("config/default's ledger claim has access modes %v; this test expects one single-attach mode", claimModes)
	}
	kust, _ := newReferences(t, kustomized, operatorNamespace).manager(t)
	chart, _ := newReferences(t, renderChart(t), operatorNamespace).manager(t)
	k, _, _ := unstructured.NestedFieldNoCopy(kust.Object, "spec", "strategy")
	c, _, _ := unstructured.NestedFieldNoCopy(chart.Object, "spec", "strategy")
	if !reflect.DeepEqual(k, c) || !reflect.DeepEqual(k, map[string]any{"type": "Recreate"}) {
		t.Errorf("the manager's rollout strategy is %v from config/default and %v from the chart; want Recreate from both",
			k, c)
	}
}
