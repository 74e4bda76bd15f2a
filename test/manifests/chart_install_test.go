package manifests

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/testenv"
)

// The chart installed as release "acme" in namespace agents-gate with a platform's usual values
// (three replicas, the gateway, a StorageClass, pull secrets, node placement) is accepted by a
// real API server, and under the RBAC it installs the manager's ServiceAccount does what the
// manager does first: fill the ledger's signing key with the manager's own code
// (audit.LoadSigningKey) and read and update its certificate Secret and webhook configuration.
// Before, the chart shipped no signing key Secret, which the manager may not create, so the
// manager stopped at start under any release name.
func TestChartInstallsUnderAnotherRelease(t *testing.T) {
	env, err := testenv.New()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := env.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	ctx := context.Background()
	admin, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const ns = "agents-gate"
	for _, name := range []string{ns, "tools"} {
		if err := admin.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}); err != nil {
			t.Fatal(err)
		}
	}
	objs := renderRelease(t, "acme", ns, "--set", "manager.replicas=3", "--set", "gateway.enabled=true",
		"--set", "gateway.toolServerNamespaces={tools}", "--set", "ledger.storageClass=fast",
		"--set", "ledger.accessMode=ReadWriteMany",
		"--set", "ledger.size=50Gi", "--set", "manager.imagePullSecrets[0].name=regcred",
		"--set", "manager.nodeSelector.pool=system", "--set", "manager.tolerations[0].operator=Exists",
		"--set", "manager.podSecurityContext.runAsUser=1000")
	for _, o := range objs {
		if o.GetKind() == "CustomResourceDefinition" {
			continue // installed from config/crd/bases, which TestChartMatchesKustomize holds them to
		}
		if err := admin.Create(ctx, o); err != nil {
			t.Errorf("the API server refuses %s %s/%s: %v", o.GetKind(), o.GetNamespace(), o.GetName(), err)
		}
	}
	r := newReferences(t, objs, ns)
	deploy, container := r.manager(t)
	sa, _, _ := unstructured.NestedString(deploy.Object, "spec", "template", "spec", "serviceAccountName")
	asManager := rest.CopyConfig(cfg)
	asManager.Impersonate = rest.ImpersonationConfig{
		UserName: fmt.Sprintf("system:serviceaccount:%s:%s", ns, sa),
		Groups:   []string{"system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated"},
	}
	manager, err := client.New(asManager, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	args, _ := container["args"].([]any)
	keyNS := managerFlag(args, "cert-secret-namespace", testenv.OperatorNamespace)
	signingKey := client.ObjectKey{Namespace: keyNS, Name: audit.SigningSecretName}
	if _, err := audit.LoadSigningKey(ctx, manager, signingKey); err != nil {
		t.Errorf("the manager cannot load its ledger signing key: %v", err)
	}
	secret := &corev1.Secret{}
	key := client.ObjectKey{Namespace: keyNS, Name: managerFlag(args, "cert-secret-name", testenv.CertSecretName)}
	if err := manager.Get(ctx, key, secret); err != nil {
		t.Errorf("the manager cannot read its certificate Secret: %v", err)
	} else if err := manager.Update(ctx, secret); err != nil {
		t.Errorf("the manager cannot update its certificate Secret: %v", err)
	}
	vwc := &unstructured.Unstructured{}
	vwc.SetAPIVersion("admissionregistration.k8s.io/v1")
	vwc.SetKind("ValidatingWebhookConfiguration")
	name := managerFlag(args, "webhook-configuration-name", testenv.WebhookConfigurationName)
	if err := manager.Get(ctx, client.ObjectKey{Name: name}, vwc); err != nil {
		t.Errorf("the manager cannot read its webhook configuration: %v", err)
	} else if err := manager.Update(ctx, vwc); err != nil {
		t.Errorf("the manager cannot update its webhook configuration: %v", err)
	}
}
