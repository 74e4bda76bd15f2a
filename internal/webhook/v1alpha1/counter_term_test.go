package v1alpha1

import (
	"context"
	"testing"
	"time"

	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// okLock is a leader election lock whose writes all succeed.
type okLock struct{ resourcelock.Interface }

func (okLock) Create(context.Context, resourcelock.LeaderElectionRecord) error { return nil }
func (okLock) Update(context.Context, resourcelock.LeaderElectionRecord) error { return nil }

func TestATermLastsWhileTheLeaseIsRenewedWithoutAGap(t *testing.T) {
	tracker := TrackRenewals(okLock{})
	owner := &LeaseOwner{Renewals: tracker}
	ctx := context.Background()
	if err := tracker.Create(ctx, resourcelock.LeaderElectionRecord{}); err != nil {
		t.Fatal(err)
	}
	first := owner.Term()
	for range 3 {
		if err := tracker.Update(ctx, resourcelock.LeaderElectionRecord{}); err != nil {
			t.Fatal(err)
		}
	}
	if owner.Term() != first {
		t.Fatalf("term %d after renewals in a row, want %d", owner.Term(), first)
	}
	// The last renewal is DecideWithin old: another replica may have decided since.
	tracker.last.Store(int64(time.Since(processStart)-DecideWithin) + 1)
	if err := tracker.Update(ctx, resourcelock.LeaderElectionRecord{}); err != nil {
		t.Fatal(err)
	}
	if owner.Term() == first {
		t.Fatal("the same term after a gap in the renewals")
	}
}
