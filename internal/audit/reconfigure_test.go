package audit

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
)

func TestReconfigureFromTheSpec(t *testing.T) {
	j, err := ledger.Open(Config(nil, t.TempDir(), "webhook-0", nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	spec := &safetyv1alpha1.AuditLedgerSpec{
		Rotation:    safetyv1alpha1.LedgerRotation{MaxSegmentBytes: 4096},
		Compression: safetyv1alpha1.LedgerCompressionNone,
		Redaction:   safetyv1alpha1.LedgerRedaction{ExtraKeys: []string{"session"}},
	}
	changed, err := Reconfigure(j, spec)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"spec.rotation.maxSegmentBytes", "spec.compression", "spec.redaction.extraKeys"}
	if diff := cmp.Diff(want, changed); diff != "" {
		t.Fatalf("changed (-want +got)\n%s", diff)
	}
	if changed, err := Reconfigure(j, spec); err != nil || len(changed) != 0 {
		t.Fatalf("the same spec again: %v, %v", changed, err)
	}

	bad := spec.DeepCopy()
	bad.Redaction.ExtraKeys = []string{"session", " "}
	_, err = Reconfigure(j, bad)
	var se *SettingError
	var ce *ledger.ConfigError
	if !errors.As(err, &se) || se.Path != "spec.redaction.extraKeys[1]" || !errors.As(err, &ce) {
		t.Fatalf("Reconfigure with a blank key: %v", err)
	}
	if got := err.Error(); got != `spec.redaction.extraKeys[1] is blank (" "): a redaction key is a key substring to hide, and a blank one would hide nothing` {
		t.Fatalf("message %q", got)
	}
	if s := j.Settings(); s.MaxSegmentBytes != 4096 || !cmp.Equal(s.RedactKeys, []string{"session"}) {
		t.Fatalf("a refused spec changed the journal: %+v", s)
	}
	// No AuditLedger: back to the defaults.
	if changed, err := Reconfigure(j, nil); err != nil || len(changed) != 3 {
		t.Fatalf("defaults: %v, %v", changed, err)
	}
}
