package controller_test

import (
	"encoding/json"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

var _ = Describe("AgentPlan locking", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace() })

	It("locks the spec's default profile with Default provenance when no level names one", func() {
		// The samples' default AutomationProfile may exist in other tests' runs; this suite owns none.
		p := ownPlan(ns, "p", safetyv1alpha1.AgentPlanSpec{})
		create(p)
		snap := lockedSnapshot(p)
		Expect(snap.Provenance).To(Equal(safetyv1alpha1.ProvenanceDefault))
		Expect(snap.ProfileName).To(BeEmpty())
		Expect(*snap.Safety.RequireSandbox).To(BeTrue())
		Expect(*snap.Safety.RequireCheckpoints).To(BeTrue())
		Expect(*snap.Safety.MaxRetriesPerStep).To(Equal(int32(3)))
		Expect(snap.Epoch).To(Equal(int32(1)))
		Expect(snap.Hash).To(HavePrefix("sha256:"))
	})

	It("takes each level in precedence order: plan > action > project > global", func() {
		create(safetyProfile(ns+"-plan", safetyv1alpha1.SafetyProfileSpec{MaxRetriesPerStep: new(int32(1))}))
		create(safetyProfile(ns+"-action", safetyv1alpha1.SafetyProfileSpec{MaxRetriesPerStep: new(int32(2))}))
		create(safetyProfile(ns+"-project", safetyv1alpha1.SafetyProfileSpec{MaxRetriesPerStep: new(int32(4))}))
		global := automationProfile(ns+"-global", safetyv1alpha1.AutomationProfileSpec{
			Level: safetyv1alpha1.AutonomyLevelYolo, Safety: &safetyv1alpha1.SafetyProfileSpec{MaxRetriesPerStep: new(int32(5))},
		})
		global.Annotations = map[string]string{safetyv1alpha1.DefaultAutomationProfileAnnotation: "true"}
		create(global)

		pGlobal := ownPlan(ns, "global", safetyv1alpha1.AgentPlanSpec{})
		create(pGlobal)
		snap := lockedSnapshot(pGlobal)
		Expect(snap.Provenance).To(Equal(safetyv1alpha1.ProvenanceGlobal))
		Expect(snap.ProfileName).To(Equal(ns + "-global"))
		Expect(snap.Level).To(Equal(safetyv1alpha1.AutonomyLevelYolo))
		Expect(*snap.Safety.MaxRetriesPerStep).To(Equal(int32(5)))

		create(&safetyv1alpha1.ProjectPolicy{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "project"},
			Spec: safetyv1alpha1.ProjectPolicySpec{
				ProfileRef: spRef(ns + "-project"),
				Actions: []safetyv1alpha1.ProjectAction{
					{Name: "fix", ProfileRef: spRef(ns + "-action")},
					{Name: "plain"},
				},
			},
		})
		cases := []struct {
			plan       safetyv1alpha1.AgentPlanSpec
			provenance safetyv1alpha1.Provenance
			retries    int32
		}{
			{safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(ns + "-plan"), Action: "fix"}, safetyv1alpha1.ProvenancePlan, 1},
			{safetyv1alpha1.AgentPlanSpec{Action: "fix"}, safetyv1alpha1.ProvenanceAction, 2},
			{safetyv1alpha1.AgentPlanSpec{Action: "plain"}, safetyv1alpha1.ProvenanceProject, 4},
			{safetyv1alpha1.AgentPlanSpec{}, safetyv1alpha1.ProvenanceProject, 4},
		}
		for i, c := range cases {
			p := ownPlan(ns, "level-"+string(rune('a'+i)), c.plan)
			create(p)
			snap := lockedSnapshot(p)
			Expect(snap.Provenance).To(Equal(c.provenance), "case %d", i)
			Expect(*snap.Safety.MaxRetriesPerStep).To(Equal(c.retries), "case %d", i)
			Expect(snap.Project).NotTo(BeNil())
			Expect(snap.Sources).To(ContainElement(HaveField("Kind", "ProjectPolicy")))
		}
	})

	It("gives equal effective profiles equal hashes, and different ones different hashes", func() {
		create(safetyProfile(ns+"-a", safetyv1alpha1.SafetyProfileSpec{AllowedSkillCategories: []string{"code", "test"}}))
		create(safetyProfile(ns+"-b", safetyv1alpha1.SafetyProfileSpec{AllowedSkillCategories: []string{"test", "code"}}))
		create(safetyProfile(ns+"-c", safetyv1alpha1.SafetyProfileSpec{AllowedSkillCategories: []string{"code"}}))
		a, b, c := ownPlan(ns, "a", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(ns + "-a")}),
			ownPlan(ns, "b", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(ns + "-b")}),
			ownPlan(ns, "c", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(ns + "-c")})
		create(a)
		create(b)
		create(c)
		Expect(lockedSnapshot(a).Hash).To(Equal(lockedSnapshot(b).Hash))
		Expect(lockedSnapshot(a).Hash).NotTo(Equal(lockedSnapshot(c).Hash))
	})

	It("keeps a locked snapshot byte-identical when its profile is edited or deleted; new plans get the new profile", func() {
		sp := safetyProfile(ns+"-edit", safetyv1alpha1.SafetyProfileSpec{MaxCostPerPlan: money("5")})
		create(sp)
		p1 := ownPlan(ns, "before", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(sp.Name)})
		create(p1)
		snap := lockedSnapshot(p1)
		locked, err := json.Marshal(snap)
		Expect(err).NotTo(HaveOccurred())

		update(sp, func(sp *safetyv1alpha1.SafetyProfile) {
			sp.Spec.MaxCostPerPlan = money("1")
			sp.Spec.AllowUnsafeTools = new(true)
		})
		p2 := ownPlan(ns, "after", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(sp.Name)})
		create(p2)
		snap2 := lockedSnapshot(p2)
		Expect(snap2.Safety.MaxCostPerPlan.String()).To(Equal("1"))
		Expect(snap2.Hash).NotTo(Equal(snap.Hash))

		Expect(k8sClient.Delete(ctx, sp)).To(Succeed())
		Consistently(func(g Gomega) {
			got := &safetyv1alpha1.AgentPlan{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(p1), got)).To(Succeed())
			now, err := json.Marshal(got.Status.Snapshot)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(string(now)).To(Equal(string(locked)))
		}).WithTimeout(3 * time.Second).Should(Succeed())
	})

	It("refuses to rewrite a locked snapshot through the status subresource", func() {
		p := ownPlan(ns, "tamper", safetyv1alpha1.AgentPlanSpec{})
		create(p)
		lockedSnapshot(p)
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), p)).To(Succeed())
		p.Status.Snapshot.Safety.AllowUnsafeTools = new(true)
		err := k8sClient.Status().Update(ctx, p)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("status.snapshot"))
		Expect(err.Error()).To(ContainSubstring("immutable"))
	})

	It("leaves a plan naming a missing profile unlocked, saying why, and locks it once the profile appears", func() {
		p := ownPlan(ns, "waiting", safetyv1alpha1.AgentPlanSpec{ProfileRef: apRef(ns + "-missing")})
		create(p)
		got := &safetyv1alpha1.AgentPlan{}
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), got)).To(Succeed())
			cond := meta.FindStatusCondition(got.Status.Conditions, safetyv1alpha1.AgentPlanLockedCondition)
			g.Expect(cond).NotTo(BeNil())
			g.Expect(cond.Status).To(Equal(metav1.ConditionFalse))
			g.Expect(cond.Reason).To(Equal(safetyv1alpha1.AgentPlanProfileNotFoundReason))
			g.Expect(cond.Message).To(ContainSubstring(`AutomationProfile "` + ns + `-missing"`))
			g.Expect(cond.Message).To(ContainSubstring("spec.profileRef"))
		}).Should(Succeed())
		Expect(got.Status.Snapshot).To(BeNil())

		create(automationProfile(ns+"-missing", safetyv1alpha1.AutomationProfileSpec{SafetyProfileRef: &safetyv1alpha1.SafetyProfileReference{Name: "sandboxed"}}))
		snap := lockedSnapshot(p)
		Expect(snap.Provenance).To(Equal(safetyv1alpha1.ProvenancePlan))
		Expect(snap.Sources).To(ConsistOf(HaveField("Kind", "AutomationProfile"), HaveField("Kind", "SafetyProfile")))
	})

	It("leaves a plan naming an unknown action unlocked", func() {
		p := ownPlan(ns, "no-action", safetyv1alpha1.AgentPlanSpec{Action: "deploy"})
		create(p)
		Eventually(func(g Gomega) {
			got := &safetyv1alpha1.AgentPlan{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), got)).To(Succeed())
			cond := meta.FindStatusCondition(got.Status.Conditions, safetyv1alpha1.AgentPlanLockedCondition)
			g.Expect(cond).NotTo(BeNil())
			g.Expect(cond.Reason).To(Equal(safetyv1alpha1.AgentPlanActionNotFoundReason))
		}).Should(Succeed())
	})

	It("re-locks only when the relock annotation changes, incrementing the epoch", func() {
		sp := safetyProfile(ns+"-relock", safetyv1alpha1.SafetyProfileSpec{MaxRetriesPerStep: new(int32(1))})
		create(sp)
		p := ownPlan(ns, "relock", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(sp.Name)})
		create(p)
		first := lockedSnapshot(p)
		update(sp, func(sp *safetyv1alpha1.SafetyProfile) { sp.Spec.MaxRetriesPerStep = new(int32(7)) })
		update(p, func(p *safetyv1alpha1.AgentPlan) {
			p.Annotations = map[string]string{safetyv1alpha1.RelockAnnotation: "ticket-42"}
		})
		Eventually(func(g Gomega) {
			got := &safetyv1alpha1.AgentPlan{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), got)).To(Succeed())
			g.Expect(got.Status.Snapshot.Epoch).To(Equal(first.Epoch + 1))
			g.Expect(*got.Status.Snapshot.Safety.MaxRetriesPerStep).To(Equal(int32(7)))
			g.Expect(got.Status.Snapshot.RelockToken).To(Equal("ticket-42"))
			cond := meta.FindStatusCondition(got.Status.Conditions, safetyv1alpha1.AgentPlanLockedCondition)
			g.Expect(cond.Reason).To(Equal(safetyv1alpha1.AgentPlanRelockedReason))
		}).Should(Succeed())
	})
})
