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
	outcomeForwarded = "forwarded" // admitted and sent upstream
	outcomeUnsent    = "unsent"    // admitted, never sent
	outcomeDenied    = "denied"
)

// waitPart is a part of a timed request spent waiting on something other than the gateway.
type waitPart int

const (
	waitAgent     waitPart = iota // reading the request's body, writing the answer
	waitAPIServer                 // the TokenReview, the AgentToolCall create
	waitReport                    // the call's outcome, as the plan's cost reporter
	waitUpstream                  // a session with the upstream, and each request to it
	waitTurn                      // the plan's metered call in progress
	waitParts
)

var waitPartNames = [waitParts]string{"agent", "api_server", "report", "upstream", "turn"}

// callTiming is where one request's time in the gateway goes: its waits, and the rest, the
// gateway's own. It is observed once the handler returns, when the request submitted one call.
type callTiming struct {
	start time.Time

	mu       sync.Mutex
	waits    [waitParts]time.Duration
	open     map[int]time.Time // requests to the upstream in progress, by id
	nextID   int
	calls    int    // tools/calls begun on the request: more than one (a batch) is not observed
	finished bool   // the call ended before its request: not so when the agent hung up
	outcome  string // set once the call was submitted
}

type callTimingKey struct{}

// withCallTiming starts timing the request whose context is ctx.
func withCallTiming(ctx context.Context) (context.Context, *callTiming) {
	t := &callTiming{start: time.Now()}
	return context.WithValue(ctx, callTimingKey{}, t), t
}

// timingOf is ctx's request's timing; nil (which every method but observe takes) outside one.
func timingOf(ctx context.Context) *callTiming {
	t, _ := ctx.Value(callTimingKey{}).(*callTiming)
	return t
}

// since adds the time since start to the request's wait w.
func (t *callTiming) since(w waitPart, start time.Time) {
	if t == nil {
		return
	}
	d := time.Since(start)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.waits[w] += d
}

// begun counts a tools/call begun on the request, before any of its waits; the returned func
// marks it ended.
func (t *callTiming) begun() (ended func()) {
	if t == nil {
		return func() {}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.calls++
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.finished = true
	}
}

// decided marks the call as submitted: denied, or admitted (unsent until sent).
func (t *callTiming) decided(allowed bool) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.outcome = outcomeDenied
	if allowed {
		t.outcome = outcomeUnsent
	}
}

// sent marks the admitted call as sent upstream.
func (t *callTiming) sent() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.outcome = outcomeForwarded
}

// upstreamStarted opens a request to the upstream; upstreamEnded(id) closes it.
func (t *callTiming) upstreamStarted() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.open == nil {
		t.open = map[int]time.Time{}
	}
	t.nextID++
	t.open[t.nextID] = time.Now()
	return t.nextID
}

// upstreamEnded closes request id, unless the call's end (upstreamDone) closed it first.
func (t *callTiming) upstreamEnded(id int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if start, ok := t.open[id]; ok {
		t.waits[waitUpstream] += time.Since(start)
		delete(t.open, id)
	}
}

// upstreamDone closes the requests still open when the SDK has handed the call its answer: the
// SDK drains an event stream to its end on a goroutine of its own, while the gateway goes on.
func (t *callTiming) upstreamDone() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, start := range t.open {
		t.waits[waitUpstream] += time.Since(start)
		delete(t.open, id)
	}
}

// observe records the request's parts once its handler has returned, when it submitted one call
// that ended before it: a request whose agent hung up ends while its call goes on (an admitted
// call runs to its answer), and its waits are not all counted yet.
func (t *callTiming) observe() {
	total := time.Since(t.start)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.calls != 1 || !t.finished || t.outcome == "" {
		return
	}
	own := total
	h := metrics.GatewayCallSeconds
	h.WithLabelValues(t.outcome, "total").Observe(total.Seconds())
	for w, d := range t.waits {
		h.WithLabelValues(t.outcome, waitPartNames[w]).Observe(d.Seconds())
		own -= d
	}
	metrics.GatewayOwnSeconds.WithLabelValues(t.outcome).Observe(own.Seconds())
}

// agentBody is a request body whose reads are the agent's wait.
type agentBody struct {
	io.ReadCloser
	timing *callTiming
}

func (b agentBody) Read(p []byte) (int, error) {
	defer b.timing.since(waitAgent, time.Now())
	return b.ReadCloser.Read(p)
}

// agentWriter is a response whose writes are the agent's wait: an agent that reads its answer
// slowly slows its own request, not the gateway.
type agentWriter struct {
	http.ResponseWriter
	timing *callTiming
}

func (w agentWriter) Write(p []byte) (int, error) {
	defer w.timing.since(waitAgent, time.Now())
	return w.ResponseWriter.Write(p)
}

// Unwrap is for http.ResponseController (deadlines, flushes).
func (w agentWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// timed is next, with each request timed (callTiming).
func timed(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, timing := withCallTiming(r.Context())
		defer timing.observe()
		r = r.WithContext(ctx)
		if r.Body != nil {
			r.Body = agentBody{ReadCloser: r.Body, timing: timing}
		}
		next.ServeHTTP(agentWriter{ResponseWriter: w, timing: timing}, r)
	})
}

// timeUpstream returns c with the time of each request to an upstream, from its start until its
// answer's last byte has been read, its body closed, or its call given its answer, added to the
// upstream wait of the timed request it serves. Timed here rather than around the SDK client's
// call, the client's encoding of the call and decoding of the answer count as the gateway's own: a
// direct client does that work once, the gateway's path twice.
func timeUpstream(c *http.Client) *http.Client {
	return wrapTransport(c, func(next http.RoundTripper) http.RoundTripper { return timedUpstream{next: next} })
}

type timedUpstream struct{ next http.RoundTripper }

func (t timedUpstream) RoundTrip(req *http.Request) (*http.Response, error) {
	timing := timingOf(req.Context())
	if timing == nil {
		return t.next.RoundTrip(req)
	}
	id := timing.upstreamStarted()
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		timing.upstreamEnded(id)
		return resp, err
	}
	resp.Body = &timedBody{ReadCloser: resp.Body, done: func() { timing.upstreamEnded(id) }}
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
