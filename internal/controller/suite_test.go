package controller_test

import (
	"context"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/toolgate/toolgate/internal/operator"
	"github.com/toolgate/toolgate/internal/testenv"
)

var (
	ctx       context.Context
	cluster   *testenv.Cluster
	cfg       *rest.Config
	k8sClient client.Client
)

func TestControllers(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Controller Suite")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	ctx = context.Background()
	// A bound, not a timing: under -race on two busy cores a manager restarted with a journal may first
	// work through every finished call the earlier specs left (usage_test leaves a thousand).
	SetDefaultEventuallyTimeout(45 * time.Second)
	SetDefaultEventuallyPollingInterval(50 * time.Millisecond)
	By("starting the pinned control plane and the manager with the production wiring")
	var err error
	cluster, err = testenv.Start(func(mgr ctrl.Manager) error { return operator.Setup(mgr, operator.Options{}) })
	Expect(err).NotTo(HaveOccurred())
	cfg, k8sClient = cluster.Config, cluster.Client
})

var _ = AfterSuite(func() {
	if cluster != nil {
		Expect(cluster.Stop()).To(Succeed())
	}
})
