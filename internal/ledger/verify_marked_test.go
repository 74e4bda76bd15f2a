package ledger

import (
	"crypto/ed25519"
	"errors"
	"strings"
	"testing"
	"time"
)

// A published head its writer marked as no longer on its chain breaks the chain in verify, even
// when the chain verifies against it now: the writer saw the rollback; the volume may since have
// lost what showed it. Without the mark the same chain verifies.
func TestVerifyBreaksAChainWhoseHeadItsWriterMarked(t *testing.T) {
	key := testKey(1)
	cfg := testConfig(t, newFakeClock(day0))
	cfg.SigningKey = key
	j := mustOpen(t, cfg)
	appendN(t, j, 10)
	head, ok, err := j.SignHead()
	if err != nil || !ok {
		t.Fatalf("SignHead: %v %v", ok, err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	anchors := VerifyOptions{PublicKey: key.Public().(ed25519.PublicKey), Heads: []SignedHead{head}}
	if _, err := VerifyWith(cfg.Dir, anchors); err != nil {
		t.Fatalf("unmarked: %v", err)
	}
	marked := head
	marked.NotOnChainSince = day0.Add(2 * time.Hour)
	if err := marked.Verify(anchors.PublicKey); err != nil {
		t.Fatalf("the mark is not signed, so the head still verifies: %v", err)
	}
	anchors.Heads = []SignedHead{marked}
	rep, err := VerifyWith(cfg.Dir, anchors)
	if !errors.Is(err, ErrBroken) || rep.OK() {
		t.Fatalf("marked: %v, report ok %v; want the chain broken", err, rep.OK())
	}
	if s := rep.Summary(); !strings.Contains(s, "the volume no longer held its published head") ||
		!strings.Contains(s, "writer "+cfg.Writer) {
		t.Fatalf("summary %q does not name the writer and the mark", s)
	}
}
