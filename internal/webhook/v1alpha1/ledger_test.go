package v1alpha1_test

import (
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/pkg/agent"
)

var _ = Describe("the decision ledger behind the gate", Ordered, func() {
	var ns string
	var coder client.Client
	call := func(name, tool, sandbox string) *safetyv1alpha1.AgentToolCall {
		return &safetyv1alpha1.AgentToolCall{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "p", Tool: tool, Step: name, SandboxID: sandbox,
				Arguments: safetyv1alpha1.ToolArguments{Paths: []string{"src/" + name + ".go"}}},
		}
	}

	BeforeAll(func() {
		n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "ledger-"}}
		Expect(k8sClient.Create(ctx, n)).To(Succeed())
		ns = n.Name
		var err error
		coder, err = testenv.Agent(ctx, cluster.Config, cluster.Scheme, ns, "coder")
		Expect(err).NotTo(HaveOccurred())
		for _, t := range []*safetyv1alpha1.AgentTool{
			{ObjectMeta: metav1.ObjectMeta{Name: ns + "-write"}, Spec: safetyv1alpha1.AgentToolSpec{Writes: true, Checkpointable: true, ActionClass: safetyv1alpha1.ActionClassWrite}},
		} {
			Expect(k8sClient.Create(ctx, t)).To(Succeed())
		}
		p := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "p"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "coder",
				ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: "sandboxed"}}}
		Expect(k8sClient.Create(ctx, p)).To(Succeed())
	})

	It("holds an allowed and a denied decision, verifiably chained", func() {
		admitted := call("in-sandbox", ns+"-write", "sb")
		Expect(agent.Submit(ctx, coder, admitted)).To(Succeed())
		tool := &safetyv1alpha1.AgentTool{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Name: ns + "-write"}, tool)).To(Succeed())
		Expect(agent.ReasonOf(agent.Submit(ctx, coder, call("no-sandbox", ns+"-write", "")))).To(Equal("ToolSandboxRequired"))

		report, err := ledger.Verify(ledgerDir)
		Expect(err).NotTo(HaveOccurred())
		Expect(report.OK()).To(BeTrue(), report.Summary())
		lines, err := ledger.Tail(ledgerDir, 1000)
		Expect(err).NotTo(HaveOccurred())
		var mine []map[string]any
		for _, raw := range lines {
			if strings.Contains(string(raw), `"`+ns+`"`) {
				var rec map[string]any
				Expect(json.Unmarshal(raw, &rec)).To(Succeed())
				mine = append(mine, rec)
			}
		}
		Expect(mine).To(ContainElement(HaveKeyWithValue("fields", And(
			HaveKeyWithValue("call", "in-sandbox"), HaveKeyWithValue("decision", "allow"),
			HaveKeyWithValue("requester", "system:serviceaccount:"+ns+":coder")))))
		Expect(mine).To(ContainElement(HaveKeyWithValue("fields", And(
			HaveKeyWithValue("call", "no-sandbox"), HaveKeyWithValue("decision", "deny"),
			HaveKeyWithValue("reason", "ToolSandboxRequired")))))

		By("recording what each call asked for, on which tool and facts, and which rule decided")
		Expect(mine).To(ContainElement(HaveKeyWithValue("fields", And(
			HaveKeyWithValue("call", "in-sandbox"), HaveKeyWithValue("uid", string(admitted.UID)),
			HaveKeyWithValue("arguments", map[string]any{"paths": []any{"src/in-sandbox.go"}}),
			HaveKeyWithValue("argumentsDigest", policy.ArgumentsDigest(admitted.Spec.Arguments)),
			HaveKeyWithValue("sandboxId", "sb"), HaveKeyWithValue("class", "write"), Not(HaveKey("ruleId")),
			HaveKeyWithValue("agentTool", And(HaveKeyWithValue("uid", string(tool.UID)),
				HaveKeyWithValue("generation", float64(tool.Generation)), HaveKeyWithValue("writes", true))),
			HaveKeyWithValue("facts", And(HaveKeyWithValue("accumulatedCost", "0"), HaveKeyWithValue("earlierAttempts", float64(0)),
				HaveKeyWithValue("humanApproved", false)))))))
		Expect(mine).To(ContainElement(HaveKeyWithValue("fields", And(
			HaveKeyWithValue("call", "no-sandbox"), HaveKeyWithValue("ruleId", "require-sandbox"), HaveKey("uid"),
			Not(HaveKey("sandboxId")), HaveKey("facts"), HaveKey("agentTool")))))

		By("counting denials, which no stored object shows, in the plan's usage: as many as the ledger holds")
		denied := 0 // the sandbox denial, plus any PlanNotLocked answers Submit retried past
		for _, rec := range mine {
			if f, _ := rec["fields"].(map[string]any); f["decision"] == "deny" {
				denied++
			}
		}
		Expect(denied).To(BeNumerically(">=", 1))
		Eventually(func(g Gomega) {
			p := &safetyv1alpha1.AgentPlan{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "p"}, p)).To(Succeed())
			g.Expect(p.Status.Usage.Denials).To(Equal(int64(denied)))
			g.Expect(p.Status.Usage.Calls).To(Equal(int64(1)))
		}).Should(Succeed())
	})

	It("denies LedgerUnavailable when a decision cannot be made durable, and admits again once it can", func() {
		broken, err := ledger.Open(audit.Config(nil, GinkgoT().TempDir(), "broken", nil))
		Expect(err).NotTo(HaveOccurred())
		Expect(broken.Close()).To(Succeed())
		healthy := decisions.use(&audit.Log{Journal: broken})
		err = agent.Submit(ctx, coder, call("while-broken", ns+"-write", "sb"))
		decisions.use(healthy)
		Expect(agent.ReasonOf(err)).To(Equal("LedgerUnavailable"))
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "while-broken"}, &safetyv1alpha1.AgentToolCall{})).NotTo(Succeed())
		Expect(agent.Submit(ctx, coder, call("after-repair", ns+"-write", "sb"))).To(Succeed())
	})
})
