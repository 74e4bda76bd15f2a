package audit

import (
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
)

// A head refused because the chain does not hold it stays refused while it is the published
// entry, even after retention deletes the segments that showed it was missing and the writer's
// process restarts: a rolled-back writer must not outwait its own evidence. The refusal is kept
// in the entry (notOnChainSince), where the next process finds it.
func TestARefusedHeadStaysRefusedAfterRetentionAndRestart(t *testing.T) {
	dir := t.TempDir()
	key, err := ledger.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config(nil, dir, "toolgate-0", clocktesting.NewFakeClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)))
	cfg.SigningKey, cfg.MaxSegmentBytes, cfg.MaxSegments = key, 2048, 2 // Maintain, called below, keeps two
	j, err := ledger.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = j.Close() }()
	for i := range 60 {
		if err := (&Log{Journal: j}).RecordDecision(t.Context(), Decision{Decision: "allow", Call: fmt.Sprintf("c-%d", i), Namespace: "ns"}); err != nil {
			t.Fatal(err)
		}
	}
	// The published head names a segment this chain has, with another record at its seq: a head
	// of the chain before the volume was rolled back.
	published := safetyv1alpha1.LedgerSignedHead{Writer: "toolgate-0", Seq: 5, Hash: strings.Repeat("ab", 32),
		Segment: "2026-12-01.00000001.jsonl", SignedAt: metav1.NewTime(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)),
		KeyID: "0123456789abcdef", Signature: "c2ln"}
	scheme := runtime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	al := &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: LedgerName},
		Status: safetyv1alpha1.AuditLedgerStatus{SignedHeads: []safetyv1alpha1.LedgerSignedHead{published}}}
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(al).WithStatusSubresource(al).Build()
	marked := time.Date(2026, 12, 1, 13, 0, 0, 0, time.UTC)
	p := &HeadPublisher{Client: c, Journal: j, Now: func() time.Time { return marked }}
	if err := p.checkPublished(t.Context()); err == nil || !strings.Contains(err.Error(), "no longer holds") {
		t.Fatalf("first check: %v, want the head refused", err)
	}
	if err := c.Get(t.Context(), client.ObjectKeyFromObject(al), al); err != nil {
		t.Fatal(err)
	}
	want := published.DeepCopy()
	want.NotOnChainSince = &metav1.Time{Time: marked}
	if len(al.Status.SignedHeads) != 1 || !al.Status.SignedHeads[0].NotOnChainSince.Equal(want.NotOnChainSince) ||
		al.Status.SignedHeads[0].Seq != published.Seq || al.Status.SignedHeads[0].Hash != published.Hash {
		t.Fatalf("after the refusal the entries are %+v, want only the published head marked notOnChainSince %s",
			al.Status.SignedHeads, marked)
	}

	res, err := j.Maintain(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)) // the process's own retention
	if err != nil {
		t.Fatal(err)
	}
	held, err := j.Holds(ledger.SignedHead{Writer: published.Writer, Seq: uint64(published.Seq), Hash: published.Hash, Segment: published.Segment})
	if err != nil || !held || len(res.Deleted) == 0 {
		t.Fatalf("fixture: after retention deleted %v Holds = %v, %v; want true (retention deleted the head's segment)", res.Deleted, held, err)
	}
	if err := p.checkPublished(t.Context()); err == nil || !strings.Contains(err.Error(), "no longer holds") {
		t.Fatalf("after retention: %v, want the head still refused", err)
	}
	restarted := &HeadPublisher{Client: c, Journal: j}
	if err := restarted.checkPublished(t.Context()); err == nil || !strings.Contains(err.Error(), "no longer holds") {
		t.Fatalf("after retention and a restart: %v, want the head still refused", err)
	}
}
