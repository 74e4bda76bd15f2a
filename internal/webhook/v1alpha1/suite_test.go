package v1alpha1_test

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/testenv"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
)

var (
	ledgerDir string
	decisions = &switchableLog{}
	ctx       context.Context
	cluster   *testenv.Cluster
	k8sClient client.Client
	// counters are the gate's, so a spec can wait until what it admitted is in a plan's status.
	counters = &webhookv1alpha1.CounterStore{}
	// managerClient reads through the manager's cache, as the webhook does.
	managerClient client.Client
)

func TestWebhooks(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Webhook Suite")
}

var _ = BeforeSuite(func() {
	// Background work (flushers that tick each second, controllers under CI load) is waited for,
	// never raced: gomega's 1-second default is shorter than one flush tick.
	SetDefaultEventuallyTimeout(30 * time.Second)
	SetDefaultEventuallyPollingInterval(20 * time.Millisecond)
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	ctx = context.Background()
	var err error
	ledgerDir = GinkgoT().TempDir()
	journal, err := ledger.Open(audit.Config(nil, ledgerDir, "envtest", nil))
	Expect(err).NotTo(HaveOccurred())
	decisions.use(&audit.Log{Journal: journal})
	cluster, err = testenv.Start(suiteManager)
	Expect(err).NotTo(HaveOccurred())
	k8sClient = cluster.Client
})

var _ = AfterSuite(func() {
	if ledgerDir != "" && cluster != nil {
		replaySuiteLedger()
	}
	if cluster != nil {
		Expect(cluster.Stop()).To(Succeed())
	}
})

func decodeFile(elem ...string) []*unstructured.Unstructured {
	path, err := testenv.Path(elem...)
	Expect(err).NotTo(HaveOccurred())
	data, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	objs, err := testenv.DecodeYAML(data)
	Expect(err).NotTo(HaveOccurred())
	return objs
}

// switchableLog lets one test swap the suite's real ledger for a broken one (a real journal that
// has been closed) and back, to see the failure policy act through the API server.
type switchableLog struct {
	mu  sync.Mutex
	log webhookv1alpha1.DecisionLog
}

func (s *switchableLog) use(l webhookv1alpha1.DecisionLog) webhookv1alpha1.DecisionLog {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.log
	s.log = l
	return old
}

func (s *switchableLog) RecordDecision(ctx context.Context, d audit.Decision) error {
	s.mu.Lock()
	l := s.log
	s.mu.Unlock()
	return l.RecordDecision(ctx, d)
}

// RecordPlan passes plan records to the real ledger, so plan creations are recorded in the tests
// as in production.
func (s *switchableLog) RecordPlan(ctx context.Context, p audit.Plan) error {
	s.mu.Lock()
	l := s.log
	s.mu.Unlock()
	if pl, ok := l.(audit.PlanLog); ok {
		return pl.RecordPlan(ctx, p)
	}
	return nil
}

func (s *switchableLog) RecordConfig(ctx context.Context, c audit.ConfigChange) error {
	s.mu.Lock()
	l := s.log
	s.mu.Unlock()
	if cl, ok := l.(audit.ConfigLog); ok {
		return cl.RecordConfig(ctx, c)
	}
	return nil
}

// storedPlan reads a plan from the API server once store holds none of its counters unwritten:
// the gate answers before it writes them (usageCommitter), so a spec that checks the status
// after its calls waits for exactly that write, not for a lucky moment.
func storedPlan(store *webhookv1alpha1.CounterStore, namespace, name string) *safetyv1alpha1.AgentPlan {
	GinkgoHelper()
	key := client.ObjectKey{Namespace: namespace, Name: name}
	Expect(store.Store(ctx, key)).To(Succeed())
	plan := &safetyv1alpha1.AgentPlan{}
	Expect(k8sClient.Get(ctx, key, plan)).To(Succeed())
	return plan
}
