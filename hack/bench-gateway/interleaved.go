package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"
)

// lats are latencies per mode, and cpus the process CPU time spent in each mode's calls.
type (
	lats map[string][]time.Duration
	cpus map[string]time.Duration
)

// interleaved makes n calls of every mode from each of clients concurrent clients (each with its
// own MCP sessions), each client's modes taking turns call by call, in a new random order each
// turn (seeded with round and the client): at 1 client each call still runs alone, but the four
// modes meet the same machine, call for call, so a busy second slows all four instead of one
// batch, and the work a call leaves behind (the operator records a completion after the gateway
// reports one) falls on a random mode rather than always on the same next one; at 8 clients every
// mode's calls meet the same mixed load. It returns each mode's latencies, client after client and
// in turn order within a client (so the n-th call of two modes is from the same client and turn),
// and the process CPU time spent during each mode's calls (at 1 client only: with several clients
// the process's CPU time cannot be told apart by mode).
func (e *env) interleaved(ctx context.Context, modes []string, n, clients, round int) (lats, cpus, error) {
	first := e.seq
	e.seq += n * clients * len(modes)
	perClient := make([]lats, clients)
	cpu := cpus{}
	errs := make(chan error, clients)
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			lat, err := e.turns(ctx, modes, n, func(turn, j int) int { return first + (turn*clients+c)*len(modes) + j },
				rand.New(rand.NewPCG(uint64(round), uint64(c)+0x70017a7e)), cpu, clients == 1)
			perClient[c] = lat
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	lat := lats{}
	for _, l := range perClient {
		for _, m := range modes {
			lat[m] = append(lat[m], l[m]...)
		}
	}
	return lat, cpu, nil
}

// turns is one client's part of interleaved: n turns through modes, call seq(turn, j) for the
// j-th mode of a turn; countCPU adds the process CPU time of each call to cpu.
func (e *env) turns(ctx context.Context, modes []string, n int, seq func(turn, j int) int, rng *rand.Rand,
	cpu cpus, countCPU bool) (lats, error) {
	do := make([]func(k int) error, len(modes))
	for i, m := range modes {
		f, closeFn, err := e.caller(ctx, m)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m, err)
		}
		defer closeFn()
		do[i] = f
	}
	lat := lats{}
	for turn := range n {
		for j, i := range rng.Perm(len(modes)) {
			k := seq(turn, j)
			var before time.Duration
			if countCPU {
				before = e.cpu()
			}
			t := time.Now()
			if err := do[i](k); err != nil {
				return nil, fmt.Errorf("%s, call %d: %w", modes[i], k, err)
			}
			lat[modes[i]] = append(lat[modes[i]], time.Since(t))
			if countCPU {
				cpu[modes[i]] += e.cpu() - before
			}
		}
	}
	return lat, nil
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
