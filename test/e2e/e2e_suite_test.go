//go:build e2e

// Package e2e runs toolgate the way users run it: the real manager binary, built from ./cmd,
// against a real kube-apiserver and etcd on loopback, configured with kubectl.
package e2e

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/testenv"
)

var (
	ctx       context.Context
	cancel    context.CancelFunc
	local     *testenv.Local
	k8sClient client.Client
	// traces receives the spans of the manager and the gateway, as a platform's collector would.
	traces *testenv.OTLPReceiver
)

func TestE2E(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "toolgate e2e suite")
}

var _ = BeforeSuite(func() {
	// Background work (flushers that tick each second, controllers under CI load) is waited for,
	// never raced: gomega's 1-second default is shorter than one flush tick.
	SetDefaultEventuallyTimeout(30 * time.Second)
	SetDefaultEventuallyPollingInterval(20 * time.Millisecond)
	ctx, cancel = context.WithCancel(context.Background())
	By("starting kube-apiserver and etcd on loopback and applying the CRDs with kubectl")
	var err error
	local, err = testenv.StartLocal(ctx, GinkgoT().TempDir(), GinkgoWriter)
	Expect(err).NotTo(HaveOccurred())
	scheme := runtime.NewScheme()
	Expect(clientgoscheme.AddToScheme(scheme)).To(Succeed())
	Expect(safetyv1alpha1.AddToScheme(scheme)).To(Succeed())
	k8sClient, err = client.New(local.Admin, client.Options{Scheme: scheme})
	Expect(err).NotTo(HaveOccurred())

	By("building and starting the real manager binary, exporting its spans to an OTLP receiver")
	var stopTraces func()
	traces, stopTraces, err = testenv.ListenOTLP()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(stopTraces)
	local.ManagerEnv = traces.ExportEnv()
	Expect(local.StartManager(ctx)).To(Succeed())
})

// Every spec waits for what it needs instead of trusting the spec before it: the running manager
// must hold the controllers' lease (a spec that killed its predecessor leaves the lease to expire).
var _ = BeforeEach(func() {
	Expect(local.AwaitLeader(ctx, time.Minute)).To(Succeed())
})

// awaitLocked waits until the operator has locked plan ns/name.
func awaitLocked(ns, name string) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		p := &safetyv1alpha1.AgentPlan{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, p)).To(Succeed())
		g.Expect(p.Status.Snapshot).NotTo(BeNil())
	}).WithTimeout(time.Minute).Should(Succeed())
}

var _ = AfterSuite(func() {
	if gatewayProcess != nil {
		Expect(gatewayProcess.Stop()).To(Succeed())
	}
	if local != nil {
		Expect(local.Stop()).To(Succeed())
		// The manager ran as its own ServiceAccount: a right it lacks shows as a refused request,
		// which a controller only logs and retries. Any such line fails the suite.
		log, err := os.ReadFile(filepath.Join(local.Dir, "manager.log"))
		Expect(err).NotTo(HaveOccurred())
		for line := range strings.Lines(string(log)) {
			Expect(line).NotTo(ContainSubstring("is forbidden"), "the manager lacked a permission")
		}
	}
	cancel()
})

func runKubectl(args ...string) (string, error) {
	return local.KubectlRun(ctx, GinkgoWriter, args...)
}

func probe(path string) int {
	resp, err := http.Get("http://" + local.ProbeAddr + path)
	if err != nil {
		return 0
	}
	defer func() { _ = resp.Body.Close() }()
	return resp.StatusCode
}
