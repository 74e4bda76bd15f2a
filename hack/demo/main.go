// Command demo runs toolgate locally with nothing but Go: it starts the pinned kube-apiserver and
// etcd on loopback, applies the CRDs, builds and starts the real manager binary against them, and
// keeps everything running until Ctrl-C. `make demo` runs it.
package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/toolgate/toolgate/internal/testenv"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

type demo struct {
	repo, dir, kubeconfig, kubectl string
}

func run() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	repo, err := testenv.RepoRoot()
	if err != nil {
		return err
	}
	d := &demo{repo: repo, dir: filepath.Join(repo, "bin", "demo")}
	if err := os.MkdirAll(d.dir, 0o755); err != nil {
		return err
	}
	release, err := d.lock()
	if err != nil {
		return err
	}
	defer release()

	step("building or reusing the control plane (the first build takes about 10 minutes)")
	assets, err := testenv.AssetsDir()
	if err != nil {
		return err
	}
	d.kubectl = filepath.Join(assets, "kubectl")

	step("starting kube-apiserver and etcd on loopback")
	env := &envtest.Environment{BinaryAssetsDirectory: assets}
	if _, err := env.Start(); err != nil {
		return fmt.Errorf("starting the control plane: %w", err)
	}
	defer func() { _ = env.Stop() }()
	admin, err := env.ControlPlane.AddUser(envtest.User{Name: "demo-admin", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return err
	}
	data, err := admin.KubeConfig()
	if err != nil {
		return err
	}
	d.kubeconfig = filepath.Join(d.dir, "kubeconfig")
	if err := os.WriteFile(d.kubeconfig, data, 0o600); err != nil {
		return err
	}

	step("applying toolgate's CRDs with kubectl")
	if err := d.kubectlRun(ctx, "apply", "-k", filepath.Join(repo, "config", "crd")); err != nil {
		return err
	}
	if err := d.kubectlRun(ctx, "wait", "--for=condition=Established", "crd", "--all", "--timeout=60s"); err != nil {
		return err
	}

	step("building and starting the manager binary")
	manager, probeAddr, err := d.startManager(ctx)
	if err != nil {
		return err
	}
	defer func() {
		_ = manager.Process.Signal(syscall.SIGTERM)
		_ = manager.Wait()
	}()
	if err := waitReady(ctx, probeAddr); err != nil {
		return err
	}

	step("toolgate is running; its kinds:")
	if err := d.kubectlRun(ctx, "api-resources", "--categories=toolgate"); err != nil {
		return err
	}
	fmt.Printf("\nPoint your own kubectl at it:\n  export KUBECONFIG=%s\n  %s get toolgate -A\n\n"+
		"Manager log: %s\nPress Ctrl-C to stop and clean up.\n",
		d.kubeconfig, d.kubectl, filepath.Join(d.dir, "manager.log"))
	<-ctx.Done()
	step("stopping")
	return nil
}

// lock refuses to start a second demo: two would fight over bin/demo and confuse the user.
func (d *demo) lock() (func(), error) {
	path := filepath.Join(d.dir, "demo.pid")
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

func (d *demo) kubectlRun(ctx context.Context, args ...string) error {
	cmd := exec.CommandContext(ctx, d.kubectl, append([]string{"--kubeconfig", d.kubeconfig}, args...)...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("kubectl %s: %w", strings.Join(args, " "), err)
	}
	return nil
}

func (d *demo) startManager(ctx context.Context) (*exec.Cmd, string, error) {
	binary := filepath.Join(d.dir, "manager")
	build := exec.CommandContext(ctx, "go", "build", "-o", binary, "./cmd")
	build.Dir, build.Stdout, build.Stderr = d.repo, os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		return nil, "", fmt.Errorf("building the manager: %w", err)
	}
	probeAddr, err := freeLoopbackAddr()
	if err != nil {
		return nil, "", err
	}
	logFile, err := os.Create(filepath.Join(d.dir, "manager.log"))
	if err != nil {
		return nil, "", err
	}
	cmd := exec.Command(binary, "--kubeconfig", d.kubeconfig, "--metrics-bind-address", "0",
		"--health-probe-bind-address", probeAddr)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return nil, "", fmt.Errorf("starting the manager: %w", err)
	}
	return cmd, probeAddr, nil
}

func waitReady(ctx context.Context, addr string) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get("http://" + addr + "/readyz"); err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
	return errors.New("the manager did not become ready within 60s; see bin/demo/manager.log")
}

func freeLoopbackAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer func() { _ = l.Close() }()
	return l.Addr().String(), nil
}

func step(msg string) { fmt.Printf("[%s] %s\n", time.Now().Format("15:04:05"), msg) }
