package v1alpha1_test

import (
	"fmt"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
)

// Cases an outside tester writes from the texts of issues 6, 8, 13, 14 and 15 alone: respellings
// and races of their examples, through the real API server with the agent's own token, each next
// to its near miss. Cases the other files already hold are not repeated here.
var _ = Describe("Outside acceptance: respellings and races of the issues' examples", func() {
	var p *project
	BeforeEach(func() { p = newProject(nil) })

	// lockOutcome waits until the plan's Locked condition is settled (True, or False for a reason
	// other than waiting for its Pod or profile, such as the built-ins at the suite's start) and
	// returns its status and reason.
	lockOutcome := func(name string) (metav1.ConditionStatus, string) {
		GinkgoHelper()
		var c *metav1.Condition
		Eventually(func(g Gomega) {
			plan := &safetyv1alpha1.AgentPlan{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: name}, plan)).To(Succeed())
			c = meta.FindStatusCondition(plan.Status.Conditions, safetyv1alpha1.AgentPlanLockedCondition)
			g.Expect(c).NotTo(BeNil())
			g.Expect(c.Reason).NotTo(BeElementOf(safetyv1alpha1.AgentPlanPodNotFoundReason, safetyv1alpha1.AgentPlanProfileNotFoundReason))
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
		return c.Status, c.Reason
	}

	DescribeTable("issue 14: of plans of one ServiceAccount, bound the same way and created at once, exactly one locks",
		func(pod string) {
			agent := p.agent
			if pod != "" {
				agent = p.agentPod(pod).Client
			}
			const n = 6
			created := make([]error, n)
			var wg sync.WaitGroup
			for i := range created {
				wg.Go(func() {
					created[i] = k8sClient.Create(ctx, &safetyv1alpha1.AgentPlan{
						ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: fmt.Sprintf("racer-%d", i)},
						Spec:       safetyv1alpha1.AgentPlanSpec{ServiceAccountName: agentSA, ProfileRef: unrestricted, PodName: pod}})
				})
			}
			wg.Wait()
			var locked []string
			for i, err := range created {
				name := fmt.Sprintf("racer-%d", i)
				if err != nil {
					mustRefusePlan(err, webhookv1alpha1.ReasonPlanConflict, "spec.podName")
					continue
				}
				status, reason := lockOutcome(name)
				if status == metav1.ConditionTrue {
					locked = append(locked, name)
					continue
				}
				Expect(reason).To(Equal(safetyv1alpha1.AgentPlanConflictReason), "plan %s", name)
			}
			Expect(locked).To(HaveLen(1), "the agent must never have two plans to choose between")

			By("the agent's calls: admitted under the one locked plan, refused under every other")
			awaitWebhookSees(agent, p.call(locked[0], p.tools[reader], "probe", "probe/a.go"))
			mustAdmit(submit(agent, p.call(locked[0], p.tools[reader], "build", "src/a.go")))
			for i, err := range created {
				if name := fmt.Sprintf("racer-%d", i); err == nil && name != locked[0] {
					Expect(submit(agent, p.call(name, p.tools[reader], "build", "src/a.go"))).To(HaveOccurred(), "plan %s", name)
				}
			}
		},
		Entry("plans without a pod", ""),
		Entry("plans of one pod", "agent-pod"),
	)

	It("issue 14: bounds the distinct steps of a plan by maxStepsPerPlan when new steps arrive at once", func() {
		ref := p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxStepsPerPlan = new(int32(3)) }))
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: ref})
		errs := p.submitInParallel(planName, p.tools[reader], 12)
		Expect(admittedAmong(errs, policy.ReasonStepLimitExceeded, "maxStepsPerPlan 3")).To(Equal(3))
		Expect(storedPlan(counters, p.ns, planName).Status.Usage.StepAttempts).To(HaveLen(3))

		By("the near miss: a step already counted is retried")
		steps := storedPlan(counters, p.ns, planName).Status.Usage.StepAttempts
		for step := range steps {
			mustAdmit(submit(p.agent, p.call(planName, p.tools[reader], step, "src/retry.go")))
			break
		}
	})

	It("issue 14: counts a reported cost once, however the reporter spells the same amount", func() {
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted, CostReporter: trustAgent()})
		call := p.call(planName, p.tools[reader], "a", "src/a.go")
		mustAdmit(submit(p.agent, call))
		Expect(report(p.agent, call, safetyv1alpha1.CallPhaseRunning, "0.7")).To(Succeed())
		for _, same := range []string{"700m", "0.70", "7e-1", "700000000n"} {
			Expect(report(p.agent, call, safetyv1alpha1.CallPhaseRunning, same)).To(Succeed(), "cost %s", same)
		}
		u := storedPlan(counters, p.ns, planName).Status.Usage
		Expect(u.AccumulatedCost).To(Equal("0.7"))
		Expect(u.ReportedCost).To(Equal("0.7"))

		By("a lower amount in any spelling is refused, naming status.cost")
		for _, lower := range []string{"699m", "0.69999", "6e-1"} {
			err := report(p.agent, call, safetyv1alpha1.CallPhaseRunning, lower)
			mustDeny(err, webhookv1alpha1.ReasonInvalidUpdate, "cost cannot decrease")
			Expect(causeOf(err).Field).To(Equal("status.cost"))
		}
		By("the near miss: a higher amount counts the difference")
		Expect(report(p.agent, call, safetyv1alpha1.CallPhaseSucceeded, "1.2")).To(Succeed())
		Expect(storedPlan(counters, p.ns, planName).Status.Usage.AccumulatedCost).To(Equal("1.2"))
	})

	It("issue 6: a dry-run report is judged like a report and changes no counter", func() {
		meter := p.newAgent("meter")
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted,
			CostReporter: &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount, Name: "meter"}})
		call := p.call(planName, p.tools[reader], "a", "src/a.go")
		mustAdmit(submit(p.agent, call))
		dryReport := func(c client.Client, cost string) error {
			got := &safetyv1alpha1.AgentToolCall{}
			Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(call), got)).To(Succeed())
			got.Status.Phase, got.Status.Cost = safetyv1alpha1.CallPhaseSucceeded, money(cost)
			return c.Status().Update(ctx, got, client.DryRunAll)
		}
		mustDeny(dryReport(p.agent, "5"), webhookv1alpha1.ReasonInvalidUpdate, "only plan "+planName+"'s cost reporter")
		Expect(dryReport(meter, "5")).To(Succeed())
		Expect(storedPlan(counters, p.ns, planName).Status.Usage.AccumulatedCost).To(BeElementOf("", "0"))

		By("the near miss: the same report, not dry, counts once")
		Expect(report(meter, call, safetyv1alpha1.CallPhaseSucceeded, "5")).To(Succeed())
		Expect(storedPlan(counters, p.ns, planName).Status.Usage.AccumulatedCost).To(Equal("5"))
	})

	DescribeTable("issue 6: Warn and Audit soften the engine's verdicts, never who may ask, which plan or which tool",
		func(mode safetyv1alpha1.EnforcementMode) {
			ref := p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) { s.EnforcementMode = mode }))
			p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: ref})
			stranger := p.newAgent("stranger")
			mustDeny(submit(stranger, p.call(planName, p.tools[reader], "build", "src/a.go")), webhookv1alpha1.ReasonAgentIdentityMismatch)
			mustDeny(submit(p.agent, p.call(planName, p.ns+"-unregistered", "build", "src/a.go")), webhookv1alpha1.ReasonToolNotRegistered)
			mustDeny(submit(p.agent, p.call("no-such-plan", p.tools[reader], "build", "src/a.go")), webhookv1alpha1.ReasonPlanNotFound)
			Expect(p.storedCalls()).To(BeEmpty())

			By("the near miss: the engine's verdict on the plan's own agent is softened")
			mustAdmit(submit(p.agent, p.call(planName, p.tools[unsafeTool], "build", "src/a.go")))
		},
		Entry("Warn", safetyv1alpha1.EnforcementModeWarn),
		Entry("Audit", safetyv1alpha1.EnforcementModeAudit),
	)

	DescribeTable("issue 14: allowedProfiles caps the profile's kind as well as its name",
		func(kind safetyv1alpha1.ProfileKind) {
			name := p.ns + "-loose"
			createCluster(&safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: profileWith(nil)})
			createCluster(&safetyv1alpha1.AutomationProfile{ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec: safetyv1alpha1.AutomationProfileSpec{SafetyProfileRef: &safetyv1alpha1.SafetyProfileReference{Name: safety.BuiltinUnrestricted}}})
			Expect(k8sClient.Create(ctx, &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "project"},
				Spec: safetyv1alpha1.ProjectPolicySpec{AllowedProfiles: []safetyv1alpha1.ProfileRef{*spRef(name)}}})).To(Succeed())
			plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "respelled"},
				Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: agentSA, ProfileRef: &safetyv1alpha1.ProfileRef{Kind: kind, Name: name}}}
			mustRefusePlan(k8sClient.Create(ctx, plan.DeepCopy()), webhookv1alpha1.ReasonProfileNotAllowed, "spec.profileRef",
				"AutomationProfile/"+name+" is not among")

			By("the near miss: the SafetyProfile the list names")
			plan.Spec.ProfileRef = spRef(name)
			Expect(k8sClient.Create(ctx, plan)).To(Succeed())
		},
		Entry("the other kind named", safetyv1alpha1.ProfileKindAutomationProfile),
		Entry("the kind left to its default", safetyv1alpha1.ProfileKind("")),
	)

	It("issue 6: a status report cannot change the spec, and a report's spec change is refused as immutable", func() {
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted})
		call := p.call(planName, p.tools[reader], "build", "src/a.go")
		mustAdmit(submit(p.agent, call))
		changed := call.DeepCopy()
		changed.Spec.Step = "other"
		changed.Status.Phase = safetyv1alpha1.CallPhaseRunning
		Expect(p.agent.Status().Update(ctx, changed)).To(Succeed(), "the status subresource ignores the spec")
		got := &safetyv1alpha1.AgentToolCall{}
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(call), got)).To(Succeed())
		Expect(got.Spec.Step).To(Equal("build"))
		Expect(got.Status.Phase).To(Equal(safetyv1alpha1.CallPhaseRunning))
		By("the agent has no right to update the call itself")
		got.Spec.Step = "other"
		Expect(apierrors.IsForbidden(p.agent.Update(ctx, got))).To(BeTrue())
	})
})
