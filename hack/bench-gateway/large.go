package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgate/toolgate/internal/gateway"
)

const (
	largeTool         = "bench-read-large"
	upstreamLargeTool = "read_large"
	// softLimit is the shipped gateway's soft memory limit (90% of its 256 MiB), which the
	// measurement of large answers sets above what the rest of this process holds.
	softLimit = 230 << 20
)

// largeText is the text of a large answer: the most one message may be, less its envelope.
var largeText = bytes.Repeat([]byte("x"), gateway.DefaultMaxUpstreamMessageBytes-1024)

// answerLarge answers a tools/call of upstreamLargeTool with largeText from bytes made once, so
// that the upstream, in this process, holds no copy per call; every other request goes to next.
func answerLarge(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &msg) != nil || msg.Method != "tools/call" || msg.Params.Name != upstreamLargeTool {
			next.ServeHTTP(w, r)
			return
		}
		head := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, msg.ID)
		tail := []byte(`"}]}}`)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(len(head)+len(largeText)+len(tail)))
		for _, part := range [][]byte{head, largeText, tail} {
			if _, err := w.Write(part); err != nil {
				return
			}
		}
	})
}

// large measures what clients concurrent calls, each answered with largeText, cost this process
// in memory: through a gateway with its default budget for the answers it holds at once, and
// through one whose budget holds them all (as before there was one), the two alternated per
// round. The clients read each answer as it comes and keep none of it, and the upstream holds
// no copy per call, so what grows is the gateway's. The process runs under a soft memory limit
// of what it holds before, plus the shipped gateway's.
func (e *env) large(ctx context.Context, clients, rounds int) error {
	// The calls come from one agent: its limit of calls in flight must let them all through.
	allIn := func(o *gateway.Options) { o.MaxCallsPerCaller = max(clients, gateway.DefaultMaxCallsPerCaller) }
	budgeted, stopBudgeted, err := e.gatewayWith(allIn)
	if err != nil {
		return err
	}
	defer stopBudgeted()
	unbounded, stopUnbounded, err := e.gatewayWith(func(o *gateway.Options) { allIn(o); o.MaxAnswerBytesHeld = 1 << 40 })
	if err != nil {
		return err
	}
	defer stopUnbounded()
	fmt.Printf("\n%d concurrent calls, each answered with %d MiB, %d rounds; the heap above what the process held"+
		" before\n\n",
		clients, len(largeText)>>20, rounds)
	fmt.Println("| round | gateway | peak heap | peak live heap (as marked) | GC cycles | all answered in |")
	fmt.Println("|---|---|---|---|---|---|")
	for r := range rounds {
		for i, g := range []struct{ name, url string }{{"budget (default, 16 MiB)", budgeted}, {"no budget", unbounded}} {
			if r%2 == 1 { // alternate which goes first
				g = []struct{ name, url string }{{"no budget", unbounded}, {"budget (default, 16 MiB)", budgeted}}[i]
			}
			m, took, err := e.largeRound(ctx, g.url, clients, fmt.Sprintf("large-%d-%d", r, i))
			if err != nil {
				return fmt.Errorf("%s, round %d: %w", g.name, r, err)
			}
			fmt.Printf("| %d | %s | %d MiB | %d MiB | %d | %s |\n", r+1, g.name, m.heap>>20, m.live>>20, m.cycles,
				took.Round(time.Millisecond))
		}
	}
	return nil
}

// largeRound makes clients concurrent calls through url under the soft limit, and returns the peak
// of the heap above what it was before, the collections and the time they took.
func (e *env) largeRound(ctx context.Context, url string, clients int, step string) (
	roundMemory, time.Duration, error) {
	runtime.GC()
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/cycles/total:gc-cycles"},
		{Name: "/gc/heap/live:bytes"}}
	metrics.Read(samples)
	before, cyclesBefore, liveBefore := samples[0].Value.Uint64(), samples[1].Value.Uint64(), samples[2].Value.Uint64()
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(before) + softLimit))
	var peak, peakLive atomic.Uint64
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			if v := s[1].Value.Uint64(); v > peakLive.Load() {
				peakLive.Store(v)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	start := time.Now()
	errs := make(chan error, clients)
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() { errs <- e.rawLarge(ctx, url, step, c) })
	}
	wg.Wait()
	took := time.Since(start)
	close(done)
	<-sampled
	close(errs)
	for err := range errs {
		if err != nil {
			return roundMemory{}, 0, err
		}
	}
	metrics.Read(samples)
	return roundMemory{heap: peak.Load() - min(before, peak.Load()),
		live: peakLive.Load() - min(liveBefore, peakLive.Load()), cycles: samples[1].Value.Uint64() - cyclesBefore}, took, nil
}

// roundMemory is what a round of large answers took of the heap, above what it held before: at
// its peak (live and garbage), and live at its peak as the collector marked it.
type roundMemory struct{ heap, live, cycles uint64 }

// rawLarge makes one call of largeTool through the gateway at url with a plain HTTP request,
// reading the answer as it comes and keeping only its first bytes, to check it.
func (e *env) rawLarge(ctx context.Context, url, step string, k int) error {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call",`+
		`"params":{"name":%q,"arguments":{"path":"%s/f%d"},"_meta":{%q:%q}}}`, largeTool, step, k, gateway.MetaStep, step)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	req.Header.Set("Authorization", "Bearer "+e.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	head := make([]byte, 256)
	n, _ := io.ReadFull(resp.Body, head)
	rest, err := io.Copy(io.Discard, resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK || !bytes.Contains(head[:n], []byte(`"result"`)) ||
		bytes.Contains(head[:n], []byte(`"isError":true`)) || int(rest)+n < len(largeText) {
		return fmt.Errorf("HTTP %d, %d bytes: %s", resp.StatusCode, int(rest)+n, head[:n])
	}
	return nil
}
