//go:build e2e

// Package e2e runs toolgate the way users run it: the real manager binary, built from ./cmd,
// against a real kube-apiserver and etcd on loopback, configured with kubectl.
package e2e

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/testenv"
)

var (
	ctx        context.Context
	cancel     context.CancelFunc
	env        *envtest.Environment
	workDir    string
	kubeconfig string
	kubectl    string
	k8sClient  client.Client
	manager    *exec.Cmd
	probeAddr  string
)

func TestE2E(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "toolgate e2e suite")
}

var _ = BeforeSuite(func() {
	ctx, cancel = context.WithCancel(context.Background())
	workDir = GinkgoT().TempDir()

	By("starting kube-apiserver and etcd on loopback, without toolgate's CRDs")
	assets, err := testenv.AssetsDir()
	Expect(err).NotTo(HaveOccurred())
	kubectl = filepath.Join(assets, "kubectl")
	env = &envtest.Environment{BinaryAssetsDirectory: assets}
	_, err = env.Start()
	Expect(err).NotTo(HaveOccurred())

	admin, err := env.ControlPlane.AddUser(envtest.User{Name: "e2e-admin", Groups: []string{"system:masters"}}, nil)
	Expect(err).NotTo(HaveOccurred())
	data, err := admin.KubeConfig()
	Expect(err).NotTo(HaveOccurred())
	kubeconfig = filepath.Join(workDir, "kubeconfig")
	Expect(os.WriteFile(kubeconfig, data, 0o600)).To(Succeed())
	scheme := runtime.NewScheme()
	Expect(clientgoscheme.AddToScheme(scheme)).To(Succeed())
	Expect(safetyv1alpha1.AddToScheme(scheme)).To(Succeed())
	k8sClient, err = client.New(admin.Config(), client.Options{Scheme: scheme})
	Expect(err).NotTo(HaveOccurred())

	By("applying the CRDs with kubectl")
	crds, err := testenv.Path("config", "crd")
	Expect(err).NotTo(HaveOccurred())
	_, err = runKubectl("apply", "-k", crds)
	Expect(err).NotTo(HaveOccurred())
	_, err = runKubectl("wait", "--for=condition=Established", "crd", "--all", "--timeout=60s")
	Expect(err).NotTo(HaveOccurred())

	By("building and starting the real manager binary")
	binary := filepath.Join(workDir, "manager")
	build := exec.Command("go", "build", "-o", binary, "./cmd")
	build.Dir, err = testenv.RepoRoot()
	Expect(err).NotTo(HaveOccurred())
	out, err := build.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), string(out))
	probeAddr = freeLoopbackAddr()
	manager = exec.Command(binary,
		"--kubeconfig", kubeconfig,
		"--metrics-bind-address", "0",
		"--health-probe-bind-address", probeAddr,
		"--leader-elect", "--leader-election-namespace", "default",
	)
	manager.Stdout, manager.Stderr = GinkgoWriter, GinkgoWriter
	Expect(manager.Start()).To(Succeed())
	Eventually(func() int { return probe("/readyz") }).WithTimeout(60 * time.Second).Should(Equal(http.StatusOK))
})

var _ = AfterSuite(func() {
	if manager != nil && manager.Process != nil {
		_ = manager.Process.Kill()
		_ = manager.Wait()
	}
	cancel()
	if env != nil {
		Expect(env.Stop()).To(Succeed())
	}
})

func runKubectl(args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, kubectl, append([]string{"--kubeconfig", kubeconfig}, args...)...)
	out, err := cmd.CombinedOutput()
	_, _ = fmt.Fprintf(GinkgoWriter, "$ kubectl %v\n%s", args, out)
	if err != nil {
		return string(out), fmt.Errorf("kubectl %v: %w: %s", args, err, out)
	}
	return string(out), nil
}

func probe(path string) int {
	resp, err := http.Get("http://" + probeAddr + path)
	if err != nil {
		return 0
	}
	defer func() { _ = resp.Body.Close() }()
	return resp.StatusCode
}

func freeLoopbackAddr() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	defer func() { _ = l.Close() }()
	return l.Addr().String()
}
