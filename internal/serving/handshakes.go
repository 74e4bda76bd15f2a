package serving

import (
	"container/list"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
)

// Anyone who reaches a TLS port can open connections and never finish their handshake, and
// net/http writes one "TLS handshake error" line per failed handshake. So every TLS listener
// here does the handshakes itself, before http.Server sees the connection: at most MaxPending
// connections may be in their handshake at once (one more closes the oldest, which a client
// that is actually handshaking has long finished), each for at most Timeout, and failures are
// counted in a metric and logged at most once per LogEvery. A client that completes its
// handshake is handed to the server as a *tls.Conn, whose state net/http reads as its own.

// DefaultMaxPendingHandshakes is the cap on connections in their TLS handshake per listener.
const DefaultMaxPendingHandshakes = 128

// listenerLabel is the metrics' label naming the listener.
const listenerLabel = "listener"

var (
	handshakeErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "toolgate_tls_handshake_errors_total",
		Help: "TLS handshakes that failed (timed out, plain HTTP, no or an untrusted client certificate), by listener.",
	}, []string{listenerLabel})
	handshakesDropped = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "toolgate_tls_handshakes_dropped_total",
		Help: "Connections closed in their TLS handshake because the listener had its most in handshakes at once " +
			"(the oldest is closed), by listener.",
	}, []string{listenerLabel})
)

func init() { ctrlmetrics.Registry.MustRegister(handshakeErrors, handshakesDropped) }

// HandshakeOptions bound one listener's TLS handshakes.
type HandshakeOptions struct {
	// Name is the listener's in the metrics and logs ("webhook", "metrics", "gateway").
	Name string
	// MaxPending is how many connections may be in their handshake at once; one more closes the
	// oldest. 0 means DefaultMaxPendingHandshakes.
	MaxPending int
	// Timeout bounds one handshake; 0 means 5 s.
	Timeout time.Duration
	// LogEvery is the least time between two log lines about failed handshakes (each line says
	// how many failed since the last); 0 means a minute.
	LogEvery time.Duration
	// Log receives those lines; the zero value means controller-runtime's logger, named Name.
	Log logr.Logger

	now func() time.Time // the clock LogEvery is measured on; nil means time.Now
}

// NewTLSListener returns a listener that accepts inner's connections, does their TLS handshakes
// under o's bounds, and returns only those that completed one.
func NewTLSListener(inner net.Listener, cfg *tls.Config, o HandshakeOptions) net.Listener {
	if o.MaxPending <= 0 {
		o.MaxPending = DefaultMaxPendingHandshakes
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	if o.LogEvery <= 0 {
		o.LogEvery = time.Minute
	}
	if o.Log.GetSink() == nil {
		o.Log = logf.Log.WithName(o.Name)
	}
	if o.now == nil {
		o.now = time.Now
	}
	l := &handshakeListener{inner: inner, cfg: cfg, o: o, ready: make(chan net.Conn), done: make(chan struct{}),
		pending: list.New(), failures: handshakeErrors.WithLabelValues(o.Name), drops: handshakesDropped.WithLabelValues(o.Name)}
	go l.acceptLoop()
	return l
}

type handshakeListener struct {
	inner           net.Listener
	cfg             *tls.Config
	o               HandshakeOptions
	ready           chan net.Conn
	done            chan struct{}
	closeOnce       sync.Once
	err             error // why done was closed
	failures, drops prometheus.Counter

	mu         sync.Mutex
	closed     bool
	pending    *list.List // of *pendingConn, oldest first
	nextLog    time.Time
	suppressed int
}

// pendingConn is a connection in its handshake.
type pendingConn struct {
	raw     net.Conn
	dropped bool
}

func (l *handshakeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ready:
		return c, nil
	case <-l.done:
		return nil, l.err
	}
}

func (l *handshakeListener) Close() error {
	l.stop(net.ErrClosed)
	return nil
}

func (l *handshakeListener) Addr() net.Addr { return l.inner.Addr() }

// stop ends the listener with err, closing every connection still in its handshake.
func (l *handshakeListener) stop(err error) {
	l.closeOnce.Do(func() {
		l.err = err
		close(l.done)
		_ = l.inner.Close()
		l.mu.Lock()
		l.closed = true
		for e := l.pending.Front(); e != nil; e = e.Next() {
			_ = e.Value.(*pendingConn).raw.Close()
		}
		l.mu.Unlock()
	})
}

func (l *handshakeListener) acceptLoop() {
	var backoff time.Duration
	for {
		raw, err := l.inner.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				l.stop(net.ErrClosed)
				return
			}
			// As http.Server does for a temporary error (out of file descriptors, say): wait and
			// try again, rather than stop serving.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			select {
			case <-l.done:
				return
			case <-time.After(backoff):
			}
			continue
		}
		backoff = 0
		e := l.track(raw)
		if e == nil {
			return // closed
		}
		go l.handshake(raw, e)
	}
}

// track adds raw to the pending connections, closing the oldest when there would be more than
// MaxPending; nil when the listener is closed (raw is closed too).
func (l *handshakeListener) track(raw net.Conn) *list.Element {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		_ = raw.Close()
		return nil
	}
	for l.pending.Len() >= l.o.MaxPending {
		oldest := l.pending.Remove(l.pending.Front()).(*pendingConn)
		oldest.dropped = true
		_ = oldest.raw.Close()
		l.drops.Inc()
	}
	return l.pending.PushBack(&pendingConn{raw: raw})
}

// untrack removes e from the pending connections and says whether it had been dropped.
func (l *handshakeListener) untrack(e *list.Element) (dropped bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := e.Value.(*pendingConn)
	if !p.dropped && !l.closed {
		l.pending.Remove(e)
	}
	return p.dropped || l.closed
}

func (l *handshakeListener) handshake(raw net.Conn, e *list.Element) {
	conn := tls.Server(raw, l.cfg)
	ctx, cancel := context.WithTimeout(context.Background(), l.o.Timeout)
	err := conn.HandshakeContext(ctx)
	cancel()
	if dropped := l.untrack(e); dropped || err != nil {
		if err != nil && !dropped {
			answerPlainHTTP(err)
			l.failed(raw.RemoteAddr(), err)
		}
		_ = raw.Close()
		return
	}
	select {
	case l.ready <- conn:
	case <-l.done:
		_ = raw.Close()
	}
}

// failed counts a failed handshake and logs it, unless a line was written less than LogEvery
// ago: then the next line says how many more failed.
func (l *handshakeListener) failed(remote net.Addr, err error) {
	l.failures.Inc()
	if errors.Is(err, io.EOF) {
		return // closed before sending a byte: a TCP probe (the webhook's readiness check, a load balancer's)
	}
	l.mu.Lock()
	now := l.o.now()
	if now.Before(l.nextLog) {
		l.suppressed++
		l.mu.Unlock()
		return
	}
	unlogged := l.suppressed
	l.suppressed, l.nextLog = 0, now.Add(l.o.LogEvery)
	l.mu.Unlock()
	l.o.Log.Info("TLS handshake failed; at most one such line per interval, all counted in "+
		"toolgate_tls_handshake_errors_total", "remote", remote.String(), "error", err.Error(),
		"failedUnloggedSinceLastLine", unlogged, "interval", l.o.LogEvery.String())
}

// answerPlainHTTP tells a client that sent plain HTTP to the TLS port so, as net/http does.
func answerPlainHTTP(err error) {
	var re tls.RecordHeaderError
	if !errors.As(err, &re) || re.Conn == nil {
		return
	}
	for _, method := range []string{"GET /", "HEAD ", "POST ", "PUT /", "OPTIO"} {
		if strings.HasPrefix(string(re.RecordHeader[:]), method) {
			_ = re.Conn.SetWriteDeadline(time.Now().Add(time.Second))
			_, _ = io.WriteString(re.Conn, "HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n")
			return
		}
	}
}
