package serving

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// The handshake checks the client's certificate once, but a kept-alive connection carries
// requests for as long as the client keeps sending them (IdleTimeout only closes idle ones). So
// that rotating the client CA out, or the certificate expiring, ends a client's access and not
// only its next connection's, every request re-checks the certificate its connection presented
// against the CA bundle and clock of now. The result is kept per connection until the bundle
// changes or the chain's first expiry, so a busy connection pays one chain verification.

type connTrustKey struct{}

// connTrust is what one connection's certificate was last verified against.
type connTrust struct {
	mu    sync.Mutex
	pool  *x509.CertPool
	until time.Time
}

// withConnTrust is an http.Server ConnContext giving each connection its connTrust.
func withConnTrust(ctx context.Context, _ net.Conn) context.Context {
	return context.WithValue(ctx, connTrustKey{}, &connTrust{})
}

// errNoLongerTrusted answers a request on a connection whose certificate the client CA of now
// does not verify (it was rotated out, or the certificate has expired since the handshake).
var errNoLongerTrusted = errors.New("the client certificate of this connection is no longer trusted")

// stillTrusted wraps next so that a request is served only while its connection's client
// certificate is one the handshake would accept now. A refused request is answered 403 and its
// connection closed, so the client's next request starts a handshake that is checked afresh.
func (c *clientCA) stillTrusted(next http.Handler, names []string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := c.recheck(r.Context(), r.TLS, names); err != nil {
			w.Header().Set("Connection", "close")
			http.Error(w, err.Error(), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// recheck verifies the connection's certificate chain against the current bundle, now, for client
// authentication, and that it carries one of names (when set), as the handshake did.
func (c *clientCA) recheck(ctx context.Context, cs *tls.ConnectionState, names []string) error {
	if cs == nil || len(cs.PeerCertificates) == 0 {
		return errNoLongerTrusted
	}
	now := c.clock()
	pool, err := c.current(now)
	if err != nil {
		return errNoLongerTrusted
	}
	trust, _ := ctx.Value(connTrustKey{}).(*connTrust)
	if trust == nil {
		trust = &connTrust{}
	}
	trust.mu.Lock()
	defer trust.mu.Unlock()
	if trust.pool == pool && now.Before(trust.until) {
		return nil
	}
	trust.pool, trust.until = nil, time.Time{}
	intermediates := x509.NewCertPool()
	for _, cert := range cs.PeerCertificates[1:] {
		intermediates.AddCert(cert)
	}
	chains, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{
		Roots: pool, Intermediates: intermediates, CurrentTime: now,
		KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	})
	if err != nil {
		return errNoLongerTrusted
	}
	if len(names) > 0 {
		if err := clientNamed(*cs, names); err != nil {
			return errNoLongerTrusted
		}
	}
	trust.pool, trust.until = pool, firstExpiry(chains)
	return nil
}

// firstExpiry is the earliest NotAfter in any of chains' certificates: until then, a chain that
// verified against an unchanged bundle still does.
func firstExpiry(chains [][]*x509.Certificate) time.Time {
	var first time.Time
	for _, chain := range chains {
		for _, cert := range chain {
			if first.IsZero() || cert.NotAfter.Before(first) {
				first = cert.NotAfter
			}
		}
	}
	return first
}
