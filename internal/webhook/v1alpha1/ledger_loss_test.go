package v1alpha1_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/ledger/tmpfs"
	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/pkg/agent"
)

var _ = Describe("decisions the ledger cannot hold", Ordered, func() {
	var ns string
	var coder client.Client
	call := func(name string) *safetyv1alpha1.AgentToolCall {
		return &safetyv1alpha1.AgentToolCall{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "p", Tool: ns + "-write", Step: name, SandboxID: "sb",
				Arguments: safetyv1alpha1.ToolArguments{Paths: []string{"src/" + name + ".go"}}},
		}
	}
	// create submits once: Submit would retry LedgerUnavailable, and every attempt is a decision.
	create := func(name string) error {
		return agent.FromError(coder.Create(ctx, call(name)), ns+"-write")
	}
	setPolicy := func(p safetyv1alpha1.LedgerFailurePolicy) {
		GinkgoHelper()
		al := &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName}}
		err := k8sClient.Get(ctx, client.ObjectKeyFromObject(al), al)
		if err != nil {
			al.Spec.FailurePolicy = p
			Expect(k8sClient.Create(ctx, al)).To(Succeed())
			DeferCleanup(func() { _ = k8sClient.Delete(ctx, al) })
		} else {
			Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
				if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(al), al); err != nil {
					return err
				}
				al.Spec.FailurePolicy = p
				return k8sClient.Update(ctx, al)
			})).To(Succeed())
		}
		// The webhook reads the policy through the manager's cache: wait until it has it.
		Eventually(func(g Gomega) {
			got := &safetyv1alpha1.AuditLedger{}
			g.Expect(managerClient.Get(ctx, client.ObjectKeyFromObject(al), got)).To(Succeed())
			g.Expect(got.Spec.FailurePolicy).To(Equal(p))
		}).Should(Succeed())
	}

	BeforeAll(func() {
		n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "ledger-loss-"}}
		Expect(k8sClient.Create(ctx, n)).To(Succeed())
		ns = n.Name
		var err error
		coder, err = testenv.Agent(ctx, cluster.Config, cluster.Scheme, ns, "coder")
		Expect(err).NotTo(HaveOccurred())
		Expect(k8sClient.Create(ctx, &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: ns + "-write"},
			Spec: safetyv1alpha1.AgentToolSpec{Writes: true, Checkpointable: true, ActionClass: safetyv1alpha1.ActionClassWrite}})).To(Succeed())
		Expect(k8sClient.Create(ctx, &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "p"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "coder",
				ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: "sandboxed"}}})).To(Succeed())
		// With the suite's healthy ledger, until the plan is locked: from here on every call is
		// admitted as decided, so the only denials below are LedgerUnavailable.
		Expect(agent.Submit(ctx, coder, call("warm-up"))).To(Succeed())
	})

	It("answers under Ignore and denies under Fail while the volume is full, and records every such answer in a loss record once it has space", func() {
		dir := tmpfs.Mount(GinkgoT(), "128k", "internal/audit's closed-journal test covers the account")
		j, err := ledger.Open(audit.Config(nil, dir, "full", nil))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(j.Close)
		full := &countingLog{log: &audit.Log{Journal: j, FailurePolicy: audit.FailurePolicyFrom(managerClient)}}
		setPolicy(safetyv1alpha1.LedgerFailurePolicyIgnore)
		free := tmpfs.Fill(GinkgoT(), dir)
		healthy := decisions.use(full)
		DeferCleanup(func() { decisions.use(healthy) })

		By("admitting calls under Ignore although their decisions cannot be recorded")
		ignored := []string{"ignored-0", "ignored-1", "ignored-2"}
		for _, name := range ignored {
			Expect(create(name)).To(Succeed())
			Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, &safetyv1alpha1.AgentToolCall{})).To(Succeed())
		}

		By("denying them LedgerUnavailable under Fail")
		setPolicy(safetyv1alpha1.LedgerFailurePolicyFail)
		denied := []string{"denied-0", "denied-1"}
		for _, name := range denied {
			Expect(agent.ReasonOf(create(name))).To(Equal("LedgerUnavailable"))
		}
		Expect(full.failed()).To(Equal(append(slices.Clone(ignored), denied...)), "every answer after the volume filled failed to be recorded")

		By("recording all five answers in one loss record before the next decision, once the volume has space")
		free()
		Expect(create("after")).To(Succeed())
		Expect(full.failed()).To(HaveLen(5), "the next decision was recorded")
		lines, err := ledger.Tail(dir, 1000)
		Expect(err).NotTo(HaveOccurred())
		recs := make([]ledgerRecord, 0, len(lines))
		for _, l := range lines {
			var r ledgerRecord
			Expect(json.Unmarshal(l, &r)).To(Succeed())
			recs = append(recs, r)
		}
		slices.SortFunc(recs, func(a, b ledgerRecord) int { return int(a.Seq) - int(b.Seq) })
		Expect(len(recs)).To(BeNumerically(">=", 3))
		loss, after := recs[len(recs)-2], recs[len(recs)-1]
		Expect(after.Kind).To(Equal(audit.KindDecision))
		Expect(after.Fields).To(HaveKeyWithValue("call", "after"))
		Expect(loss.Kind).To(Equal(ledger.KindLoss))
		Expect(loss.Fields).To(HaveKeyWithValue("lost", BeNumerically("==", 5)))
		Expect(loss.Fields).To(HaveKeyWithValue("byFailurePolicy", map[string]any{"Ignore": 3.0, "Fail": 2.0}))
		Expect(loss.Fields).To(HaveKeyWithValue("byKind", map[string]any{"decision": 5.0}))
		sample, _ := loss.Fields["sample"].([]any)
		Expect(sample).To(HaveLen(5))
		for i, e := range sample {
			entry := e.(map[string]any)
			name, policy := ignored[min(i, 2)], "Ignore"
			if i >= 3 {
				name, policy = denied[i-3], "Fail"
			}
			Expect(entry).To(HaveKeyWithValue("call", name))
			Expect(entry).To(HaveKeyWithValue("failurePolicy", policy))
			Expect(entry).To(HaveKeyWithValue("decision", "allow"), "what the engine decided, whatever the client got")
			Expect(entry).To(HaveKeyWithValue("namespace", ns))
			Expect(entry).To(HaveKeyWithValue("requester", "system:serviceaccount:"+ns+":coder"))
			Expect(entry).To(HaveKeyWithValue("error", ContainSubstring("no space left on device")))
		}

		report, err := ledger.Verify(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(report.OK()).To(BeTrue(), report.Summary())
		Expect(report.Chains[0].Losses).To(HaveLen(1))
		Expect(report.Chains[0].Losses[0].Lost).To(Equal(uint64(5)))
	})
})

type ledgerRecord struct {
	Seq    uint64         `json:"seq"`
	Kind   string         `json:"kind"`
	Fields map[string]any `json:"fields"`
}

// countingLog remembers which decisions its log failed to record.
type countingLog struct {
	log   *audit.Log
	mu    sync.Mutex
	fails []string
}

func (c *countingLog) RecordDecision(ctx context.Context, d audit.Decision) error {
	err := c.log.RecordDecision(ctx, d)
	if err != nil {
		c.mu.Lock()
		c.fails = append(c.fails, d.Call)
		c.mu.Unlock()
	}
	return err
}

func (c *countingLog) failed() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.fails)
}
