package hook_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/operator"
	"github.com/toolgate/toolgate/internal/testenv"
)

var (
	ctx       context.Context
	cluster   *testenv.Cluster
	k8sClient client.Client
	// hookBinary is cmd/toolgate-hook, built once for the suite.
	hookBinary string
	// caFile verifies the test API server, as a pod's mounted ca.crt does.
	caFile string
	// ledgerDir holds the operator's ledger.
	ledgerDir string
)

func TestHook(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Hook Suite")
}

var _ = BeforeSuite(func() {
	// Background work (flushers that tick each second, controllers under CI load) is waited for,
	// never raced: gomega's 1-second default is shorter than one flush tick.
	SetDefaultEventuallyTimeout(30 * time.Second)
	SetDefaultEventuallyPollingInterval(20 * time.Millisecond)
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	ctx = context.Background()
	ledgerDir = GinkgoT().TempDir()
	journal, err := ledger.Open(audit.Config(nil, ledgerDir, "envtest", nil))
	Expect(err).NotTo(HaveOccurred())
	cluster, err = testenv.Start(func(mgr ctrl.Manager) error {
		return operator.Setup(mgr, operator.Options{Ledger: &audit.Log{Journal: journal}})
	})
	Expect(err).NotTo(HaveOccurred())
	k8sClient = cluster.Client

	By("building cmd/toolgate-hook, the binary a coding agent's settings run")
	root, err := testenv.RepoRoot()
	Expect(err).NotTo(HaveOccurred())
	dir := GinkgoT().TempDir()
	hookBinary = filepath.Join(dir, "toolgate-hook")
	build := exec.Command("go", "build", "-o", hookBinary, "./cmd/toolgate-hook")
	build.Dir = root
	out, err := build.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "%s", out)
	caFile = filepath.Join(dir, "ca.crt")
	Expect(os.WriteFile(caFile, cluster.Config.CAData, 0o600)).To(Succeed())
})

var _ = AfterSuite(func() {
	if cluster != nil {
		Expect(cluster.Stop()).To(Succeed())
	}
})

// testNamespace makes a namespace named from prefix for one container of the suite.
func testNamespace(prefix string) string {
	GinkgoHelper()
	n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix}}
	Expect(k8sClient.Create(ctx, n)).To(Succeed())
	return n.Name
}

// agentTokenFile is the file a pod's projected volume would mount: a token of ServiceAccount sa
// bound to pod in ns (both made if missing), as the hook reads it with --token-file.
func agentTokenFile(ns, sa, pod string) string {
	GinkgoHelper()
	agent, err := testenv.AgentPod(ctx, cluster.Config, cluster.Scheme, ns, sa, pod)
	Expect(err).NotTo(HaveOccurred())
	f := filepath.Join(GinkgoT().TempDir(), "token")
	Expect(os.WriteFile(f, []byte(agent.Config.BearerToken), 0o600)).To(Succeed())
	return f
}
