package manifests

import (
	"fmt"
	"maps"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Each Deployment the chart renders has one PodDisruptionBudget that selects exactly its pods and
// lets a drain evict at least one of them: a node drain neither takes every replica at once nor
// waits for ever.
func TestChartDisruptionBudgetsCoverEachDeployment(t *testing.T) {
	for _, set := range [][]string{
		nil,
		{"gateway.enabled=true"},
		{"gateway.enabled=true", "gateway.replicas=4", "gateway.podDisruptionBudget.maxUnavailable=50%"},
		{"manager.replicas=3", "ledger.accessMode=ReadWriteMany", "manager.podDisruptionBudget.minAvailable=2"},
		{"gateway.enabled=true", "gateway.podDisruptionBudget.minAvailable=50%"},
	} {
		t.Run(strings.Join(set, ","), func(t *testing.T) {
			args := setFlags(set)
			deployments, budgets := map[string]*unstructured.Unstructured{}, map[string]*unstructured.Unstructured{}
			for _, o := range renderRelease(t, "acme", "agents-gate", args...) {
				switch o.GetKind() {
				case "Deployment":
					deployments[o.GetName()] = o
				case "PodDisruptionBudget":
					budgets[o.GetName()] = o
				}
			}
			if len(budgets) != len(deployments) {
				t.Errorf("%d PodDisruptionBudgets for %d Deployments", len(budgets), len(deployments))
			}
			for name, d := range deployments {
				b, ok := budgets[name]
				if !ok {
					t.Errorf("Deployment %s has no PodDisruptionBudget of its name", name)
					continue
				}
				pods, _, _ := unstructured.NestedStringMap(d.Object, "spec", "selector", "matchLabels")
				sel, _, _ := unstructured.NestedStringMap(b.Object, "spec", "selector", "matchLabels")
				if len(pods) == 0 || !maps.Equal(pods, sel) {
					t.Errorf("PodDisruptionBudget %s selects %v; its Deployment's pods are %v", name, sel, pods)
				}
				replicas, _ := number(d.Object["spec"].(map[string]any)["replicas"])
				if !evictsOne(b, replicas) {
					t.Errorf("PodDisruptionBudget %s (%v) lets no pod of %d be evicted", name, b.Object["spec"], replicas)
				}
			}
		})
	}
	for _, o := range renderRelease(t, "acme", "agents-gate", "--set", "gateway.enabled=true",
		"--set", "manager.podDisruptionBudget.enabled=false", "--set", "gateway.podDisruptionBudget.enabled=false") {
		if o.GetKind() == "PodDisruptionBudget" {
			t.Errorf("podDisruptionBudget.enabled=false still renders %s", o.GetName())
		}
	}
}

// evictsOne says whether budget b lets a drain evict at least one of n healthy pods, as the
// disruption controller computes it (percentages of n, minAvailable rounded up).
func evictsOne(b *unstructured.Unstructured, n int) bool {
	spec, _ := b.Object["spec"].(map[string]any)
	value := func(key string, roundUp bool) (int, bool) {
		v, ok := spec[key]
		if !ok {
			return 0, false
		}
		x := intstr.FromString(fmt.Sprint(v))
		if i, isNumber := number(v); isNumber {
			x = intstr.FromInt32(int32(i))
		}
		got, err := intstr.GetScaledValueFromIntOrPercent(&x, n, roundUp)
		return got, err == nil
	}
	if maxU, ok := value("maxUnavailable", true); ok {
		return maxU > 0
	}
	minA, ok := value("minAvailable", true)
	return ok && minA < n
}

// number reads a rendered number, whichever type the YAML decoder gave it, by its decimal text.
func number(v any) (int, bool) {
	i, err := strconv.Atoi(fmt.Sprint(v))
	return i, err == nil
}

// A budget that would stop every drain, or says two things, fails `helm template` naming the value.
func TestChartRefusesDisruptionBudgetsThatBlockDrains(t *testing.T) {
	for _, tc := range []struct {
		set  []string
		want []string
	}{
		{[]string{"manager.podDisruptionBudget.minAvailable=1"},
			[]string{"manager.podDisruptionBudget.minAvailable is 1", "manager.replicas 1", "drain"}},
		{[]string{"manager.podDisruptionBudget.maxUnavailable=0"},
			[]string{"manager.podDisruptionBudget.maxUnavailable is 0", "drain"}},
		{[]string{"gateway.enabled=true", "gateway.podDisruptionBudget.maxUnavailable=0%"},
			[]string{"gateway.podDisruptionBudget.maxUnavailable is 0%"}},
		{[]string{"gateway.enabled=true", "gateway.podDisruptionBudget.minAvailable=100%"},
			[]string{"gateway.podDisruptionBudget.minAvailable is 100%", "gateway.replicas 2"}},
		{[]string{"gateway.enabled=true", "gateway.podDisruptionBudget.minAvailable=2"},
			[]string{"gateway.podDisruptionBudget.minAvailable is 2"}},
		{[]string{"manager.podDisruptionBudget.minAvailable=0", "manager.podDisruptionBudget.maxUnavailable=1"},
			[]string{"manager.podDisruptionBudget", "not both"}},
		{[]string{"gateway.enabled=true", "gateway.podDisruptionBudget.maxUnavailable=half"},
			[]string{"/gateway/podDisruptionBudget/maxUnavailable"}},
		{[]string{"manager.podDisruptionBudget.minAvailble=1"},
			[]string{"minAvailble", "additional properties"}},
	} {
		args := setFlags(tc.set)
		out, err := helmTemplate(t, "toolgate", operatorNamespace, args...)
		if err == nil {
			t.Errorf("--set %v rendered", tc.set)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("--set %v: the error does not name %q: %.400s", tc.set, w, out)
			}
		}
	}
}
