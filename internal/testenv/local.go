package testenv

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// kubeconfigFlag is the flag kubectl, the manager and the gateway read their kubeconfig from.
const kubeconfigFlag = "--kubeconfig"

// Local is toolgate as a user runs it on one machine: kube-apiserver and etcd on loopback, the
// CRDs applied with kubectl, and the real manager binary serving its webhooks over TLS on
// loopback. The demo and the e2e suite both start it.
type Local struct {
	Env        *envtest.Environment
	Dir        string // working directory: kubeconfig, manager binary and log
	Kubeconfig string // admin kubeconfig
	// OperatorKubeconfig authenticates as the operator's own ServiceAccount, bound by the RBAC that
	// config/default renders; the manager runs with it, never as an admin.
	OperatorKubeconfig string
	Kubectl            string // path of the pinned kubectl
	Admin              *rest.Config
	ProbeAddr          string
	LedgerDir          string // the manager's decision ledger
	// WebhookClientCA issued kube-apiserver's client certificate for webhooks; the manager is
	// started with --webhook-client-ca naming it, so it accepts reviews from the API server only.
	WebhookClientCA *CA
	// ManagerEnv are environment variables (KEY=value) StartManager adds to this process's.
	ManagerEnv []string

	manager   *exec.Cmd
	startedAt time.Time
	log       *os.File
	stopSync  context.CancelFunc
}

// StartLocal starts the control plane and installs toolgate's CRDs with kubectl. Call StartManager
// next; out receives kubectl's output.
func StartLocal(ctx context.Context, dir string, out io.Writer) (*Local, error) {
	assets, err := AssetsDir()
	if err != nil {
		return nil, err
	}
	l := &Local{Dir: dir, Kubectl: filepath.Join(assets, "kubectl"), LedgerDir: filepath.Join(dir, "ledger")}
	vwc, err := webhookConfiguration()
	if err != nil {
		return nil, err
	}
	// envtest installs the webhook configuration with a url clientConfig, https://localhost:<port>;
	// the manager's own certificate rotator then issues the serving certificate for "localhost"
	// and injects its CA, replacing envtest's.
	l.Env = &envtest.Environment{
		BinaryAssetsDirectory: assets,
		WebhookInstallOptions: envtest.WebhookInstallOptions{
			ValidatingWebhooks: []*admissionregistrationv1.ValidatingWebhookConfiguration{vwc}, LocalServingHostExternalName: "localhost",
		},
	}
	if l.WebhookClientCA, err = configureWebhookClientCert(l.Env, dir); err != nil {
		return nil, err
	}
	if _, err := l.Env.Start(); err != nil {
		return nil, fmt.Errorf("starting the control plane: %w", err)
	}
	reservePort(l.Env.WebhookInstallOptions.LocalServingPort)
	admin, err := l.Env.ControlPlane.AddUser(envtest.User{Name: "toolgate-admin", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return nil, errors.Join(err, l.Env.Stop())
	}
	l.Admin = admin.Config()
	data, err := admin.KubeConfig()
	if err != nil {
		return nil, errors.Join(err, l.Env.Stop())
	}
	l.Kubeconfig = filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(l.Kubeconfig, data, 0o600); err != nil {
		return nil, errors.Join(err, l.Env.Stop())
	}
	crds, err := Path("config", "crd")
	if err != nil {
		return nil, errors.Join(err, l.Env.Stop())
	}
	if _, err := l.KubectlRun(ctx, out, "apply", "-k", crds); err != nil {
		return nil, errors.Join(err, l.Env.Stop())
	}
	if _, err := l.KubectlRun(ctx, out, "wait", "--for=condition=Established", "crd", "--all", "--timeout=60s"); err != nil {
		return nil, errors.Join(err, l.Env.Stop())
	}
	return l, nil
}

// KubectlRun runs the pinned kubectl as the admin, copying its output to out and returning it.
func (l *Local) KubectlRun(ctx context.Context, out io.Writer, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, l.Kubectl, append([]string{kubeconfigFlag, l.Kubeconfig}, args...)...)
	data, err := cmd.CombinedOutput()
	if out != nil {
		_, _ = out.Write(data)
	}
	if err != nil {
		return string(data), fmt.Errorf("kubectl %s: %w: %s", strings.Join(args, " "), err, data)
	}
	return string(data), nil
}

// StartManager builds the manager binary from ./cmd and starts it against the control plane, with
// leader election on and the webhook server on loopback; it returns once /readyz answers 200.
func (l *Local) StartManager(ctx context.Context, extraArgs ...string) error {
	binary, certDir, err := l.prepareManager(ctx)
	if err != nil {
		return err
	}
	if l.ProbeAddr, err = freeLoopbackAddr(); err != nil {
		return err
	}
	logPath := filepath.Join(l.Dir, "manager.log")
	if l.log, err = os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
		return err
	}
	args, err := l.managerArgs(certDir, l.Env.WebhookInstallOptions.LocalServingPort, l.ProbeAddr, l.LedgerDir, "local")
	if err != nil {
		return err
	}
	l.startedAt = time.Now()
	l.manager = exec.Command(binary, append(args, extraArgs...)...)
	l.manager.Stdout, l.manager.Stderr = l.log, l.log
	l.manager.Env = append(os.Environ(), l.ManagerEnv...)
	if err := l.manager.Start(); err != nil {
		return fmt.Errorf("starting the manager: %w", err)
	}
	return waitReady(ctx, l.ProbeAddr, logPath)
}

// prepareManager builds the manager binary once, keeps the serving certificate's Secret synced
// into a directory (as kubelet mounts it) and writes the operator's kubeconfig.
func (l *Local) prepareManager(ctx context.Context) (binary, certDir string, err error) {
	repo, err := RepoRoot()
	if err != nil {
		return "", "", err
	}
	binary = filepath.Join(l.Dir, "manager")
	if _, err := os.Stat(binary); err != nil {
		build := exec.CommandContext(ctx, "go", "build", "-o", binary, "./cmd")
		build.Dir = repo
		if out, err := build.CombinedOutput(); err != nil {
			return "", "", fmt.Errorf("building the manager: %w: %s", err, out)
		}
	}
	if l.stopSync != nil {
		l.stopSync()
	}
	if certDir, err = l.syncCertificates(ctx); err != nil {
		return "", "", err
	}
	if l.OperatorKubeconfig == "" {
		if l.OperatorKubeconfig, err = l.operatorKubeconfig(ctx); err != nil {
			return "", "", err
		}
	}
	return binary, certDir, nil
}

// managerArgs are a manager's flags: the webhook on webhookPort of the loopback host, its own
// peer listener, probes on probe, its own ledger chain.
func (l *Local) managerArgs(certDir string, webhookPort int, probe, ledgerDir, writer string) ([]string, error) {
	wh := l.Env.WebhookInstallOptions
	peerPort, err := freePort(wh.LocalServingHost)
	if err != nil {
		return nil, err
	}
	return []string{
		kubeconfigFlag, l.OperatorKubeconfig,
		"--metrics-bind-address", "0",
		"--health-probe-bind-address", probe,
		"--leader-elect", "--leader-election-namespace", OperatorNamespace,
		"--peer-port", strconv.Itoa(peerPort), "--peer-address", net.JoinHostPort(wh.LocalServingHost, strconv.Itoa(peerPort)),
		"--webhook-host", wh.LocalServingHost,
		"--webhook-port", strconv.Itoa(webhookPort),
		"--webhook-cert-path", certDir,
		"--webhook-client-ca", filepath.Join(l.Dir, WebhookClientCAFile),
		"--webhook-client-name", WebhookClientCN,
		"--cert-rotation",
		"--cert-secret-namespace", OperatorNamespace,
		"--cert-secret-name", CertSecretName,
		"--cert-dns-name", "localhost",
		"--webhook-configuration-name", WebhookConfigurationName,
		"--ledger-dir", ledgerDir,
		"--ledger-writer", writer,
	}, nil
}

// waitReady waits until the manager probed at probe answers /readyz with 200.
func waitReady(ctx context.Context, probe, logPath string) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get("http://" + probe + "/readyz"); err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	data, _ := os.ReadFile(logPath)
	var errorLines []string // a stopping manager's cause is usually far before its log's end
	for line := range strings.SplitSeq(string(data), "\n") {
		if strings.Contains(line, "\tERROR\t") && len(errorLines) < 10 {
			errorLines = append(errorLines, line)
		}
	}
	if len(data) > 4000 {
		data = data[len(data)-4000:]
	}
	return fmt.Errorf("the manager did not become ready within 60s; the first errors in %s:\n%s\nthe end of it:\n%s",
		logPath, strings.Join(errorLines, "\n"), data)
}

// StopManager stops the manager: gracefully with SIGTERM, or abruptly with SIGKILL when kill is set.
func (l *Local) StopManager(kill bool) error {
	if l.manager == nil || l.manager.Process == nil {
		return nil
	}
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = l.manager.Process.Signal(sig)
	_ = l.manager.Wait()
	l.manager = nil
	if l.stopSync != nil {
		l.stopSync()
	}
	if l.log != nil {
		return l.log.Close()
	}
	return nil
}

// Stop stops the manager and the control plane.
func (l *Local) Stop() error {
	return errors.Join(l.StopManager(false), l.Env.Stop())
}

func freeLoopbackAddr() (string, error) {
	port, err := freePort("127.0.0.1")
	if err != nil {
		return "", err
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), nil
}

// ManagerPID is the running manager's process id (0 when none runs), for measurements such as
// its resident memory.
func (l *Local) ManagerPID() int {
	if l.manager == nil || l.manager.Process == nil {
		return 0
	}
	return l.manager.Process.Pid
}
