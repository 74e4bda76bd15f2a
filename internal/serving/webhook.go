package serving

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/healthz"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
)

// WebhookOptions configure the admission webhook listener.
type WebhookOptions struct {
	// Host and Port to listen on; an empty host means every interface.
	Host string
	Port int
	// CertDir, CertName and KeyName locate the serving pair, re-read when it changes.
	CertDir, CertName, KeyName string
	// ClientCAFile is a PEM bundle of the CA that issued the API server's client certificate for
	// webhooks. Set, every connection must present a certificate it verifies, or the handshake
	// fails before any request is read. Either it or AnyClient must be set.
	ClientCAFile string
	// AnyClient, instead of ClientCAFile, answers every client that reaches the port (only behind
	// a NetworkPolicy that admits the API server alone; docs/webhook.md). It must be asked for:
	// a configuration that merely lost its client CA (an overridden argument list, a dropped
	// patch) is refused, not served open.
	AnyClient bool
	// ClientNames, with ClientCAFile, are the names the client certificate must carry (its
	// subject's common name or a DNS name): the API server's, when its CA signs others' too.
	// Empty accepts every certificate the CA verifies.
	ClientNames []string
	// ClusterCAs is the PEM of the CAs the API server's serving certificate is verified with (the
	// manager's kubeconfig). A client CA bundle holding one of them, without ClientNames, is
	// refused: that CA signs other clients' certificates too.
	ClusterCAs []byte
	// TLSOpts adjust the TLS configuration (for example to turn HTTP/2 off).
	TLSOpts []func(*tls.Config)
	// Limits bound each connection; the zero value means DefaultLimits.
	Limits Limits
	// Mux serves the requests; nil means a new one. Two servers sharing one mux answer alike.
	Mux *http.ServeMux
}

// WebhookServer is a controller-runtime webhook.Server with hardened limits and, when configured,
// mutual TLS. Handlers register on it as on the default server.
type WebhookServer struct {
	opts     WebhookOptions
	mux      *http.ServeMux
	clientCA *clientCA // nil: any client is answered

	mu      sync.Mutex
	started bool
	addr    string
}

var _ webhook.Server = (*WebhookServer)(nil)

// NewWebhookServer returns a server that Start will open. A client CA file that cannot be read is
// an error now, not at the first review: the manager must not come up without the check it was
// configured to make.
func NewWebhookServer(o WebhookOptions) (*WebhookServer, error) {
	o.CertName, o.KeyName, o.Limits = pairDefaults(o.CertName, o.KeyName, o.Limits)
	if err := o.checkClients(); err != nil {
		return nil, err
	}
	s := &WebhookServer{opts: o, mux: o.Mux}
	if o.ClientCAFile != "" {
		var err error
		var check func([]byte) error
		if len(o.ClientNames) == 0 {
			check = func(bundle []byte) error {
				if shared := sharedCA(bundle, o.ClusterCAs); shared != "" {
					return errClusterCAWithoutNames(shared)
				}
				return nil
			}
		}
		if s.clientCA, err = loadClientCAChecked(o.ClientCAFile, check); err != nil {
			return nil, err
		}
	}
	if s.mux == nil {
		s.mux = http.NewServeMux()
	}
	return s, nil
}

// checkClients refuses options that do not say who may send reviews, or say it twice.
func (o WebhookOptions) checkClients() error {
	switch {
	case o.Port < 0:
		return nil // no listener
	case o.ClientCAFile != "" && o.AnyClient:
		return errors.New("the webhook client CA and accepting any client contradict each other: set one")
	case o.ClientCAFile == "" && len(o.ClientNames) > 0:
		return errors.New("webhook client names need the webhook client CA: without it no certificate is asked for")
	case o.ClientCAFile == "" && !o.AnyClient:
		return errors.New("no webhook client CA: without one any client that reaches the port could send " +
			"admission reviews; give the CA of the API server's client certificate, or accept any client explicitly")
	}
	return nil
}

// pairDefaults fills in the serving pair's file names and the connection limits left unset.
func pairDefaults(cert, key string, l Limits) (string, string, Limits) {
	if cert == "" {
		cert = "tls.crt"
	}
	if key == "" {
		key = "tls.key"
	}
	if l == (Limits{}) {
		l = DefaultLimits
	}
	return cert, key, l
}

// NeedLeaderElection is false: every replica answers admission reviews.
func (s *WebhookServer) NeedLeaderElection() bool { return false }

// Register adds a handler for path.
func (s *WebhookServer) Register(path string, hook http.Handler) {
	s.mux.Handle(path, hook)
	logf.Log.WithName("webhook").Info("Registering webhook", "path", path)
}

// WebhookMux returns the server's mux.
func (s *WebhookServer) WebhookMux() *http.ServeMux { return s.mux }

// Addr is the address the server listens on once started ("" before).
func (s *WebhookServer) Addr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// Start serves until ctx ends.
func (s *WebhookServer) Start(ctx context.Context) error {
	if s.opts.Port < 0 {
		return nil
	}
	cfg, err := s.tlsConfig(ctx)
	if err != nil {
		return err
	}
	inner, err := net.Listen("tcp", net.JoinHostPort(s.opts.Host, strconv.Itoa(s.opts.Port)))
	if err != nil {
		return err
	}
	lis := s.opts.Limits.tlsListener(inner, cfg, "webhook")
	s.mu.Lock()
	s.started, s.addr = true, lis.Addr().String()
	s.mu.Unlock()
	logf.Log.WithName("webhook").Info("Serving webhook server", "address", lis.Addr().String(),
		"clientCertificateRequired", s.opts.ClientCAFile != "")
	var handler http.Handler = s.mux
	if s.clientCA != nil {
		handler = s.clientCA.stillTrusted(handler, s.opts.ClientNames)
	}
	srv := s.opts.Limits.Server(ctx, "webhook", handler)
	srv.ConnContext = withConnTrust
	return serve(ctx, srv, lis, time.Minute)
}

func (s *WebhookServer) tlsConfig(ctx context.Context) (*tls.Config, error) {
	cfg := newTLSConfig(s.opts.TLSOpts)
	if cfg.GetCertificate == nil {
		if err := serveCertificateFrom(ctx, cfg, s.opts.CertDir, s.opts.CertName, s.opts.KeyName, "webhook"); err != nil {
			return nil, err
		}
	}
	if s.clientCA == nil {
		return cfg, nil
	}
	return requireClientCert(cfg, s.clientCA, s.opts.ClientNames), nil
}

// StartedChecker reports ready once the listener accepts connections. It dials plain TCP: a TLS
// probe without the API server's client certificate would be refused and logged on every probe.
func (s *WebhookServer) StartedChecker() healthz.Checker {
	return func(*http.Request) error {
		s.mu.Lock()
		started, addr := s.started, s.addr
		s.mu.Unlock()
		if s.opts.Port < 0 {
			return nil
		}
		if !started {
			return errors.New("webhook server has not been started yet")
		}
		conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			return fmt.Errorf("webhook server is not reachable: %w", err)
		}
		return conn.Close()
	}
}

// SplitNames splits a comma-separated flag value, dropping blanks. A value that is only blanks
// and commas is an error: it reads as names given, yet pins none, so any certificate the CA
// verifies would be answered.
func SplitNames(v string) ([]string, error) {
	var out []string
	for n := range strings.SplitSeq(v, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	if v != "" && len(out) == 0 {
		return nil, fmt.Errorf("--webhook-client-name %q names no certificate name", v)
	}
	return out, nil
}
