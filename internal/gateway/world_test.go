package gateway_test

import (
	"net/http/httptest"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
	"github.com/toolgate/toolgate/internal/testenv"
)

// world is one test's project: a fresh namespace whose ProjectPolicy makes .env zero-access, an
// agent ServiceAccount with the shipped agent role and one locked plan, an AgentTool registered
// under a name unique to it and served by a ToolServer (the upstream's upstreamTool, its "path"
// argument mapped as a path), and an MCP session of the agent with the gateway.
type world struct {
	ns       string
	readTool string
	// token is pod-bound, for the gateway's audience and the API server's.
	token   string
	session *mcp.ClientSession
}

func connectAs(bearerToken string) (*mcp.ClientSession, error) {
	return connectTo(gatewayURL, bearerToken)
}

// connectTo opens an agent's MCP session with the gateway at url.
func connectTo(url, bearerToken string) (*mcp.ClientSession, error) {
	c := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "test"}, nil)
	return c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: testenv.BearerClient(bearerToken),
		DisableStandaloneSSE: true}, nil)
}

// connectedTo is an agent's MCP session with the gateway at url, closed when the spec or
// container ends.
func connectedTo(url, bearerToken string) *mcp.ClientSession {
	GinkgoHelper()
	session, err := connectTo(url, bearerToken)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(session.Close)
	return session
}

// startGateway runs another gateway, with gatewayOptions as change makes them, and returns its
// MCP endpoint.
func startGateway(change func(*gateway.Options)) string {
	GinkgoHelper()
	opts := gatewayOptions
	change(&opts)
	gw, err := gateway.New(opts)
	Expect(err).NotTo(HaveOccurred())
	server := httptest.NewServer(gw.Handler())
	DeferCleanup(func() { server.Close(); gw.Close() })
	return server.URL
}

// callStatuses are the statuses of the AgentToolCalls in w's namespace.
func (w *world) callStatuses() []safetyv1alpha1.AgentToolCallStatus {
	GinkgoHelper()
	var calls safetyv1alpha1.AgentToolCallList
	Expect(k8sClient.List(ctx, &calls, client.InNamespace(w.ns))).To(Succeed())
	out := make([]safetyv1alpha1.AgentToolCallStatus, 0, len(calls.Items))
	for _, c := range calls.Items {
		out = append(out, c.Status)
	}
	return out
}

// worldOption changes what newWorld creates, before it is created.
type worldOption func(*worldObjects)

// worldObjects are the registrations and the plan of a world.
type worldObjects struct {
	project *safetyv1alpha1.ProjectPolicy
	profile *safetyv1alpha1.SafetyProfile
	tools   []*safetyv1alpha1.AgentTool
	server  *safetyv1alpha1.ToolServer
	plan    *safetyv1alpha1.AgentPlan
}

// newWorld sets a world up; call it from a BeforeAll (what it creates is deleted after the container).
func newWorld(prefix, upstreamURL, upstreamTool string, options ...worldOption) *world {
	GinkgoHelper()
	create := func(obj client.Object) {
		GinkgoHelper()
		Expect(k8sClient.Create(ctx, obj)).To(Succeed())
		DeferCleanup(func() { _ = k8sClient.Delete(ctx, obj) })
	}
	n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix}}
	Expect(k8sClient.Create(ctx, n)).To(Succeed())
	w := &world{ns: n.Name, readTool: n.Name + "-read"}
	ns, readTool := w.ns, w.readTool

	cfg, err := testenv.AgentConfig(ctx, cluster.Config, ns, agentSA)
	Expect(err).NotTo(HaveOccurred())
	apiAgent, err := client.New(cfg, client.Options{Scheme: cluster.Scheme})
	Expect(err).NotTo(HaveOccurred())
	profile := &safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: ns}, Spec: safetyv1alpha1.SafetyProfileSpec{
		RequireSandbox: new(false), RequireCheckpoints: new(false), AllowUnsafeTools: new(false),
		RequireHumanApproval: new(false), ReadOnly: new(false), MaxRetriesPerStep: new(int32(100)),
		EnforcementMode: safetyv1alpha1.EnforcementModeEnforce,
	}}
	objs := &worldObjects{profile: profile,
		project: &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "project"},
			Spec: safetyv1alpha1.ProjectPolicySpec{PathPolicy: &safetyv1alpha1.PathPolicy{
				ZeroAccess: []string{".env", "**/.env"}}}},
		tools: []*safetyv1alpha1.AgentTool{{ObjectMeta: metav1.ObjectMeta{Name: readTool},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead, Description: "read a file"}}},
		server: &safetyv1alpha1.ToolServer{ObjectMeta: metav1.ObjectMeta{Name: ns + "-files"},
			Spec: safetyv1alpha1.ToolServerSpec{URL: upstreamURL, Tools: []safetyv1alpha1.ServedTool{{
				AgentTool: readTool, UpstreamName: upstreamTool,
				Arguments: safetyv1alpha1.ToolArgumentMap{Paths: []string{"path"}},
			}}}},
		plan: &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "plan"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: agentSA,
				ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: profile.Name}}},
	}
	for _, o := range options {
		o(objs)
	}
	Expect(k8sClient.Create(ctx, objs.project)).To(Succeed())
	create(objs.profile)
	for _, t := range objs.tools {
		create(t)
	}
	create(objs.server)
	bindPlan(apiAgent, objs.plan, readTool)

	w.token, err = testenv.AudiencePodToken(ctx, cluster.Config, ns, agentSA, "agent-pod", true, audience)
	Expect(err).NotTo(HaveOccurred())
	w.session, err = connectAs(w.token)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { _ = w.session.Close() })
	return w
}

// agent binds another ServiceAccount of w's namespace, sa, to a plan of its own named after it,
// under w's profile (options change the plan first), and returns the pod-bound token of a pod of
// sa, as newWorld's agent has.
func (w *world) agent(sa string, options ...func(*safetyv1alpha1.AgentPlan)) string {
	GinkgoHelper()
	cfg, err := testenv.AgentConfig(ctx, cluster.Config, w.ns, sa)
	Expect(err).NotTo(HaveOccurred())
	apiAgent, err := client.New(cfg, client.Options{Scheme: cluster.Scheme})
	Expect(err).NotTo(HaveOccurred())
	plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: w.ns, Name: "plan-" + sa},
		Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: sa,
			ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: w.ns}}}
	for _, o := range options {
		o(plan)
	}
	bindPlan(apiAgent, plan, w.readTool)
	token, err := testenv.AudiencePodToken(ctx, cluster.Config, w.ns, sa, sa+"-pod", true, audience)
	Expect(err).NotTo(HaveOccurred())
	return token
}

// bindPlan creates plan, of the agent apiAgent authenticates as, and waits until it is locked and
// the webhook's cache shows it so, with tool registered.
func bindPlan(apiAgent client.Client, plan *safetyv1alpha1.AgentPlan, tool string) {
	GinkgoHelper()
	Expect(k8sClient.Create(ctx, plan)).To(Succeed())
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(plan), plan)).To(Succeed())
		g.Expect(meta.IsStatusConditionTrue(plan.Status.Conditions, safetyv1alpha1.AgentPlanLockedCondition)).To(BeTrue())
	}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
	By("waiting, with dry-run probes that count nothing, until the webhook's cache shows the plan locked and the tool registered")
	Eventually(func() (string, error) { return testenv.ProbeReason(ctx, apiAgent, plan.Namespace, plan.Name, tool) }).
		WithTimeout(waitTimeout).WithPolling(waitInterval).Should(BeEmpty())
}

// closeUpstream closes a test upstream server, its connections first (gateway.CloseUpstream).
var closeUpstream = gateway.CloseUpstream
