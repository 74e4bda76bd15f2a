package testenv

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
)

// LocalReplicas are several manager binaries on one Local's control plane, as a Deployment with
// several replicas runs them: each with its own webhook port, peer listener, probes and ledger
// chain, all running for the one leader Lease, behind a TCP round-robin proxy on the port the
// webhook configuration names (what the Service does). Each process is a real manager: the
// leader decides counters and the others forward to it over mutual TLS.
type LocalReplicas struct {
	// Connections counts the connections the proxy handed to each replica.
	Connections []atomic.Int64
	hold        requestHold
	procs       []*exec.Cmd
	logs        []*os.File
	proxy       net.Listener
	shutdown    chan struct{}
	wg          sync.WaitGroup
}

// StartManagers starts n manager binaries behind the proxy and returns once every one is ready.
// Start no other manager on the same Local while they run.
func (l *Local) StartManagers(ctx context.Context, n int) (*LocalReplicas, error) {
	binary, certDir, err := l.prepareManager(ctx)
	if err != nil {
		return nil, err
	}
	wh := l.Env.WebhookInstallOptions
	r := &LocalReplicas{Connections: make([]atomic.Int64, n), shutdown: make(chan struct{})}
	addrs := make([]string, n)
	probes := make([]string, n)
	for i := range n {
		port, err := freePort(wh.LocalServingHost)
		if err != nil {
			return nil, errors.Join(err, r.Stop())
		}
		addrs[i] = net.JoinHostPort(wh.LocalServingHost, strconv.Itoa(port))
		if probes[i], err = freeLoopbackAddr(); err != nil {
			return nil, errors.Join(err, r.Stop())
		}
		args, err := l.managerArgs(certDir, port, probes[i], filepath.Join(l.Dir, fmt.Sprintf("ledger-%d", i)), fmt.Sprintf("replica-%d", i))
		if err != nil {
			return nil, errors.Join(err, r.Stop())
		}
		log, err := os.OpenFile(filepath.Join(l.Dir, fmt.Sprintf("manager-%d.log", i)), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, errors.Join(err, r.Stop())
		}
		cmd := exec.Command(binary, args...)
		cmd.Stdout, cmd.Stderr = log, log
		r.logs = append(r.logs, log)
		if err := cmd.Start(); err != nil {
			return nil, errors.Join(fmt.Errorf("starting manager %d: %w", i, err), r.Stop())
		}
		r.procs = append(r.procs, cmd)
	}
	if r.proxy, err = net.Listen("tcp", net.JoinHostPort(wh.LocalServingHost, strconv.Itoa(wh.LocalServingPort))); err != nil {
		return nil, errors.Join(fmt.Errorf("listening for the webhook proxy: %w", err), r.Stop())
	}
	r.wg.Go(func() {
		roundRobin(r.proxy, addrs, func(next int) int { return next }, r.Connections, &r.hold, &r.wg, r.shutdown)
	})
	for i, probe := range probes {
		if err := waitReady(ctx, probe, filepath.Join(l.Dir, fmt.Sprintf("manager-%d.log", i))); err != nil {
			return nil, errors.Join(err, r.Stop())
		}
	}
	for i := range r.Connections { // the readiness probes are not the API server's
		r.Connections[i].Store(0)
	}
	return r, nil
}

// Hold holds the admission requests the API server sends from now on at the proxy until n
// connections carry one (requestHold): a burst of n concurrent calls is then spread over the
// replicas by the connections it needs, however a loaded machine spaces its requests, instead of
// sharing the connections its first answers leave idle. It returns, once they are released, how
// many connections each replica was handed held; release lets them through at once (a spec's
// cleanup, should fewer than n come).
func (r *LocalReplicas) Hold(n int) (held <-chan []int64, release func()) {
	return r.hold.start(n, len(r.Connections)), r.hold.Release
}

// Stop stops the proxy and every manager (SIGTERM: each stores its counters and hands the Lease
// over).
func (r *LocalReplicas) Stop() error {
	var errs []error
	if r.proxy != nil {
		close(r.shutdown)
		errs = append(errs, r.proxy.Close())
	}
	for _, cmd := range r.procs {
		_ = cmd.Process.Signal(syscall.SIGTERM)
	}
	for _, cmd := range r.procs {
		_ = cmd.Wait()
	}
	r.wg.Wait()
	for _, log := range r.logs {
		errs = append(errs, log.Close())
	}
	return errors.Join(errs...)
}
