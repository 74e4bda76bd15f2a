package serving

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"k8s.io/client-go/rest"
	certutil "k8s.io/client-go/util/cert"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/metrics/filters"
)

// MetricsOptions configure the metrics listener, which replaces controller-runtime's so that it
// gets the same limits as every other listener.
type MetricsOptions struct {
	// BindAddress to listen on; "" or "0" turns the endpoint off.
	BindAddress string
	// Secure serves HTTPS and lets only callers the API server authenticates and authorizes for
	// GET /metrics (a TokenReview and a SubjectAccessReview per scrape) read it.
	Secure bool
	// CertDir, CertName and KeyName locate a serving pair; empty with Secure means a self-signed one.
	CertDir, CertName, KeyName string
	TLSOpts                    []func(*tls.Config)
	// Limits bound each connection; the zero value means SmallLimits.
	Limits Limits
}

// MetricsServer serves controller-runtime's metrics registry (toolgate's own metrics included).
type MetricsServer struct {
	opts    MetricsOptions
	handler http.Handler
}

// newMetricsServer builds the handler, with authentication and authorization when Secure.
func newMetricsServer(o MetricsOptions, cfg *rest.Config) (*MetricsServer, error) {
	if o.Limits == (Limits{}) {
		o.Limits = SmallLimits
	}
	handler := promhttp.HandlerFor(metrics.Registry, promhttp.HandlerOpts{})
	if o.Secure {
		httpClient, err := rest.HTTPClientFor(cfg)
		if err != nil {
			return nil, err
		}
		filter, err := filters.WithAuthenticationAndAuthorization(cfg, httpClient)
		if err != nil {
			return nil, err
		}
		if handler, err = filter(logf.Log.WithName("metrics"), handler); err != nil {
			return nil, err
		}
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", handler)
	return &MetricsServer{opts: o, handler: mux}, nil
}

// AddMetricsServer adds the metrics listener o describes to mgr, when it is enabled: the manager's
// and toolgate-gateway's alike.
func AddMetricsServer(mgr manager.Manager, o MetricsOptions) error {
	if !o.Enabled() {
		return nil
	}
	m, err := newMetricsServer(o, mgr.GetConfig())
	if err != nil {
		return fmt.Errorf("setting up the metrics server: %w", err)
	}
	return mgr.Add(m)
}

// Enabled says whether a bind address was given.
func (o MetricsOptions) Enabled() bool { return o.BindAddress != "" && o.BindAddress != "0" }

// NeedLeaderElection is false: every replica exposes its own metrics.
func (m *MetricsServer) NeedLeaderElection() bool { return false }

// Start serves until ctx ends.
func (m *MetricsServer) Start(ctx context.Context) error {
	lis, err := net.Listen("tcp", m.opts.BindAddress)
	if err != nil {
		return fmt.Errorf("metrics listener: %w", err)
	}
	if m.opts.Secure {
		cfg, err := m.tlsConfig(ctx)
		if err != nil {
			_ = lis.Close()
			return err
		}
		lis = m.opts.Limits.tlsListener(lis, cfg, "metrics")
	}
	logf.Log.WithName("metrics").Info("Serving metrics", "address", lis.Addr().String(), "secure", m.opts.Secure)
	return serve(ctx, m.opts.Limits.Server(ctx, "metrics", m.handler), lis, 10*time.Second)
}

func (m *MetricsServer) tlsConfig(ctx context.Context) (*tls.Config, error) {
	cfg := newTLSConfig(m.opts.TLSOpts)
	if m.opts.CertDir != "" {
		return cfg, serveCertificateFrom(ctx, cfg, m.opts.CertDir, m.opts.CertName, m.opts.KeyName, "metrics")
	}
	certPEM, keyPEM, err := certutil.GenerateSelfSignedCertKey("localhost", nil, nil)
	if err != nil {
		return nil, fmt.Errorf("self-signed metrics certificate: %w", err)
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, err
	}
	cfg.Certificates = []tls.Certificate{pair}
	return cfg, nil
}
