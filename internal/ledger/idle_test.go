package ledger

import (
	"crypto/ed25519"
	"slices"
	"testing"
)

// A replaced pod's chain is maintained by whichever journal runs MaintainIdle: its live segment
// sealed (and signed), its sealed segments compressed and, past MaxAge, deleted with a retention
// record, so it still verifies with the key and the head it published. A writer that still holds
// its chain is never touched.
func TestMaintainIdleRetainsReplacedWritersOnly(t *testing.T) {
	pub, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	clock := newFakeClock(day0)
	cfg := testConfig(t, clock)
	cfg.Daily, cfg.Compress, cfg.SigningKey = true, true, key

	gone := cfg
	gone.Writer = "pod-gone"
	g := dailyLedger(t, gone, clock, 3) // three sealed days and a live one
	published, ok, err := g.SignHead()
	if err != nil || !ok {
		t.Fatalf("SignHead: %v %v", ok, err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	live := cfg
	live.Writer = "pod-live"
	l := dailyLedger(t, live, clock, 3)
	liveBefore := segmentFiles(t, chainDirOf(live))

	clock.Set(day0.AddDate(0, 0, 40))
	cur := cfg
	cur.Writer = "pod-now"
	cur.MaxAge = 30 * 24 * 3600e9
	cur.Daily = false // an idle chain is sealed whatever the rotation: its writer will not
	j := mustOpen(t, cur)
	appendN(t, j, 1)
	results, err := j.MaintainIdle(clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 || results[0].Writer != "pod-gone" || results[0].Err != nil {
		t.Fatalf("MaintainIdle: %+v (want the replaced writer only)", results)
	}
	r := results[0]
	if len(r.Sealed) != 1 || len(r.Deleted) != 3 {
		t.Fatalf("the replaced writer's chain: sealed %v, deleted %v; want its live segment sealed and its three old days deleted", r.Sealed, r.Deleted)
	}
	if got := segmentFiles(t, chainDirOf(live)); !slices.Equal(got, liveBefore) {
		t.Fatalf("a live writer's segments were touched: %v, before %v", got, liveBefore)
	}
	if _, err := VerifyWith(cfg.Dir, VerifyOptions{PublicKey: pub, Heads: []SignedHead{published}}); err != nil {
		t.Fatalf("after idle maintenance: %v", err)
	}
	// The chain is released again: its writer could reopen it.
	again, err := Open(gone)
	if err != nil {
		t.Fatalf("reopening the maintained chain: %v", err)
	}
	_ = again.Close()
	_ = l.Close()
}
