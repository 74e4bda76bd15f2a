package gateway_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
	"github.com/toolgate/toolgate/internal/testenv"
)

// Acceptance cases of issue 19 an outside evaluator would write: tools/list shows only the tools
// the caller's plan could use, and a request that is not one well-formed MCP message gets a clear
// error and writes nothing.
var _ = Describe("toolgate-gateway, judged from outside (audit 19)", Ordered, ContinueOnFailure, func() {
	var (
		w  *world
		up *recordingServer
	)
	BeforeAll(func() {
		var stop func()
		up, stop = startUpstream(GinkgoT().TempDir())
		DeferCleanup(stop)
		w = newWorld("gw-audit19-", up.URL, "read_file")
	})

	// An ended plan admits nothing (every call is refused PlanExpired), so there is no tool it
	// could use: tools/list must be empty, as it is for a caller no plan names.
	It("lists no tool to a caller whose plan has ended", func() {
		_, err := testenv.AgentConfig(ctx, cluster.Config, w.ns, "late")
		Expect(err).NotTo(HaveOccurred())
		plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: w.ns, Name: "brief"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "late", ActiveDeadlineSeconds: new(int64(1)),
				ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: w.ns}}}
		Expect(k8sClient.Create(ctx, plan)).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(plan), plan)).To(Succeed())
			g.Expect(plan.Status.Snapshot).NotTo(BeNil(), "locked before it ended")
			g.Expect(meta.IsStatusConditionFalse(plan.Status.Conditions, safetyv1alpha1.AgentPlanActiveCondition)).To(BeTrue())
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
		token, err := testenv.AudiencePodToken(ctx, cluster.Config, w.ns, "late", "late-pod", true, audience)
		Expect(err).NotTo(HaveOccurred())
		res, err := connectedTo(gatewayURL, token).ListTools(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Tools).To(BeEmpty(), "plan brief has ended: every call of it is refused PlanExpired")
	})

	post := func(body string) (int, string) {
		GinkgoHelper()
		return postedJSON(gatewayURL, w.token, body)
	}

	// A body that is not one JSON value, or a message naming its method or tool twice, is not a
	// well-formed MCP request: decoders disagree on it (a proxy or log in front that takes the
	// first "method" sees a tools/list where the gateway runs a tools/call), just as they do on
	// the repeated argument keys toolgate refuses. It must be refused, with nothing created or sent.
	DescribeTable("refuses a request body that is not one well-formed JSON-RPC message, creating and sending nothing",
		func(body func() string) {
			before := len(up.Calls())
			var calls safetyv1alpha1.AgentToolCallList
			Expect(k8sClient.List(ctx, &calls, client.InNamespace(w.ns))).To(Succeed())
			stored := len(calls.Items)
			status, answer := post(body())
			refused := status >= 400 || strings.Contains(answer, `"error"`)
			Expect(refused).To(BeTrue(), "HTTP %d: %s", status, answer)
			Expect(up.Calls()).To(HaveLen(before), "the upstream was sent the call")
			Expect(k8sClient.List(ctx, &calls, client.InNamespace(w.ns))).To(Succeed())
			Expect(calls.Items).To(HaveLen(stored), "an AgentToolCall was created")
		},
		Entry("a valid message followed by more text", func() string {
			return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + w.readTool +
				`","arguments":{"path":"trailing.txt"}}}garbage`
		}),
		Entry("a message that names its method twice", func() string {
			return `{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call","params":{"name":"` + w.readTool +
				`","arguments":{"path":"twice.txt"}}}`
		}),
		Entry("a tools/call that carries a result too (a request and an answer at once)", func() string {
			return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + w.readTool +
				`","arguments":{"path":"answered.txt"}},"result":{}}`
		}),
		Entry("a tools/call that names its tool twice", func() string {
			return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_everything","name":"` + w.readTool +
				`","arguments":{"path":"named-twice.txt"}}}`
		}),
	)

	// JSON-RPC: the answer carries the request's id, so the client can match it. An id the
	// gateway cannot carry back as sent must be refused before anything runs; answered under
	// another id, the call has run (and been charged) and the agent never gets its answer.
	DescribeTable("answers a call under its own id, or refuses it before anything runs",
		func(id string) {
			before := len(up.Calls())
			status, answer := post(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + w.readTool +
				`","arguments":{"path":"id.txt"}}}`)
			if status >= 400 || strings.Contains(answer, `"error"`) {
				Expect(up.Calls()).To(HaveLen(before), "refused, yet sent upstream: HTTP %d %s", status, answer)
				return
			}
			Expect(answer).To(ContainSubstring(`"id":`+id+`,`), "HTTP %d: %s", status, answer)
		},
		Entry("an integer id beyond int64", "123456789012345678901234567890"),
		Entry("a fractional id", "1.5"),
	)

	// Two requests of one batch under one id: each is answered, or the batch refused; one of them
	// silently dropped leaves the agent waiting for an answer that never comes.
	It("does not silently drop one of two batched calls that share an id", func() {
		call := func(path string) string {
			return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + w.readTool +
				`","arguments":{"path":"` + path + `"}}}`
		}
		before := len(up.Calls())
		status, answer := post("[" + call("first.txt") + "," + call("second.txt") + "]")
		if status >= 400 {
			Expect(up.Calls()).To(HaveLen(before), "refused, yet sent upstream")
			return
		}
		Expect(strings.Count(answer, `"id":1`)).To(Equal(2), "HTTP %d: %s", status, answer)
	})

	// A request names one caller. HTTP allows one Authorization header (RFC 9110: it is no list),
	// and readers disagree on which of two counts: Go's Header.Get, and so the SDK, takes the
	// first, a proxy may take the last or join them. The gateway acted as the first, while a
	// proxy or log in front that read the last saw another agent: it must refuse the request,
	// before any review, saying why.
	It("refuses a request that carries two Authorization headers, creating and sending nothing", func() {
		other := w.agent("second-agent")
		before := len(up.Calls())
		var calls safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(w.ns))).To(Succeed())
		stored := len(calls.Items)
		call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + w.readTool + `","arguments":{"path":"two-tokens.txt"}}}`
		resp := postMCP(ctx, gatewayURL, w.token, "application/json", call)
		_ = resp.Body.Close()
		Expect(resp.StatusCode).To(Equal(http.StatusOK), "the near miss: one header is served")
		resp = postMCP(ctx, gatewayURL, w.token, "application/json", call, "Authorization", "Bearer "+other)
		defer func() { _ = resp.Body.Close() }()
		body, _ := io.ReadAll(resp.Body)
		Expect(resp.StatusCode).To(Equal(http.StatusBadRequest), "%s", body)
		Expect(string(body)).To(ContainSubstring("2 Authorization headers"))
		Expect(resp.Close).To(BeTrue(), "the connection of a request without a verified token is not closed")
		Expect(up.Calls()).To(HaveLen(before+1), "the upstream was sent the call with two tokens")
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(w.ns))).To(Succeed())
		Expect(calls.Items).To(HaveLen(stored+1), "an AgentToolCall was created with two tokens")
	})

	// A JSON-RPC batch (protocol versions before 2025-06-18) is one request to every bound the
	// gateway puts on a caller's requests (its share of the requests served at once), while the
	// SDK serves each of its messages: one 49 KB body of 1000 tools/list took the gateway about
	// 5 s of CPU, and one of 65 tools/calls created and sent 65 calls. A batch longer than
	// gateway.MaxBatchMessages must be refused before any of it runs, one of that length served.
	It("refuses a batch of more than MaxBatchMessages messages before any runs, and serves one of that many", func() {
		batch := func(n int, message func(i int) string) string {
			parts := make([]string, n)
			for i := range parts {
				parts[i] = message(i + 1)
			}
			return "[" + strings.Join(parts, ",") + "]"
		}
		const version = "2025-03-26" // the last protocol version with batches
		before := len(up.Calls())
		var calls safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(w.ns))).To(Succeed())
		stored := len(calls.Items)
		status, answer := postedJSON(gatewayURL, w.token, batch(gateway.MaxBatchMessages+1, func(i int) string {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{"path":"batch-%d.txt"}}}`,
				i, w.readTool, i)
		}), "MCP-Protocol-Version", version)
		Expect(status).To(Equal(http.StatusBadRequest), answer)
		Expect(answer).To(And(ContainSubstring(`"code":-32600`), ContainSubstring(fmt.Sprintf("more than %d messages", gateway.MaxBatchMessages))))
		Expect(up.Calls()).To(HaveLen(before), "the upstream was sent calls of the batch")
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(w.ns))).To(Succeed())
		Expect(calls.Items).To(HaveLen(stored), "calls of the batch were created")

		status, answer = postedJSON(gatewayURL, w.token, batch(gateway.MaxBatchMessages, func(i int) string {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, i)
		}), "MCP-Protocol-Version", version)
		Expect(status).To(Equal(http.StatusOK), "the near miss: %s", answer)
		Expect(strings.Count(answer, `"tools":[`)).To(Equal(gateway.MaxBatchMessages), answer)
	})
})
