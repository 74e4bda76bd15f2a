package benchstats

import (
	"testing"
	"time"
)

func TestPercentileTakesTheNearestRankAndLeavesItsInputAsItIs(t *testing.T) {
	ds := make([]time.Duration, 0, 100)
	for i := 100; i >= 1; i-- { // 100 ms down to 1 ms: unsorted on purpose
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	for p, want := range map[int]time.Duration{0: time.Millisecond, 50: 51 * time.Millisecond, 99: 100 * time.Millisecond,
		100: 100 * time.Millisecond} {
		if got := Percentile(ds, p); got != want {
			t.Errorf("Percentile(1..100 ms, %d) = %v, want %v", p, got, want)
		}
	}
	if ds[0] != 100*time.Millisecond {
		t.Errorf("Percentile sorted its input: ds[0] = %v", ds[0])
	}
	if got := Millis(1054 * time.Microsecond); got != "1.05 ms" {
		t.Errorf("Millis(1.054 ms) = %q", got)
	}
}
