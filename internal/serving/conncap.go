package serving

import (
	"container/list"
	"net"
	"net/http"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
)

// Past its handshake (or on a plain listener, from its accept), a connection costs the server a
// goroutine, buffers and a file descriptor for as long as the client keeps it: trickling its
// request's headers for up to ReadHeaderTimeout, or idle between requests for up to IdleTimeout,
// again and again. Whoever reaches the port can open many. So each server holds at most
// MaxConnections at once, and what happens at the cap is what nginx does when its
// worker_connections run out, and net/http's Shutdown does first: the connections that are not
// serving a request (idle between requests, or still reading one's headers) can be closed, and
// the one that has waited longest is closed for the new one; a connection whose request is being
// handled is never closed for another. Only when every held connection is serving a request is
// the new one closed, at once (no wait that would stall the accept loop for everyone), to retry.
// A legitimate client's connection reads its headers in milliseconds and so is the newest
// waiting one, not the oldest: an attacker must open MaxConnections new connections within that
// time to push it out, as with the handshakes (handshakes.go). Both closes are counted.
//
// The cap is kept with http.Server's ConnState hook, which net/http calls with the very
// connection it serves (a *tls.Conn is not wrapped, so net/http still reads its TLS state), and
// for HTTP/2 as a connection gains and loses streams.

// DefaultMaxConnections is the cap on one server's open connections past their handshake.
const DefaultMaxConnections = 512

var connectionsClosedAtCap = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "toolgate_connections_closed_at_cap_total",
	Help: "Connections closed because the listener held its most connections at once, by listener and which: " +
		"\"waiting\" (the one idle or reading its headers longest, closed for a new one) or \"new\" " +
		"(refused, every held connection serving a request).",
}, []string{listenerLabel, "closed"})

var connectionsHeld = prometheus.NewGaugeVec(prometheus.GaugeOpts{
	Name: "toolgate_connections_held",
	Help: "Connections a listener holds past their handshake, by listener and state: \"serving\" a request, or " +
		"\"waiting\" (idle between requests or reading one's headers, the ones closed first at the cap).",
}, []string{listenerLabel, "state"})

func init() { ctrlmetrics.Registry.MustRegister(connectionsClosedAtCap, connectionsHeld) }

// CapConnections makes srv hold at most max connections at once (0 means
// DefaultMaxConnections), as said above; name is the listener's in the metric. An existing
// ConnState hook is still called.
func CapConnections(srv *http.Server, name string, max int) {
	if max <= 0 {
		max = DefaultMaxConnections
	}
	c := &connCap{max: max, conns: map[net.Conn]*capped{}, waiting: list.New(),
		waitingClosed: connectionsClosedAtCap.WithLabelValues(name, "waiting"),
		newClosed:     connectionsClosedAtCap.WithLabelValues(name, "new"),
		waitingHeld:   connectionsHeld.WithLabelValues(name, "waiting"),
		servingHeld:   connectionsHeld.WithLabelValues(name, "serving")}
	next := srv.ConnState
	srv.ConnState = func(conn net.Conn, state http.ConnState) {
		c.changed(conn, state)
		if next != nil {
			next(conn, state)
		}
	}
}

type connCap struct {
	max                      int
	waitingClosed, newClosed prometheus.Counter
	waitingHeld, servingHeld prometheus.Gauge

	mu      sync.Mutex
	conns   map[net.Conn]*capped // every held connection
	waiting *list.List           // of net.Conn not serving a request, longest waiting first
}

// capped is one held connection: its place in waiting, nil while it serves a request.
type capped struct{ waiting *list.Element }

func (c *connCap) changed(conn net.Conn, state http.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	h, held := c.conns[conn]
	switch state {
	case http.StateNew:
		if len(c.conns) >= c.max && !c.closeLongestWaiting() {
			c.newClosed.Inc()
			closeNow(conn)
			return // never held; net/http's read fails and it ends the connection
		}
		c.conns[conn] = &capped{waiting: c.waiting.PushBack(conn)}
		c.waitingHeld.Inc()
	case http.StateIdle:
		if held && h.waiting == nil {
			h.waiting = c.waiting.PushBack(conn)
			c.servingHeld.Dec()
			c.waitingHeld.Inc()
		}
	case http.StateActive:
		if held && h.waiting != nil {
			c.waiting.Remove(h.waiting)
			h.waiting = nil
			c.waitingHeld.Dec()
			c.servingHeld.Inc()
		}
	case http.StateClosed, http.StateHijacked:
		if held {
			c.forget(conn, h)
		}
	}
}

// closeLongestWaiting closes the connection that has waited longest without a request being
// served on it, if any.
func (c *connCap) closeLongestWaiting() bool {
	front := c.waiting.Front()
	if front == nil {
		return false
	}
	conn := front.Value.(net.Conn)
	c.forget(conn, c.conns[conn])
	c.waitingClosed.Inc()
	closeNow(conn)
	return true
}

func (c *connCap) forget(conn net.Conn, h *capped) {
	if h.waiting != nil {
		c.waiting.Remove(h.waiting)
		c.waitingHeld.Dec()
	} else {
		c.servingHeld.Dec()
	}
	delete(c.conns, conn)
}

// closeNow closes conn's socket without a TLS close_notify, whose write could wait on a client
// that reads nothing; the hook runs in net/http's accept loop.
func closeNow(conn net.Conn) {
	if tc, ok := conn.(interface{ NetConn() net.Conn }); ok {
		conn = tc.NetConn()
	}
	_ = conn.Close()
}
