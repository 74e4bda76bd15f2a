package gateway

import (
	"context"
	"sync"
	"time"

	"github.com/toolgate/toolgate/internal/metrics"
)

// Outcomes of a timed tools/call (metrics.GatewayCallSeconds).
const (
	outcomeForwarded = "forwarded"
	outcomeDenied    = "denied"
)

// callTiming is where one request's time in the gateway goes: the waits on the API server, on the
// upstream and on the plan's metered turn, and the rest, the gateway's own. It is observed once its
// request has been answered, when the request was a tools/call that the gateway submitted.
type callTiming struct {
	start time.Time

	mu                        sync.Mutex
	apiServer, upstream, turn time.Duration
	outcome                   string // empty: not a submitted tools/call, nothing observed
}

type callTimingKey struct{}

// withCallTiming starts timing the request whose context is ctx.
func withCallTiming(ctx context.Context) (context.Context, *callTiming) {
	t := &callTiming{start: time.Now()}
	return context.WithValue(ctx, callTimingKey{}, t), t
}

// timingOf is ctx's request's timing; nil (which every method takes) outside a timed request.
func timingOf(ctx context.Context) *callTiming {
	t, _ := ctx.Value(callTimingKey{}).(*callTiming)
	return t
}

// waitPart is a part of a timed request spent waiting on something other than the gateway.
type waitPart int

const (
	waitAPIServer waitPart = iota
	waitUpstream
	waitTurn
)

// since adds the time since start to the request's part w.
func (t *callTiming) since(w waitPart, start time.Time) {
	if t == nil {
		return
	}
	d := time.Since(start)
	t.mu.Lock()
	defer t.mu.Unlock()
	switch w {
	case waitAPIServer:
		t.apiServer += d
	case waitUpstream:
		t.upstream += d
	case waitTurn:
		t.turn += d
	}
}

// decided marks the request as a submitted tools/call with outcome; the last mark wins.
func (t *callTiming) decided(outcome string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.outcome = outcome
}

// observe records the request's parts, once it has been answered.
func (t *callTiming) observe() {
	total := time.Since(t.start)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.outcome == "" {
		return
	}
	h := metrics.GatewayCallSeconds
	h.WithLabelValues(t.outcome, "total").Observe(total.Seconds())
	h.WithLabelValues(t.outcome, "api_server").Observe(t.apiServer.Seconds())
	h.WithLabelValues(t.outcome, "upstream").Observe(t.upstream.Seconds())
	h.WithLabelValues(t.outcome, "turn").Observe(t.turn.Seconds())
	h.WithLabelValues(t.outcome, "own").Observe((total - t.apiServer - t.upstream - t.turn).Seconds())
}
