package manifests

import (
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// certManager.enabled makes the metrics certificate the ServiceMonitor verifies: a Certificate
// for the metrics Service's names into the Secret the ServiceMonitor reads, which the manager
// mounts and serves. Before, the chart neither created nor mounted that Secret, so turning the
// value on left Prometheus verifying a certificate nobody made.
func TestChartCertManagerMakesTheMetricsCertificate(t *testing.T) {
	var secret, serverName, certPath, mounted string
	var dnsNames []string
	for _, o := range renderChart(t, "--set", "certManager.enabled=true,prometheus.enabled=true") {
		switch o.GetKind() {
		case "Certificate":
			secret, _, _ = unstructured.NestedString(o.Object, "spec", "secretName")
			dnsNames, _, _ = unstructured.NestedStringSlice(o.Object, "spec", "dnsNames")
		case "ServiceMonitor":
			eps, _, _ := unstructured.NestedSlice(o.Object, "spec", "endpoints")
			tls := eps[0].(map[string]any)["tlsConfig"].(map[string]any)
			serverName = tls["serverName"].(string)
			if ca, _, _ := unstructured.NestedString(tls, "ca", "secret", "name"); ca != "metrics-server-cert" {
				t.Errorf("the ServiceMonitor verifies with Secret %q", ca)
			}
		case "Deployment":
			if o.GetName() != "toolgate-controller-manager" {
				continue
			}
			certPath, mounted = metricsCertMount(t, o)
		}
	}
	if secret != "metrics-server-cert" {
		t.Errorf("the Certificate writes Secret %q, want the ServiceMonitor's metrics-server-cert", secret)
	}
	if !slices.Contains(dnsNames, serverName) {
		t.Errorf("the Certificate names %q, not the ServiceMonitor's serverName %q", dnsNames, serverName)
	}
	if certPath == "" || mounted != secret {
		t.Errorf("the manager serves --metrics-cert-path=%q from Secret %q, want the Certificate's %q",
			certPath, mounted, secret)
	}
	for _, o := range renderChart(t, "--set", "prometheus.enabled=true") {
		if o.GetKind() == "Certificate" || o.GetKind() == "Issuer" {
			t.Errorf("certManager disabled renders %s %s", o.GetKind(), o.GetName())
		}
		if o.GetKind() == "Deployment" && o.GetName() == "toolgate-controller-manager" {
			if p, _ := metricsCertMount(t, o); p != "" {
				t.Errorf("certManager disabled passes --metrics-cert-path=%s", p)
			}
		}
	}
}

// metricsCertMount is the manager's --metrics-cert-path and the Secret of the volume mounted there.
func metricsCertMount(t *testing.T, deploy *unstructured.Unstructured) (path, secret string) {
	t.Helper()
	containers, _, _ := unstructured.NestedSlice(deploy.Object, "spec", "template", "spec", "containers")
	volumes, _, _ := unstructured.NestedSlice(deploy.Object, "spec", "template", "spec", "volumes")
	c := containers[0].(map[string]any)
	for _, a := range c["args"].([]any) {
		if p, ok := strings.CutPrefix(a.(string), "--metrics-cert-path="); ok {
			path = p
		}
	}
	mounts, _ := c["volumeMounts"].([]any)
	for _, m := range mounts {
		m := m.(map[string]any)
		if m["mountPath"] != path {
			continue
		}
		for _, v := range volumes {
			v := v.(map[string]any)
			if v["name"] == m["name"] {
				secret, _, _ = unstructured.NestedString(v, "secret", "secretName")
			}
		}
	}
	return path, secret
}
