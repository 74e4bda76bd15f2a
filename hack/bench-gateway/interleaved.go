package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"
)

// lats are latencies per mode, and cpus the process CPU time spent in each mode's calls.
type (
	lats map[string][]time.Duration
	cpus map[string]time.Duration
)

// interleaved makes n calls of every mode from one client, the modes taking turns call by call, in
// a new random order each turn (seeded with round): each call still runs alone, but the four
// modes meet the same machine, call for call, so a busy second slows all four instead of one
// batch, and the work a call leaves behind (the operator records a completion after the gateway
// reports one) falls on a random mode rather than always on the same next one. It returns each
// mode's latencies, in call order, and the process CPU time spent during each mode's calls.
func (e *env) interleaved(ctx context.Context, modes []string, n, round int) (lats, cpus, error) {
	do := make([]func(k int) error, len(modes))
	for i, m := range modes {
		f, closeFn, err := e.caller(ctx, m)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", m, err)
		}
		defer closeFn()
		do[i] = f
	}
	lat := lats{}
	cpu := cpus{}
	rng := rand.New(rand.NewPCG(uint64(round), 0x70017a7e))
	for range n {
		for _, i := range rng.Perm(len(modes)) {
			k := e.seq
			e.seq++
			before, t := processCPU(), time.Now()
			if err := do[i](k); err != nil {
				return nil, nil, fmt.Errorf("%s, call %d: %w", modes[i], k, err)
			}
			lat[modes[i]] = append(lat[modes[i]], time.Since(t))
			cpu[modes[i]] += processCPU() - before
		}
	}
	return lat, cpu, nil
}

// paired is, call for call, gateway − minus[0] − minus[1]…: the n-th gateway call against the
// n-th call of each other mode, made within the same few milliseconds.
func paired(lat lats, minus ...string) []time.Duration {
	out := make([]time.Duration, len(lat[modeGateway]))
	for i, g := range lat[modeGateway] {
		out[i] = g
		for _, m := range minus {
			out[i] -= lat[m][i]
		}
	}
	return out
}
