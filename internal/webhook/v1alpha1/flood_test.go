package v1alpha1_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/operator"
	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/pkg/agent"
)

// suiteManager is the suite's own manager setup, to restore after a spec ran another one.
func suiteManager(mgr ctrl.Manager) error {
	managerClient = mgr.GetClient()
	return operator.Setup(mgr, operator.Options{Ledger: decisions, Counters: counters})
}

// recordsOf reads the records of kind in namespace ns from the ledger under dir.
func recordsOf(dir, kind, ns string) []map[string]any {
	GinkgoHelper()
	recs, err := testenv.LedgerRecords(dir, kind, ns)
	Expect(err).NotTo(HaveOccurred())
	return recs
}

var _ = Describe("a flood of denied calls through the API server", Ordered, func() {
	const (
		perWindow = 50
		flood     = 2000
	)
	var (
		dir     string
		journal *ledger.Journal
		clk     *clocktesting.FakeClock
		fc      *audit.FloodControl
	)

	BeforeAll(func() {
		dir = GinkgoT().TempDir()
		clk = clocktesting.NewFakeClock(time.Now())
		var err error
		journal, err = ledger.Open(audit.Config(nil, dir, "flood", nil))
		Expect(err).NotTo(HaveOccurred())
		log := &audit.Log{Journal: journal}
		// A window that ends only when the test says so: the fake clock.
		fc = &audit.FloodControl{Log: log, Clock: clk, Settings: func(context.Context) audit.FloodSettings {
			return audit.FloodSettings{DeniedPerWindow: perWindow, Window: time.Hour}
		}}
		Expect(cluster.RestartManager(func(mgr ctrl.Manager) error {
			managerClient = mgr.GetClient()
			if err := mgr.Add(fc); err != nil {
				return err
			}
			return operator.Setup(mgr, operator.Options{Ledger: log, Flood: fc, Counters: counters})
		})).To(Succeed())
		DeferCleanup(func() {
			Expect(cluster.RestartManager(suiteManager)).To(Succeed())
			Expect(journal.Close()).To(Succeed())
		})
	})

	It("costs the ledger one record per denial up to the rate and one aggregated record per window after it, and leaves other namespaces alone", func() {
		newNS := func(prefix string) string {
			n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix}}
			Expect(k8sClient.Create(ctx, n)).To(Succeed())
			return n.Name
		}
		floodNS, otherNS := newNS("flood-"), newNS("flood-other-")
		flooder, err := testenv.Agent(ctx, cluster.Config, cluster.Scheme, floodNS, "flooder")
		Expect(err).NotTo(HaveOccurred())
		worker, err := testenv.Agent(ctx, cluster.Config, cluster.Scheme, otherNS, "worker")
		Expect(err).NotTo(HaveOccurred())
		Expect(k8sClient.Create(ctx, &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: otherNS + "-read"},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}})).To(Succeed())
		Expect(k8sClient.Create(ctx, &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: otherNS, Name: "p"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "worker",
				ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: "unrestricted"}}})).To(Succeed())
		read := func(name string) *safetyv1alpha1.AgentToolCall {
			return &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: otherNS, Name: name},
				Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "p", Tool: otherNS + "-read", Step: "s",
					Arguments: safetyv1alpha1.ToolArguments{Paths: []string{"src/a.go"}}}}
		}
		Expect(agent.Submit(ctx, worker, read("before"))).To(Succeed())

		deny := func(i int) string { // a 253-character name, for a plan that does not exist
			name := fmt.Sprintf("%s-%05d", strings.Repeat("f", 247), i)
			call := &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: floodNS, Name: name},
				Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "nope", Tool: "t", Step: "s",
					Arguments: safetyv1alpha1.ToolArguments{Command: strings.Repeat("x", 4096)}}}
			err := agent.FromError(flooder.Create(ctx, call), "t")
			if r := agent.ReasonOf(err); r != "" {
				return r
			}
			return fmt.Sprint(err)
		}
		By("the first denials of the window, recorded one by one")
		for i := range perWindow {
			Expect(deny(i)).To(Equal("PlanNotFound"))
		}
		Expect(recordsOf(dir, audit.KindDecision, floodNS)).To(HaveLen(perWindow))
		bytesAtRate := journal.Stats().Bytes

		By(fmt.Sprintf("%d more, from 8 connections at once: refused RateLimited, and not one byte each", flood))
		var wg sync.WaitGroup
		reasons := make([]string, flood)
		for w := range 8 {
			wg.Go(func() {
				defer GinkgoRecover()
				for i := w; i < flood; i += 8 {
					reasons[i] = deny(perWindow + i)
				}
			})
		}
		wg.Wait()
		Expect(reasons).To(HaveEach(Equal(safetyv1alpha1.AuditLedgerRateLimitedReason)))
		grown := journal.Stats().Bytes - bytesAtRate
		GinkgoWriter.Printf("ledger bytes: %d at the rate, +%d after %d refused calls\n", bytesAtRate, grown, flood)
		Expect(grown).To(BeNumerically("<", 4096), "refused calls cost the ledger nothing until their window's record")
		Expect(recordsOf(dir, audit.KindDecision, floodNS)).To(HaveLen(perWindow))

		By("another namespace's calls, during the flood: admitted and recorded")
		Expect(agent.Submit(ctx, worker, read("during"))).To(Succeed())
		Expect(recordsOf(dir, audit.KindDecision, otherNS)).To(ContainElement(And(
			HaveKeyWithValue("call", "during"), HaveKeyWithValue("decision", "allow"))))

		By("the window ends: one aggregated record counts every refused call")
		clk.Step(time.Hour)
		Eventually(func() []map[string]any { return recordsOf(dir, audit.KindFlood, floodNS) }).Should(ConsistOf(And(
			HaveKeyWithValue("refused", float64(flood)), HaveKeyWithValue("denied", float64(flood+perWindow)),
			HaveKeyWithValue("reasons", HaveKeyWithValue("PlanNotFound", float64(flood))),
			HaveKeyWithValue("requester", "system:serviceaccount:"+floodNS+":flooder"))))
		GinkgoWriter.Printf("ledger bytes after the flood record: +%d\n", journal.Stats().Bytes-bytesAtRate)
		Expect(journal.Stats().Bytes - bytesAtRate).To(BeNumerically("<", 16384))
		report, err := ledger.Verify(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(report.OK()).To(BeTrue(), report.Summary())
	})

	It("keeps one agent's window its own when two agents share a ServiceAccount, each in its pod", func() {
		n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "flood-pods-"}}
		Expect(k8sClient.Create(ctx, n)).To(Succeed())
		flooder, err := testenv.AgentPod(ctx, cluster.Config, cluster.Scheme, n.Name, "shared", "agent-a")
		Expect(err).NotTo(HaveOccurred())
		other, err := testenv.AgentPod(ctx, cluster.Config, cluster.Scheme, n.Name, "shared", "agent-b")
		Expect(err).NotTo(HaveOccurred())
		podPlan(n.Name, "shared", "agent-a")
		podPlan(n.Name, "shared", "agent-b")
		deny := deniedIn(n.Name, "c")
		By("one agent's denials fill its window")
		for i := range perWindow {
			Expect(deny(flooder.Client, i)).To(Equal("PlanNotFound"))
		}
		Expect(deny(flooder.Client, perWindow)).To(Equal(safetyv1alpha1.AuditLedgerRateLimitedReason))

		By("the other agent, same ServiceAccount, another pod: its denial keeps its reason and its record")
		Expect(deny(other.Client, perWindow+1)).To(Equal("PlanNotFound"))
		Expect(recordsOf(dir, audit.KindDecision, n.Name)).To(ContainElement(HaveKeyWithValue("call", fmt.Sprintf("c-%d", perWindow+1))))

		By("the flooder's window's record names its pod")
		clk.Step(time.Hour)
		Eventually(func() []map[string]any { return recordsOf(dir, audit.KindFlood, n.Name) }).Should(ConsistOf(And(
			HaveKeyWithValue("refused", float64(1)), HaveKeyWithValue("pod", "agent-a"),
			HaveKeyWithValue("requester", "system:serviceaccount:"+n.Name+":shared"))))
	})
	It("answers a requester past its rate from the cache: plans that do not exist cost the API server no more reads", func() {
		// Before, every call naming a plan the cache did not show was read again from the API
		// server, rate or no rate: one read of the operator's for each request the agent made.
		n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "flood-reads-"}}
		Expect(k8sClient.Create(ctx, n)).To(Succeed())
		reader, err := testenv.Agent(ctx, cluster.Config, cluster.Scheme, n.Name, "reader")
		Expect(err).NotTo(HaveOccurred())
		deny := deniedIn(n.Name, "r")
		By("the window's denials, each naming a plan read live")
		before := planReads()
		for i := range perWindow {
			Expect(deny(reader, i)).To(Equal("PlanNotFound"))
		}
		atRate := planReads()
		Expect(atRate-before).To(BeNumerically(">=", perWindow), "below the rate, a plan the cache does not show is read live")
		By("past the rate: refused, and not read")
		const past = 200
		for i := range past {
			Expect(deny(reader, perWindow+i)).To(Equal(safetyv1alpha1.AuditLedgerRateLimitedReason))
		}
		GinkgoWriter.Printf("API server reads of AgentPlans: %d for %d denials at the rate, %d for %d past it\n",
			atRate-before, perWindow, planReads()-atRate, past)
		Expect(planReads() - atRate).To(BeNumerically("<", past/10))
	})

	It("shares one window among the pods of a ServiceAccount that no plan binds, so minting pods mints no budget", func() {
		// The agent holds the common edit role: it may create pods of its own ServiceAccount and
		// tokens bound to them. Had each such pod a window of its own, every pod it made would be
		// another DeniedPerWindow records and byte budget a window on the ledger's volume.
		n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "flood-minted-"}}
		Expect(k8sClient.Create(ctx, n)).To(Succeed())
		own, err := testenv.AgentPod(ctx, cluster.Config, cluster.Scheme, n.Name, "coder", "coder-0")
		Expect(err).NotTo(HaveOccurred())
		podPlan(n.Name, "coder", "coder-0")
		minted := make([]client.Client, 4)
		for i := range minted {
			a, err := testenv.AgentPod(ctx, cluster.Config, cluster.Scheme, n.Name, "coder", fmt.Sprintf("minted-%d", i))
			Expect(err).NotTo(HaveOccurred())
			minted[i] = a.Client
		}
		deny := deniedIn(n.Name, "m")
		By("the first minted pod's denials fill the window")
		for i := range perWindow {
			Expect(deny(minted[0], i)).To(Equal("PlanNotFound"))
		}
		By("every other minted pod is refused RateLimited at once: no budget of its own")
		for i, c := range minted[1:] {
			Expect(deny(c, perWindow+i)).To(Equal(safetyv1alpha1.AuditLedgerRateLimitedReason), "pod minted-%d", i+1)
		}
		Expect(recordsOf(dir, audit.KindDecision, n.Name)).To(HaveLen(perWindow))

		By("the near miss: the pod a plan binds keeps a window of its own")
		Expect(deny(own.Client, 1000)).To(Equal("PlanNotFound"))

		clk.Step(time.Hour)
		Eventually(func() []map[string]any { return recordsOf(dir, audit.KindFlood, n.Name) }).Should(ConsistOf(And(
			HaveKeyWithValue("refused", float64(len(minted)-1)), Not(HaveKey("pod")),
			HaveKeyWithValue("requester", "system:serviceaccount:"+n.Name+":coder"))))
	})

	It("gives a RateLimited refusal a decision span too", func() {
		receiver, shutdown := tracedToReceiver()

		n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "flood-span-"}}
		Expect(k8sClient.Create(ctx, n)).To(Succeed())
		flooder, err := testenv.Agent(ctx, cluster.Config, cluster.Scheme, n.Name, "flooder")
		Expect(err).NotTo(HaveOccurred())
		deny := func(i int) string {
			call := &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: n.Name, Name: fmt.Sprintf("span-%d", i)},
				Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "nope", Tool: "t", Step: "s"}}
			return agent.ReasonOf(agent.FromError(flooder.Create(ctx, call), "t"))
		}
		for i := range perWindow {
			Expect(deny(i)).To(Equal("PlanNotFound"))
		}
		Expect(deny(perWindow)).To(Equal(safetyv1alpha1.AuditLedgerRateLimitedReason))
		Expect(shutdown(ctx)).To(Succeed())
		spans := receiver.Where("toolgate.call", fmt.Sprintf("span-%d", perWindow))
		Expect(spans).To(HaveLen(1), "the RateLimited refusal has its decision span")
		Expect(testenv.SpanAttrs(spans[0])).To(And(HaveKeyWithValue("toolgate.decision", "deny"),
			HaveKeyWithValue("toolgate.reason", safetyv1alpha1.AuditLedgerRateLimitedReason)))
		clk.Step(time.Hour)
	})
})

// deniedIn creates, as the agent c, call prefix-i of a plan that does not exist in namespace ns,
// and returns the reason it was refused.
func deniedIn(ns, prefix string) func(c client.Client, i int) string {
	return func(c client.Client, i int) string {
		call := &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("%s-%d", prefix, i)},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "nope", Tool: "t", Step: "s"}}
		return agent.ReasonOf(agent.FromError(c.Create(ctx, call), "t"))
	}
}

// podPlan creates a plan of serviceAccount bound to pod and waits until it is locked, so the
// manager's cache (the webhook's) holds it.
func podPlan(ns, serviceAccount, pod string) {
	GinkgoHelper()
	plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: pod},
		Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: serviceAccount, PodName: pod,
			ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: "unrestricted"}}}
	Expect(k8sClient.Create(ctx, plan)).To(Succeed())
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(plan), plan)).To(Succeed())
		g.Expect(plan.Status.Snapshot).NotTo(BeNil())
	}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
}

// planReads is the API server's count of GET requests for AgentPlans, from its own metrics
// (apiserver_request_total, summed over its other labels).
func planReads() int {
	GinkgoHelper()
	raw, err := kubernetes.NewForConfigOrDie(cluster.Config).Discovery().RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
	Expect(err).NotTo(HaveOccurred())
	total := 0.0
	for line := range strings.Lines(string(raw)) {
		if !strings.HasPrefix(line, "apiserver_request_total{") || !strings.Contains(line, `resource="agentplans"`) ||
			!strings.Contains(line, `verb="GET"`) {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(line[strings.LastIndexByte(line, ' '):]), 64)
		Expect(err).NotTo(HaveOccurred())
		total += v
	}
	return int(total)
}
