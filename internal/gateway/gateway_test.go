package gateway_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

const (
	waitTimeout  = 30 * time.Second
	waitInterval = 50 * time.Millisecond
	agentSA      = "agent"
)

var _ = Describe("an agent that speaks only MCP, through toolgate-gateway", Ordered, func() {
	var (
		ns       string
		readTool string // the AgentTool the gateway offers, served by the upstream's read_file
		upstream *recordingServer
		session  *mcp.ClientSession
		token    string // pod-bound, for the gateway's audience and the API server's
	)

	callTool := func(name string, args map[string]any) *mcp.CallToolResult {
		GinkgoHelper()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		Expect(err).NotTo(HaveOccurred())
		return res
	}

	BeforeAll(func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello from upstream"), 0o600)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, ".env"), []byte("SECRET=1"), 0o600)).To(Succeed())
		var stop func()
		upstream, stop = startUpstream(dir)
		DeferCleanup(stop)
		w := newWorld("gw-", upstream.URL, "read_file")
		ns, readTool, session, token = w.ns, w.readTool, w.session, w.token
	})

	It("lists only the registered tools the upstream serves", func() {
		res, err := session.ListTools(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		names := make([]string, 0, len(res.Tools))
		for _, t := range res.Tools {
			names = append(names, t.Name)
		}
		Expect(names).To(ConsistOf(readTool), "delete_everything is offered upstream but is no AgentTool")
		Expect(res.Tools[0].InputSchema).NotTo(BeNil(), "the upstream's schema is passed on")
	})

	It("forwards an admitted read, which the upstream answers", func() {
		res := callTool(readTool, map[string]any{"path": "notes.txt"})
		Expect(res.IsError).To(BeFalse())
		Expect(res.Content).To(HaveLen(1))
		Expect(res.Content[0].(*mcp.TextContent).Text).To(Equal("hello from upstream"))
		Expect(upstream.Calls()).To(ContainElement(upstreamCall{Tool: "read_file", Path: "notes.txt"}))
	})

	It("refuses a read of .env with ToolAccessDenied, and the upstream never sees it", func() {
		res := callTool(readTool, map[string]any{"path": ".env"})
		Expect(res.IsError).To(BeTrue())
		Expect(res.Content).To(HaveLen(1))
		Expect(res.Content[0].(*mcp.TextContent).Text).To(HavePrefix("[ToolAccessDenied] "))
		Expect(reasonIn(res)).To(Equal("ToolAccessDenied"))
		Expect(upstream.Calls()).NotTo(ContainElement(HaveField("Path", ContainSubstring(".env"))))
	})

	It("neither lists nor forwards a tool the upstream offers but nobody registered", func() {
		res := callTool("delete_everything", map[string]any{"path": "/"})
		Expect(res.IsError).To(BeTrue())
		Expect(res.Content[0].(*mcp.TextContent).Text).To(HavePrefix("[ToolNotRegistered] "))
		Expect(reasonIn(res)).To(Equal("ToolNotRegistered"))
		Expect(upstream.Calls()).NotTo(ContainElement(HaveField("Tool", "delete_everything")))
	})

	It("refuses a registered tool no ToolServer serves with an MCP error, before creating anything", func() {
		orphan := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: ns + "-orphan"},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}}
		Expect(k8sClient.Create(ctx, orphan)).To(Succeed())
		DeferCleanup(func() { _ = k8sClient.Delete(ctx, orphan) })
		res, err := session.ListTools(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Tools).NotTo(ContainElement(HaveField("Name", orphan.Name)))
		_, err = session.CallTool(ctx, &mcp.CallToolParams{Name: orphan.Name, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).To(MatchError(ContainSubstring("registered but no ToolServer serves it")))
		Expect(rpcCode(err)).To(Equal(int64(jsonrpc.CodeInvalidParams)))
	})

	It("says why a registered tool its ToolServer names is not offered: the upstream offers no such tool", func() {
		named := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: ns + "-misnamed"},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}}
		Expect(k8sClient.Create(ctx, named)).To(Succeed())
		DeferCleanup(func() { _ = k8sClient.Delete(ctx, named) })
		server := &safetyv1alpha1.ToolServer{ObjectMeta: metav1.ObjectMeta{Name: ns + "-misnamed"},
			Spec: safetyv1alpha1.ToolServerSpec{URL: upstream.URL, Tools: []safetyv1alpha1.ServedTool{{
				AgentTool: named.Name, UpstreamName: "no_such_tool"}}}}
		Expect(k8sClient.Create(ctx, server)).To(Succeed())
		DeferCleanup(func() { _ = k8sClient.Delete(ctx, server) })
		Eventually(func(g Gomega) {
			_, err := session.CallTool(ctx, &mcp.CallToolParams{Name: named.Name, Arguments: map[string]any{"path": "notes.txt"}})
			g.Expect(err).To(MatchError(ContainSubstring("tool %q is registered and ToolServer %s serves it, but the gateway "+
				"cannot offer it now: its upstream offers no tool named \"no_such_tool\"", named.Name, server.Name)))
			g.Expect(rpcCode(err)).To(Equal(int64(jsonrpc.CodeInternalError)))
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
	})

	It("refuses oversized arguments with an MCP error, before creating anything", func() {
		_, err := session.CallTool(ctx, &mcp.CallToolParams{Name: readTool,
			Arguments: map[string]any{"path": strings.Repeat("a", toolcall.MaxArgumentBytes)}})
		Expect(err).To(MatchError(ContainSubstring("more than the gateway's limit")))
		Expect(rpcCode(err)).To(Equal(int64(jsonrpc.CodeInvalidParams)))
	})

	It("refuses arguments whose mapped path is not a string, with an MCP error, before creating anything", func() {
		_, err := session.CallTool(ctx, &mcp.CallToolParams{Name: readTool,
			Arguments: map[string]any{"path": map[string]any{"nested": "notes.txt"}}})
		Expect(err).To(MatchError(ContainSubstring(`argument "path" must be a string or an array of strings`)))
		Expect(rpcCode(err)).To(Equal(int64(jsonrpc.CodeInvalidParams)))
	})

	It("refuses a call that leaves out an argument the tool's input schema requires, with an MCP error naming it, "+
		"before creating anything (it was admitted, stored and sent, and the upstream refused it)", func() {
		_, err := session.CallTool(ctx, &mcp.CallToolParams{Name: readTool, Arguments: map[string]any{}})
		Expect(err).To(MatchError(ContainSubstring(`argument "path" is required and missing`)))
		Expect(rpcCode(err)).To(Equal(int64(jsonrpc.CodeInvalidParams)))
		for _, args := range []string{`,"arguments":null`, ""} { // raw: the Go SDK's client sends {}
			resp := postMCP(ctx, gatewayURL, token, "application/json",
				`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+readTool+`"`+args+`}}`)
			var answer struct{ Error *jsonrpc.Error }
			Expect(json.NewDecoder(resp.Body).Decode(&answer)).To(Succeed())
			_ = resp.Body.Close()
			Expect(answer.Error).To(And(Not(BeNil()), HaveField("Code", int64(jsonrpc.CodeInvalidParams)),
				HaveField("Message", ContainSubstring(`argument "path" is required and missing`))), "arguments %q", args)
		}
	})

	DescribeTable("refuses, with an MCP error naming what is wrong and before creating anything, a call the API server "+
		"would refuse as a schema error (it answered Internal error, naming spec fields the agent never sent)",
		func(name func() string, args map[string]any, meta mcp.Meta, want string) {
			_, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name(), Arguments: args, Meta: meta})
			Expect(err).To(MatchError(ContainSubstring(want)))
			Expect(rpcCode(err)).To(Equal(int64(jsonrpc.CodeInvalidParams)))
		},
		Entry("a path over the CRD's 1024 characters", func() string { return readTool },
			map[string]any{"path": strings.Repeat("a", 1025)}, nil, `argument "path" holds a path of 1025 characters`),
		Entry("more paths than the CRD's 32", func() string { return readTool },
			map[string]any{"path": strings.Split(strings.Repeat("a,", 32)+"a", ",")}, nil, "name 33 paths"),
		Entry("a step that is no DNS label", func() string { return readTool }, map[string]any{"path": "notes.txt"},
			mcp.Meta{gateway.MetaStep: "Step One"}, `step "Step One" is not a DNS label`),
		Entry("a step that is not a string", func() string { return readTool }, map[string]any{"path": "notes.txt"},
			mcp.Meta{gateway.MetaStep: 7}, `_meta["safety.toolgate.dev/step"] must be a string, not a number`),
		Entry("a sandbox id that is not a string", func() string { return readTool }, map[string]any{"path": "notes.txt"},
			mcp.Meta{gateway.MetaSandboxID: []any{"a"}}, `_meta["safety.toolgate.dev/sandbox-id"] must be a string, not an array`),
		Entry("a sandbox id over the CRD's 253 characters", func() string { return readTool }, map[string]any{"path": "notes.txt"},
			mcp.Meta{gateway.MetaSandboxID: strings.Repeat("s", 254)}, "the sandbox id is 254 characters"),
		Entry("a tool name over the CRD's 253 characters", func() string { return strings.Repeat("t", 254) },
			map[string]any{"path": "notes.txt"}, nil, "the tool's name is 254 characters"),
	)

	It("refuses a call that names no tool with an MCP error (it answered code 0: its read of an AgentTool named \"\" failed)", func() {
		// Raw: the Go SDK's client refuses to send it.
		resp := postMCP(ctx, gatewayURL, token, "application/json",
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"","arguments":{"path":"notes.txt"}}}`)
		defer func() { _ = resp.Body.Close() }()
		var answer struct{ Error *jsonrpc.Error }
		Expect(json.NewDecoder(resp.Body).Decode(&answer)).To(Succeed())
		Expect(answer.Error).To(And(Not(BeNil()), HaveField("Code", int64(jsonrpc.CodeInvalidParams)),
			HaveField("Message", ContainSubstring("no tool named"))))
	})

	It("holds every decision in the ledger, made as the agent itself", func() {
		requester := HaveKeyWithValue("requester", "system:serviceaccount:"+ns+":"+agentSA)
		Expect(decisionsIn(ns)).To(ConsistOf(
			And(HaveKeyWithValue("tool", readTool), HaveKeyWithValue("decision", "allow"), requester),
			And(HaveKeyWithValue("tool", readTool), HaveKeyWithValue("decision", "deny"),
				HaveKeyWithValue("reason", "ToolAccessDenied"), requester),
			And(HaveKeyWithValue("tool", "delete_everything"), HaveKeyWithValue("decision", "deny"),
				HaveKeyWithValue("reason", "ToolNotRegistered"), requester),
		))
	})

	It("stores the admitted call in the agent's namespace, and only that one, with no report (the plan names no cost reporter)", func() {
		var calls safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(ns))).To(Succeed())
		Expect(calls.Items).To(ConsistOf(And(HaveField("Spec", And(
			HaveField("Plan", "plan"), HaveField("Tool", readTool),
			HaveField("Arguments.Paths", ConsistOf("notes.txt")))),
			HaveField("Status.Phase", BeEmpty()), HaveField("Status.Cost", BeNil()))))
	})

	DescribeTable("refuses a caller it cannot authenticate with HTTP 401",
		func(tokenFor func() string) {
			resp := postMCP(ctx, gatewayURL, tokenFor(), "application/json",
				`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
			defer func() { _ = resp.Body.Close() }()
			Expect(resp.StatusCode).To(Equal(http.StatusUnauthorized))
			// It was kept open for the idle timeout (2 minutes), for nothing.
			Expect(resp.Close).To(BeTrue(), "the connection of a request refused 401 is not closed")
		},
		Entry("no token", func() string { return "" }),
		Entry("a token that is no JWT", func() string { return "not-a-token" }),
		Entry("the agent's token for the API server only (the wrong audience)", func() string {
			cfg, err := testenv.AgentConfig(ctx, cluster.Config, ns, agentSA)
			Expect(err).NotTo(HaveOccurred())
			return cfg.BearerToken
		}),
	)

	It("keeps an authenticated caller's connection open for its next call (the near miss of closing a refused one's)",
		func() {
			resp := postMCP(ctx, gatewayURL, token, "application/json", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
			_ = resp.Body.Close()
			Expect(resp.StatusCode).To(Equal(http.StatusOK))
			Expect(resp.Close).To(BeFalse(), "an authenticated caller's connection is closed")
		})

	It("refuses a token that is no JWT, or larger than any ServiceAccount token, without asking the API server", func() {
		reviews := func() float64 {
			GinkgoHelper()
			cs, err := kubernetes.NewForConfig(cluster.Config)
			Expect(err).NotTo(HaveOccurred())
			data, err := cs.RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
			Expect(err).NotTo(HaveOccurred())
			var n float64
			for line := range strings.Lines(string(data)) {
				if strings.HasPrefix(line, "apiserver_request_total{") && strings.Contains(line, `resource="tokenreviews"`) {
					v, err := strconv.ParseFloat(strings.TrimSpace(line[strings.LastIndexByte(line, ' '):]), 64)
					Expect(err).NotTo(HaveOccurred())
					n += v
				}
			}
			return n
		}
		before := reviews()
		for _, token := range []string{"not-a-token", strings.Repeat("a", 6<<10) + "." + strings.Repeat("b", 6<<10) + ".c"} {
			resp := postMCP(ctx, gatewayURL, token, "application/json", `{}`)
			_ = resp.Body.Close()
			Expect(resp.StatusCode).To(Equal(http.StatusUnauthorized))
		}
		Expect(reviews()).To(Equal(before), "a TokenReview was sent for a token that cannot be one")
	})

	It("cannot act for a caller whose token the API server does not accept, and says so", func() {
		gatewayOnly, err := testenv.AudiencePodToken(ctx, cluster.Config, ns, agentSA, "gateway-only-pod", false, audience)
		Expect(err).NotTo(HaveOccurred())
		s, err := connectAs(gatewayOnly)
		Expect(err).NotTo(HaveOccurred(), "the gateway authenticates the token")
		defer func() { _ = s.Close() }()
		_, err = s.CallTool(ctx, &mcp.CallToolParams{Name: readTool, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).To(MatchError(ContainSubstring("the API server did not decide the call")))
		Expect(rpcCode(err)).To(Equal(int64(jsonrpc.CodeInternalError)))
	})

	It("needs no power over calls of its own: its ServiceAccount may neither create calls nor impersonate", func() {
		call, err := toolcall.Build(toolcall.Invocation{Namespace: ns, Plan: "plan", Tool: readTool, Step: "as-gateway"})
		Expect(err).NotTo(HaveOccurred())
		err = gatewayClient.Create(ctx, call)
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "got %v", err)
		_, isDenial := toolcall.Denial(err)
		Expect(isDenial).To(BeFalse(), "RBAC refuses it before the webhook is asked: %v", err)

		for _, resource := range []string{"serviceaccounts", "users", "groups", "userextras"} {
			review := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
				ResourceAttributes: &authorizationv1.ResourceAttributes{Verb: "impersonate", Resource: resource, Namespace: ns},
			}}
			Expect(gatewayClient.Create(ctx, review)).To(Succeed())
			Expect(review.Status.Allowed).To(BeFalse(), "the gateway may impersonate %s", resource)
		}
	})

	It("learns the ServiceAccount and the pod from the token, and nothing from the request", func() {
		caller, err := theGateway.Authenticate(ctx, token)
		Expect(err).NotTo(HaveOccurred())
		Expect(caller).To(And(HaveField("Namespace", ns), HaveField("ServiceAccount", agentSA),
			HaveField("Pod", "agent-pod"), HaveField("Username", "system:serviceaccount:"+ns+":"+agentSA)))
	})

	It("refuses with PlanNotFound an agent no plan names; several plans for one agent cannot exist", func() {
		strangerCfg, err := testenv.AgentConfig(ctx, cluster.Config, ns, "stranger")
		Expect(err).NotTo(HaveOccurred())
		Expect(strangerCfg.BearerToken).NotTo(BeEmpty())
		strangerToken, err := testenv.AudiencePodToken(ctx, cluster.Config, ns, "stranger", "stranger-pod", true, audience)
		Expect(err).NotTo(HaveOccurred())
		s, err := connectAs(strangerToken)
		Expect(err).NotTo(HaveOccurred())
		defer func() { _ = s.Close() }()
		call := func() *mcp.CallToolResult {
			GinkgoHelper()
			res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: readTool, Arguments: map[string]any{"path": "notes.txt"}})
			Expect(err).NotTo(HaveOccurred())
			return res
		}
		res := call()
		Expect(res.IsError).To(BeTrue())
		Expect(reasonIn(res)).To(Equal(gateway.ReasonPlanNotFound))
		Expect(res.Content[0].(*mcp.TextContent).Text).To(ContainSubstring(
			"namespace %s: no active AgentPlan is bound to ServiceAccount stranger", ns))

		By("a second pod-less plan of one ServiceAccount is refused, so the gateway never has to choose")
		plan := func(name string) *safetyv1alpha1.AgentPlan {
			return &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
				Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "stranger"}}
		}
		Expect(k8sClient.Create(ctx, plan("first"))).To(Succeed())
		Expect(k8sClient.Create(ctx, plan("second"))).To(MatchError(ContainSubstring("PlanConflict")))
		Expect(upstream.Calls()).To(HaveLen(1), "only the one admitted read reached the upstream")
	})

	It("refuses a call of an expired plan PlanExpired, writing nothing but its ledger record", func() {
		_, err := testenv.AgentConfig(ctx, cluster.Config, ns, "late")
		Expect(err).NotTo(HaveOccurred())
		plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "brief"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "late", ActiveDeadlineSeconds: new(int64(1))}}
		Expect(k8sClient.Create(ctx, plan)).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(plan), plan)).To(Succeed())
			g.Expect(meta.IsStatusConditionFalse(plan.Status.Conditions, safetyv1alpha1.AgentPlanActiveCondition)).To(BeTrue())
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
		lateToken, err := testenv.AudiencePodToken(ctx, cluster.Config, ns, "late", "late-pod", true, audience)
		Expect(err).NotTo(HaveOccurred())
		s, err := connectAs(lateToken)
		Expect(err).NotTo(HaveOccurred())
		defer func() { _ = s.Close() }()
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: readTool, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeTrue())
		Expect(reasonIn(res)).To(Equal("PlanExpired"))
		Expect(res.Content[0].(*mcp.TextContent).Text).To(And(HavePrefix("[PlanExpired] "),
			ContainSubstring("plan brief ended at"), ContainSubstring("start a new plan")))
		Expect(decisionsIn(ns)).To(ContainElement(And(HaveKeyWithValue("plan", "brief"),
			HaveKeyWithValue("decision", "deny"), HaveKeyWithValue("reason", "PlanExpired"),
			HaveKeyWithValue("requester", "system:serviceaccount:"+ns+":late"))))
		Expect(upstream.Calls()).To(HaveLen(1), "the upstream saw nothing of it")
	})

	It("reviews a token once per TTL, and a token revoked meanwhile still gets no call admitted", func() {
		listTools := func(s *mcp.ClientSession) error {
			_, err := s.ListTools(ctx, nil)
			return err
		}
		Expect(listTools(session)).To(Succeed())
		before := reviews.count()
		Expect(listTools(session)).To(Succeed())
		Expect(listTools(session)).To(Succeed())
		Expect(reviews.count()).To(Equal(before), "a cached review is reused")
		gatewayClock.Step(gateway.DefaultReviewTTL)
		Expect(listTools(session)).To(Succeed())
		Expect(reviews.count()).To(Equal(before+1), "an expired review is redone")

		By("deleting the pod a token is bound to, while the gateway still holds its review")
		shortLived, err := testenv.AudiencePodToken(ctx, cluster.Config, ns, agentSA, "short-lived-pod", true, audience)
		Expect(err).NotTo(HaveOccurred())
		s, err := connectAs(shortLived)
		Expect(err).NotTo(HaveOccurred())
		defer func() { _ = s.Close() }()
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "short-lived-pod"}}
		Expect(k8sClient.Delete(ctx, pod, client.GracePeriodSeconds(0))).To(Succeed())
		Eventually(func() bool {
			return apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(pod), pod))
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(BeTrue())
		Expect(listTools(s)).To(Succeed(), "the cached review still lets it list")
		_, err = s.CallTool(ctx, &mcp.CallToolParams{Name: readTool, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).To(MatchError(ContainSubstring("the API server did not decide the call")))
		// (When the gateway's review expires it reviews the token again; kube-apiserver caches its
		// own successful token authentications for a few seconds, so when that review fails is
		// the API server's business, not asserted here.)
	})

	DescribeTable("answers a request that is not MCP, or too large, with an HTTP error",
		func(contentType, body string, status int) {
			resp := postMCP(ctx, gatewayURL, token, contentType, body)
			defer func() { _ = resp.Body.Close() }()
			Expect(resp.StatusCode).To(Equal(status))
		},
		Entry("plain text", "text/plain", "hello", http.StatusUnsupportedMediaType),
		Entry("JSON that is not JSON-RPC", "application/json", `{"hello": "world"}`, http.StatusBadRequest),
		Entry("a call in a charset other than UTF-8", "application/json; charset=ISO-8859-1",
			"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"read\","+
				"\"arguments\":{\"path\":\"caf\xe9.txt\"}}}", http.StatusUnsupportedMediaType),
		Entry("a call whose bytes are not UTF-8", "application/json",
			"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"read\","+
				"\"arguments\":{\"path\":\"caf\xe9.txt\"}}}", http.StatusBadRequest),
		Entry("a body over the limit", "application/json",
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":"`+
				strings.Repeat("a", gateway.MaxRequestBytes)+`"}}}`, http.StatusRequestEntityTooLarge),
	)

	It("wrote nothing for any bad input above but the PlanExpired and ToolNotRegistered records", func() {
		var calls safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(ns))).To(Succeed())
		Expect(calls.Items).To(HaveLen(1), "only the admitted read is stored")
		Expect(decisionsIn(ns)).To(ConsistOf(
			HaveKeyWithValue("decision", "allow"),
			HaveKeyWithValue("reason", "ToolAccessDenied"),
			HaveKeyWithValue("reason", "ToolNotRegistered"),
			HaveKeyWithValue("reason", "PlanExpired")))
	})
})

// reasonIn returns the reason code of a denial, from its _meta and its structured content, which
// every denial carries and which must agree; "" for a result that is no denial.
func reasonIn(res *mcp.CallToolResult) string {
	GinkgoHelper()
	reasonOf := func(v any) string {
		data, err := json.Marshal(v)
		Expect(err).NotTo(HaveOccurred())
		var d struct {
			Reason string `json:"reason"`
		}
		Expect(json.Unmarshal(data, &d)).To(Succeed())
		return d.Reason
	}
	fromMeta := reasonOf(res.Meta[gateway.MetaDenial])
	if fromMeta != "" {
		Expect(res.StructuredContent).NotTo(BeNil(), "every denial carries its Denied as structured content")
		Expect(reasonOf(res.StructuredContent)).To(Equal(fromMeta))
	}
	return fromMeta
}

// decisionsIn returns the fields of the ledger's decision records of namespace ns, but for the
// dry-run probes newWorld sends.
func decisionsIn(ns string) []map[string]any {
	GinkgoHelper()
	recs, err := testenv.Decisions(ledgerDir, ns)
	Expect(err).NotTo(HaveOccurred())
	return recs
}

// rpcCode is the JSON-RPC error code err carries; 0 when it carries none.
func rpcCode(err error) int64 {
	if e, ok := errors.AsType[*jsonrpc.Error](err); ok {
		return e.Code
	}
	return 0
}
