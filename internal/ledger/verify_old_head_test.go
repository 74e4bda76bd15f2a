package ledger

import (
	"bytes"
	"strings"
	"testing"
)

// Without published heads, head.sig is the only anchor of a chain's end; the writer rewrites it
// every few seconds, and every head.sig it ever wrote verifies. A forger who cuts the newest
// records, rewrites the head file and puts back a head.sig the writer signed earlier (at the new
// end) passes verify with the key: the report must not claim that a head.sig on the volume
// detects the cut.
func TestVerifyWithTheKeyAloneSaysAnOlderHeadSigHidesACut(t *testing.T) {
	f := newSignedFixture(t)
	l := f.lines(t, f.live)
	n := len(l) - 10
	f.rewrite(t, f.live, l[:n])
	f.setHead(t, f.live, l[n-1])
	p, err := parseLine(bytes.TrimSuffix(l[n-1], []byte("\n")))
	if err != nil {
		t.Fatal(err)
	}
	older := SignHead(testKey(1), SignedHead{Writer: "webhook-0", Seq: p.Seq, Hash: p.hash, Segment: f.live, SignedAt: day0})
	if err := writeSignature(f.dir, headSigFile, older); err != nil {
		t.Fatal(err)
	}
	rep, err := VerifyWith(f.root, VerifyOptions{PublicKey: f.pub})
	if err != nil {
		t.Fatalf("the key alone cannot see this cut, yet verify says: %v", err)
	}
	limits := strings.Join(rep.Limits, "\n")
	if !strings.Contains(limits, "no published heads") || !strings.Contains(limits, "head.sig the writer signed earlier") {
		t.Fatalf("the report does not say an older head.sig hides a cut: %q", rep.Limits)
	}
	// With the published head the cut is found.
	if _, err := VerifyWith(f.root, f.anchors()); err == nil {
		t.Fatal("the published head did not catch the cut")
	}
}
