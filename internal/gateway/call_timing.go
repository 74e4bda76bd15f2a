package gateway

import (
	"context"
	"errors"
	"io"
	"net/http"
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

// timeUpstream returns c with the time of each request to an upstream, from its start until its
// answer's last byte has been read (or its body closed), added to the upstream part of the timed
// request it serves. Timed here rather than around the SDK client's call, the client's encoding
// of the call and decoding of the answer count as the gateway's own: a direct client does that
// work once, the gateway's path twice.
func timeUpstream(c *http.Client) *http.Client {
	timed := *c
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	timed.Transport = timedUpstream{next: next}
	return &timed
}

type timedUpstream struct{ next http.RoundTripper }

func (t timedUpstream) RoundTrip(req *http.Request) (*http.Response, error) {
	timing := timingOf(req.Context())
	if timing == nil {
		return t.next.RoundTrip(req)
	}
	start := time.Now()
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		timing.since(waitUpstream, start)
		return resp, err
	}
	resp.Body = &timedBody{ReadCloser: resp.Body, done: func() { timing.since(waitUpstream, start) }}
	return resp, nil
}

// timedBody calls done once, at the end of its body or when closed before it.
type timedBody struct {
	io.ReadCloser
	once sync.Once
	done func()
}

func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) {
		b.once.Do(b.done)
	}
	return n, err
}

func (b *timedBody) Close() error {
	b.once.Do(b.done)
	return b.ReadCloser.Close()
}
