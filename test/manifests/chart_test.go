package manifests

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/toolgate/toolgate/internal/testenv"
)

// helm builds (once) and returns the pinned Helm.
func helm(t *testing.T) string {
	t.Helper()
	script, err := testenv.Path("hack", "build-helm.sh")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(script, "--print-path").Output()
	if err != nil {
		t.Fatalf("building helm: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// setFlags turns values ("key=value") into helm's --set flags.
func setFlags(values []string) []string {
	args := make([]string, 0, 2*len(values))
	for _, v := range values {
		args = append(args, "--set", v)
	}
	return args
}

// helmTemplate runs helm template of dist/chart as release in namespace with helm's further
// arguments, and returns what it printed, errors included: a refusal's message is what a test reads.
func helmTemplate(t *testing.T, release, namespace string, args ...string) (string, error) {
	t.Helper()
	chart, err := testenv.Path("dist", "chart")
	if err != nil {
		t.Fatal(err)
	}
	base := []string{"template", release, chart, "--namespace", namespace}
	out, err := exec.Command(helm(t), append(base, args...)...).CombinedOutput()
	return string(out), err
}

// RenderChart renders dist/chart as release "toolgate" in toolgate-system, the install the
// operator's names (certificate Secret, webhook configuration) are made for, with helm's further
// arguments (--set ...).
func renderChart(t *testing.T, args ...string) []*unstructured.Unstructured {
	t.Helper()
	return renderRelease(t, "toolgate", operatorNamespace, args...)
}

// comparable is the part of an object both renderings must agree on, as canonical JSON.
func comparable(t *testing.T, o *unstructured.Unstructured) string {
	t.Helper()
	var v any
	switch o.GetKind() {
	case "ClusterRole", "Role":
		v = normaliseRules(o.Object["rules"])
	case "ClusterRoleBinding", "RoleBinding":
		v = map[string]any{"roleRef": o.Object["roleRef"], "subjects": o.Object["subjects"]}
	case "CustomResourceDefinition", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding":
		v = o.Object["spec"]
	case "ValidatingWebhookConfiguration":
		hooks, _ := o.Object["webhooks"].([]any)
		out := make([]any, 0, len(hooks))
		for _, h := range hooks {
			m := h.(map[string]any)
			cc, _ := m["clientConfig"].(map[string]any)
			delete(cc, "caBundle") // injected at run time by the operator
			out = append(out, m)
		}
		v = out
	}
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// normaliseRules sorts each rule's lists and the rules themselves, which both tools order freely.
func normaliseRules(rules any) []string {
	list, _ := rules.([]any)
	out := make([]string, 0, len(list))
	for _, r := range list {
		m := r.(map[string]any)
		for _, k := range []string{"apiGroups", "resources", "verbs", "resourceNames"} {
			if l, ok := m[k].([]any); ok {
				s := make([]string, 0, len(l))
				for _, x := range l {
					s = append(s, fmt.Sprint(x))
				}
				slices.Sort(s)
				m[k] = s
			}
		}
		data, _ := json.Marshal(m)
		out = append(out, string(data))
	}
	slices.Sort(out)
	return out
}

// TestChartMatchesKustomize renders the Helm chart and config/default and fails where their RBAC,
// webhook configuration, admission policies or CRDs differ: the two ways to install toolgate must
// grant the same rights, gate the same requests and serve the same API.
func TestChartMatchesKustomize(t *testing.T) {
	kustomized, _, err := testenv.RenderDefault(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{"ClusterRole": true, "Role": true, "ClusterRoleBinding": true, "RoleBinding": true,
		"ValidatingWebhookConfiguration": true, "CustomResourceDefinition": true,
		"ValidatingAdmissionPolicy": true, "ValidatingAdmissionPolicyBinding": true}
	// Cluster-scoped kinds kustomize does not know get its namespace, which the API server drops.
	clusterScoped := map[string]bool{"ValidatingAdmissionPolicy": true, "ValidatingAdmissionPolicyBinding": true}
	index := func(objs []*unstructured.Unstructured) map[string]*unstructured.Unstructured {
		m := map[string]*unstructured.Unstructured{}
		for _, o := range objs {
			if kinds[o.GetKind()] {
				ns := o.GetNamespace()
				if clusterScoped[o.GetKind()] {
					ns = ""
				}
				m[o.GetKind()+" "+ns+"/"+o.GetName()] = o
			}
		}
		return m
	}
	chart, kust := index(renderChart(t)), index(kustomized)
	for key, k := range kust {
		c, ok := chart[key]
		if !ok {
			t.Errorf("the chart lacks %s, which config/default installs", key)
			continue
		}
		if a, b := comparable(t, c), comparable(t, k); a != b {
			t.Errorf("%s differs:\n  chart:     %s\n  kustomize: %s", key, a, b)
		}
	}
	for key := range chart {
		if _, ok := kust[key]; !ok {
			t.Errorf("the chart installs %s, which config/default does not", key)
		}
	}
	if len(kust) < 19 {
		t.Fatalf("config/default rendered only %d RBAC, webhook and CRD objects", len(kust))
	}
}

// Several replicas without leader election would each decide plans' counters on their own; the
// chart refuses to render them (Helm replaces lists, so overriding manager.args can drop it).
func TestChartRefusesReplicasWithoutLeaderElection(t *testing.T) {
	render := func(args ...string) (string, error) { return helmTemplate(t, "toolgate", operatorNamespace, args...) }
	out, err := render("--set", "manager.replicas=3", "--set", "manager.args={--pprof-bind-address=:6060}",
		"--set", "ledger.accessMode=ReadWriteMany")
	if err == nil || !strings.Contains(out, "needs --leader-elect") {
		t.Fatalf("3 replicas without --leader-elect rendered (err %v): %.300s", err, out)
	}
	out, err = render("--set", "manager.replicas=2", "--set", "manager.peerPort=-1",
		"--set", "ledger.accessMode=ReadWriteMany")
	if err == nil || !strings.Contains(out, "needs the peer listener") {
		t.Fatalf("2 replicas with manager.peerPort=-1 rendered (err %v): %.300s", err, out)
	}
	if out, err := render("--set", "manager.peerPort=-1"); err != nil {
		t.Fatalf("one replica with manager.peerPort=-1: %v: %.300s", err, out)
	}
	if out, err := render("--set", "manager.replicas=3", "--set", "ledger.accessMode=ReadWriteMany"); err != nil {
		t.Fatalf("3 replicas with the default args (--leader-elect): %v: %.300s", err, out)
	}
	// The flags as the manager's Go flag package reads them: one dash or two, a boolean's value,
	// the last one given winning.
	three := []string{"--set", "manager.replicas=3", "--set", "ledger.accessMode=ReadWriteMany", "--set-json"}
	for _, args := range []string{`["--leader-elect=true"]`, `["-leader-elect"]`,
		`["--leader-elect=false","--leader-elect=1"]`} {
		if out, err := render(append(three, "manager.args="+args)...); err != nil {
			t.Errorf("3 replicas with manager.args=%s: %v: %.300s", args, err, out)
		}
	}
	for args, want := range map[string]string{
		`["--leader-elect","--leader-elect=false"]`: "needs --leader-elect",
		`["--leader-elect=False"]`:                  "needs --leader-elect",
	} {
		if out, err := render(append(three, "manager.args="+args)...); err == nil || !strings.Contains(out, want) {
			t.Errorf("3 replicas with manager.args=%s rendered (err %v), want %q: %.300s", args, err, want, out)
		}
	}
	if out, err := render("--set", "manager.args={--pprof-bind-address=:6060}"); err != nil {
		t.Fatalf("one replica without --leader-elect: %v: %.300s", err, out)
	}
}
