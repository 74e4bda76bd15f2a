package gateway_test

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// A body the gateway takes is one every decoder reads alike and the SDK answers under the id it
// was sent with; the rest is refused before anything is created or sent (envelope.go). These are
// the near misses of the audit's cases (audit19_bad_input_test.go), which must still be answered,
// and the refusal as an agent sees it.
var _ = Describe("a request body's envelope", Ordered, func() {
	var (
		w  *world
		up *recordingServer
	)
	BeforeAll(func() {
		var stop func()
		up, stop = startUpstream(GinkgoT().TempDir())
		DeferCleanup(stop)
		w = newWorld("gw-envelope-", up.URL, "read_file")
	})

	post := func(body string, header ...string) (int, string) {
		GinkgoHelper()
		return postedJSON(gatewayURL, w.token, body, header...)
	}
	call := func(id, path string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + w.readTool +
			`","arguments":{"path":"` + path + `"}}}`
	}
	stored := func() int {
		GinkgoHelper()
		var calls safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(w.ns))).To(Succeed())
		return len(calls.Items)
	}

	DescribeTable("answers a call under the id it was sent with",
		func(id, answered string) {
			before := len(up.Calls())
			// a path of its own: the same call again would be a retry of one step, which the plan bounds
			status, answer := post(call(id, "id-"+strings.Trim(id, `"-.`)+".txt"))
			Expect(status).To(Equal(http.StatusOK), answer)
			Expect(answer).To(And(ContainSubstring(`"id":`+answered+`,`), Not(ContainSubstring(`"error"`))))
			Expect(up.Calls()).To(HaveLen(before + 1))
		},
		Entry("a string", `"call-1"`, `"call-1"`),
		Entry("a string that looks like a number beyond int64", `"123456789012345678901234567890"`,
			`"123456789012345678901234567890"`),
		Entry("an integer", "42", "42"),
		Entry("a negative integer", "-42", "-42"),
		Entry("the largest integer a float64 keeps", "9007199254740992", "9007199254740992"),
		Entry("an integer written with a fraction of zero", "3.0", "3"),
	)

	It("answers each call of a batch under distinct ids (protocol versions before 2025-06-18)", func() {
		before := len(up.Calls())
		status, answer := post("[" + call("1", "first.txt") + "," + call(`"1"`, "second.txt") + "]")
		Expect(status).To(Equal(http.StatusOK), answer)
		Expect(answer).To(And(ContainSubstring(`"id":1,`), ContainSubstring(`"id":"1",`)))
		Expect(up.Calls()).To(HaveLen(before + 2))
	})

	It("leaves a batch under a protocol version without batches to the SDK, which refuses it", func() {
		before := len(up.Calls())
		status, answer := post("["+call("1", "first.txt")+","+call("2", "second.txt")+"]",
			"MCP-Protocol-Version", "2025-06-18")
		Expect(status).To(Equal(http.StatusBadRequest))
		Expect(answer).To(ContainSubstring("batching is not supported"))
		Expect(up.Calls()).To(HaveLen(before))
	})

	DescribeTable("refuses a body that is not one well-formed message with HTTP 400 and a JSON-RPC error saying why, "+
		"creating and sending nothing",
		func(body func() string, code int64, says string) {
			before, created := len(up.Calls()), stored()
			status, answer := post(body())
			Expect(status).To(Equal(http.StatusBadRequest), answer)
			var refusal struct {
				ID    any
				Error *jsonrpc.Error
			}
			Expect(json.Unmarshal([]byte(answer), &refusal)).To(Succeed(), answer)
			Expect(refusal.ID).To(BeNil())
			Expect(refusal.Error).To(And(Not(BeNil()), HaveField("Code", code), HaveField("Message", ContainSubstring(says))))
			Expect(up.Calls()).To(HaveLen(before), "sent upstream")
			Expect(stored()).To(Equal(created), "an AgentToolCall was created")
		},
		Entry("two messages", func() string { return call("1", "a.txt") + call("2", "b.txt") },
			int64(jsonrpc.CodeParseError), "text follows it"),
		Entry("an argument named twice (the SDK passes arguments on as they are; toolcall.Build refused it -32602)",
			func() string {
				return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + w.readTool +
					`","arguments":{"path":"notes.txt","path":".env"}}}`
			}, int64(jsonrpc.CodeInvalidRequest), `key "path" is named twice (decoders disagree on which one counts) in the message, at params.arguments`),
		Entry("the method named twice, once escaped", func() string {
			return `{"jsonrpc":"2.0","id":1,"method":"tools/list","m\u0065thod":"tools/call","params":{"name":"` + w.readTool +
				`","arguments":{"path":"notes.txt"}}}`
		}, int64(jsonrpc.CodeInvalidRequest), `key "method" is named twice`),
		Entry("an id beyond 2^53, which a float64 rounds", func() string { return call("9007199254740993", "a.txt") },
			int64(jsonrpc.CodeInvalidRequest), "the id 9007199254740993 cannot be answered as sent"),
		Entry("an id of 1e-3", func() string { return call("1e-3", "a.txt") },
			int64(jsonrpc.CodeInvalidRequest), "cannot be answered as sent"),
		Entry("two calls of a batch under the same id, written apart", func() string {
			return "[" + call("1", "first.txt") + "," + call("1.0", "second.txt") + "]"
		}, int64(jsonrpc.CodeInvalidRequest), "two calls of the batch share the id 1"),
	)

	// An ended plan admits nothing; the gateway resolves it (its calls are refused PlanExpired),
	// and lists no tool for it. Listed while the plan is active: the near miss, and the proof
	// that the gateway sees the plan, so that an empty list is not its cache's lag.
	It("lists a plan's tools while it is active, and none once it has ended", func() {
		token := w.agent("ending", func(p *safetyv1alpha1.AgentPlan) { p.Spec.ActiveDeadlineSeconds = new(int64(8)) })
		s := connectedTo(gatewayURL, token)
		names := func() []string {
			res, err := s.ListTools(ctx, nil)
			Expect(err).NotTo(HaveOccurred())
			names := make([]string, 0, len(res.Tools))
			for _, t := range res.Tools {
				names = append(names, t.Name)
			}
			return names
		}
		Expect(names()).To(ContainElement(w.readTool))
		plan := &safetyv1alpha1.AgentPlan{}
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: w.ns, Name: "plan-ending"}, plan)).To(Succeed())
			g.Expect(meta.IsStatusConditionFalse(plan.Status.Conditions, safetyv1alpha1.AgentPlanActiveCondition)).To(BeTrue())
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(reasonIn(res)).To(Equal("PlanExpired"))
		Expect(names()).To(BeEmpty())
	})
})
