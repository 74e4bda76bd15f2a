package manifests

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/toolgate/toolgate/internal/testenv"
)

// gatewayComparable is what the chart's and config/gateway's renderings of one gateway object
// must agree on, as canonical JSON. The image is left out (the chart tags it with its version).
func gatewayComparable(t *testing.T, o *unstructured.Unstructured) string {
	t.Helper()
	var v any
	switch o.GetKind() {
	case "Deployment":
		spec := o.DeepCopy().Object["spec"].(map[string]any)
		pod := spec["template"].(map[string]any)["spec"].(map[string]any)
		for _, c := range pod["containers"].([]any) {
			delete(c.(map[string]any), "image")
			delete(c.(map[string]any), "imagePullPolicy")
		}
		v = spec
	case "Service", "NetworkPolicy":
		v = o.Object["spec"]
	case "ServiceAccount":
		v = o.GetName()
	default:
		return comparable(t, o)
	}
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestChartGatewayMatchesKustomize renders the chart with gateway.enabled and config/gateway, and
// fails where the gateway's identity, rights, pods or Service differ: the two ways to install it
// must run the same binary with the same arguments, rights and exposure. Off, the chart renders
// none of it.
func TestChartGatewayMatchesKustomize(t *testing.T) {
	kust, _, err := testenv.RenderKustomization(context.Background(), "config", "gateway")
	if err != nil {
		t.Fatal(err)
	}
	if len(kust) != 5 {
		t.Fatalf("config/gateway rendered %d objects, want its ServiceAccount, ClusterRole, "+
			"ClusterRoleBinding, Deployment and Service", len(kust))
	}
	key := func(o *unstructured.Unstructured) string {
		return o.GetKind() + " " + o.GetNamespace() + "/" + o.GetName()
	}
	chart := map[string]*unstructured.Unstructured{}
	for _, o := range renderChart(t, "--set", "gateway.enabled=true") {
		if o.GetLabels()["app.kubernetes.io/component"] == "gateway" {
			chart[key(o)] = o
		}
	}
	for _, k := range kust {
		c, ok := chart[key(k)]
		if !ok {
			t.Errorf("the chart with gateway.enabled lacks %s, which config/gateway installs", key(k))
			continue
		}
		delete(chart, key(k))
		if a, b := gatewayComparable(t, c), gatewayComparable(t, k); a != b {
			t.Errorf("%s differs:\n  chart:     %s\n  kustomize: %s", key(k), a, b)
		}
	}
	// With networkPolicy.enabled (the chart's default) it adds the policy that only agents reach it,
	// and a PodDisruptionBudget (TestChartDisruptionBudgetsCoverEachDeployment).
	for k, o := range chart {
		if o.GetKind() != "NetworkPolicy" && o.GetKind() != "PodDisruptionBudget" {
			t.Errorf("the chart with gateway.enabled installs %s, which config/gateway does not", k)
		}
	}
	for _, o := range renderChart(t) {
		if o.GetLabels()["app.kubernetes.io/component"] == "gateway" {
			t.Errorf("the chart's defaults install %s; the gateway is off by default", key(o))
		}
	}
}

// TestChartGatewayNetworkPolicies: the chart's policies that make the gateway the only way to the
// tool servers are those config/samples/gateway documents, in each namespace it is given.
func TestChartGatewayNetworkPolicies(t *testing.T) {
	path, err := testenv.Path("config", "samples", "gateway", "networkpolicy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	samples, err := testenv.DecodeYAML(data)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{} // namespace → the sample policy's spec there
	for _, o := range samples {
		if o.GetKind() == "NetworkPolicy" {
			want[o.GetNamespace()] = gatewayComparable(t, o)
		}
	}
	if len(want) != 2 {
		t.Fatalf("the samples hold policies in %d namespaces, want the tool servers' and toolgate's", len(want))
	}
	got := map[string]string{}
	rendered := renderChart(t, "--set", "gateway.enabled=true", "--set", "gateway.toolServerNamespaces={mcp-tools}")
	for _, o := range rendered {
		if o.GetKind() == "NetworkPolicy" && o.GetLabels()["app.kubernetes.io/component"] == "gateway" {
			if _, twice := got[o.GetNamespace()]; twice {
				t.Errorf("two gateway policies in namespace %s", o.GetNamespace())
			}
			got[o.GetNamespace()] = gatewayComparable(t, o)
		}
	}
	for ns, w := range want {
		if got[ns] != w {
			t.Errorf("the chart's gateway policy in %s:\n  chart:   %s\n  samples: %s", ns, got[ns], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("the chart renders gateway policies in %d namespaces, want %d", len(got), len(want))
	}
	for _, o := range renderChart(t, "--set", "gateway.enabled=true", "--set", "networkPolicy.enabled=false") {
		if o.GetKind() == "NetworkPolicy" {
			t.Errorf("networkPolicy.enabled=false still renders %s/%s", o.GetNamespace(), o.GetName())
		}
	}
}

// The gateway's image comes from the registry the manager's does (README: push both, then
// install): it pulls with gateway.imagePullSecrets, else with manager.imagePullSecrets. Before,
// the gateway had no pull secrets at all and gateway.imagePullSecrets was refused by the schema,
// so a private registry served the manager and left the gateway in ImagePullBackOff.
func TestChartGatewayPullsWithTheSecrets(t *testing.T) {
	pullSecrets := func(args ...string) []any {
		t.Helper()
		for _, o := range renderChart(t, append([]string{"--set", "gateway.enabled=true"}, args...)...) {
			if o.GetKind() == "Deployment" && strings.HasSuffix(o.GetName(), "-gateway") {
				s, _, _ := unstructured.NestedSlice(o.Object, "spec", "template", "spec", "imagePullSecrets")
				return s
			}
		}
		t.Fatal("no gateway Deployment rendered")
		return nil
	}
	name := func(s []any) string {
		if len(s) != 1 {
			return fmt.Sprint(s)
		}
		return fmt.Sprint(s[0].(map[string]any)["name"])
	}
	if got := name(pullSecrets("--set", "manager.imagePullSecrets[0].name=regcred")); got != "regcred" {
		t.Errorf("the manager's pull secrets: the gateway pulls with %s", got)
	}
	got := name(pullSecrets("--set", "manager.imagePullSecrets[0].name=regcred",
		"--set", "gateway.imagePullSecrets[0].name=gw"))
	if got != "gw" {
		t.Errorf("the gateway's own pull secrets: it pulls with %s", got)
	}
	if got := pullSecrets(); len(got) != 0 {
		t.Errorf("no pull secrets given: the gateway pulls with %v", got)
	}
}
