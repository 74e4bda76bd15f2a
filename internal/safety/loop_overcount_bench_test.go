package safety

import (
	"encoding/binary"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// BenchmarkLoopFalseDenials measures what never counting low costs innocent calls: the share of
// calls that ran at most DefaultLoopMaxRepeats times within the minute but are counted above it,
// in one namespace with the default memory, after two minutes of warm-up. "zipf" is a skewed
// workload (Zipf s=1.1 over a million distinct calls) at a rate a minute; "attacker" is one agent
// sending that many new calls a minute (each refused for free) while another plan in the
// namespace makes one new call every two seconds, whose denials are counted. One iteration is the
// whole simulated run: go test ./internal/safety -run XXX -bench LoopFalseDenials -benchtime 1x
func BenchmarkLoopFalseDenials(b *testing.B) {
	for _, rate := range []int{10_000, 20_000, 40_000, 80_000} {
		b.Run("zipf/"+strconv.Itoa(rate)+"-a-minute", func(b *testing.B) {
			for b.Loop() {
				b.ReportMetric(zipfFalseDenials(rate), "%-innocent-denied")
			}
		})
	}
	for _, rate := range []int{20_000, 60_000, 100_000} {
		b.Run("attacker/"+strconv.Itoa(rate)+"-a-minute", func(b *testing.B) {
			for b.Loop() {
				b.ReportMetric(attackerFalseDenials(rate), "%-co-tenant-denied")
			}
		})
	}
}

// simulatedKey is the key of call i in one namespace, made without parsing a command: the
// simulations observe millions.
func simulatedKey(i uint64) CallKey {
	k := CallKey{part: 1}
	binary.BigEndian.PutUint64(k.sum[:8], i)
	return k
}

func zipfFalseDenials(rate int) float64 {
	rng := rand.New(rand.NewPCG(uint64(rate), 3))
	zipf := rand.NewZipf(rng, 1.1, 1, 1_000_000-1)
	clk := &fakeClock{t: time.Unix(0, 0)}
	d := NewLoopDetector(clk, 0)
	ran := map[uint64][]time.Time{}
	gap := float64(time.Minute) / float64(rate)
	innocent, denied := 0, 0
	for i := range 5 * rate {
		clk.Step(time.Duration(rng.ExpFloat64() * gap))
		k := zipf.Uint64()
		stamps := ran[k]
		for len(stamps) > 0 && clk.Now().Sub(stamps[0]) >= time.Minute {
			stamps = stamps[1:]
		}
		ran[k] = append(stamps, clk.Now())
		got := d.Observe(simulatedKey(k), time.Minute)
		if i >= 2*rate && len(ran[k]) <= DefaultLoopMaxRepeats {
			innocent++
			if got > DefaultLoopMaxRepeats {
				denied++
			}
		}
	}
	return 100 * float64(denied) / float64(innocent)
}

func attackerFalseDenials(rate int) float64 {
	clk := &fakeClock{t: time.Unix(0, 0)}
	d := NewLoopDetector(clk, 0)
	gap := time.Minute / time.Duration(rate)
	calls, denied := 0, 0
	next, victim := uint64(1<<40), uint64(0)
	for at := time.Duration(0); at < 4*time.Minute; at += gap {
		clk.t = time.Unix(0, 0).Add(at)
		d.Observe(simulatedKey(next), time.Minute)
		next++
		if at/(2*time.Second) != (at+gap)/(2*time.Second) {
			victim++
			if n := d.Observe(simulatedKey(victim), time.Minute); at > 2*time.Minute {
				calls++
				if n > DefaultLoopMaxRepeats {
					denied++
				}
			}
		}
	}
	return 100 * float64(denied) / float64(calls)
}
