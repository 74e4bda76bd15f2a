package serving

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/certwatcher"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// PeerOptions configure the listener replicas of the operator reach each other on.
type PeerOptions struct {
	// Host and Port to listen on; an empty host means every interface, a negative port none.
	Host string
	Port int
	// CertDir, CertName and KeyName locate the webhook's serving pair, which every replica mounts
	// from the same Secret.
	CertDir, CertName, KeyName string
	// Limits bound each connection; the zero value means DefaultLimits.
	Limits Limits
}

// Peers is the replicas' channel to one another: a listener, and a client for it, both
// authenticated by the webhook's serving certificate. Each side presents it and accepts only the
// very certificate it serves itself: whoever holds the serving key (mounted from a Secret only the
// operator reads) can already answer the API server's reviews, so it is trusted as a replica.
// Nothing else can reach a handler on the mux: the handshake fails first.
type Peers struct {
	opts PeerOptions
	mux  *http.ServeMux

	once    sync.Once
	watcher *certwatcher.CertWatcher
	err     error

	mu   sync.Mutex
	addr string
}

// NewPeers returns the peer channel; Start opens its listener.
func NewPeers(o PeerOptions) *Peers {
	o.CertName, o.KeyName, o.Limits = pairDefaults(o.CertName, o.KeyName, o.Limits)
	return &Peers{opts: o, mux: http.NewServeMux()}
}

// Mux is where handlers for peers register.
func (p *Peers) Mux() *http.ServeMux { return p.mux }

// NeedLeaderElection is false: every replica must be reachable by the one that forwards to it.
func (p *Peers) NeedLeaderElection() bool { return false }

// Addr is the address the listener listens on once started ("" before).
func (p *Peers) Addr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.addr
}

// certificates loads the serving pair, once; Start watches it for changes while it serves.
func (p *Peers) certificates() (*certwatcher.CertWatcher, error) {
	p.once.Do(func() {
		p.watcher, p.err = certwatcher.New(filepath.Join(p.opts.CertDir, p.opts.CertName), filepath.Join(p.opts.CertDir, p.opts.KeyName))
	})
	return p.watcher, p.err
}

// errNotPeer is a handshake with a certificate other than the one this replica serves.
var errNotPeer = errors.New("the certificate presented is not this operator's serving certificate")

// samePair checks that the other side of a connection presented the certificate w serves.
func samePair(w *certwatcher.CertWatcher) func(tls.ConnectionState) error {
	return func(cs tls.ConnectionState) error {
		own, err := w.GetCertificate(nil)
		if err != nil {
			return err
		}
		if len(cs.PeerCertificates) == 0 || len(own.Certificate) == 0 || !bytes.Equal(cs.PeerCertificates[0].Raw, own.Certificate[0]) {
			return errNotPeer
		}
		return nil
	}
}

// Start serves the mux until ctx ends.
func (p *Peers) Start(ctx context.Context) error {
	if p.opts.Port < 0 {
		return nil
	}
	w, err := p.certificates()
	if err != nil {
		return err
	}
	go func() { // re-reads a rotated pair until the listener stops
		if err := w.Start(ctx); err != nil {
			logf.Log.WithName("peers").Error(err, "certificate watcher error")
		}
	}()
	cfg := newTLSConfig([]func(*tls.Config){HTTP1Only})
	cfg.GetCertificate = w.GetCertificate
	cfg.ClientAuth = tls.RequireAnyClientCert
	cfg.VerifyConnection = samePair(w)
	inner, err := net.Listen("tcp", net.JoinHostPort(p.opts.Host, strconv.Itoa(p.opts.Port)))
	if err != nil {
		return err
	}
	// Its handshakes bounded as every other TLS listener's (handshakes.go): anyone who reaches
	// the port may start one, though only a replica's pair completes it.
	lis := p.opts.Limits.tlsListener(inner, cfg, "peers")
	p.mu.Lock()
	p.addr = lis.Addr().String()
	p.mu.Unlock()
	logf.Log.WithName("peers").Info("Serving the replicas' peer listener", "address", lis.Addr().String())
	return serve(ctx, p.opts.Limits.Server(ctx, "peers", stillPeer(w, p.mux)), lis, time.Minute)
}

// stillPeer serves a request only while its connection's certificate is the one this replica
// serves now: the handshake checked it once, and a kept-alive connection opened with a pair since
// rotated out (a leaked key is the reason to rotate) would otherwise keep forwarding reviews.
func stillPeer(w *certwatcher.CertWatcher, next http.Handler) http.Handler {
	same := samePair(w)
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.TLS == nil || same(*r.TLS) != nil {
			rw.Header().Set("Connection", "close")
			http.Error(rw, errNotPeer.Error(), http.StatusForbidden)
			return
		}
		next.ServeHTTP(rw, r)
	})
}

// Client returns an HTTP client for other replicas' peer listeners: it presents the serving
// certificate and accepts only a server presenting the same one.
func (p *Peers) Client() (*http.Client, error) {
	w, err := p.certificates()
	if err != nil {
		return nil, err
	}
	cfg := newTLSConfig([]func(*tls.Config){HTTP1Only})
	cfg.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return w.GetCertificate(nil) }
	// The server is verified by VerifyConnection, which pins it to the serving certificate: the
	// chain and name checks would only ask a CA what the pin already proves.
	cfg.InsecureSkipVerify = true //nolint:gosec // pinned to the exact certificate in VerifyConnection
	cfg.VerifyConnection = samePair(w)
	return &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: cfg, MaxIdleConnsPerHost: 64, IdleConnTimeout: 90 * time.Second, ForceAttemptHTTP2: false},
	}, nil
}
