package main

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
)

// signedLedger writes a signed ledger and returns its directory, the public key file and an
// AuditLedger file with the published head, as "kubectl get auditledger default -o yaml" gives.
func signedLedger(t *testing.T) (dir, pubFile, headsFile string) {
	t.Helper()
	dir = t.TempDir()
	key, err := ledger.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	cfg := ledger.Config{Dir: dir, Writer: "webhook-0", MaxSegmentBytes: 2048, Compress: true, SigningKey: key}
	j, err := ledger.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		appendDecision(t, j, i)
	}
	if _, err := j.Maintain(time.Now()); err != nil {
		t.Fatal(err)
	}
	appendDecision(t, j, 20)
	h, _, err := j.SignHead()
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	pem, err := ledger.EncodePublicKey(key.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	pubFile = filepath.Join(out, "ed25519.pub")
	writeTestFile(t, pubFile, pem)
	al := safetyv1alpha1.AuditLedger{
		TypeMeta:   metav1.TypeMeta{APIVersion: "safety.toolgate.dev/v1alpha1", Kind: "AuditLedger"},
		ObjectMeta: metav1.ObjectMeta{Name: "default"},
		Status: safetyv1alpha1.AuditLedgerStatus{SignedHeads: []safetyv1alpha1.LedgerSignedHead{{
			Writer: h.Writer, Seq: int64(h.Seq), Hash: h.Hash, Segment: h.Segment, SignedAt: metav1.NewTime(h.SignedAt),
			KeyID: h.KeyID, Signature: h.Signature}}}}
	b, err := yaml.Marshal(al)
	if err != nil {
		t.Fatal(err)
	}
	headsFile = filepath.Join(out, "auditledger.yaml")
	writeTestFile(t, headsFile, b)
	return dir, pubFile, headsFile
}

func writeTestFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestLedgerVerifyWithAnchors(t *testing.T) {
	dir, pub, heads := signedLedger(t)
	code, out, errOut := runCLI(t, "ledger", "verify", dir, "--public-key", pub, "--heads", heads)
	if code != exitOK || strings.Contains(out, "cannot prove") || errOut != "" {
		t.Fatalf("verify with anchors: exit %d %q %q", code, out, errOut)
	}

	// The newest records removed together with the head file and head.sig: the chain alone
	// still verifies (and says what it cannot prove); the published head shows the cut.
	live, _ := filepath.Glob(filepath.Join(dir, "webhook-0", "*.jsonl"))
	for _, f := range append(live, filepath.Join(dir, "webhook-0", "head"), filepath.Join(dir, "webhook-0", "head.sig")) {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	code, out, _ = runCLI(t, "ledger", "verify", dir)
	if code != exitOK || !strings.Contains(out, "cannot prove: no published heads") {
		t.Fatalf("verify without anchors: exit %d %q", code, out)
	}
	code, out, _ = runCLI(t, "ledger", "verify", dir, "--public-key", pub, "--heads", heads)
	if code != exitFailed || !strings.HasPrefix(out, "BROKEN: writer webhook-0: ") ||
		!strings.Contains(out, "records were cut from the end") {
		t.Fatalf("verify of a truncated ledger: exit %d %q", code, out)
	}
}

func TestLedgerVerifyAnchorErrors(t *testing.T) {
	dir, pub, heads := signedLedger(t)
	junk := filepath.Join(t.TempDir(), "junk")
	writeTestFile(t, junk, []byte("hello"))
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--public-key", junk}, "--public-key " + junk},
		{[]string{"--public-key", filepath.Join(dir, "missing")}, "--public-key:"},
		{[]string{"--heads", junk}, "--heads " + junk},
		{[]string{"--heads", pub}, "--heads " + pub},
		{[]string{"--heads", heads, "--heads-from-cluster"}, "give one"},
	} {
		code, _, errOut := runCLI(t, append([]string{"ledger", "verify", dir}, tt.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want it to name %q", tt.args, code, errOut, tt.want)
		}
	}
}
