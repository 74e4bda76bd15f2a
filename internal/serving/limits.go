package serving

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"time"
)

// Limits bound what one connection may cost the server.
type Limits struct {
	// ReadHeaderTimeout bounds the TLS handshake and the request line and headers.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading the whole request, body included.
	ReadTimeout time.Duration
	// WriteTimeout bounds handling plus writing the response. The API server gives a webhook at
	// most 30 s (toolgate asks for 5 s), so an answer later than this is of no use to anyone.
	WriteTimeout time.Duration
	// IdleTimeout closes kept-alive connections nobody uses.
	IdleTimeout time.Duration
	// MaxHeaderBytes caps the request line and headers.
	MaxHeaderBytes int
	// MaxBodyBytes caps the request body; a larger one is answered 413 without being read.
	MaxBodyBytes int64
	// MaxPendingHandshakes caps the connections in their TLS handshake at once (each for at most
	// the least of the timeouts above); one more closes the oldest (handshakes.go). 0 means
	// DefaultMaxPendingHandshakes.
	MaxPendingHandshakes int
	// MaxConnections caps the connections held at once past their handshake; at the cap the one
	// idle or reading its headers longest is closed for a new one, and a new one is refused when
	// every held one is serving a request (conncap.go). 0 means DefaultMaxConnections.
	MaxConnections int
}

// DefaultLimits fit admission reviews: the API server stores objects of at most 1.5 MiB and an
// UPDATE review carries the object twice, so 4 MiB of body is more than any real review needs.
var DefaultLimits = Limits{
	ReadHeaderTimeout: 5 * time.Second,
	ReadTimeout:       10 * time.Second,
	WriteTimeout:      35 * time.Second,
	IdleTimeout:       60 * time.Second,
	MaxHeaderBytes:    64 << 10,
	MaxBodyBytes:      4 << 20,
	// The API server's connections to a webhook are few and finish their handshake in
	// milliseconds; anyone else who reaches the port costs at most this many.
	MaxPendingHandshakes: DefaultMaxPendingHandshakes,
	// Over HTTP/1.1 the API server opens a connection per review in flight and keeps some idle;
	// hundreds at once is a very busy cluster, and an idle one is closed first at the cap.
	MaxConnections: DefaultMaxConnections,
}

// SmallLimits fit endpoints that take no body: metrics scrapes and health probes.
var SmallLimits = Limits{
	ReadHeaderTimeout: 5 * time.Second,
	ReadTimeout:       5 * time.Second,
	WriteTimeout:      30 * time.Second,
	IdleTimeout:       60 * time.Second,
	MaxHeaderBytes:    16 << 10,
	MaxBodyBytes:      64 << 10,
	// A scraper or two.
	MaxPendingHandshakes: 32,
	MaxConnections:       32,
}

// Server returns an http.Server for handler with these limits, its connections capped under
// name (conncap.go); its requests carry ctx.
func (l Limits) Server(ctx context.Context, name string, handler http.Handler) *http.Server {
	if l.MaxBodyBytes > 0 {
		handler = http.MaxBytesHandler(handler, l.MaxBodyBytes)
	}
	srv := &http.Server{
		BaseContext:       func(net.Listener) context.Context { return ctx },
		Handler:           handler,
		ReadHeaderTimeout: l.ReadHeaderTimeout,
		ReadTimeout:       l.ReadTimeout,
		WriteTimeout:      l.WriteTimeout,
		IdleTimeout:       l.IdleTimeout,
		MaxHeaderBytes:    l.MaxHeaderBytes,
	}
	CapConnections(srv, name, l.MaxConnections)
	return srv
}

// tlsListener is lis with TLS by cfg, its handshakes bounded by l (handshakes.go).
func (l Limits) tlsListener(lis net.Listener, cfg *tls.Config, name string) net.Listener {
	return NewTLSListener(lis, cfg, HandshakeOptions{Name: name, MaxPending: l.MaxPendingHandshakes,
		Timeout: l.handshakeTimeout()})
}

// handshakeTimeout is net/http's for a TLS handshake: the least of the read header, read and write
// timeouts that are set.
func (l Limits) handshakeTimeout() time.Duration {
	var least time.Duration
	for _, d := range []time.Duration{l.ReadHeaderTimeout, l.ReadTimeout, l.WriteTimeout} {
		if d > 0 && (least == 0 || d < least) {
			least = d
		}
	}
	return least
}

// serve runs srv on lis until ctx ends, then shuts it down gracefully for up to grace.
func serve(ctx context.Context, srv *http.Server, lis net.Listener, grace time.Duration) error {
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), grace)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(lis); err != nil && err != http.ErrServerClosed {
		return err
	}
	<-done
	return nil
}
