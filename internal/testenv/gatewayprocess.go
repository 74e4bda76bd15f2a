package testenv

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// GatewayServiceAccount is the ServiceAccount (in OperatorNamespace) StartGateway runs
// toolgate-gateway as.
const GatewayServiceAccount = "gateway"

// GatewayProcess is the real toolgate-gateway binary running against a Local control plane.
type GatewayProcess struct {
	// URL is its MCP endpoint: plain HTTP on loopback, which the gateway serves without
	// --insecure-serve-http because its traffic, tokens included, never leaves the host.
	URL string
	// MetricsURL is its Prometheus metrics endpoint (--metrics-bind-address, on loopback): HTTPS
	// with a self-signed certificate, for a token MetricsReader makes, unless PlainMetrics.
	MetricsURL string
	// Log is the file its output goes to.
	Log string

	cmd *exec.Cmd
	log *os.File
}

// StartGateway builds toolgate-gateway from ./cmd/toolgate-gateway and starts it against the
// control plane as ServiceAccount OperatorNamespace/GatewayServiceAccount, bound to exactly the
// ClusterRole config/gateway ships, accepting tokens for audience; it returns once the MCP
// endpoint answers.
func (l *Local) StartGateway(ctx context.Context, audience string) (*GatewayProcess, error) {
	return l.StartGatewayWith(ctx, audience, GatewayExtras{})
}

// GatewayExtras are what a measurement adds to the gateway's process: environment variables
// (KEY=value, added to this process's) and flags.
type GatewayExtras struct {
	Env, Args []string
	// PlainMetrics serves its metrics over plain HTTP to anyone (--metrics-secure=false), rather
	// than over HTTPS to scrapers the API server authorizes, as shipped.
	PlainMetrics bool
}

// StartGatewayWith is StartGateway with extras.
func (l *Local) StartGatewayWith(ctx context.Context, audience string, extras GatewayExtras) (*GatewayProcess, error) {
	repo, err := RepoRoot()
	if err != nil {
		return nil, err
	}
	binary := filepath.Join(l.Dir, "toolgate-gateway")
	if _, err := os.Stat(binary); err != nil {
		build := exec.CommandContext(ctx, "go", "build", "-o", binary, "./cmd/toolgate-gateway")
		build.Dir = repo
		if out, err := build.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("building toolgate-gateway: %w: %s", err, out)
		}
	}
	cfg, err := Gateway(ctx, l.Admin, OperatorNamespace, GatewayServiceAccount)
	if err != nil {
		return nil, err
	}
	kubeconfig := filepath.Join(l.Dir, "gateway.kubeconfig")
	if err := writeTokenKubeconfig(kubeconfig, l.Admin, GatewayServiceAccount, cfg.BearerToken); err != nil {
		return nil, err
	}
	listen, err := freeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	probe, err := freeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	metrics, err := freeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	g := &GatewayProcess{URL: "http://" + listen, MetricsURL: "https://" + metrics + "/metrics", Log: filepath.Join(l.Dir, "gateway.log")}
	args := []string{kubeconfigFlag, kubeconfig, "--listen", listen, "--audience", audience,
		"--health-probe-bind-address", probe, "--metrics-bind-address", metrics}
	if extras.PlainMetrics {
		g.MetricsURL = "http://" + metrics + "/metrics"
		args = append(args, "--metrics-secure=false")
	}
	if g.log, err = os.OpenFile(g.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
		return nil, err
	}
	g.cmd = exec.Command(binary, append(args, extras.Args...)...)
	g.cmd.Stdout, g.cmd.Stderr = g.log, g.log
	g.cmd.Env = append(os.Environ(), extras.Env...)
	if err := g.cmd.Start(); err != nil {
		_ = g.log.Close()
		return nil, fmt.Errorf("starting toolgate-gateway: %w", err)
	}
	if err := g.awaitServing(ctx); err != nil {
		return nil, errors.Join(err, g.Stop())
	}
	return g, nil
}

// awaitServing waits until the MCP endpoint refuses an unauthenticated request: it listens (the
// manager in the binary starts it once its caches have synced).
func (g *GatewayProcess) awaitServing(ctx context.Context) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Post(g.URL, "application/json", nil); err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusUnauthorized {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	data, _ := os.ReadFile(g.Log)
	return fmt.Errorf("toolgate-gateway did not serve within 60s; its log:\n%s", data)
}

// Stop stops the gateway with SIGTERM and waits for it to exit.
func (g *GatewayProcess) Stop() error {
	if g.cmd == nil || g.cmd.Process == nil {
		return nil
	}
	_ = g.cmd.Process.Signal(syscall.SIGTERM)
	_ = g.cmd.Wait()
	g.cmd = nil
	return g.log.Close()
}

// PID is the gateway's process id (0 when it does not run), for measurements such as its CPU time.
func (g *GatewayProcess) PID() int {
	if g.cmd == nil || g.cmd.Process == nil {
		return 0
	}
	return g.cmd.Process.Pid
}
