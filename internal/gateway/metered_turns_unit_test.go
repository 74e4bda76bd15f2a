package gateway

import (
	"context"
	"errors"
	"testing"
)

// TestAMeteredTurnIsOnePlansAtATimeAndLeavesNothingBehind: a second call of the same plan waits
// for the first's release (or gives up with its context, changing nothing), another plan's call
// does not wait, and once every call has left no entry is kept for any plan.
func TestAMeteredTurnIsOnePlansAtATimeAndLeavesNothingBehind(t *testing.T) {
	var m meteredTurns
	first, err := m.wait(t.Context(), "ns/a")
	if err != nil {
		t.Fatal(err)
	}
	other, err := m.wait(t.Context(), "ns/b")
	if err != nil {
		t.Fatalf("another plan's call waited: %v", err)
	}
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := m.wait(cancelled, "ns/a"); !errors.Is(err, context.Canceled) {
		t.Fatalf("a second call of the plan, its context ended: %v, want it to give up", err)
	}
	got := make(chan error, 1)
	go func() {
		second, err := m.wait(t.Context(), "ns/a")
		if err == nil {
			second()
		}
		got <- err
	}()
	first()
	if err := <-got; err != nil {
		t.Fatalf("the second call after the first's release: %v", err)
	}
	other()
	m.mu.Lock()
	n := len(m.byPlan)
	m.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d plans still have an entry after every call left", n)
	}
}
