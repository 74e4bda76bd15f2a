package manifests

import (
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// A namespace may be named 1234, or on, or null (DNS labels): the value is written into the
// NetworkPolicy's matchLabels unquoted, so YAML reads a number, a boolean or null, and the API
// server refuses the NetworkPolicy (matchLabels are strings) or selects no namespace.
func TestChartMetricsNamespacesAreWrittenAsStrings(t *testing.T) {
	for _, ns := range []string{"1234", "on", "null", "true"} {
		for _, o := range renderChart(t, "--set-string", "networkPolicy.metricsNamespace="+ns) {
			if o.GetName() != "toolgate-allow-metrics-traffic" {
				continue
			}
			rules, _, _ := unstructured.NestedSlice(o.Object, "spec", "ingress")
			from := rules[0].(map[string]any)["from"].([]any)[0].(map[string]any)
			v := from["namespaceSelector"].(map[string]any)["matchLabels"].(map[string]any)["kubernetes.io/metadata.name"]
			if s, ok := v.(string); !ok || s != ns {
				t.Errorf("metricsNamespace=%s: matchLabels value %#v (%s)", ns, v, fmt.Sprintf("%T", v))
			}
		}
	}
}
