package manifests

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/testenv"
)

// Near misses of the shipped AuditLedger: config/default's keeps its name and has no namespace
// (namePrefix and namespace would make it toolgate-default in toolgate-system, which the CRD
// refuses); both installs create it through a webhook entry that does not fail closed (the
// operator is not serving yet when the install creates it), while its update and delete still do.
func TestTheShippedAuditLedgerIsNamedDefaultAndCreatedBeforeTheOperatorServes(t *testing.T) {
	kustomized, _, err := testenv.RenderDefault(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	installs := map[string][]*unstructured.Unstructured{"config/default": kustomized, "the chart": renderChart(t)}
	for name, objs := range installs {
		var ledgers int
		for _, o := range objs {
			switch o.GetKind() {
			case "AuditLedger":
				ledgers++
				if o.GetName() != audit.LedgerName || o.GetNamespace() != "" {
					t.Errorf("%s: AuditLedger %s/%s, want cluster-scoped %q", name, o.GetNamespace(), o.GetName(), audit.LedgerName)
				}
			case "ValidatingWebhookConfiguration":
				ops := map[admissionregistrationv1.OperationType]admissionregistrationv1.FailurePolicyType{}
				hooks, _, _ := unstructured.NestedSlice(o.Object, "webhooks")
				for _, h := range hooks {
					m := h.(map[string]any)
					policy, _ := m["failurePolicy"].(string)
					rules, _ := m["rules"].([]any)
					for _, r := range rules {
						rm := r.(map[string]any)
						if res, _ := rm["resources"].([]any); !slices.Contains(res, any("auditledgers")) {
							continue
						}
						for _, op := range rm["operations"].([]any) {
							ops[admissionregistrationv1.OperationType(op.(string))] = admissionregistrationv1.FailurePolicyType(policy)
						}
					}
				}
				want := map[admissionregistrationv1.OperationType]admissionregistrationv1.FailurePolicyType{
					admissionregistrationv1.Create: admissionregistrationv1.Ignore,
					admissionregistrationv1.Update: admissionregistrationv1.Fail,
					admissionregistrationv1.Delete: admissionregistrationv1.Fail,
				}
				for op, p := range want {
					if ops[op] != p {
						t.Errorf("%s: the AuditLedger's %s goes to a webhook with failurePolicy %q, want %q", name, op, ops[op], p)
					}
				}
			}
		}
		if ledgers != 1 {
			t.Errorf("%s: %d AuditLedgers, want one", name, ledgers)
		}
	}
}

// The chart's AuditLedger is created by helm install on a cluster without toolgate's CRDs (a
// hook: Helm cannot build a custom resource of a CRD the same release creates), is never
// replaced by an upgrade or a reinstall (an administrator's spec stays), and is kept by helm
// uninstall with its heads.
func TestChartCreatesTheAuditLedgerOnceAndKeepsIt(t *testing.T) {
	c, run, chart := installedChart(t)
	ctx := context.Background()
	const ns, release = chartNamespace, chartRelease
	al := &unstructured.Unstructured{}
	al.SetGroupVersionKind(schema.GroupVersionKind{Group: "safety.toolgate.dev", Version: "v1alpha1", Kind: "AuditLedger"})
	key := client.ObjectKey{Name: audit.LedgerName}
	if err := c.Get(ctx, key, al); err != nil {
		t.Fatalf("helm install created no AuditLedger %s: %v", audit.LedgerName, err)
	}
	// An administrator's edit (no operator serves the webhook here: its configuration goes first).
	if err := c.DeleteAllOf(ctx, &admissionregistrationv1.ValidatingWebhookConfiguration{}); err != nil {
		t.Fatal(err)
	}
	if err := unstructured.SetNestedField(al.Object, int64(30), "spec", "retention", "maxAgeDays"); err != nil {
		t.Fatal(err)
	}
	// The API server learns of the deletion through its own watch of webhook configurations: until
	// then it still calls the webhook no one serves, and the edit fails to reach it.
	edited := func(ctx context.Context) (bool, error) {
		err := c.Update(ctx, al)
		if err != nil && strings.Contains(err.Error(), "failed calling webhook") {
			return false, nil
		}
		return err == nil, err
	}
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, edited); err != nil {
		t.Fatal(err)
	}
	kept := func(when string) {
		t.Helper()
		if err := c.Get(ctx, key, al); err != nil {
			t.Fatalf("%s: the AuditLedger is gone: %v", when, err)
		}
		if d, _, _ := unstructured.NestedInt64(al.Object, "spec", "retention", "maxAgeDays"); d != 30 {
			t.Errorf("%s: the AuditLedger's spec was replaced (maxAgeDays %d, want the administrator's 30)", when, d)
		}
	}
	if out, err := run("upgrade", release, chart, "-n", ns); err != nil {
		t.Fatalf("helm upgrade: %v\n%s", err, out)
	}
	kept("after helm upgrade")
	if out, err := run("uninstall", release, "-n", ns); err != nil {
		t.Fatalf("helm uninstall: %v\n%s", err, out)
	}
	kept("after helm uninstall")
	if out, err := run("install", release, chart, "-n", ns); err != nil {
		t.Fatalf("helm install again: %v\n%s", err, out)
	}
	kept("after helm install again")
}
