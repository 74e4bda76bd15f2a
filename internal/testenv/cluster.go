package testenv

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/operator"
	"github.com/toolgate/toolgate/internal/serving"
)

// Cluster is a running control plane with toolgate's CRDs and webhook configuration installed,
// and a manager (controllers and webhooks, as wired by setup) running against it.
type Cluster struct {
	Env    *envtest.Environment
	Config *rest.Config
	Client client.Client
	Scheme *runtime.Scheme
	// Dir holds the control plane's own files: the API server's webhook client pair and its CA.
	Dir string
	// WebhookClientCA issued the certificate kube-apiserver presents to the webhooks; the
	// manager's webhook server accepts no other.
	WebhookClientCA *CA
	// Webhook is the running manager's webhook server.
	Webhook *serving.WebhookServer
	cancel  context.CancelFunc
	done    chan error
}

// Start starts the control plane and a manager on which setup registers toolgate's controllers
// and webhooks (the same functions main.go calls). It returns once the webhook server accepts
// TLS connections and the caches have synced.
func Start(setup func(ctrl.Manager) error) (*Cluster, error) {
	env, err := New()
	if err != nil {
		return nil, err
	}
	c, err := startControlPlane(env)
	if err != nil {
		return nil, err
	}
	if err := c.startManager(setup); err != nil {
		_ = env.Stop()
		return nil, err
	}
	return c, nil
}

// StartOperator is Start with toolgate's operator (controllers and webhooks) as main.go sets it
// up, recording to a ledger in ledgerDir as node.
func StartOperator(ledgerDir, node string) (*Cluster, error) {
	journal, err := ledger.Open(audit.Config(nil, ledgerDir, node, nil))
	if err != nil {
		return nil, err
	}
	return Start(func(mgr ctrl.Manager) error {
		return operator.Setup(mgr, operator.Options{Ledger: &audit.Log{Journal: journal}})
	})
}

// startControlPlane starts env with toolgate's webhook configuration installed and kube-apiserver
// presenting a client certificate to webhooks (mutual TLS, as in production), and returns the
// cluster without a manager.
func startControlPlane(env *envtest.Environment) (*Cluster, error) {
	webhooks, err := Path("config", "webhook")
	if err != nil {
		return nil, err
	}
	env.WebhookInstallOptions = envtest.WebhookInstallOptions{Paths: []string{webhooks}}
	dir, err := os.MkdirTemp("", "toolgate-control-plane-")
	if err != nil {
		return nil, err
	}
	ca, err := configureWebhookClientCert(env, dir)
	if err != nil {
		return nil, err
	}
	cfg, err := env.Start()
	if err != nil {
		return nil, fmt.Errorf("starting the control plane: %w", err)
	}
	reservePort(env.WebhookInstallOptions.LocalServingPort)
	return &Cluster{Env: env, Config: cfg, Scheme: runtime.NewScheme(), Dir: dir, WebhookClientCA: ca, done: make(chan error, 1)}, nil
}

// APIServerClientCert is the pair kube-apiserver presents to the webhooks, for a test that must
// speak to the webhook server as the API server does.
func (c *Cluster) APIServerClientCert() (tls.Certificate, error) {
	return tls.LoadX509KeyPair(filepath.Join(c.Dir, "webhook-client.crt"), filepath.Join(c.Dir, "webhook-client.key"))
}

func (c *Cluster) startManager(setup func(ctrl.Manager) error) error {
	if err := clientgoscheme.AddToScheme(c.Scheme); err != nil {
		return err
	}
	if err := safetyv1alpha1.AddToScheme(c.Scheme); err != nil {
		return err
	}
	var err error
	if c.Client, err = client.New(c.Config, client.Options{Scheme: c.Scheme}); err != nil {
		return err
	}
	wh := &c.Env.WebhookInstallOptions
	server, err := serving.NewWebhookServer(serving.WebhookOptions{
		Host: wh.LocalServingHost, Port: wh.LocalServingPort, CertDir: wh.LocalServingCertDir,
		ClientCAFile: filepath.Join(c.Dir, WebhookClientCAFile),
	})
	if err != nil {
		return err
	}
	c.Webhook = server
	mgr, err := ctrl.NewManager(c.Config, ctrl.Options{
		Scheme:                 c.Scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		// A restarted manager registers the same controller names again in this process.
		Controller:    config.Controller{SkipNameValidation: new(true)},
		WebhookServer: server,
		// What main.go caches, so the suites run against what production keeps in memory.
		Cache: operator.CacheOptions(),
	})
	if err != nil {
		return err
	}
	if err := setup(mgr); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	go func() { c.done <- mgr.Start(ctx) }()
	if !mgr.GetCache().WaitForCacheSync(ctx) {
		return fmt.Errorf("manager caches did not sync")
	}
	addr := net.JoinHostPort(wh.LocalServingHost, fmt.Sprint(wh.LocalServingPort))
	return c.awaitTLS(addr)
}

// awaitTLS waits until the webhook server on addr completes a handshake with the API server's
// client certificate, as kube-apiserver's own requests will.
func (c *Cluster) awaitTLS(addr string) error {
	clientCert, err := c.APIServerClientCert()
	if err != nil {
		return err
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		conn, err := tls.DialWithDialer(&net.Dialer{Timeout: time.Second}, "tcp", addr, &tls.Config{
			InsecureSkipVerify: true, //nolint:gosec // probing our own test server
			Certificates:       []tls.Certificate{clientCert},
		})
		if err == nil {
			return conn.Close()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("webhook server on %s not serving: %w", addr, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Stop stops the manager, then the control plane.
func (c *Cluster) Stop() error {
	if c.cancel != nil {
		c.cancel()
		if err := <-c.done; err != nil {
			return fmt.Errorf("manager: %w", err)
		}
	}
	err := c.Env.Stop()
	_ = os.RemoveAll(c.Dir)
	return err
}

// RestartManager stops the running manager and starts a new one with setup, on the same control
// plane: what a crash-free restart or a leader change looks like to the controllers.
func (c *Cluster) RestartManager(setup func(ctrl.Manager) error) error {
	if c.cancel != nil {
		c.cancel()
		c.cancel = nil // a failed start below must not make Stop wait for this manager again
		if err := <-c.done; err != nil {
			return fmt.Errorf("stopping the manager: %w", err)
		}
	}
	c.Scheme = runtime.NewScheme()
	return c.startManager(setup)
}
