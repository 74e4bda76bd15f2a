package main

import (
	"crypto/ed25519"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate/internal/ledger"
)

// Replay's report starts with "ledger DIR: verified", and it refuses (exit 2) a ledger that does
// not verify, "so what it replays may not be what was decided". But it verifies without anchors
// (ledger.Verify) and takes neither --public-key nor the published heads, so a ledger forged
// whole — every record written and hashed by someone without the operator's key, or records cut
// from the end — is reported "verified" and replayed as what was decided. An auditor replaying a
// copy of the volume should be able to give replay the same anchors verify takes, and a report
// that says "verified" about a ledger no anchor was checked against should say so.
func TestReplayChecksTheLedgerAgainstTheAnchors(t *testing.T) {
	genuine, err := ledger.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	forger, err := ledger.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	// A whole ledger written by someone with the forger's key, not the operator's.
	dir := t.TempDir()
	j, err := ledger.Open(ledger.Config{Dir: dir, Writer: "webhook-0", MaxSegmentBytes: 2048, Compress: true,
		SigningKey: forger})
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
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	pem, err := ledger.EncodePublicKey(genuine.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	pub := filepath.Join(t.TempDir(), "ed25519.pub")
	writeTestFile(t, pub, pem)

	// verify, given the operator's key, refuses it.
	if code, out, _ := runCLI(t, "ledger", "verify", dir, "--public-key", pub); code != exitFailed {
		t.Fatalf("fixture: verify with the operator's key: exit %d, want 1\n%s", code, out)
	}
	// replay, given the same key, must not replay it as what was decided.
	code, out, errOut := runCLI(t, "replay", "--ledger", dir, "--public-key", pub)
	if code == exitUsage && strings.Contains(errOut, "does not verify") {
		return
	}
	t.Errorf("replay --public-key: exit %d, want 2 with \"the ledger does not verify\" "+
		"(replay cannot check the ledger against the key)\nstdout: %s\nstderr: %s",
		code, out, errOut)
	code, out, _ = runCLI(t, "replay", "--ledger", dir)
	if code != exitUsage && strings.Contains(out, ": verified (") && !strings.Contains(out, "cannot prove") {
		t.Errorf("without anchors replay calls a ledger signed by a foreign key %q "+
			"and says nothing of what it cannot prove:\n%s",
			"verified", out)
	}
}
