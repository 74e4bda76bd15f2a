package manifests

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/testenv"
)

// Issue 17: "the latest signed head per writer is published in AuditLedger.status (outside the
// volume)". The heads are published into the cluster's one AuditLedger, "default"; without it the
// publisher has "nowhere to publish" and returns nil (internal/audit/heads.go), every 10 s, for
// ever, and no log line says so. Neither install the README gives (helm install dist/chart,
// kubectl apply -k config/default) creates that AuditLedger, and the operator does not create it
// either (it creates the built-in SafetyProfiles, not this): only `make demo`'s samples do. So a
// production install following the README anchors nothing outside the volume — no published
// heads, no HeadsOnChain condition, no status.volume headroom — and `verify --heads-from-cluster`
// fails with "not found". A default install must give the heads somewhere to go.
func TestDefaultInstallsGiveTheSignedHeadsAnAuditLedger(t *testing.T) {
	has := func(objs []*unstructured.Unstructured) bool {
		for _, o := range objs {
			if o.GetKind() == "AuditLedger" && o.GetName() == audit.LedgerName {
				return true
			}
		}
		return false
	}
	if !has(renderChart(t)) {
		t.Errorf("helm template of dist/chart with its defaults renders no AuditLedger %q for the signed heads",
			audit.LedgerName)
	}
	kustomized, _, err := testenv.RenderDefault(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !has(kustomized) {
		t.Errorf("config/default renders no AuditLedger %q for the signed heads", audit.LedgerName)
	}
}
