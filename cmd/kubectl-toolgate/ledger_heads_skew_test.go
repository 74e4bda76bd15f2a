package main

import (
	"os"
	"strings"
	"testing"
)

// An auditor's plugin is often older (or newer) than the operator whose AuditLedger they saved
// with `kubectl get auditledger default -o yaml`. The published heads are what verify needs from
// that file; a field the plugin does not know elsewhere in the object (a condition type, a new
// status or spec field of a later release) says nothing about them. --heads reads the file
// strictly and refuses it whole, so the auditor cannot verify against the anchors at all.
func TestLedgerVerifyReadsHeadsFromANewerAuditLedger(t *testing.T) {
	dir, pub, heads := signedLedger(t)
	b, err := os.ReadFile(heads)
	if err != nil {
		t.Fatal(err)
	}
	newer := strings.Replace(string(b), "status:\n", "status:\n  observedGeneration: 3\n  replicationLag: 2s\n", 1)
	newer = strings.Replace(newer, "metadata:\n", "metadata:\n  uid: 6f1c2d3e-0000-4000-8000-000000000001\n", 1)
	if newer == string(b) {
		t.Fatalf("fixture: no status in %s", b)
	}
	writeTestFile(t, heads, []byte(newer))
	code, out, errOut := runCLI(t, "ledger", "verify", dir, "--public-key", pub, "--heads", heads)
	if code != exitOK {
		t.Errorf("verify --heads with an AuditLedger carrying fields this plugin does not know: exit %d\n%s%s",
			code, out, errOut)
	}
}
