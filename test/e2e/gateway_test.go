//go:build e2e

package e2e

import (
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"
	dto "github.com/prometheus/client_model/go"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
	"github.com/toolgate/toolgate/internal/testenv"
)

// gatewayAudience is the audience agents' tokens carry for toolgate-gateway.
const gatewayAudience = "toolgate-gateway"

// gatewayProcess is the real toolgate-gateway binary, started by the first spec that needs it
// and stopped after the suite.
var gatewayProcess *testenv.GatewayProcess

func runningGateway() *testenv.GatewayProcess {
	GinkgoHelper()
	if gatewayProcess == nil {
		By("building and starting the real toolgate-gateway binary as its own ServiceAccount")
		g, err := local.StartGatewayWith(ctx, gatewayAudience, testenv.GatewayExtras{Env: traces.ExportEnv()})
		Expect(err).NotTo(HaveOccurred())
		gatewayProcess = g
	}
	return gatewayProcess
}

// mcpAgent is one spec's agent that speaks only MCP: a namespace of its own whose ProjectPolicy
// makes .env zero-access, server-filesystem (from the npm registry) serving a directory of its
// own behind the gateway as ToolServer <ns>-files, whose read_text_file is the registered
// AgentTool <ns>-read with its "path" argument mapped as a path, a locked plan whose cost
// reporter is the gateway, and the agent's MCP session with the gateway, with a pod-bound token.
type mcpAgent struct {
	ns, readTool string
	files        *testenv.FilesystemServer
	session      *mcp.ClientSession
}

// newMCPAgent sets an mcpAgent up, serving files (name -> content) besides .env; profile and
// tool may change the SafetyProfile and the AgentTool before they are created.
func newMCPAgent(files map[string]string, profile func(*safetyv1alpha1.SafetyProfileSpec),
	tool func(*safetyv1alpha1.AgentToolSpec)) *mcpAgent {
	GinkgoHelper()
	gw := runningGateway()
	n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "e2e-gw-"}}
	Expect(k8sClient.Create(ctx, n)).To(Succeed())
	a := &mcpAgent{ns: n.Name, readTool: n.Name + "-read"}

	dir := GinkgoT().TempDir()
	files[".env"] = "SECRET=1"
	for name, content := range files {
		Expect(os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600)).To(Succeed())
	}
	var err error
	a.files, err = testenv.StartFilesystemServer(dir, GinkgoWriter)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(a.files.Close)

	sp := safetyv1alpha1.SafetyProfileSpec{RequireSandbox: new(false), RequireCheckpoints: new(false),
		MaxRetriesPerStep: new(int32(100)), EnforcementMode: safetyv1alpha1.EnforcementModeEnforce}
	if profile != nil {
		profile(&sp)
	}
	at := safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead, Description: "read a file"}
	if tool != nil {
		tool(&at)
	}
	for _, obj := range []client.Object{
		&safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: a.ns}, Spec: sp},
		&safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: a.readTool}, Spec: at},
		&safetyv1alpha1.ToolServer{ObjectMeta: metav1.ObjectMeta{Name: a.ns + "-files"},
			Spec: safetyv1alpha1.ToolServerSpec{URL: a.files.URL, Tools: []safetyv1alpha1.ServedTool{{
				AgentTool: a.readTool, UpstreamName: "read_text_file",
				Arguments: safetyv1alpha1.ToolArgumentMap{Paths: []string{"path"}}}}}},
	} {
		Expect(k8sClient.Create(ctx, obj)).To(Succeed())
		DeferCleanup(func() { _ = k8sClient.Delete(ctx, obj) })
	}
	Expect(k8sClient.Create(ctx, &safetyv1alpha1.ProjectPolicy{
		ObjectMeta: metav1.ObjectMeta{Namespace: a.ns, Name: "project"},
		Spec: safetyv1alpha1.ProjectPolicySpec{PathPolicy: &safetyv1alpha1.PathPolicy{
			ZeroAccess: []string{".env", "**/.env"}}},
	})).To(Succeed())
	agentCfg, err := testenv.AgentConfig(ctx, local.Admin, a.ns, "agent")
	Expect(err).NotTo(HaveOccurred())
	Expect(k8sClient.Create(ctx, &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: a.ns, Name: "plan"},
		Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "agent",
			ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: a.ns},
			CostReporter: &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount,
				Namespace: testenv.OperatorNamespace, Name: testenv.GatewayServiceAccount}}})).To(Succeed())
	awaitLocked(a.ns, "plan")

	By("waiting, with dry-run probes that count nothing, until the webhook's cache shows the plan and the tool")
	apiAgent, err := client.New(agentCfg, client.Options{Scheme: k8sClient.Scheme()})
	Expect(err).NotTo(HaveOccurred())
	Eventually(func() (string, error) { return testenv.ProbeReason(ctx, apiAgent, a.ns, "plan", a.readTool) }).
		WithTimeout(time.Minute).Should(BeEmpty())

	token, err := testenv.AudiencePodToken(ctx, local.Admin, a.ns, "agent", "agent-pod", true, gatewayAudience)
	Expect(err).NotTo(HaveOccurred())
	a.session, err = mcp.NewClient(&mcp.Implementation{Name: "e2e-agent", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: gw.URL, HTTPClient: testenv.BearerClient(token),
			DisableStandaloneSSE: true}, nil)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { _ = a.session.Close() })

	By("waiting until the gateway's cache offers the tool")
	Eventually(a.toolNames).WithTimeout(time.Minute).Should(ContainElement(a.readTool))
	return a
}

func (a *mcpAgent) toolNames() ([]string, error) {
	res, err := a.session.ListTools(ctx, nil)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(res.Tools))
	for _, t := range res.Tools {
		names = append(names, t.Name)
	}
	return names, nil
}

func (a *mcpAgent) call(tool string, args map[string]any) *mcp.CallToolResult {
	GinkgoHelper()
	res, err := a.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	Expect(err).NotTo(HaveOccurred())
	return res
}

func (a *mcpAgent) read(path string) *mcp.CallToolResult {
	GinkgoHelper()
	return a.call(a.readTool, map[string]any{"path": path})
}

// decisions are the manager's ledger records of the spec's namespace, but the probes'.
func (a *mcpAgent) decisions() []map[string]any {
	GinkgoHelper()
	recs, err := testenv.Decisions(local.LedgerDir, a.ns)
	Expect(err).NotTo(HaveOccurred())
	return recs
}

// refusedWith matches a denial the gateway answered: "[reason] …" for a model, the reason in _meta
// for a program.
func refusedWith(reason string) types.GomegaMatcher {
	return And(HaveField("IsError", true),
		HaveField("Content", ConsistOf(HaveField("Text", HavePrefix("["+reason+"] ")))),
		HaveField("Meta", HaveKeyWithValue(gateway.MetaDenial, HaveKeyWithValue("reason", reason))))
}

// answered matches a result the upstream server answered with text.
func answered(text string) types.GomegaMatcher {
	return And(HaveField("IsError", false), HaveField("Content", ConsistOf(HaveField("Text", text))))
}

// readOf matches a ledger decision on reading path with the readTool, as the ToolServer maps it.
func (a *mcpAgent) readOf(path, decision string) types.GomegaMatcher {
	return And(HaveKeyWithValue("tool", a.readTool), HaveKeyWithValue("decision", decision),
		HaveKeyWithValue("requester", "system:serviceaccount:"+a.ns+":agent"),
		HaveKeyWithValue("arguments", HaveKeyWithValue("paths", ConsistOf(path))))
}

var _ = Describe("toolgate-gateway, the real binary, in front of server-filesystem from the npm registry", func() {
	It("forwards an allowed read, which server-filesystem answers, and refuses a read of .env it never receives", func() {
		a := newMCPAgent(map[string]string{"notes.txt": "hello from server-filesystem"}, nil, nil)

		Expect(a.read("notes.txt")).To(answered("hello from server-filesystem"))
		Expect(a.files.Wire()).To(ContainSubstring("notes.txt"))

		Expect(a.read(".env")).To(refusedWith("ToolAccessDenied"))
		Expect(a.files.Wire()).NotTo(ContainSubstring(".env"), "server-filesystem's own wire log")

		Eventually(a.decisions).WithTimeout(30 * time.Second).Should(ConsistOf(
			a.readOf("notes.txt", "allow"),
			And(a.readOf(".env", "deny"), HaveKeyWithValue("reason", "ToolAccessDenied"),
				HaveKeyWithValue("ruleId", HavePrefix("path-policy:")))))
	})

	It("puts the agent's call, the gateway's create and upstream call and the manager's decision in one trace", func() {
		a := newMCPAgent(map[string]string{"notes.txt": "traced"}, nil, nil)
		traceID, parentID := make([]byte, 16), make([]byte, 8)
		_, _ = rand.Read(traceID)
		_, _ = rand.Read(parentID)
		traceparent := "00-" + hex.EncodeToString(traceID) + "-" + hex.EncodeToString(parentID) + "-01"
		res, err := a.session.CallTool(ctx, &mcp.CallToolParams{Name: a.readTool,
			Arguments: map[string]any{"path": "notes.txt"}, Meta: mcp.Meta{"traceparent": traceparent}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res).To(answered("traced"))

		// Each process exports in batches: wait for the four spans, from two processes.
		one := func(g Gomega, name string) *tracepb.Span {
			spans := traces.InTrace(traceID, name)
			g.Expect(spans).To(HaveLen(1), "spans named %q in the agent's trace", name)
			return spans[0]
		}
		Eventually(func(g Gomega) {
			server := one(g, "tools/call "+a.readTool) // the gateway's
			g.Expect(server.ParentSpanId).To(Equal(parentID), "a child of the agent's span")
			create := one(g, "create AgentToolCall") // the gateway's
			g.Expect(create.ParentSpanId).To(Equal(server.SpanId))
			decision := one(g, "execute_tool "+a.readTool) // the manager's
			g.Expect(decision.ParentSpanId).To(Equal(create.SpanId), "the webhook's decision is the create's child")
			g.Expect(testenv.SpanAttrs(decision)).To(HaveKeyWithValue("toolgate.decision", "allow"))
			sent := one(g, "tools/call read_text_file") // the gateway's call to server-filesystem
			g.Expect(sent.ParentSpanId).To(Equal(server.SpanId))
		}).Should(Succeed())
	})

	It("serves where each call's time went to a scraper allowed GET /metrics, over HTTPS, and to no agent", func() {
		a := newMCPAgent(map[string]string{"notes.txt": "timed"}, nil, nil)
		reader, err := testenv.MetricsReader(ctx, local.Admin, a.ns, "prometheus")
		Expect(err).NotTo(HaveOccurred())
		// The gateway's metrics certificate is self-signed (--metrics-secure without a cert path),
		// as the manager's is; what is checked here is who may read.
		insecure := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}} //nolint:gosec // self-signed
		scraper := testenv.BearerClientOver(insecure, reader.BearerToken)
		histogram := func(metric string, labels map[string]string) *dto.Histogram {
			GinkgoHelper()
			families, err := testenv.Scrape(ctx, scraper, runningGateway().MetricsURL)
			Expect(err).NotTo(HaveOccurred())
			if h := testenv.Histogram(families, metric, labels); h != nil {
				return h
			}
			return &dto.Histogram{} // nothing observed yet
		}
		part := func(outcome, part string) *dto.Histogram {
			GinkgoHelper()
			return histogram("toolgate_gateway_call_seconds", map[string]string{"outcome": outcome, "part": part})
		}
		own := func(outcome string) *dto.Histogram {
			GinkgoHelper()
			return histogram("toolgate_gateway_call_own_seconds", map[string]string{"outcome": outcome})
		}
		parts := []string{"total", "agent", "api_server", "report", "upstream", "turn"}
		forwarded := map[string]*dto.Histogram{"own": own("forwarded")}
		for _, p := range parts {
			forwarded[p] = part("forwarded", p)
		}
		denied := part("denied", "total")

		Expect(a.read("notes.txt")).To(answered("timed"))
		Expect(a.read(".env")).To(refusedWith("ToolAccessDenied"))

		sums := map[string]float64{}
		after := map[string]*dto.Histogram{"own": own("forwarded")}
		for _, p := range parts {
			after[p] = part("forwarded", p)
		}
		for p, h := range after {
			Expect(h.GetSampleCount()-forwarded[p].GetSampleCount()).To(Equal(uint64(1)), "the forwarded call's %s", p)
			sums[p] = h.GetSampleSum() - forwarded[p].GetSampleSum()
		}
		for _, p := range []string{"total", "api_server", "report", "upstream", "own"} {
			Expect(sums[p]).To(BeNumerically(">", 0), "the forwarded call's %s: the gateway is the plan's cost reporter", p)
		}
		Expect(sums["own"]).To(BeNumerically("~",
			sums["total"]-sums["agent"]-sums["api_server"]-sums["report"]-sums["upstream"]-sums["turn"], 1e-6))
		Expect(part("denied", "total").GetSampleCount()-denied.GetSampleCount()).To(Equal(uint64(1)),
			"the refused read of .env")

		By("an agent's token is not enough to read them, and neither is none")
		agent, err := testenv.AgentConfig(ctx, local.Admin, a.ns, "agent")
		Expect(err).NotTo(HaveOccurred())
		for _, c := range []*http.Client{testenv.BearerClientOver(insecure, agent.BearerToken), {Transport: insecure}} {
			_, err := testenv.Scrape(ctx, c, runningGateway().MetricsURL)
			Expect(err).To(MatchError(Or(ContainSubstring("HTTP 403"), ContainSubstring("HTTP 401"))))
		}
	})

	It("neither lists nor forwards a tool server-filesystem offers but nobody registered", func() {
		a := newMCPAgent(map[string]string{"notes.txt": "original"}, nil, nil)

		Expect(a.toolNames()).To(ConsistOf(a.readTool), "write_file, read_text_file and the others are not offered")
		res := a.call("write_file", map[string]any{"path": "notes.txt", "content": "overwritten"})
		Expect(res).To(refusedWith("ToolNotRegistered"))
		Expect(a.files.Wire()).NotTo(ContainSubstring("overwritten"))
		Expect(a.read("notes.txt")).To(answered("original"))

		Eventually(a.decisions).WithTimeout(30 * time.Second).Should(ConsistOf(
			And(HaveKeyWithValue("tool", "write_file"), HaveKeyWithValue("decision", "deny"),
				HaveKeyWithValue("reason", "ToolNotRegistered"),
				HaveKeyWithValue("requester", "system:serviceaccount:"+a.ns+":agent")),
			a.readOf("notes.txt", "allow")))
	})

	It("refuses a call ToolCostLimitExceeded once the costs the gateway reported reach the plan's limit", func() {
		a := newMCPAgent(map[string]string{"a.txt": "A", "b.txt": "B", "c.txt": "C"},
			func(sp *safetyv1alpha1.SafetyProfileSpec) { sp.MaxCostPerPlan = new(resource.MustParse("1")) },
			func(at *safetyv1alpha1.AgentToolSpec) { at.CostPerCall = new(resource.MustParse("0.5")) })
		usage := func() safetyv1alpha1.PlanUsage {
			plan := &safetyv1alpha1.AgentPlan{}
			Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: a.ns, Name: "plan"}, plan)).To(Succeed())
			return plan.Status.Usage
		}

		Expect(a.read("a.txt")).To(answered("A"))
		Expect(a.read("b.txt")).To(answered("B"))
		By("the gateway, the plan's cost reporter, reported both calls Succeeded at the tool's costPerCall")
		var calls safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(a.ns))).To(Succeed())
		Expect(calls.Items).To(HaveLen(2))
		for _, c := range calls.Items {
			Expect(c.Status.Phase).To(Equal(safetyv1alpha1.CallPhaseSucceeded))
			Expect(c.Status.Cost).NotTo(BeNil())
			Expect(c.Status.Cost.Cmp(resource.MustParse("0.5"))).To(BeZero(), "cost %s", c.Status.Cost)
		}
		// server-filesystem states no cost, so what the gateway reports is the tool's costPerCall,
		// which the admission reserved; internal/gateway's cost tests cover a stated cost above it.
		Eventually(usage).WithTimeout(30 * time.Second).Should(HaveField("AccumulatedCost", "1"))

		Expect(a.read("c.txt")).To(refusedWith("ToolCostLimitExceeded"))
		Expect(a.files.Wire()).NotTo(ContainSubstring("c.txt"), "the refused call never reached server-filesystem")

		Eventually(a.decisions).WithTimeout(30 * time.Second).Should(ConsistOf(
			a.readOf("a.txt", "allow"), a.readOf("b.txt", "allow"),
			And(a.readOf("c.txt", "deny"), HaveKeyWithValue("reason", "ToolCostLimitExceeded"))))
	})
})
