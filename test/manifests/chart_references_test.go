package manifests

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/testenv"
)

// userMadeSecrets are the Secrets the chart mounts but does not create: the administrator makes
// them before installing (docs/webhook.md, docs/gateway.md).
var userMadeSecrets = []string{"toolgate-webhook-client-ca", "toolgate-gateway-tls"}

// The chart installed under any release name, in any namespace and with the values a platform
// engineer changes, renders objects that find each other: the manager's ServiceAccount, volumes
// (ledger claim, certificate Secrets), the names its arguments give it for its certificate Secret,
// the webhook Service's DNS name, the webhook configuration and the ledger signing key, each
// rendered and granted to it; the webhook configuration's and every Service's and NetworkPolicy's
// selectors reach the pods. Before, release "acme" mounted claim toolgate-ledger (rendered as
// acme-toolgate-ledger) and left the manager looking for toolgate-system's names, and no release
// shipped the ledger signing key Secret the manager may read but not create.
func TestChartObjectsReferToEachOther(t *testing.T) {
	for _, tc := range []struct {
		release, namespace string
		set                []string
	}{
		{"toolgate", operatorNamespace, nil},
		{"acme", "agents-gate", nil},
		{"acme", "agents-gate", []string{"fullnameOverride=gate"}},
		{"acme", "agents-gate", []string{"nameOverride=tg"}},
		{"release-name", "default",
			[]string{"manager.replicas=3", "ledger.accessMode=ReadWriteMany", "networkPolicy.enabled=false"}},
		{"acme", "agents-gate", []string{"certManager.enabled=true", "prometheus.enabled=true"}},
		{"acme", "agents-gate", []string{"gateway.enabled=true", "gateway.toolServerNamespaces={tools}"}},
		{"acme", "agents-gate", []string{"ledger.storageClass=fast", "ledger.size=50Gi"}},
		{"acme", "agents-gate", []string{"ledger.existingClaim=audit-pvc"}},
		{"acme", "agents-gate", []string{"webhook.enabled=false"}},
	} {
		t.Run(tc.release+"/"+tc.namespace+"/"+strings.Join(tc.set, ","), func(t *testing.T) {
			args := setFlags(tc.set)
			objs := renderRelease(t, tc.release, tc.namespace, args...)
			refs := newReferences(t, objs, tc.namespace)
			refs.checkManager(t, tc.set)
			refs.checkSelectors(t)
			refs.checkPlanStatusWriters(t)
		})
	}
}

// renderRelease renders dist/chart as release in namespace, with helm's further arguments.
func renderRelease(t *testing.T, release, namespace string, args ...string) []*unstructured.Unstructured {
	t.Helper()
	out, err := helmTemplate(t, release, namespace, args...)
	if err != nil {
		t.Fatalf("helm template: %v: %s", err, out)
	}
	objs, err := testenv.DecodeYAML([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// references indexes a rendering by kind, namespace and name.
type references struct {
	objs      []*unstructured.Unstructured
	byKey     map[string]*unstructured.Unstructured
	namespace string
}

func newReferences(t *testing.T, objs []*unstructured.Unstructured, namespace string) *references {
	t.Helper()
	r := &references{objs: objs, byKey: map[string]*unstructured.Unstructured{}, namespace: namespace}
	for _, o := range objs {
		// The gateway's policies for the tool servers' namespaces are the one kind placed elsewhere.
		toolServers := o.GetKind() == "NetworkPolicy" && strings.HasSuffix(o.GetName(), "tool-servers-only-from-gateway")
		if o.GetNamespace() != "" && o.GetNamespace() != namespace && !toolServers {
			t.Errorf("%s %s/%s is outside the release's namespace %s", o.GetKind(), o.GetNamespace(), o.GetName(), namespace)
		}
		r.byKey[o.GetKind()+"/"+o.GetName()] = o
	}
	return r
}

func (r *references) has(kind, name string) bool { return r.byKey[kind+"/"+name] != nil }

// manager is the Deployment whose container is named manager.
func (r *references) manager(t *testing.T) (*unstructured.Unstructured, map[string]any) {
	t.Helper()
	for _, o := range r.objs {
		if o.GetKind() != "Deployment" {
			continue
		}
		containers, _, _ := unstructured.NestedSlice(o.Object, "spec", "template", "spec", "containers")
		for _, c := range containers {
			if c := c.(map[string]any); c["name"] == "manager" {
				return o, c
			}
		}
	}
	t.Fatal("no manager Deployment rendered")
	return nil, nil
}

// managerFlag is the value of --name in args, else the manager's default (cmd/main.go).
func managerFlag(args []any, name, def string) string {
	value := def
	for _, a := range args {
		if v, ok := strings.CutPrefix(fmt.Sprint(a), "--"+name+"="); ok {
			value = v
		}
	}
	return value
}

func (r *references) checkManager(t *testing.T, set []string) {
	t.Helper()
	deploy, container := r.manager(t)
	pod, _, _ := unstructured.NestedMap(deploy.Object, "spec", "template", "spec")
	if sa := fmt.Sprint(pod["serviceAccountName"]); !r.has("ServiceAccount", sa) {
		t.Errorf("the manager runs as ServiceAccount %q, which is not rendered", sa)
	}
	volumes, _ := pod["volumes"].([]any)
	for _, v := range volumes {
		v := v.(map[string]any)
		if claim, ok, _ := unstructured.NestedString(v, "persistentVolumeClaim", "claimName"); ok &&
			!r.has("PersistentVolumeClaim", claim) && !slices.Contains(set, "ledger.existingClaim="+claim) {
			t.Errorf("volume %v mounts claim %q, which is not rendered", v["name"], claim)
		}
		if secret, ok, _ := unstructured.NestedString(v, "secret", "secretName"); ok && !r.has("Secret", secret) &&
			!slices.Contains(userMadeSecrets, secret) && !r.certificateWrites(secret) {
			t.Errorf("volume %v mounts Secret %q, which nothing renders or makes", v["name"], secret)
		}
	}
	args, _ := container["args"].([]any)
	ns := managerFlag(args, "cert-secret-namespace", testenv.OperatorNamespace)
	if ns != r.namespace {
		t.Errorf("the manager keeps its certificate and signing key in namespace %q, not the release's %q", ns, r.namespace)
	}
	if !r.has("Secret", audit.SigningSecretName) {
		t.Errorf("the manager reads Secret %q, which is not rendered (it may not create it)", audit.SigningSecretName)
	}
	// The audit record outlives the release: helm uninstall leaves the ledger and its key.
	for _, o := range r.objs {
		record := o.GetKind() == "PersistentVolumeClaim" || o.GetKind() == "Secret" && o.GetName() == audit.SigningSecretName
		if record && o.GetAnnotations()["helm.sh/resource-policy"] != "keep" {
			t.Errorf("helm uninstall deletes %s %s", o.GetKind(), o.GetName())
		}
	}
	webhooks := slices.ContainsFunc(r.objs, func(o *unstructured.Unstructured) bool {
		return o.GetKind() == "ValidatingWebhookConfiguration"
	})
	if disabled := slices.Contains(args, any("--disable-webhooks")); disabled || !webhooks {
		// Without a webhook configuration the manager must not wait for one: it would rotate a
		// certificate into a configuration that does not exist and never become ready.
		if !disabled {
			t.Errorf("no webhook configuration is rendered, but the manager runs its webhooks (no --disable-webhooks)")
		}
		return
	}
	certSecret := managerFlag(args, "cert-secret-name", testenv.CertSecretName)
	vwc := managerFlag(args, "webhook-configuration-name", testenv.WebhookConfigurationName)
	dns := managerFlag(args, "cert-dns-name", "toolgate-webhook-service.toolgate-system.svc")
	if !r.has("Secret", certSecret) {
		t.Errorf("the manager reads Secret %q, which is not rendered (it may not create it)", certSecret)
	}
	if !r.has("ValidatingWebhookConfiguration", vwc) {
		t.Errorf("the manager injects its CA into webhook configuration %q, which is not rendered", vwc)
	}
	r.checkWebhookService(t, dns)
	sa := fmt.Sprint(pod["serviceAccountName"])
	rules := boundRules(t, r.objs, sa, r.namespace)
	for _, want := range []struct{ group, resource, name, ns string }{
		{"", "secrets", certSecret, r.namespace},
		{"", "secrets", audit.SigningSecretName, r.namespace},
		{"admissionregistration.k8s.io", "validatingwebhookconfigurations", vwc, ""},
	} {
		for _, verb := range []string{"get", "update"} {
			if !granted(rules, want.group, want.resource, want.name, want.ns, verb) {
				t.Errorf("the manager's ServiceAccount may not %s %s %q", verb, want.resource, want.name)
			}
		}
	}
}

// certificateWrites says whether a rendered cert-manager Certificate writes Secret name.
func (r *references) certificateWrites(name string) bool {
	return slices.ContainsFunc(r.objs, func(o *unstructured.Unstructured) bool {
		s, _, _ := unstructured.NestedString(o.Object, "spec", "secretName")
		return o.GetKind() == "Certificate" && s == name
	})
}

// checkWebhookService checks that every webhook calls a rendered Service of the release's namespace
// and that the manager's certificate is for that Service's DNS name.
func (r *references) checkWebhookService(t *testing.T, dns string) {
	t.Helper()
	for _, o := range r.objs {
		if o.GetKind() != "ValidatingWebhookConfiguration" {
			continue
		}
		hooks, _, _ := unstructured.NestedSlice(o.Object, "webhooks")
		for _, h := range hooks {
			svc, _, _ := unstructured.NestedMap(h.(map[string]any), "clientConfig", "service")
			name, ns := fmt.Sprint(svc["name"]), fmt.Sprint(svc["namespace"])
			if ns != r.namespace || !r.has("Service", name) {
				t.Errorf("webhook %v calls Service %s/%s, which is not rendered", h.(map[string]any)["name"], ns, name)
			}
			if want := name + "." + ns + ".svc"; dns != want {
				t.Errorf("the manager's serving certificate is for %q; the API server dials %q", dns, want)
				return
			}
		}
	}
}

// checkSelectors checks that every Service and NetworkPolicy selects the pods of a rendered
// Deployment, and that every binding's ServiceAccount is rendered.
func (r *references) checkSelectors(t *testing.T) {
	t.Helper()
	var pods []map[string]string
	for _, o := range r.objs {
		if o.GetKind() == "Deployment" {
			labels, _, _ := unstructured.NestedStringMap(o.Object, "spec", "template", "metadata", "labels")
			pods = append(pods, labels)
		}
	}
	selects := func(selector map[string]string) bool {
		return len(selector) > 0 && slices.ContainsFunc(pods, func(labels map[string]string) bool {
			for k, v := range selector {
				if labels[k] != v {
					return false
				}
			}
			return true
		})
	}
	for _, o := range r.objs {
		var selector map[string]string
		switch o.GetKind() {
		case "Service":
			selector, _, _ = unstructured.NestedStringMap(o.Object, "spec", "selector")
		case "NetworkPolicy":
			selector, _, _ = unstructured.NestedStringMap(o.Object, "spec", "podSelector", "matchLabels")
			if len(selector) == 0 {
				continue // a policy for another namespace's pods (the tool servers')
			}
		case "PodDisruptionBudget":
			selector, _, _ = unstructured.NestedStringMap(o.Object, "spec", "selector", "matchLabels")
		case "ClusterRoleBinding", "RoleBinding":
			subjects, _, _ := unstructured.NestedSlice(o.Object, "subjects")
			for _, s := range subjects {
				s := s.(map[string]any)
				rendered := s["namespace"] == r.namespace && r.has("ServiceAccount", fmt.Sprint(s["name"]))
				if s["kind"] == "ServiceAccount" && !rendered {
					t.Errorf("%s %s binds ServiceAccount %v/%v, which is not rendered",
						o.GetKind(), o.GetName(), s["namespace"], s["name"])
				}
			}
			continue
		default:
			continue
		}
		if !selects(selector) {
			t.Errorf("%s %s selects %v, which no rendered Deployment's pods carry", o.GetKind(), o.GetName(), selector)
		}
	}
}

// checkPlanStatusWriters: the admission policy that lets only the operator write AgentPlan status
// names the rendered manager's ServiceAccount in the release's namespace, and its binding names it.
func (r *references) checkPlanStatusWriters(t *testing.T) {
	t.Helper()
	deploy, _ := r.manager(t)
	sa, _, _ := unstructured.NestedString(deploy.Object, "spec", "template", "spec", "serviceAccountName")
	var policy, binding *unstructured.Unstructured
	for _, o := range r.objs {
		switch o.GetKind() {
		case "ValidatingAdmissionPolicy":
			policy = o
		case "ValidatingAdmissionPolicyBinding":
			binding = o
		}
	}
	if policy == nil || binding == nil {
		t.Fatalf("no ValidatingAdmissionPolicy and binding for AgentPlan status writers")
	}
	validations, _, _ := unstructured.NestedSlice(policy.Object, "spec", "validations")
	want := fmt.Sprintf(`"system:serviceaccount:%s:%s"`, r.namespace, sa)
	if len(validations) != 1 || !strings.Contains(fmt.Sprint(validations[0].(map[string]any)["expression"]), want) {
		t.Errorf("policy %s does not admit the manager's ServiceAccount %s: %v", policy.GetName(), want, validations)
	}
	if name, _, _ := unstructured.NestedString(binding.Object, "spec", "policyName"); name != policy.GetName() {
		t.Errorf("binding %s names policy %q, not %q", binding.GetName(), name, policy.GetName())
	}
}

// granted says whether rules let their subject do verb on the named object (ns "" for a
// cluster-scoped resource).
func granted(rules []boundRule, group, resource, name, ns, verb string) bool {
	return slices.ContainsFunc(rules, func(b boundRule) bool {
		r := b.rule
		return (b.namespace == "" || b.namespace == ns) && slices.Contains(r.APIGroups, group) &&
			slices.Contains(r.Resources, resource) && slices.Contains(r.Verbs, verb) &&
			(len(r.ResourceNames) == 0 || slices.Contains(r.ResourceNames, name))
	})
}
