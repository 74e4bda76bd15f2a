package controller_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/testenv"
)

// indexedClient is a client that reads from a cache of its own with the manager's field indexes,
// as a reconciler outside the manager needs to select by them.
func indexedClient() client.Client {
	GinkgoHelper()
	c, err := cache.New(cfg, cache.Options{Scheme: cluster.Scheme})
	Expect(err).NotTo(HaveOccurred())
	Expect(controller.SetupIndexes(ctx, c)).To(Succeed())
	cctx, cancel := context.WithCancel(ctx)
	DeferCleanup(cancel)
	go func() { _ = c.Start(cctx) }()
	Expect(c.WaitForCacheSync(cctx)).To(BeTrue())
	cl, err := client.New(cfg, client.Options{Scheme: cluster.Scheme, Cache: &client.CacheOptions{Reader: c}})
	Expect(err).NotTo(HaveOccurred())
	return cl
}

var _ = Describe("ended plans", func() {
	It("are deleted the AuditLedger's endedPlanTTLSeconds after their deadline and settled; a reporter's plan "+
		"waits out its window, a pod-bound plan its pod, and an active plan stays", func() {
		clk := clocktesting.NewFakeClock(aheadOfTheAPIServer())
		_, al, _ := withLedger(clk, "ended", 600)
		Expect(al.Spec.EndedPlanTTLSeconds).To(HaveValue(Equal(int64(604800))), "the CRD's default: seven days")

		ns := newNamespace()
		minute := new(int64(60))
		ended := func(name string, spec safetyv1alpha1.AgentPlanSpec) *safetyv1alpha1.AgentPlan {
			spec.ProfileRef, spec.ActiveDeadlineSeconds = spRef("unrestricted"), minute
			return ownPlan(ns, name, spec)
		}
		By("a plan without a cost reporter, one with, one bound to a pod, all active for a minute, and one active for a month")
		unreported := ended("unreported", safetyv1alpha1.AgentPlanSpec{})
		unreported.Spec.CostReporter = nil
		reported := ended("reported", safetyv1alpha1.AgentPlanSpec{})
		podBound := ended("podbound", safetyv1alpha1.AgentPlanSpec{PodName: "agent-pod"})
		month := ownPlan(ns, "month", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted"), ActiveDeadlineSeconds: new(int64(30 * 86400))})
		pod, err := testenv.AgentPod(ctx, cfg, cluster.Scheme, ns, podBound.Spec.ServiceAccountName, "agent-pod")
		Expect(err).NotTo(HaveOccurred())
		plans := []*safetyv1alpha1.AgentPlan{unreported, reported, podBound, month}
		for _, p := range plans {
			create(p)
		}
		Expect(unreported.Spec.CostReporter).To(BeNil())
		Expect(lockCondition(podBound, metav1.ConditionTrue, safetyv1alpha1.AgentPlanLockedReason).Status.Snapshot.PodUID).
			To(Equal(string(pod.Pod.UID)))
		var deadline time.Time // the latest of the minute-long plans' deadlines
		for _, p := range plans[:3] {
			Eventually(func(g Gomega) { // settled on deletion: the plan controller's finalizer is on it first
				got := &safetyv1alpha1.AgentPlan{}
				g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), got)).To(Succeed())
				g.Expect(controllerutil.ContainsFinalizer(got, safetyv1alpha1.PlanFinalizer)).To(BeTrue())
				if d := got.CreationTimestamp.Add(time.Minute); d.After(deadline) {
					deadline = d
				}
			}).Should(Succeed())
		}
		exists := func(p *safetyv1alpha1.AgentPlan) func() bool {
			return func() bool {
				return k8sClient.Get(ctx, client.ObjectKeyFromObject(p), &safetyv1alpha1.AgentPlan{}) == nil
			}
		}
		// ttl sets the AuditLedger's endedPlanTTLSeconds: a change of its spec has every plan looked at
		// again, which is how this spec makes the controller read the injected clock again.
		ttl := func(seconds int64) {
			GinkgoHelper()
			update(al, func(al *safetyv1alpha1.AuditLedger) { al.Spec.EndedPlanTTLSeconds = new(seconds) })
		}

		By("an hour after they ended, under the seven days: every plan stays")
		clk.SetTime(deadline.Add(time.Hour))
		ttl(604799)
		for _, p := range plans {
			Consistently(exists(p)).WithTimeout(2*time.Second).Should(BeTrue(), p.Name)
		}

		By("a TTL of an hour: the plan without a reporter goes; the reporter's plan too (its 15 minutes are over)")
		ttl(3600)
		Eventually(exists(unreported)).Should(BeFalse())
		Eventually(exists(reported)).Should(BeFalse())
		Consistently(exists(podBound)).WithTimeout(2*time.Second).Should(BeTrue(), "its pod still runs")
		Expect(exists(month)()).To(BeTrue(), "an active plan is never deleted")

		By("a pod of the same name created anew is not the plan's pod: the plan goes")
		Expect(k8sClient.Delete(ctx, pod.Pod, client.GracePeriodSeconds(0))).To(Succeed())
		Eventually(func() error {
			_, err := testenv.AgentPod(ctx, cfg, cluster.Scheme, ns, podBound.Spec.ServiceAccountName, "agent-pod")
			return err
		}).Should(Succeed())
		ttl(3599)
		Eventually(exists(podBound)).Should(BeFalse())
		Consistently(exists(month)).WithTimeout(2 * time.Second).Should(BeTrue())

		By("their spend settled into the project, once each")
		Eventually(func(g Gomega) {
			pp := &safetyv1alpha1.ProjectPolicy{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: controller.ProjectPolicyName}, pp)).To(Succeed())
			g.Expect(pp.Status.Settled).NotTo(BeNil())
			g.Expect(pp.Status.Settled.Plans).To(Equal(int64(3)))
		}).Should(Succeed())
	})

	It("with a cost reporter wait for its window after the deadline, however short the TTL", func() {
		clk := clocktesting.NewFakeClock(aheadOfTheAPIServer())
		_, al, _ := withLedger(clk, "ended-window", 600)
		update(al, func(al *safetyv1alpha1.AuditLedger) { al.Spec.EndedPlanTTLSeconds = new(int64(0)) })
		ns := newNamespace()
		p := plan(ns, "reported", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted"), ActiveDeadlineSeconds: new(int64(60))})
		create(p)
		Expect(p.Spec.CostReporter).NotTo(BeNil())
		deadline := p.CreationTimestamp.Add(time.Minute)
		Expect(controller.EndedPlanDue(p, 0)).To(BeTemporally("==", deadline.Add(15*time.Minute)))

		got := &safetyv1alpha1.AgentPlan{}
		clk.SetTime(deadline.Add(15*time.Minute - time.Second))
		update(al, func(al *safetyv1alpha1.AuditLedger) { al.Spec.EndedPlanTTLSeconds = new(int64(1)) })
		Consistently(func() error { return k8sClient.Get(ctx, client.ObjectKeyFromObject(p), got) }).
			WithTimeout(2*time.Second).Should(Succeed(), "a call admitted at the deadline may still be reported")
		clk.SetTime(deadline.Add(15 * time.Minute))
		update(al, func(al *safetyv1alpha1.AuditLedger) { al.Spec.EndedPlanTTLSeconds = new(int64(0)) })
		Eventually(func() bool {
			return apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), got))
		}).Should(BeTrue())
	})

	It("without a cost reporter wait out the reporter's window too: their agent may still report its calls finished", func() {
		clk := clocktesting.NewFakeClock(aheadOfTheAPIServer())
		dir, al, _ := withLedger(clk, "ended-agent-window", 600)
		ns := newNamespace()
		agent, err := testenv.Agent(ctx, cfg, cluster.Scheme, ns, "agent")
		Expect(err).NotTo(HaveOccurred())
		registerReadFile()
		// Active for a month by the API server's clock, so its call is admitted; the fake clock
		// passes its deadline.
		p := plan(ns, "quiet", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted"), ActiveDeadlineSeconds: new(int64(30 * 86400))})
		p.Spec.CostReporter = nil
		create(p)
		lockedSnapshot(p)
		call := submitCall(agent, ns, "quiet", "late", "a", "", "", nil)
		deadline := policy.PlanDeadline(p)
		Expect(controller.EndedPlanDue(p, 0)).To(BeTemporally("==", deadline.Add(policy.ReportWindow)))

		By("a minute after its deadline, at a TTL of 0: the plan stays, and its agent reports its call finished")
		clk.SetTime(deadline.Add(time.Minute))
		update(al, func(al *safetyv1alpha1.AuditLedger) { al.Spec.EndedPlanTTLSeconds = new(int64(0)) })
		Consistently(gone(p)).WithTimeout(2*time.Second).Should(BeFalse(), "a call admitted at the deadline may still be reported")
		reportStatus(agent, call, safetyv1alpha1.AgentToolCallStatus{Phase: safetyv1alpha1.CallPhaseSucceeded})
		Eventually(func() map[string][]map[string]any { return completions(dir, ns) }).
			Should(HaveKeyWithValue(string(call.UID), ConsistOf(HaveKeyWithValue("phase", "Succeeded"))))

		By("the window over: the plan goes")
		clk.SetTime(deadline.Add(policy.ReportWindow))
		update(al, func(al *safetyv1alpha1.AuditLedger) { al.Spec.EndedPlanTTLSeconds = new(int64(1)) })
		Eventually(gone(p)).Should(BeTrue())
	})

	It("are kept while the pod they were locked to runs, and deleted once it is gone", func() {
		ns := newNamespace()
		p := plan(ns, "bound", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted"), PodName: "agent-pod",
			ActiveDeadlineSeconds: new(int64(60))})
		pod, err := testenv.AgentPod(ctx, cfg, cluster.Scheme, ns, "agent", "agent-pod")
		Expect(err).NotTo(HaveOccurred())
		create(p)
		lockCondition(p, metav1.ConditionTrue, safetyv1alpha1.AgentPlanLockedReason)
		live := &safetyv1alpha1.AgentPlan{}
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), live)).To(Succeed())
		clk := clocktesting.NewFakeClock(controller.EndedPlanDue(live, controller.DefaultEndedPlanTTL))
		r := &controller.EndedPlanReconciler{Client: indexedClient(), APIReader: k8sClient, Clock: clk}
		req := ctrl.Request{NamespacedName: client.ObjectKeyFromObject(live)}

		res, err := r.Reconcile(ctx, req)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.RequeueAfter).To(BeNumerically(">", 0), "looked at again while its pod runs")
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), live)).To(Succeed())
		Expect(live.DeletionTimestamp).To(BeNil())

		Expect(k8sClient.Delete(ctx, pod.Pod, client.GracePeriodSeconds(0))).To(Succeed())
		Eventually(func() bool {
			return apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(pod.Pod), &corev1.Pod{}))
		}).Should(BeTrue())
		res, err = r.Reconcile(ctx, req)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.RequeueAfter).To(BeZero())
		Eventually(func() bool {
			return apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), live))
		}).Should(BeTrue())
	})
})

var _ = Describe("ended plans of a pod that runs one plan after another", func() {
	It("go while the pod runs a later plan, which holds the pod: the pod never takes its ServiceAccount's pod-less plan", func() {
		clk := clocktesting.NewFakeClock(aheadOfTheAPIServer())
		_, al, _ := withLedger(clk, "ended-pod-history", 600)
		ns := newNamespace()
		registerReadFile()
		pod, err := testenv.AgentPod(ctx, cfg, cluster.Scheme, ns, "agent", "agent-pod")
		Expect(err).NotTo(HaveOccurred())
		// createWhenAllowed creates p once the webhook takes it: it refuses a plan beside an active
		// plan of the same pod, or a pod-less one beside any (PlanConflict), by the real clock.
		createWhenAllowed := func(p *safetyv1alpha1.AgentPlan) {
			GinkgoHelper()
			Eventually(func() error { return k8sClient.Create(ctx, p.DeepCopy()) }).Should(Succeed())
			DeferCleanup(func() { _ = k8sClient.Delete(ctx, p) })
			Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), p)).To(Succeed())
		}
		By("two plans of the pod, one after the other, each active for a second, then a pod-less plan of its ServiceAccount")
		bound := func(name string) *safetyv1alpha1.AgentPlan {
			return plan(ns, name, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted"), PodName: "agent-pod",
				ActiveDeadlineSeconds: new(int64(1))})
		}
		first, latest := bound("first"), bound("latest")
		createWhenAllowed(first)
		lockCondition(first, metav1.ConditionTrue, safetyv1alpha1.AgentPlanLockedReason)
		createWhenAllowed(latest)
		lockCondition(latest, metav1.ConditionTrue, safetyv1alpha1.AgentPlanLockedReason)
		podless := plan(ns, "podless", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted"), ActiveDeadlineSeconds: new(int64(30 * 86400))})
		createWhenAllowed(podless)
		lockCondition(podless, metav1.ConditionTrue, safetyv1alpha1.AgentPlanLockedReason)

		By("an hour after they ended, at a TTL of an hour: the pod's earlier plan goes, its latest stays while the pod runs")
		clk.SetTime(latest.CreationTimestamp.Add(time.Second + time.Hour))
		update(al, func(al *safetyv1alpha1.AuditLedger) { al.Spec.EndedPlanTTLSeconds = new(int64(3600)) })
		Eventually(gone(first)).Should(BeTrue(), "a later plan of its pod holds the pod")
		Consistently(gone(latest)).WithTimeout(2*time.Second).Should(BeFalse(), "the pod's latest plan holds it while it runs")

		By("the pod still takes no other plan of its ServiceAccount")
		hop := &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "hop"},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "podless", Tool: "read-file", Step: "a",
				Arguments: safetyv1alpha1.ToolArguments{Paths: []string{"src/a.go"}}}}
		err = pod.Client.Create(ctx, hop)
		Expect(err).To(MatchError(ContainSubstring("AgentIdentityMismatch")))
		Expect(err).To(MatchError(ContainSubstring("has its own plan latest")))

		By("the pod gone: its latest plan goes too; the pod-less plan, active, stays")
		Expect(k8sClient.Delete(ctx, pod.Pod, client.GracePeriodSeconds(0))).To(Succeed())
		Eventually(gone(pod.Pod)).Should(BeTrue())
		update(al, func(al *safetyv1alpha1.AuditLedger) { al.Spec.EndedPlanTTLSeconds = new(int64(3599)) })
		Eventually(gone(latest)).Should(BeTrue())
		Consistently(gone(podless)).WithTimeout(2 * time.Second).Should(BeFalse())
	})
})
