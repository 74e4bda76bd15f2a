package manifests

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/testenv"
)

// TestChartInstallUpgradeUninstall drives the real Helm against a real API server the way a
// platform engineer does: helm install, the operator filling what it owns (the ledger's signing
// key, the webhook's caBundle), helm upgrade with a changed value, helm uninstall, and helm
// install again. What must hold, as for cert-manager's or Gatekeeper's charts:
//   - install and upgrade succeed;
//   - an upgrade keeps what the operator wrote (the signing key that every signature depends on,
//     the webhook configuration's caBundle);
//   - uninstall keeps the CRDs (crd.keep), the ledger's claim and its signing key (the values say
//     they are kept: they are the audit record);
//   - installing the same release again adopts what was kept.
//
// helmCluster is a real API server without toolgate's CRDs (the chart installs them), a client
// of it, and a function that runs the pinned Helm against it.
func helmCluster(t *testing.T) (client.Client, func(args ...string) (string, error)) {
	t.Helper()
	assets, err := testenv.AssetsDir()
	if err != nil {
		t.Fatal(err)
	}
	env := &envtest.Environment{BinaryAssetsDirectory: assets} // no CRDs: the chart installs them
	cfg, err := env.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	admin, err := env.ControlPlane.AddUser(envtest.User{Name: "helm-admin", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	kc, err := admin.KubeConfig()
	if err != nil {
		t.Fatal(err)
	}
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kubeconfig, kc, 0o600); err != nil {
		t.Fatal(err)
	}
	helmBin := helm(t)
	home := t.TempDir()
	run := func(args ...string) (string, error) {
		cmd := exec.Command(helmBin, append(args, "--kubeconfig", kubeconfig)...)
		cmd.Env = append(os.Environ(), "HELM_CACHE_HOME="+filepath.Join(home, "cache"),
			"HELM_CONFIG_HOME="+filepath.Join(home, "config"), "HELM_DATA_HOME="+filepath.Join(home, "data"))
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	scheme := runtime.NewScheme()
	_ = clientgoscheme.AddToScheme(scheme)
	_ = apiextensionsv1.AddToScheme(scheme)
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	return c, run
}

// The namespace and release the lifecycle tests install the chart as.
const chartNamespace, chartRelease = "toolgate-system", "toolgate"

// installedChart is helmCluster with the chart (dist/chart) installed in it with its defaults; it
// returns the chart's path for the upgrades the tests make.
func installedChart(t *testing.T) (client.Client, func(args ...string) (string, error), string) {
	t.Helper()
	c, run := helmCluster(t)
	chart, err := testenv.Path("dist", "chart")
	if err != nil {
		t.Fatal(err)
	}
	if out, err := run("install", chartRelease, chart, "-n", chartNamespace, "--create-namespace"); err != nil {
		t.Fatalf("helm install: %v\n%s", err, out)
	}
	return c, run, chart
}

func TestChartInstallUpgradeUninstall(t *testing.T) {
	c, run, chart := installedChart(t)
	ctx := context.Background()
	const ns, release = chartNamespace, chartRelease

	// What the operator writes at its first start.
	keySecret := &corev1.Secret{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: audit.SigningSecretName}, keySecret); err != nil {
		t.Fatalf("the chart installed no signing key Secret: %v", err)
	}
	keySecret.Data = map[string][]byte{"ed25519.key": []byte("private"), "ed25519.pub": []byte("public")}
	if err := c.Update(ctx, keySecret, client.FieldOwner("manager")); err != nil {
		t.Fatal(err)
	}
	vwcs := &admissionregistrationv1.ValidatingWebhookConfigurationList{}
	if err := c.List(ctx, vwcs); err != nil || len(vwcs.Items) != 1 {
		t.Fatalf("want the chart's one ValidatingWebhookConfiguration, got %d (%v)", len(vwcs.Items), err)
	}
	vwc := &vwcs.Items[0]
	for i := range vwc.Webhooks {
		vwc.Webhooks[i].ClientConfig.CABundle = []byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
	}
	if err := c.Update(ctx, vwc, client.FieldOwner("manager")); err != nil {
		t.Fatal(err)
	}

	if out, err := run("upgrade", release, chart, "-n", ns, "--set", "manager.resources.limits.memory=256Mi"); err != nil {
		t.Fatalf("helm upgrade: %v\n%s", err, out)
	}
	if err := c.Get(ctx, client.ObjectKeyFromObject(keySecret), keySecret); err != nil {
		t.Fatal(err)
	}
	if string(keySecret.Data["ed25519.pub"]) != "public" {
		t.Errorf("helm upgrade emptied the ledger's signing key Secret (data %v): every signature made so far is orphaned",
			keySecret.Data)
	}
	if err := c.Get(ctx, client.ObjectKeyFromObject(vwc), vwc); err != nil {
		t.Fatal(err)
	}
	for _, w := range vwc.Webhooks {
		if len(w.ClientConfig.CABundle) == 0 {
			t.Errorf("helm upgrade dropped webhook %s's caBundle: the API server cannot call it until the operator "+
				"injects it again", w.Name)
		}
	}

	if out, err := run("uninstall", release, "-n", ns); err != nil {
		t.Fatalf("helm uninstall: %v\n%s", err, out)
	}
	crds := &apiextensionsv1.CustomResourceDefinitionList{}
	if err := c.List(ctx, crds); err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, crd := range crds.Items {
		if strings.HasSuffix(crd.Name, ".toolgate.dev") {
			kept++
		}
	}
	if kept != 9 {
		t.Errorf("helm uninstall left %d of toolgate's 9 CRDs (crd.keep is true by default)", kept)
	}
	if err := c.Get(ctx, client.ObjectKeyFromObject(keySecret), &corev1.Secret{}); err != nil {
		t.Errorf("helm uninstall deleted the ledger's signing key Secret: %v", err)
	}
	pvcs := &corev1.PersistentVolumeClaimList{}
	if err := c.List(ctx, pvcs, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	if len(pvcs.Items) != 1 {
		t.Errorf("helm uninstall left %d ledger claims, want the one the chart made (kept)", len(pvcs.Items))
	}

	if out, err := run("install", release, chart, "-n", ns); err != nil {
		t.Errorf("helm install of the same release after uninstall (CRDs, claim and key kept): %v\n%s", err, out)
	}
	if err := c.Get(ctx, client.ObjectKeyFromObject(keySecret), keySecret); err != nil {
		t.Fatal(err)
	}
	if string(keySecret.Data["ed25519.pub"]) != "public" {
		t.Errorf("reinstalling emptied the ledger's signing key Secret (data %v)", keySecret.Data)
	}
}

// `helm upgrade --force-replace` (Helm 3's --force) replaces every object of the release with
// what the chart renders, the usual way out of an upgrade stuck on an immutable field. The chart
// renders the ledger's signing key Secret empty, so a replacing upgrade throws away the key the
// operator generated: the operator then makes a new one, and every seal and head signed before
// reads as signed by a foreign key. Charts that ship a Secret an operator fills keep its data
// across such upgrades (a lookup of the live Secret), or do not render its data at all in a way
// a replacement can wipe.
func TestChartForcedUpgradeKeepsTheSigningKey(t *testing.T) {
	c, run, chart := installedChart(t)
	ctx := context.Background()
	const ns, release = chartNamespace, chartRelease
	key := &corev1.Secret{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: audit.SigningSecretName}, key); err != nil {
		t.Fatal(err)
	}
	key.Data = map[string][]byte{"ed25519.key": []byte("private"), "ed25519.pub": []byte("public")}
	if err := c.Update(ctx, key, client.FieldOwner("manager")); err != nil {
		t.Fatal(err)
	}
	if out, err := run("upgrade", release, chart, "-n", ns, "--force-replace", "--server-side=false"); err != nil {
		t.Fatalf("helm upgrade --force-replace: %v\n%s", err, out)
	}
	if err := c.Get(ctx, client.ObjectKeyFromObject(key), key); err != nil {
		t.Fatal(err)
	}
	if string(key.Data["ed25519.pub"]) != "public" {
		t.Errorf("helm upgrade --force-replace emptied the ledger's signing key Secret (data %v): "+
			"the operator generates a new key "+
			"and every signature made so far reads as foreign", key.Data)
	}
}
