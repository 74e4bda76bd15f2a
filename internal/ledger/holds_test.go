package ledger

import "testing"

// Holds answers from the segment a published head names, sealed and compressed since or live.
func TestHoldsFindsAPublishedHeadOnTheChain(t *testing.T) {
	cfg := testConfig(t, newFakeClock(day0))
	cfg.Compress = true
	cfg.MaxSegmentBytes = 2048
	cfg.SigningKey = testKey(1)
	j := mustOpen(t, cfg)
	appendN(t, j, 5)
	early, ok, err := j.SignHead()
	if err != nil || !ok {
		t.Fatalf("SignHead: %v %v", ok, err)
	}
	appendN(t, j, 20)                           // past MaxSegmentBytes: the early head's segment is sealed
	if _, err := j.Maintain(day0); err != nil { // and compressed
		t.Fatal(err)
	}
	if segs, _ := listSegments(j.dir); len(segs) < 2 || !segs[0].gz {
		t.Fatalf("fixture: want the early head's segment sealed and compressed, got %+v", segs)
	}
	live, _, _ := j.SignHead()
	for _, c := range []struct {
		name string
		h    SignedHead
		want bool
	}{
		{"the early head, in a compressed segment", early, true},
		{"the live head", live, true},
		{"another hash at the early seq", withHash(early, live.Hash), false},
		{"another hash at the live seq", withHash(live, early.Hash), false},
		{"a seq past the chain", SignedHead{Writer: live.Writer, Seq: live.Seq + 1, Hash: live.Hash, Segment: live.Segment}, false},
		{"a segment retention deleted", SignedHead{Writer: live.Writer, Seq: 2, Hash: early.Hash, Segment: "gone"}, true},
	} {
		if got, err := j.Holds(c.h); err != nil || got != c.want {
			t.Errorf("%s: Holds = %v, %v; want %v", c.name, got, err, c.want)
		}
	}
}

func withHash(h SignedHead, hash string) SignedHead {
	h.Hash = hash
	return h
}
