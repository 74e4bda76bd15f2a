package gateway

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/toolgate/toolgate/internal/metrics"
)

// TestTheUpstreamWaitLastsUntilTheAnswersLastByteOrTheCallsEnd: an upstream that sends its
// headers at once and the rest of its answer later is waited for until that last byte, once,
// whether the body is read to its end or closed before; the call's end closes what the SDK still
// drains; a request outside a timed one is passed on untouched.
func TestTheUpstreamWaitLastsUntilTheAnswersLastByteOrTheCallsEnd(t *testing.T) {
	// The upstream sends a request's last byte when the test says so (each request its own path and
	// channel), not after a fixed delay: bounds measured around each step then hold however slow
	// the machine is.
	release := map[string]chan struct{}{"/read": make(chan struct{}), "/ended": make(chan struct{})}
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "first ")
		w.(http.Flusher).Flush()
		select {
		case <-release[r.URL.Path]: // nil, so never, for the paths the test closes early
			_, _ = io.WriteString(w, "last")
		case <-r.Context().Done(): // the client closed the body before the end
		}
	}))
	defer closeUpstream(server)
	c := timeUpstream(server.Client())
	get := func(ctx context.Context, path string) *http.Response {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, server.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	upstream := func(timing *callTiming) time.Duration {
		timing.mu.Lock()
		defer timing.mu.Unlock()
		return timing.waits[waitUpstream]
	}

	// The wait runs from within get (the round trip's start) to the last byte: at least from get's
	// return to the release, at most from before get to the end of the read.
	ctx, timing := withCallTiming(context.Background())
	start := time.Now()
	resp := get(ctx, "/read")
	headers := time.Now()
	time.Sleep(100 * time.Millisecond) // the last byte comes well after the headers
	released := time.Since(headers)
	close(release["/read"])
	body, err := io.ReadAll(resp.Body)
	if err != nil || string(body) != "first last" {
		t.Fatalf("read %q, %v", body, err)
	}
	read, atEnd := time.Since(start), upstream(timing)
	if atEnd < released || atEnd > read {
		t.Errorf("upstream wait %s; the answer's last byte came %s after its headers and was read %s after the "+
			"request began", atEnd, released, read)
	}
	_ = resp.Body.Close() // after the end: counted once
	timing.upstreamDone() // nothing open any more: nothing added
	if d := upstream(timing); d != atEnd {
		t.Errorf("upstream wait %s after the close and the call's end, %s at the body's end: it counts once", d, atEnd)
	}

	ctx, closedEarly := withCallTiming(context.Background())
	start = time.Now()
	resp = get(ctx, "/closed")
	_ = resp.Body.Close()
	_ = resp.Body.Close()
	closed, atClose := time.Since(start), upstream(closedEarly)
	closedEarly.upstreamDone()
	if d := upstream(closedEarly); atClose <= 0 || atClose > closed || d != atClose {
		t.Errorf("a body closed before its end is waited for until then, once: %s at the close (%s after the "+
			"request), %s after the call's end", atClose, closed, d)
	}

	ctx, ended := withCallTiming(context.Background())
	resp = get(ctx, "/ended")
	ended.upstreamDone() // the call has its answer; the SDK would drain the rest on its own
	done := upstream(ended)
	close(release["/ended"])
	if _, err := io.ReadAll(resp.Body); err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if d := upstream(ended); d != done || d <= 0 {
		t.Errorf("the wait ends with the call: %s at its end, %s after the body's", done, d)
	}

	resp = get(context.Background(), "/untimed")
	if _, timed := resp.Body.(*timedBody); timed {
		t.Error("a request outside a timed one is timed")
	}
	_ = resp.Body.Close()
}

func histogramOf(t *testing.T, o prometheus.Observer) (uint64, float64) {
	t.Helper()
	var m dto.Metric
	if err := o.(prometheus.Metric).Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetHistogram().GetSampleCount(), m.GetHistogram().GetSampleSum()
}

// TestOwnIsWhatTheWaitsLeave: a request that submitted one call that ended before it is observed,
// its own time being its total less its waits, the agent's reading and writing among them; a
// request that submitted none, a batch of several, and one whose agent hung up while its call
// went on are not.
func TestOwnIsWhatTheWaitsLeave(t *testing.T) {
	observed := func() (own, total, waits float64, count uint64) {
		count, own = histogramOf(t, metrics.GatewayOwnSeconds.WithLabelValues(outcomeDenied))
		_, total = histogramOf(t, metrics.GatewayCallSeconds.WithLabelValues(outcomeDenied, "total"))
		for _, part := range waitPartNames {
			_, sum := histogramOf(t, metrics.GatewayCallSeconds.WithLabelValues(outcomeDenied, part))
			waits += sum
		}
		return own, total, waits, count
	}
	var timing *callTiming
	handler := timed(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		timing = timingOf(r.Context())
		q := r.URL.Query()
		for range strings.Count(q.Get("calls"), "x") {
			ended := timing.begun()
			time.Sleep(10 * time.Millisecond) // the gateway's own work
			for w, d := range map[waitPart]time.Duration{waitAPIServer: 4 * time.Millisecond,
				waitUpstream: 3 * time.Millisecond, waitTurn: time.Millisecond, waitReport: 2 * time.Millisecond} {
				start := time.Now()
				time.Sleep(d)
				timing.since(w, start)
			}
			timing.decided(false)
			if q.Get("hangup") == "" {
				ended()
			}
		}
		if _, err := io.ReadAll(r.Body); err != nil {
			t.Error(err)
		}
		_, _ = io.WriteString(w, "answer")
	}))
	serve := func(query string) {
		req := httptest.NewRequest(http.MethodPost, "/?"+query, &slowReader{data: "request", delay: 20 * time.Millisecond})
		handler.ServeHTTP(slowWriter{ResponseWriter: httptest.NewRecorder(), delay: 20 * time.Millisecond}, req)
	}

	_, _, _, count := observed()
	for _, query := range []string{"calls=", "calls=xx", "calls=x&hangup=1"} {
		serve(query)
		if _, _, _, c := observed(); c != count {
			t.Fatalf("%s: observed", query)
		}
	}
	own, total, waits, _ := observed()
	serve("calls=x")
	own2, total2, waits2, count2 := observed()
	timing.mu.Lock()
	agent := timing.waits[waitAgent]
	timing.mu.Unlock()
	if agent < 40*time.Millisecond {
		t.Errorf("the agent's slow request body and slow read of the answer are its own wait: %s", agent)
	}
	dOwn, dTotal, dWaits := own2-own, total2-total, waits2-waits
	if count2 != count+1 || dOwn < 0.010 || math.Abs(dOwn-(dTotal-dWaits)) > 1e-9 || dWaits < 0.050 {
		t.Errorf("%d observations (want %d): own %gs, total %gs, waits %gs: own is the total less the waits, "+
			"at least the 10 ms of the gateway's own work; the waits at least 50 ms", count2, count+1, dOwn, dTotal, dWaits)
	}

	var nothing *callTiming // outside a timed request every method but observe is a no-op
	nothing.since(waitUpstream, time.Now())
	nothing.begun()()
	nothing.decided(true)
	nothing.sent()
	nothing.upstreamDone()
	if timingOf(context.Background()) != nil {
		t.Error("a context without timing has one")
	}
}

// slowWriter is an agent that reads its answer slowly: each write waits delay.
type slowWriter struct {
	http.ResponseWriter
	delay time.Duration
}

func (w slowWriter) Write(p []byte) (int, error) {
	time.Sleep(w.delay)
	return w.ResponseWriter.Write(p)
}

// slowReader is a request body an agent trickles: its first read waits delay.
type slowReader struct {
	data  string
	delay time.Duration
	read  bool
}

func (r *slowReader) Read(p []byte) (int, error) {
	if r.read {
		return 0, io.EOF
	}
	time.Sleep(r.delay)
	r.read = true
	return copy(p, r.data), nil
}
