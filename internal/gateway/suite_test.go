package gateway_test

import (
	"context"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	authenticationv1client "k8s.io/client-go/kubernetes/typed/authentication/v1"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/gateway"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/operator"
	"github.com/toolgate/toolgate/internal/testenv"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
)

// audience is the audience agents' tokens carry for the gateway.
const audience = "toolgate-gateway"

var (
	ctx       context.Context
	cluster   *testenv.Cluster
	k8sClient client.Client
	// counters are the gate's: a spec waits for a plan's to be stored before it reads them.
	counters  = &webhookv1alpha1.CounterStore{}
	ledgerDir string
	// gatewayURL is the MCP endpoint of a gateway running in the test process.
	gatewayURL string
	// theGateway is the gateway behind gatewayURL, made with gatewayOptions.
	theGateway     *gateway.Gateway
	gatewayOptions gateway.Options
	// reviews counts the TokenReviews the gateway sends (to the real API server).
	reviews *countingReviews
	// gatewayClock is the clock of the gateway's TokenReview cache.
	gatewayClock = clocktesting.NewFakeClock(time.Now())
	// gatewayClient authenticates as the gateway's own ServiceAccount.
	gatewayClient client.Client
	// gatewayIdentity is the username the API server authenticates gatewayClient as.
	gatewayIdentity string
)

func TestGateway(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Gateway Suite")
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
		return operator.Setup(mgr, operator.Options{Ledger: &audit.Log{Journal: journal}, Counters: counters})
	})
	Expect(err).NotTo(HaveOccurred())
	k8sClient = cluster.Client

	By("running the gateway as its own ServiceAccount, with exactly the ClusterRole config/gateway ships")
	Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "toolgate-system"}})).To(Succeed())
	gatewayConfig, err := testenv.Gateway(ctx, cluster.Config, "toolgate-system", "gateway")
	Expect(err).NotTo(HaveOccurred())
	gatewayClient, err = client.New(gatewayConfig, client.Options{Scheme: cluster.Scheme})
	Expect(err).NotTo(HaveOccurred())
	cs, err := kubernetes.NewForConfig(gatewayConfig)
	Expect(err).NotTo(HaveOccurred())
	reviews = &countingReviews{TokenReviewInterface: cs.AuthenticationV1().TokenReviews()}
	gatewayIdentity, err = gateway.Identity(ctx, cs.AuthenticationV1().SelfSubjectReviews())
	Expect(err).NotTo(HaveOccurred())
	Expect(gatewayIdentity).To(Equal("system:serviceaccount:toolgate-system:gateway"))
	gatewayOptions = gateway.Options{
		Reader:       gatewayClient,
		Reporter:     gatewayClient,
		Identity:     gatewayIdentity,
		APIServer:    gatewayConfig,
		TokenReviews: reviews,
		Clock:        gatewayClock,
		Scheme:       cluster.Scheme,
		Mapper:       gatewayClient.RESTMapper(),
		Audience:     audience,
		Version:      "test",
		Log:          logf.Log.WithName("gateway"),
	}
	gw, err := gateway.New(gatewayOptions)
	Expect(err).NotTo(HaveOccurred())
	theGateway = gw
	server := httptest.NewServer(gw.Handler())
	gatewayURL = server.URL
	DeferCleanup(func() { server.Close(); gw.Close() })
})

var _ = AfterSuite(func() {
	if cluster != nil {
		Expect(cluster.Stop()).To(Succeed())
	}
})

// countingReviews passes TokenReviews to the API server and counts them.
type countingReviews struct {
	authenticationv1client.TokenReviewInterface
	n atomic.Int32
}

func (c *countingReviews) Create(ctx context.Context, r *authenticationv1.TokenReview,
	opts metav1.CreateOptions) (*authenticationv1.TokenReview, error) {
	c.n.Add(1)
	return c.TokenReviewInterface.Create(ctx, r, opts)
}

func (c *countingReviews) count() int32 { return c.n.Load() }
