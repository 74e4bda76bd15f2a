package ledger

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// appendForgedRetention appends to the live segment, as a forger with write access and no key
// would, a retention record that claims the oldest sealed segment was deleted (linked and
// hashed like the writer's own, naming that segment's seal), and deletes the segment and its
// signature. It returns the forged record's seq and line.
func appendForgedRetention(t *testing.T, f signedFixture) (uint64, int) {
	t.Helper()
	l := f.lines(t, f.live)
	last, err := parseLine(bytes.TrimSuffix(l[len(l)-1], []byte("\n")))
	if err != nil {
		t.Fatal(err)
	}
	oldest := strings.TrimSuffix(f.sealed[0], gzipExt)
	sl := f.lines(t, f.sealed[0])
	seal, err := parseLine(bytes.TrimSuffix(sl[len(sl)-1], []byte("\n")))
	if err != nil {
		t.Fatal(err)
	}
	fields := map[string]any{fieldReason: "maxAge", "deleted": []any{oldest},
		"through": map[string]any{fieldSegment: oldest, "seq": json.Number(strconv.FormatUint(seal.Seq, 10)), "hash": seal.hash}}
	body := appendBody(last.Seq+1, last.Time, last.Writer, KindRetention, mustCanonical(t, fields), last.hash)
	f.rewrite(t, f.live, append(l, []byte(resign(string(body))+"\n")))
	f.remove(t, f.sealed[0], oldest+sigExt)
	return last.Seq + 1, len(l) + 1
}

// Whoever holds the volume without the key can append a record that links and hashes like the
// writer's own after its newest signature. A retention record so appended would excuse deleting
// the oldest segments, signed history the published head chains through, and the chain would
// verify with every anchor, saying only that one record follows the newest signature. With the
// key, the retention record that excuses a chain's start must itself be signed.
func TestVerifyWithTheKeyRefusesAnUnsignedRetentionRecord(t *testing.T) {
	f := newSignedFixture(t)
	seq, line := appendForgedRetention(t, f)
	for name, o := range map[string]VerifyOptions{"key and published heads": f.anchors(), "key alone": {PublicKey: f.pub}} {
		rep, err := VerifyWith(f.root, o)
		b := rep.FirstBreak()
		if !errors.Is(err, ErrBroken) || b == nil {
			t.Fatalf("%s: the oldest segment deleted under an unsigned retention record verified: %v, limits %q\n%s", name, err, rep.Limits, dumpChains(rep))
		}
		if b.File != f.live || b.Line != line || b.Seq != seq || !strings.Contains(b.What, "retention record") || !strings.Contains(b.What, "unsigned") {
			t.Fatalf("%s: first break %s, want %s line %d (seq %d) naming the unsigned retention record", name, b, f.live, line, seq)
		}
		t.Logf("%s: %s", name, b)
	}
	// Without the key nothing is signed: the chain verifies, and the report says so.
	if rep, err := Verify(f.root); err != nil || !strings.Contains(strings.Join(rep.Limits, "\n"), "no public key") {
		t.Fatalf("without the key: %v, limits %q", err, rep.Limits)
	}
}

// Near misses: the writer's own retention is signed before it deletes, so its chain verifies
// with the key at once, before any later seal or the next periodic head.sig; and so does a
// retention record a later seal covers, with head.sig gone.
func TestVerifyWithTheKeyAcceptsTheWritersOwnRetention(t *testing.T) {
	f := newSignedFixture(t)
	cfg := Config{Dir: f.root, Writer: "webhook-0", Clock: newFakeClock(day0), SigningKey: testKey(1), MaxSegments: 1, Compress: true,
		SignEvery: 1 << 62} // no periodic signing: only what retention signs itself
	j := mustOpen(t, cfg)
	res, err := j.Maintain(day0)
	if err != nil || len(res.Deleted) == 0 {
		t.Fatalf("Maintain: %v, deleted %v", err, res.Deleted)
	}
	// Verified while the journal is still open: nothing but retention's own signature covers
	// the retention record yet.
	rep, err := VerifyWith(f.root, VerifyOptions{PublicKey: f.pub, Heads: []SignedHead{f.head}})
	if err != nil || rep.Chains[0].RetainedAfter == "" {
		t.Fatalf("the writer's own retention, verified before any other signature: %v\n%s", err, dumpChains(rep))
	}

	// Sealed later: the seal's signature covers the retention record even without head.sig.
	appendN(t, j, 3)
	j.cfg.MaxSegmentBytes, j.cfg.MaxSegments = 1, 0 // seal the live segment, delete nothing more
	if _, err := j.Maintain(day0); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	f.remove(t, headSigFile)
	if rep, err := VerifyWith(f.root, VerifyOptions{PublicKey: f.pub, Heads: []SignedHead{f.head}}); err != nil {
		t.Fatalf("retention covered by a later seal, head.sig removed: %v\n%s", err, dumpChains(rep))
	}
}
