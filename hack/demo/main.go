// Command demo runs toolgate locally with nothing but Go: it starts the pinned kube-apiserver and
// etcd on loopback, applies the CRDs, builds and starts the real manager binary against them
// (webhooks over TLS on loopback), applies config/samples, shows what toolgate holds, and keeps
// everything running until Ctrl-C. `make demo` runs it.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/toolgate/toolgate/internal/testenv"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	dir, err := testenv.Path("bin", "demo")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	release, err := lock(dir)
	if err != nil {
		return err
	}
	defer release()
	_ = os.Remove(filepath.Join(dir, "manager")) // always run the manager built from this tree

	step("building or reusing the control plane (the first build takes about 10 minutes; progress below)")
	step("starting kube-apiserver and etcd on loopback and applying toolgate's CRDs with kubectl")
	local, err := testenv.StartLocal(ctx, dir, os.Stdout)
	if err != nil {
		return err
	}
	defer func() {
		step("stopping the manager, kube-apiserver and etcd")
		_ = local.Stop()
	}()

	step("building and starting the manager binary (webhooks over TLS on 127.0.0.1)")
	if err := local.StartManager(ctx); err != nil {
		return err
	}

	samples, err := testenv.Path("config", "samples")
	if err != nil {
		return err
	}
	step("applying config/samples with kubectl")
	if _, err := local.KubectlRun(ctx, os.Stdout, "apply", "-k", samples); err != nil {
		return err
	}
	step("kubectl get toolgate -A")
	if _, err := local.KubectlRun(ctx, os.Stdout, "get", "toolgate", "-A"); err != nil {
		return err
	}

	fmt.Printf("\nPoint your own kubectl at it:\n  export KUBECONFIG=%s\n  %s get toolgate -A\n\n"+
		"Manager log: %s\nPress Ctrl-C to stop and clean up.\n",
		local.Kubeconfig, local.Kubectl, filepath.Join(dir, "manager.log"))
	<-ctx.Done()
	return nil
}

// lock refuses to start a second demo: two would fight over bin/demo and confuse the user.
func lock(dir string) (func(), error) {
	path := filepath.Join(dir, "demo.pid")
	if data, err := os.ReadFile(path); err == nil {
		if pid, _ := strconv.Atoi(strings.TrimSpace(string(data))); pid > 0 && syscall.Kill(pid, 0) == nil {
			return nil, fmt.Errorf("a demo is already running (pid %d); stop it with Ctrl-C or kill %d", pid, pid)
		}
	}
	if err := os.WriteFile(path, []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return nil, err
	}
	return func() { _ = os.Remove(path) }, nil
}

func step(msg string) { fmt.Printf("[%s] %s\n", time.Now().Format("15:04:05"), msg) }
