package gateway

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/toolgate/toolgate/internal/metrics"
)

// TestTheUpstreamPartLastsUntilTheAnswersLastByte: an upstream that sends its headers at once and
// the rest of its answer later is waited for until that last byte, once, whether the body is read
// to its end or closed before; a request outside a timed one is passed on untouched.
func TestTheUpstreamPartLastsUntilTheAnswersLastByte(t *testing.T) {
	const late = 30 * time.Millisecond
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "first ")
		w.(http.Flusher).Flush()
		time.Sleep(late)
		_, _ = io.WriteString(w, "last")
	}))
	defer server.Close()
	c := timeUpstream(server.Client())

	get := func(ctx context.Context) *http.Response {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, server.URL, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}

	ctx, timing := withCallTiming(context.Background())
	resp := get(ctx)
	body, err := io.ReadAll(resp.Body)
	if err != nil || string(body) != "first last" {
		t.Fatalf("read %q, %v", body, err)
	}
	_ = resp.Body.Close() // after the end: counted once
	if timing.upstream < late {
		t.Errorf("upstream part %s; the answer's last byte came %s after its first", timing.upstream, late)
	}
	if timing.upstream > late+time.Second || timing.apiServer != 0 || timing.turn != 0 {
		t.Errorf("parts: upstream %s, api server %s, turn %s", timing.upstream, timing.apiServer, timing.turn)
	}

	ctx, closedEarly := withCallTiming(context.Background())
	resp = get(ctx)
	_ = resp.Body.Close()
	_ = resp.Body.Close()
	if closedEarly.upstream <= 0 || closedEarly.upstream >= late {
		t.Errorf("a body closed before its end is waited for until then: %s", closedEarly.upstream)
	}

	resp = get(context.Background())
	if _, timed := resp.Body.(*timedBody); timed {
		t.Error("a request outside a timed one is timed")
	}
	_ = resp.Body.Close()
}

// TestOwnIsWhatTheWaitsLeave: only a request marked as a submitted call is observed, and its own
// part is its total less its waits.
func TestOwnIsWhatTheWaitsLeave(t *testing.T) {
	_, timing := withCallTiming(context.Background())
	timing.start = time.Now().Add(-10 * time.Millisecond)
	timing.since(waitAPIServer, time.Now().Add(-4*time.Millisecond))
	timing.since(waitUpstream, time.Now().Add(-3*time.Millisecond))
	timing.since(waitTurn, time.Now().Add(-time.Millisecond))
	if timing.apiServer < 4*time.Millisecond || timing.upstream < 3*time.Millisecond || timing.turn < time.Millisecond {
		t.Fatalf("parts: %s, %s, %s", timing.apiServer, timing.upstream, timing.turn)
	}
	own := func() (uint64, float64) {
		var m dto.Metric
		if err := metrics.GatewayCallSeconds.WithLabelValues(outcomeDenied, "own").(prometheus.Metric).Write(&m); err != nil {
			t.Fatal(err)
		}
		return m.GetHistogram().GetSampleCount(), m.GetHistogram().GetSampleSum()
	}
	count, sum := own()
	timing.observe() // not decided: not a submitted call
	if c, _ := own(); c != count {
		t.Fatal("a request that submitted no call was observed")
	}
	timing.decided(outcomeDenied)
	timing.observe()
	c, s := own()
	waited := timing.apiServer + timing.upstream + timing.turn
	if c != count+1 || s-sum < (10*time.Millisecond-waited).Seconds() || s-sum > (time.Second-waited).Seconds() {
		t.Errorf("own: %d observations (want %d), %gs, of a total of at least 10ms less %s waited", c, count+1, s-sum, waited)
	}

	var nothing *callTiming // outside a timed request every method is a no-op
	nothing.since(waitUpstream, time.Now())
	nothing.decided(outcomeDenied)
	if timingOf(context.Background()) != nil {
		t.Error("a context without timing has one")
	}
}
