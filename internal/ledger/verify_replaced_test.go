package ledger

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A forger with write access and no key replaces a writer's whole chain by one that starts after
// its published head and claims, in a retention record, that the records before it were deleted:
// a journal of its own, run without a key until retention (by age) has deleted every sealed
// segment, so that no seal lacks a signature. Every record before the published head is gone, so its hash
// cannot be compared; but every genuine record after it chains back through it, so the forged
// chain holds no record any signature proves. With the key and the published heads, that is a
// break at the chain's first record, not only "records follow the newest signature".
func TestVerifyWithAnchorsDetectsAChainReplacedAfterItsPublishedHead(t *testing.T) {
	f := newSignedFixture(t)
	forged := testConfig(t, newFakeClock(day0))
	forged.MaxSegmentBytes, forged.MaxAge, forged.Compress = 2048, time.Hour, true
	j := mustOpen(t, forged)
	appendN(t, j, 120)
	j.cfg.MaxSegmentBytes = 1 << 30                                 // the live segment, which holds records, stays live
	if _, err := j.Maintain(day0.Add(48 * time.Hour)); err != nil { // every sealed segment is past MaxAge
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(forged.Dir)
	if err != nil || rep.Chains[0].FirstSeq <= f.head.Seq || rep.Chains[0].RetainedAfter == "" {
		t.Fatalf("forgery: %v, want a chain that retention started after seq %d\n%s", err, f.head.Seq, dumpChains(rep))
	}
	ents, err := os.ReadDir(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if err := os.Remove(filepath.Join(f.dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	src := chainDirOf(forged)
	ents, err = os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() != lockFile {
			writeFile(t, filepath.Join(f.dir, e.Name()), readFile(t, filepath.Join(src, e.Name())))
		}
	}

	rep, err = VerifyWith(f.root, f.anchors())
	if !errors.Is(err, ErrBroken) {
		t.Fatalf("a chain replaced after its published head verified: %v\nlimits %q\n%s", err, rep.Limits, dumpChains(rep))
	}
	b := rep.FirstBreak()
	if b.Line != 1 || b.Seq != rep.Chains[0].FirstSeq || !strings.Contains(b.What, "published head") {
		t.Fatalf("first break %s, want the chain's first record, naming the published head", b)
	}
	t.Log(b)

	// With the key alone the chain's start is excused by a retention record no signature covers:
	// a break at that record, not only "records follow the newest signature"
	// (TestVerifyWithTheKeyRefusesAnUnsignedRetentionRecord).
	rep, err = VerifyWith(f.root, VerifyOptions{PublicKey: f.pub})
	if b := rep.FirstBreak(); !errors.Is(err, ErrBroken) || b == nil || !strings.Contains(b.What, "retention record") ||
		!strings.Contains(b.What, "no valid signature covers any record") {
		t.Fatalf("with the key alone: %v, first break %v, want the unsigned retention record", err, b)
	}

	// Near miss: the genuine chain, retention having deleted the segment its published head is
	// in, still holds signed seals after it, and verifies (with a note).
	g := newSignedFixture(t)
	cfg := Config{Dir: g.root, Writer: "webhook-0", Clock: newFakeClock(day0), SigningKey: testKey(1), MaxSegmentBytes: 2048, MaxSegments: 3}
	jg := mustOpen(t, cfg)
	appendN(t, jg, 120)
	if _, err := jg.Maintain(day0); err != nil {
		t.Fatal(err)
	}
	if err := jg.Close(); err != nil {
		t.Fatal(err)
	}
	rep, err = VerifyWith(g.root, g.anchors())
	if err != nil || rep.Chains[0].FirstSeq <= g.head.Seq {
		t.Fatalf("genuine chain past its published head: %v\n%s", err, dumpChains(rep))
	}
}
