package manifests

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Values the chart cannot install as given fail `helm template` (and `helm lint`), naming the
// value and what is wrong, rather than rendering objects the API server refuses at install time
// or an operator that never becomes ready.
func TestChartRefusesBadValues(t *testing.T) {
	render := func(release, namespace string, args ...string) (string, error) {
		return helmTemplate(t, release, namespace, args...)
	}
	for _, tc := range []struct {
		set  string
		want []string
	}{
		{"manager.replicas=abc", []string{"/manager/replicas", "integer"}},
		{"manager.replicas=0", []string{"/manager/replicas", "minimum"}},
		{"webhook.port=0", []string{"/webhook/port", "minimum"}},
		{"metrics.port=70000", []string{"/metrics/port", "maximum"}},
		{"manager.image.repository=", []string{"/manager/image/repository"}},
		{"networkPolicy.enabled=maybe", []string{"/networkPolicy/enabled", "boolean"}},
		{"manager.replicass=2", []string{"replicass", "additional properties"}},
		{"gateway.replicas=-1", []string{"/gateway/replicas", "minimum"}},
		{"manager.image.pullPolicy=Sometimes", []string{"/manager/image/pullPolicy"}},
		{"ledger.size=lots", []string{"/ledger/size"}},
		{"ledger.existingClaim=true", []string{"/ledger/existingClaim", "string"}},
		// Names that end up as namespace or Secret names: the API server would refuse them at
		// install (or, for an empty metrics namespace, a NetworkPolicy would admit no scraper).
		{"gateway.metricsNamespace=", []string{"/gateway/metricsNamespace"}},
		{"gateway.metricsNamespace=Monitoring", []string{"/gateway/metricsNamespace"}},
		{"networkPolicy.metricsNamespace=Monitoring", []string{"/networkPolicy/metricsNamespace"}},
		{"gateway.toolServerNamespaces[0]=Bad_NS", []string{"/gateway/toolServerNamespaces/0"}},
		{"webhook.mutualTLS.clientCASecretName=Bad_Name", []string{"/webhook/mutualTLS/clientCASecretName"}},
	} {
		out, err := render("toolgate", operatorNamespace, "--set", tc.set)
		if err == nil {
			t.Errorf("--set %s rendered", tc.set)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("--set %s: the error does not name %q: %.400s", tc.set, w, out)
			}
		}
	}
	// Another release name or namespace renders (tools render charts under names of their own:
	// helm template's default "release-name", helm lint's); TestChartObjectsReferToEachOther
	// checks that what they render still fits together.
	out, err := render("toolgate", operatorNamespace, "--set", "manager.image.tag=20240101")
	if err != nil || !strings.Contains(out, ":20240101\"") {
		t.Errorf("a numeric image tag (--set reads it as a number): %v: %.400s", err, out)
	}
	if out, err := render("toolgate", operatorNamespace, "--set", "gateway.enabled=true", "--set",
		"gateway.toolServerNamespaces[0]=tools", "--set", "webhook.mutualTLS.clientCASecretName=api.client-ca"); err != nil {
		t.Errorf("a tool server namespace and a client CA Secret with a dot: %v: %.400s", err, out)
	}
	if out, err := render("toolgate", operatorNamespace, "--set", "global.imageRegistry=r.example.com"); err != nil {
		t.Errorf("a parent chart's global values: %v: %.400s", err, out) // Helm passes them to every subchart
	}
	for _, rn := range [][2]string{{"release-name", "default"}, {"other", operatorNamespace}, {"toolgate", "foo"}} {
		if out, err := render(rn[0], rn[1]); err != nil {
			t.Errorf("release %s in %s: %v: %.400s", rn[0], rn[1], err, out)
		}
	}
	if out, err := render("other", operatorNamespace, "--set", "fullnameOverride=toolgate"); err != nil {
		t.Errorf("release other with fullnameOverride toolgate: %v: %.400s", err, out)
	}
}

// The webhook's port is one value: the container listens on it, the Service sends to it, and the
// NetworkPolicy lets the API server reach it. With the policy's port fixed at the default, another
// port installed a webhook nothing could call.
func TestChartWebhookPortIsOnePort(t *testing.T) {
	var ports []string
	for _, o := range renderChart(t, "--set", "webhook.port=10250") {
		switch o.GetName() {
		case "toolgate-webhook-service":
			ps, _, _ := unstructured.NestedSlice(o.Object, "spec", "ports")
			for _, p := range ps {
				ports = append(ports, fmt.Sprintf("service %v", p.(map[string]any)["targetPort"]))
			}
		case "toolgate-webhook-from-apiserver":
			rules, _, _ := unstructured.NestedSlice(o.Object, "spec", "ingress")
			for _, r := range rules {
				ps, _, _ := unstructured.NestedSlice(r.(map[string]any), "ports")
				for _, p := range ps {
					ports = append(ports, fmt.Sprintf("policy %v", p.(map[string]any)["port"]))
				}
			}
		}
	}
	if want := []string{"policy 10250", "service 10250"}; !slices.Equal(sorted(ports), want) {
		t.Errorf("webhook.port=10250: %q, want %q", ports, want)
	}
}

func sorted(s []string) []string { slices.Sort(s); return s }

// The webhook port's NetworkPolicy admits the cluster's API servers by address; its range is a
// value, as docs/webhook.md tells installers to set it. Fixed at kubeadm's pod network, every pod
// of a cluster with another pod CIDR (k3s, Calico, a cloud's) could reach the port, and with
// --webhook-any-client nothing else would stop them.
func TestChartWebhookPolicyTakesTheClusterRanges(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "[map[ipBlock:map[cidr:0.0.0.0/0 except:[10.244.0.0/16]]]]"},
		{[]string{"--set-json", `networkPolicy.webhookFrom.except=["10.42.0.0/16","10.43.0.0/16"]`},
			"[map[ipBlock:map[cidr:0.0.0.0/0 except:[10.42.0.0/16 10.43.0.0/16]]]]"},
		{[]string{"--set", "networkPolicy.webhookFrom.cidr=172.18.0.0/16",
			"--set-json", "networkPolicy.webhookFrom.except=[]"},
			"[map[ipBlock:map[cidr:172.18.0.0/16]]]"},
	} {
		if got := policyFrom(t, "toolgate-webhook-from-apiserver", c.args...); got != c.want {
			t.Errorf("%q: from %s, want %s", c.args, got, c.want)
		}
	}
}

// policyFrom is the from of the one ingress rule of the chart's NetworkPolicy name, rendered with args.
func policyFrom(t *testing.T, name string, args ...string) string {
	t.Helper()
	for _, o := range renderChart(t, args...) {
		if o.GetName() != name {
			continue
		}
		rules, _, _ := unstructured.NestedSlice(o.Object, "spec", "ingress")
		if len(rules) != 1 {
			t.Fatalf("%s: %d ingress rules", name, len(rules))
		}
		from, _, _ := unstructured.NestedSlice(rules[0].(map[string]any), "from")
		return fmt.Sprint(from)
	}
	t.Fatalf("no NetworkPolicy %s", name)
	return ""
}

// The manager's metrics port is admitted from the namespace Prometheus runs in, which is a value:
// fixed at "monitoring", a cluster whose Prometheus runs elsewhere could not scrape it without
// editing the chart.
func TestChartMetricsPolicyTakesThePrometheusNamespace(t *testing.T) {
	from := func(args ...string) string { return policyFrom(t, "toolgate-allow-metrics-traffic", args...) }
	selecting := func(ns string) string {
		return "[map[namespaceSelector:map[matchLabels:map[kubernetes.io/metadata.name:" + ns + "]]]]"
	}
	if got, want := from(), selecting("monitoring"); got != want {
		t.Errorf("default: from %s, want %s", got, want)
	}
	got, want := from("--set", "networkPolicy.metricsNamespace=observability"), selecting("observability")
	if got != want {
		t.Errorf("metricsNamespace=observability: from %s, want %s", got, want)
	}
}

// Several manager replicas share the ledger's claim, and the scheduler places them on different
// nodes, where a ReadWriteOnce volume attaches to one node only: the other replicas never start
// (Multi-Attach error). The chart refuses the combination, naming the values that fix it, and
// renders the claim with the access mode asked for.
func TestChartLedgerClaimFitsTheReplicas(t *testing.T) {
	render := func(args ...string) (string, error) { return helmTemplate(t, "toolgate", operatorNamespace, args...) }
	out, err := render("--set", "manager.replicas=2")
	if err == nil || !strings.Contains(out, "ledger.accessMode") || !strings.Contains(out, "ledger.existingClaim") {
		t.Errorf("2 replicas on a ReadWriteOnce ledger claim rendered (err %v): %.400s", err, out)
	}
	accessModes := func(args ...string) []string {
		t.Helper()
		var modes []string
		for _, o := range renderChart(t, args...) {
			if o.GetKind() == "PersistentVolumeClaim" {
				modes, _, _ = unstructured.NestedStringSlice(o.Object, "spec", "accessModes")
			}
		}
		return modes
	}
	got := accessModes("--set", "manager.replicas=3", "--set", "ledger.accessMode=ReadWriteMany")
	if !slices.Equal(got, []string{"ReadWriteMany"}) {
		t.Errorf("3 replicas on ReadWriteMany: the claim's access modes are %v", got)
	}
	if got := accessModes(); !slices.Equal(got, []string{"ReadWriteOnce"}) {
		t.Errorf("one replica: the claim's access modes are %v, want ReadWriteOnce", got)
	}
	if out, err := render("--set", "manager.replicas=2", "--set", "ledger.existingClaim=mine"); err != nil {
		t.Errorf("2 replicas on a claim of the user's own: %v: %.400s", err, out)
	}
	out, err = render("--set", "ledger.accessMode=ReadWriteSometimes")
	if err == nil || !strings.Contains(out, "/ledger/accessMode") {
		t.Errorf("an access mode that does not exist rendered (err %v): %.300s", err, out)
	}
}
