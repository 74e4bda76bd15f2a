package v1alpha1_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/internal/testenv"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
)

// agentPod starts (as an object; nothing runs) a Pod of the project's ServiceAccount agentSA and
// returns the agent inside it: a client whose token is bound to the Pod.
func (p *project) agentPod(pod string) *testenv.PodAgent {
	GinkgoHelper()
	a, err := testenv.AgentPod(ctx, cluster.Config, cluster.Scheme, p.ns, agentSA, pod)
	Expect(err).NotTo(HaveOccurred())
	return a
}

// tokenBoundToNoPod gives the agent of pod a what the `edit` role would (creating its
// ServiceAccount's tokens) and returns a client with a token it asked for bound to no pod: how an
// agent in a pod would try to pass for an agent without one.
func (p *project) tokenBoundToNoPod(a *testenv.PodAgent) client.Client {
	GinkgoHelper()
	cs, err := kubernetes.NewForConfig(cluster.Config)
	Expect(err).NotTo(HaveOccurred())
	_, err = cs.RbacV1().Roles(p.ns).Create(ctx, &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "own-token"},
		Rules: []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"serviceaccounts/token"}, Verbs: []string{"create"}, ResourceNames: []string{agentSA}}}},
		metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	_, err = cs.RbacV1().RoleBindings(p.ns).Create(ctx, &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "own-token"},
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "own-token"},
		Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Namespace: p.ns, Name: agentSA}}}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	agentCS, err := kubernetes.NewForConfig(a.Config)
	Expect(err).NotTo(HaveOccurred())
	var tr *authenticationv1.TokenRequest
	Eventually(func() error { // until the RoleBinding is in the authorizer's cache
		tr, err = agentCS.CoreV1().ServiceAccounts(p.ns).CreateToken(ctx, agentSA, &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
		return err
	}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
	cfg := rest.AnonymousClientConfig(a.Config)
	cfg.BearerToken = tr.Status.Token
	c, err := client.New(cfg, client.Options{Scheme: cluster.Scheme})
	Expect(err).NotTo(HaveOccurred())
	return c
}

// planFor creates a plan and waits until it is locked and the webhook's cache shows it (and every
// tool) to c, the agent that will use it.
func (p *project) planFor(c client.Client, name string, spec safetyv1alpha1.AgentPlanSpec) *safetyv1alpha1.AgentPlan {
	GinkgoHelper()
	plan := p.unlockedPlan(name, spec)
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(plan), plan)).To(Succeed())
		g.Expect(meta.IsStatusConditionTrue(plan.Status.Conditions, safetyv1alpha1.AgentPlanLockedCondition)).To(BeTrue())
	}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
	for _, tool := range p.tools {
		awaitWebhookSees(c, p.call(name, tool, "probe", "probe/"+tool))
	}
	return plan
}

// mustRefusePlan asserts that err is the AgentPlan webhook's refusal with reason, naming field.
func mustRefusePlan(err error, reason, field string, phrases ...string) {
	GinkgoHelper()
	Expect(err).To(HaveOccurred(), "expected a %s refusal, but the plan was accepted", reason)
	Expect(apierrors.IsForbidden(err)).To(BeTrue(), "%v", err)
	cause := causeOf(err)
	Expect(string(cause.Type)).To(Equal(reason), "%v", err)
	Expect(cause.Field).To(Equal(field), "%v", err)
	for _, phrase := range phrases {
		Expect(err.Error()).To(ContainSubstring(phrase))
	}
}

// condition waits for a plan's condition to have status and reason.
// onlyTheAgentsDenial waits for the plan's agent's one refusal to be counted and expects no other:
// strangers' refusals were counted (if at all) before the agent's, so once the agent's shows,
// theirs would too.
func onlyTheAgentsDenial(ns, name string) {
	GinkgoHelper()
	plan := &safetyv1alpha1.AgentPlan{}
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, plan)).To(Succeed())
		g.Expect(plan.Status.Usage.Denials).To(BeNumerically(">=", 1))
	}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
	Expect(plan.Status.Usage.Denials).To(Equal(int64(1)))
}

func condition(ns, name, typ string, status metav1.ConditionStatus, reason string) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		plan := &safetyv1alpha1.AgentPlan{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, plan)).To(Succeed())
		c := meta.FindStatusCondition(plan.Status.Conditions, typ)
		g.Expect(c).NotTo(BeNil())
		g.Expect(c.Status).To(Equal(status))
		g.Expect(c.Reason).To(Equal(reason))
	}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
}

var unrestricted = spRef(safety.BuiltinUnrestricted)

var _ = Describe("Plan binding: the agent never chooses its plan", func() {
	It("admits a plan bound to a pod only from a token bound to that pod", func() {
		p := newProject(nil)
		mine, other := p.agentPod("agent-pod"), p.agentPod("other-pod")
		p.planFor(mine.Client, planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted, PodName: "agent-pod"})
		plan := &safetyv1alpha1.AgentPlan{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: planName}, plan)).To(Succeed())
		Expect(plan.Status.Snapshot.PodUID).To(Equal(string(mine.Pod.UID)), "the lock records the pod's UID")

		mustAdmit(submit(mine.Client, p.call(planName, p.tools[reader], "build", "src/a.go")))
		mustDeny(submit(other.Client, p.call(planName, p.tools[reader], "build", "src/b.go")),
			webhookv1alpha1.ReasonAgentIdentityMismatch, "bound to pod agent-pod", "not pod other-pod")
		mustDeny(submit(p.agent, p.call(planName, p.tools[reader], "build", "src/c.go")),
			webhookv1alpha1.ReasonAgentIdentityMismatch, "a token bound to no pod")
	})

	It("takes a report on a pod-bound plan's call only from that pod", func() {
		p := newProject(nil)
		mine, other := p.agentPod("agent-pod"), p.agentPod("other-pod")
		p.planFor(mine.Client, planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted, PodName: "agent-pod"})
		call := p.call(planName, p.tools[reader], "build", "src/a.go")
		mustAdmit(submit(mine.Client, call))
		mustDeny(report(other.Client, call, safetyv1alpha1.CallPhaseFailed, ""),
			webhookv1alpha1.ReasonAgentIdentityMismatch, "bound to pod agent-pod", "not pod other-pod")
		mustDeny(report(p.agent, call, safetyv1alpha1.CallPhaseFailed, ""),
			webhookv1alpha1.ReasonAgentIdentityMismatch, "a token bound to no pod")
		By("the near miss: the plan's own pod reports")
		Expect(report(mine.Client, call, safetyv1alpha1.CallPhaseSucceeded, "")).To(Succeed())
	})

	It("does not count another ServiceAccount's refused calls in the plan's denials", func() {
		p := newProject(nil)
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted})
		stranger := p.newAgent("stranger")
		for i := range 3 {
			mustDeny(submit(stranger, p.call(planName, p.tools[reader], "build", fmt.Sprintf("src/%d.go", i))),
				webhookv1alpha1.ReasonAgentIdentityMismatch, "accepts calls only from")
		}
		By("the near miss: the plan's own agent's refusal is counted")
		mustDeny(submit(p.agent, p.call(planName, p.tools[reader], "build", "/etc/shadow")), "ToolAccessDenied")
		onlyTheAgentsDenial(p.ns, planName)
	})

	It("does not count a stranger's refused calls in the plan's denials when their records fail", func() {
		p := newProject(nil)
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted})
		stranger := p.newAgent("stranger")
		broken, err := ledger.Open(audit.Config(nil, GinkgoT().TempDir(), "broken", nil))
		Expect(err).NotTo(HaveOccurred())
		Expect(broken.Close()).To(Succeed())
		healthy := decisions.use(&audit.Log{Journal: broken})
		for i := range 3 {
			mustDeny(submit(stranger, p.call(planName, p.tools[reader], "build", fmt.Sprintf("src/%d.go", i))),
				webhookv1alpha1.ReasonLedgerUnavailable)
		}
		By("the near miss: the plan's own agent's refusal, also unrecorded, is counted")
		mustDeny(submit(p.agent, p.call(planName, p.tools[reader], "build", "/etc/shadow")), webhookv1alpha1.ReasonLedgerUnavailable)
		decisions.use(healthy)
		onlyTheAgentsDenial(p.ns, planName)
	})

	It("takes no report on a call of an earlier plan of the same name", func() {
		p := newProject(nil)
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted})
		old := p.call(planName, p.tools[reader], "build", "src/a.go")
		mustAdmit(submit(p.agent, old))
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(old), old)).To(Succeed())

		By("deleting the plan and making it again under its name, in a later second than the call")
		Expect(k8sClient.Delete(ctx, &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: planName}})).To(Succeed())
		Eventually(func() bool {
			return apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: planName}, &safetyv1alpha1.AgentPlan{}))
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(BeTrue())
		Eventually(func() bool { return time.Now().Truncate(time.Second).After(old.CreationTimestamp.Time) }).Should(BeTrue())
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted})
		mustDeny(report(p.agent, old, safetyv1alpha1.CallPhaseFailed, ""),
			webhookv1alpha1.ReasonAgentIdentityMismatch, "belongs to an earlier plan")

		By("the near miss: a call of the new plan")
		mine := p.call(planName, p.tools[reader], "build", "src/b.go")
		mustAdmit(submit(p.agent, mine))
		Expect(report(p.agent, mine, safetyv1alpha1.CallPhaseFailed, "")).To(Succeed())
	})

	It("does not take a pod recreated under the plan's pod name for the plan's pod", func() {
		p := newProject(nil)
		first := p.agentPod("agent-pod")
		p.planFor(first.Client, planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted, PodName: "agent-pod"})
		mustAdmit(submit(first.Client, p.call(planName, p.tools[reader], "build", "src/a.go")))

		By("deleting the pod and creating another under its name, with a token bound to the new one")
		Expect(k8sClient.Delete(ctx, first.Pod, client.GracePeriodSeconds(0))).To(Succeed())
		Eventually(func() bool {
			return apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(first.Pod), &corev1.Pod{}))
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(BeTrue())
		second := p.agentPod("agent-pod")
		Expect(second.Pod.UID).NotTo(Equal(first.Pod.UID))
		mustDeny(submit(second.Client, p.call(planName, p.tools[reader], "build", "src/b.go")),
			webhookv1alpha1.ReasonAgentIdentityMismatch, "was recreated")
	})

	It("refuses a pod-less plan beside its ServiceAccount's pod-bound plan, so a token bound to no pod finds no plan", func() {
		p := newProject(nil)
		bound := p.agentPod("bound-pod")
		p.planFor(bound.Client, "own", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinReadOnly), PodName: "bound-pod"})
		shared := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "shared"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: agentSA, ProfileRef: unrestricted}}
		mustRefusePlan(k8sClient.Create(ctx, shared.DeepCopy()), webhookv1alpha1.ReasonPlanConflict, "spec.podName",
			"plan own is an active plan of ServiceAccount "+agentSA+", bound to pod bound-pod", "bound to no pod must be its ServiceAccount's only active plan")

		By("the pod's agent, given the right to mint its ServiceAccount's tokens, asks for one bound to no pod: no plan takes it")
		podless := p.tokenBoundToNoPod(bound)
		mustDeny(submit(podless, p.call("own", p.tools[reader], "build", "src/a.go")),
			webhookv1alpha1.ReasonAgentIdentityMismatch, "accepts calls only from a token bound to pod bound-pod, not a token bound to no pod")
		mustAdmit(submit(bound.Client, p.call("own", p.tools[reader], "build", "src/b.go")))

		By("the near miss: a pod-less plan of another ServiceAccount")
		other := shared.DeepCopy()
		other.Name, other.Spec.ServiceAccountName = "others", "other"
		Expect(k8sClient.Create(ctx, other)).To(Succeed())
	})

	It("holds a pod to its own plan after that plan ends, until it is deleted", func() {
		p := newProject(nil)
		bound := p.agentPod("bound-pod")
		p.unlockedPlan("own", safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted, PodName: "bound-pod", ActiveDeadlineSeconds: new(int64(1))})
		condition(p.ns, "own", safetyv1alpha1.AgentPlanActiveCondition, metav1.ConditionFalse, safetyv1alpha1.AgentPlanDeadlineExceededReason)
		By("a pod-less plan of the ServiceAccount, admitted once the pod's plan has ended")
		p.plan("shared", safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted})
		mustDeny(submit(bound.Client, p.call("shared", p.tools[reader], "build", "src/a.go")),
			webhookv1alpha1.ReasonAgentIdentityMismatch, "pod bound-pod has its own plan own")

		By("the near miss: once the ended plan is deleted, the pod takes its ServiceAccount's pod-less plan")
		Expect(k8sClient.Delete(ctx, &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "own"}})).To(Succeed())
		Eventually(func() error {
			return submit(bound.Client, p.call("shared", p.tools[reader], "build", "src/b.go"))
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
	})

	It("refuses a second active plan beside a pod-less plan of one ServiceAccount, PlanConflict", func() {
		p := newProject(nil)
		p.plan("first", safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted})
		second := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "second"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: agentSA, ProfileRef: spRef(safety.BuiltinReadOnly)}}
		mustRefusePlan(k8sClient.Create(ctx, second.DeepCopy()), webhookv1alpha1.ReasonPlanConflict, "spec.podName",
			"plan first is already the active plan of ServiceAccount "+agentSA+", bound to no pod")
		withPod := second.DeepCopy()
		withPod.Spec.PodName = "some-pod"
		mustRefusePlan(k8sClient.Create(ctx, withPod), webhookv1alpha1.ReasonPlanConflict, "spec.podName",
			"plan first is already the active plan of ServiceAccount "+agentSA+", bound to no pod")
		Expect(apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(second), &safetyv1alpha1.AgentPlan{}))).To(BeTrue())

		By("admitting the near miss: a plan of another ServiceAccount")
		other := second.DeepCopy()
		other.Name, other.Spec.ServiceAccountName = "others", "other"
		Expect(k8sClient.Create(ctx, other)).To(Succeed())
	})

	It("refuses a second active plan bound to the same pod, and takes one per pod", func() {
		p := newProject(nil)
		p.unlockedPlan("first", safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted, PodName: "some-pod"})
		samePod := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "loose"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: agentSA, ProfileRef: unrestricted, PodName: "some-pod"}}
		mustRefusePlan(k8sClient.Create(ctx, samePod.DeepCopy()), webhookv1alpha1.ReasonPlanConflict, "spec.podName",
			"plan first is already the active plan of ServiceAccount "+agentSA+" of pod some-pod")

		By("admitting the near miss: a plan of another pod of the ServiceAccount")
		otherPod := samePod.DeepCopy()
		otherPod.Spec.PodName = "another-pod"
		Expect(k8sClient.Create(ctx, otherPod)).To(Succeed())
	})

	It("ends a plan at its activeDeadlineSeconds: Active=False and PlanExpired, and frees the ServiceAccount for a new plan", func() {
		p := newProject(nil)
		p.unlockedPlan("brief", safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted, ActiveDeadlineSeconds: new(int64(1))})
		condition(p.ns, "brief", safetyv1alpha1.AgentPlanActiveCondition, metav1.ConditionFalse, safetyv1alpha1.AgentPlanDeadlineExceededReason)
		mustDeny(submit(p.agent, p.call("brief", p.tools[reader], "build", "src/a.go")), webhookv1alpha1.ReasonPlanExpired, "ended at")
		Expect(activeColumn(p.ns, "brief")).To(Equal("False"), "kubectl get agentplans shows it in the ACTIVE column")

		By("admitting the near miss: the ServiceAccount's next plan, active for the default day")
		next := p.planFor(p.agent, "next", safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted})
		Expect(*next.Spec.ActiveDeadlineSeconds).To(Equal(safetyv1alpha1.DefaultActiveDeadlineSeconds))
		condition(p.ns, "next", safetyv1alpha1.AgentPlanActiveCondition, metav1.ConditionTrue, safetyv1alpha1.AgentPlanActiveReason)
		Expect(activeColumn(p.ns, "next")).To(Equal("True"))
		mustAdmit(submit(p.agent, p.call("next", p.tools[reader], "build", "src/a.go")))
	})
})

// activeColumn is the plan's ACTIVE column as `kubectl get agentplans` prints it: the API server's
// table rendering of the CRD's printer columns.
func activeColumn(ns, name string) string {
	GinkgoHelper()
	cs, err := kubernetes.NewForConfig(cluster.Config)
	Expect(err).NotTo(HaveOccurred())
	raw, err := cs.RESTClient().Get().AbsPath("/apis", safetyv1alpha1.GroupVersion.Group, safetyv1alpha1.GroupVersion.Version,
		"namespaces", ns, "agentplans", name).SetHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io").DoRaw(ctx)
	Expect(err).NotTo(HaveOccurred())
	table := &metav1.Table{}
	Expect(json.Unmarshal(raw, table)).To(Succeed())
	Expect(table.Rows).To(HaveLen(1))
	for i, c := range table.ColumnDefinitions {
		if c.Name == "Active" {
			return fmt.Sprint(table.Rows[0].Cells[i])
		}
	}
	Fail("no Active column in " + string(raw))
	return ""
}

// planWriters gives the project's agent what the common `edit` role gives in a namespace: it may
// create AgentPlans and act as any ServiceAccount of the namespace. An "orchestrator"
// ServiceAccount may create plans too.
func (p *project) planWriters() (agent, asOrchestrator client.Client) {
	GinkgoHelper()
	cs, err := kubernetes.NewForConfig(cluster.Config)
	Expect(err).NotTo(HaveOccurred())
	p.newAgent("orchestrator")
	role := &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "plan-writer"}, Rules: []rbacv1.PolicyRule{
		{APIGroups: []string{safetyv1alpha1.GroupVersion.Group}, Resources: []string{"agentplans"}, Verbs: []string{"create", "update", "patch", "get"}},
		{APIGroups: []string{""}, Resources: []string{"serviceaccounts"}, Verbs: []string{"impersonate"}},
	}}
	_, err = cs.RbacV1().Roles(p.ns).Create(ctx, role, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	binding := &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "plan-writer"},
		RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: role.Name},
		Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Namespace: p.ns, Name: agentSA},
			{Kind: "ServiceAccount", Namespace: p.ns, Name: "orchestrator"}}}
	_, err = cs.RbacV1().RoleBindings(p.ns).Create(ctx, binding, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	cfg := rest.CopyConfig(p.cfg)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: "system:serviceaccount:" + p.ns + ":orchestrator"}
	asOrchestrator, err = client.New(cfg, client.Options{Scheme: cluster.Scheme})
	Expect(err).NotTo(HaveOccurred())
	return p.agent, asOrchestrator
}

var _ = Describe("Plan provenance and ceilings", func() {
	It("refuses a plan its own agent writes, and records every creation with its requester", func() {
		p := newProject(nil)
		agent, _ := p.planWriters()
		own := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "mine"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: agentSA, ProfileRef: unrestricted}}
		mustRefusePlan(agent.Create(ctx, own), webhookv1alpha1.ReasonPlanAuthoredByAgent, "spec.serviceAccountName", "may not create it")

		By("admitting the near miss: a plan for another ServiceAccount")
		p.newAgent("helper")
		Expect(agent.Create(ctx, &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "helpers"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "helper", ProfileRef: unrestricted}})).To(Succeed())

		By("finding both in the ledger, with the requester")
		records := ledgerRecords("plan", p.ns)
		me := "system:serviceaccount:" + p.ns + ":" + agentSA
		Expect(records).To(ContainElement(And(HaveKeyWithValue("plan", "mine"), HaveKeyWithValue("decision", "deny"),
			HaveKeyWithValue("reason", webhookv1alpha1.ReasonPlanAuthoredByAgent), HaveKeyWithValue("requester", me))))
		Expect(records).To(ContainElement(And(HaveKeyWithValue("plan", "helpers"), HaveKeyWithValue("decision", "allow"),
			HaveKeyWithValue("operation", "create"), HaveKeyWithValue("requester", me))))

		By("refusing the agent's re-lock of its own plan, and recording a re-lock by someone else")
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted})
		relock := func(c client.Client, token string) error {
			plan := &safetyv1alpha1.AgentPlan{}
			Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: planName}, plan)).To(Succeed())
			patch := client.MergeFrom(plan.DeepCopy())
			plan.Annotations = map[string]string{safetyv1alpha1.RelockAnnotation: token}
			return c.Patch(ctx, plan, patch)
		}
		mustRefusePlan(relock(agent, "agent-1"), webhookv1alpha1.ReasonPlanAuthoredByAgent, "metadata.annotations", "may not re-lock it")
		Expect(relock(k8sClient, "admin-1")).To(Succeed())
		Expect(ledgerRecords("plan", p.ns)).To(ContainElement(And(HaveKeyWithValue("plan", planName),
			HaveKeyWithValue("operation", "relock"), HaveKeyWithValue("decision", "allow"), HaveKeyWithValue("relock", "admin-1"))))
	})

	It("refuses a relock value the snapshot cannot record, on create and on update, and re-locks with one that fits", func() {
		p := newProject(nil)
		tooLong, longest := strings.Repeat("r", 254), strings.Repeat("r", 253)
		By("refusing a plan created with it: it could never lock, and would say nothing")
		born := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "born-relocked",
			Annotations: map[string]string{safetyv1alpha1.RelockAnnotation: tooLong}},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: agentSA, ProfileRef: unrestricted}}
		mustRefusePlan(k8sClient.Create(ctx, born), webhookv1alpha1.ReasonBadRequest, "metadata.annotations", "253")

		By("refusing it as a re-lock request: the re-lock would fail, silently, forever")
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted})
		relock := func(token string) error {
			plan := &safetyv1alpha1.AgentPlan{}
			Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: planName}, plan)).To(Succeed())
			patch := client.MergeFrom(plan.DeepCopy())
			plan.Annotations = map[string]string{safetyv1alpha1.RelockAnnotation: token}
			return k8sClient.Patch(ctx, plan, patch)
		}
		mustRefusePlan(relock(tooLong), webhookv1alpha1.ReasonBadRequest, "metadata.annotations", "253")

		By("re-locking with the longest value that fits")
		Expect(relock(longest)).To(Succeed())
		Eventually(func(g Gomega) {
			plan := &safetyv1alpha1.AgentPlan{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: planName}, plan)).To(Succeed())
			g.Expect(plan.Status.Snapshot).NotTo(BeNil())
			g.Expect(plan.Status.Snapshot.Epoch).To(Equal(int32(2)))
			g.Expect(plan.Status.Snapshot.RelockToken).To(Equal(longest))
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
	})

	It("refuses anyone but the operator removing a plan's project-total finalizer", func() {
		p := newProject(nil)
		agent, _ := p.planWriters()
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted})
		plan := &safetyv1alpha1.AgentPlan{}
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: planName}, plan)).To(Succeed())
			g.Expect(plan.Finalizers).To(ContainElement(safetyv1alpha1.PlanFinalizer))
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
		patch := client.MergeFrom(plan.DeepCopy())
		plan.Finalizers = nil
		err := agent.Patch(ctx, plan.DeepCopy(), patch)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("may remove " + safetyv1alpha1.PlanFinalizer))

		By("the near miss: the agent's other update of the plan is admitted")
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: planName}, plan)).To(Succeed())
		patch = client.MergeFrom(plan.DeepCopy())
		plan.Labels = map[string]string{"example.com/note": "mine"}
		Expect(agent.Patch(ctx, plan, patch)).To(Succeed())
	})

	It("caps what a plan names with the project's allowedProfiles, whoever writes it", func() {
		p := newProject(nil)
		_, asOrchestrator := p.planWriters()
		Expect(k8sClient.Create(ctx, &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "project"},
			Spec: safetyv1alpha1.ProjectPolicySpec{AllowedProfiles: []safetyv1alpha1.ProfileRef{*spRef(safety.BuiltinSandboxed)}}})).To(Succeed())

		By("the agent, acting as the orchestrator, naming the unrestricted profile")
		escalate := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "escalate"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: agentSA, ProfileRef: unrestricted}}
		mustRefusePlan(asOrchestrator.Create(ctx, escalate.DeepCopy()), webhookv1alpha1.ReasonProfileNotAllowed, "spec.profileRef",
			"SafetyProfile/unrestricted is not among the project's allowedProfiles (SafetyProfile/sandboxed)")
		Expect(ledgerRecords("plan", p.ns)).To(ContainElement(And(HaveKeyWithValue("plan", "escalate"),
			HaveKeyWithValue("requester", "system:serviceaccount:"+p.ns+":orchestrator"), HaveKeyWithValue("reason", webhookv1alpha1.ReasonProfileNotAllowed))))

		By("admitting the near miss: the same plan naming an allowed profile")
		escalate.Spec.ProfileRef = spRef(safety.BuiltinSandboxed)
		Expect(asOrchestrator.Create(ctx, escalate)).To(Succeed())
	})

	It("refuses a ProjectPolicy whose actions name a profile outside its allowedProfiles", func() {
		p := newProject(nil)
		pp := &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "project"},
			Spec: safetyv1alpha1.ProjectPolicySpec{
				AllowedProfiles: []safetyv1alpha1.ProfileRef{*spRef(safety.BuiltinSandboxed), *spRef(safety.BuiltinReadOnly)},
				Actions:         []safetyv1alpha1.ProjectAction{{Name: "review", ProfileRef: spRef(safety.BuiltinReadOnly)}, {Name: "fix", ProfileRef: unrestricted}}}}
		err := k8sClient.Create(ctx, pp.DeepCopy())
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
		cause := causeOf(err)
		Expect(cause.Field).To(Equal("spec.actions[1].profileRef"))
		Expect(cause.Message).To(ContainSubstring("[ProfileNotAllowed] SafetyProfile/unrestricted is not among"))

		By("admitting the near miss: every action within the list")
		pp.Spec.Actions[1].ProfileRef = spRef(safety.BuiltinSandboxed)
		Expect(k8sClient.Create(ctx, pp)).To(Succeed())
	})

	It("does not lock a plan created before allowedProfiles excluded its profile", func() {
		p := newProject(nil)
		later := p.ns + "-later"
		p.unlockedPlan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(later)})
		condition(p.ns, planName, safetyv1alpha1.AgentPlanLockedCondition, metav1.ConditionFalse, safetyv1alpha1.AgentPlanProfileNotFoundReason)
		Expect(k8sClient.Create(ctx, &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "project"},
			Spec: safetyv1alpha1.ProjectPolicySpec{AllowedProfiles: []safetyv1alpha1.ProfileRef{*spRef(safety.BuiltinSandboxed)}}})).To(Succeed())
		createCluster(&safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: later}, Spec: profileWith(nil)})
		condition(p.ns, planName, safetyv1alpha1.AgentPlanLockedCondition, metav1.ConditionFalse, safetyv1alpha1.AgentPlanProfileNotAllowedReason)
		mustDeny(submit(p.agent, p.call(planName, p.tools[reader], "build", "src/a.go")), webhookv1alpha1.ReasonPlanNotLocked)
	})
})

var _ = Describe("Create-time metadata of a call", func() {
	DescribeTable("denies metadata that would act on toolgate's bookkeeping, BadRequest naming the field",
		func(field string, mutate func(*safetyv1alpha1.AgentToolCall)) {
			p := newProject(nil)
			p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted})
			call := p.call(planName, p.tools[reader], "build", "src/a.go")
			mutate(call)
			err := submit(p.agent, call)
			mustDeny(err, webhookv1alpha1.ReasonBadRequest)
			Expect(causeOf(err).Field).To(Equal(field))
			Expect(p.storedCalls()).To(BeEmpty())

			By("admitting the near miss: a call with only the agent's own annotation")
			ok := p.call(planName, p.tools[reader], "build", "src/b.go")
			ok.Annotations = map[string]string{"example.com/note": "mine"}
			mustAdmit(submit(p.agent, ok))
		},
		Entry("an owner reference", "metadata.ownerReferences", func(c *safetyv1alpha1.AgentToolCall) {
			c.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "short-lived", UID: "0c0ffee0-0000-0000-0000-000000000000"}}
		}),
		Entry("a foreign finalizer", "metadata.finalizers", func(c *safetyv1alpha1.AgentToolCall) {
			c.Finalizers = []string{"example.com/hold"}
		}),
		Entry("toolgate's completion annotation", "metadata.annotations", func(c *safetyv1alpha1.AgentToolCall) {
			c.Annotations = map[string]string{"safety.toolgate.dev/completion-record": "forged"}
		}),
		Entry("toolgate's own finalizer", "metadata.finalizers", func(c *safetyv1alpha1.AgentToolCall) {
			c.Finalizers = []string{"safety.toolgate.dev/usage"}
		}),
		Entry("the relock annotation beside one of the agent's", "metadata.annotations", func(c *safetyv1alpha1.AgentToolCall) {
			c.Annotations = map[string]string{"example.com/note": "mine", safetyv1alpha1.RelockAnnotation: "1"}
		}),
		Entry("an owner reference beside labels", "metadata.ownerReferences", func(c *safetyv1alpha1.AgentToolCall) {
			c.Labels = map[string]string{"app": "agent"}
			c.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: "agent-pod",
				UID: "0c0ffee0-0000-0000-0000-000000000001"}}
		}),
	)
})

var _ = Describe("A call naming a plan or tool no object can be named", func() {
	It("is denied PlanNotFound or ToolNotRegistered and recorded, not errored unrecorded; a well-formed name is decided as before", func() {
		p := newProject(nil)
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted})
		const command = "rm -rf / --no-preserve-root"
		odd := []string{"a/b", "..", ".", "%2e%2e", "plan/status", "Plan", "plan?x=1", "plan#x", "pl an", strings.Repeat("p", 252) + "\u00e9"}
		for _, name := range odd {
			call := p.call(name, p.tools[reader], "odd", "src/a.go")
			call.Spec.Arguments.Command = command
			mustDeny(submit(p.agent, call), webhookv1alpha1.ReasonPlanNotFound)
		}
		for _, name := range []string{"a/b", "..", "%2e", "Tool"} {
			call := p.call(planName, name, "odd", "src/a.go")
			call.Spec.Arguments.Command = command
			mustDeny(submit(p.agent, call), webhookv1alpha1.ReasonToolNotRegistered)
		}
		By("each refusal is in the ledger with its arguments, as every decision is")
		var denied int
		for _, r := range ledgerRecords("decision", p.ns) {
			if r["decision"] == "deny" && r["step"] == "odd" {
				denied++
			}
		}
		Expect(denied).To(Equal(len(odd) + 4))
		By("the near miss: the plan and tool by their names")
		mustAdmit(submit(p.agent, p.call(planName, p.tools[reader], "odd", "src/a.go")))
	})
})

var _ = Describe("A call of more JSON values than any call needs", func() {
	It("is denied BadRequest without being decoded, through the API server; a call of a hundred labels is admitted", func() {
		p := newProject(nil)
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted})
		bloated := p.call(planName, p.tools[reader], "build", "src/a.go")
		bloated.Labels = map[string]string{}
		for i := range 20000 { // the API server's managed fields list each label again
			bloated.Labels[fmt.Sprintf("l%d", i)] = ""
		}
		mustDeny(submit(p.agent, bloated), webhookv1alpha1.ReasonBadRequest, "JSON values", "not decoded")

		By("admitting the near miss: a hundred labels")
		ok := p.call(planName, p.tools[reader], "build", "src/b.go")
		ok.Labels = map[string]string{}
		for i := range 100 {
			ok.Labels[fmt.Sprintf("l%d", i)] = ""
		}
		mustAdmit(submit(p.agent, ok))
	})
})

var _ = Describe("Tools pinned per plan", func() {
	It("keeps the capabilities a plan first saw; an AgentTool edit applies to new plans and to a re-lock", func() {
		p := newProject(nil)
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: p.profile(profileWith(nil))})
		tool := p.tools[unsafeTool]
		mustDeny(submit(p.agent, p.call(planName, tool, "build", "src/a.go")), safety.ReasonToolSafetyViolation, "unsafe")
		plan := &safetyv1alpha1.AgentPlan{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: planName}, plan)).To(Succeed())
		Expect(plan.Status.Tools).To(ConsistOf(And(HaveField("Name", tool), HaveField("Unsafe", true), HaveField("Epoch", int32(1)))))

		By("the API server refusing to rewrite a pin outside a re-lock, whoever may write the status")
		forged := plan.DeepCopy()
		forged.Status.Tools[0].Unsafe = false
		err := k8sClient.Status().Patch(ctx, forged, client.MergeFrom(plan))
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring("a pinned tool never changes or goes away until the plan is re-locked"))

		By("marking the tool safe in the registry")
		t := &safetyv1alpha1.AgentTool{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Name: tool}, t)).To(Succeed())
		t.Spec.Unsafe = false
		Expect(k8sClient.Update(ctx, t)).To(Succeed())

		By("a new plan sees the edit")
		other := p.newAgent("other")
		p.plan("fresh", safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "other", ProfileRef: p.profileRefOf()})
		awaitDecision(other, p.call("fresh", tool, "build", "src/a.go"), "")
		mustAdmit(submit(other, p.call("fresh", tool, "build", "src/a.go")))

		By("the running plan still sees what it pinned")
		mustDeny(submit(p.agent, p.call(planName, tool, "build", "src/b.go")), safety.ReasonToolSafetyViolation, "unsafe")

		By("a re-lock clears the pins, and the plan sees the edit")
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: planName}, plan)).To(Succeed())
		patch := client.MergeFrom(plan.DeepCopy())
		plan.Annotations = map[string]string{safetyv1alpha1.RelockAnnotation: "tools-edited"}
		Expect(k8sClient.Patch(ctx, plan, patch)).To(Succeed())
		awaitDecision(p.agent, p.call(planName, tool, "build", "src/c.go"), "")
		mustAdmit(submit(p.agent, p.call(planName, tool, "build", "src/c.go")))
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: planName}, plan)).To(Succeed())
		Expect(plan.Status.Tools).To(ConsistOf(And(HaveField("Name", tool), HaveField("Unsafe", false), HaveField("Epoch", int32(2)))))
	})

	It("pins exactly once under concurrent first calls", func() {
		p := newProject(nil)
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: unrestricted})
		const n = 8
		errs := make(chan error, n*len(p.tools))
		for i := range n {
			for role, tool := range p.tools {
				step := fmt.Sprintf("s%d-%s", i, role)
				go func() { errs <- submit(p.agent, p.call(planName, tool, step, "src/"+step+".go")) }()
			}
		}
		for range n * len(p.tools) {
			mustAdmit(<-errs)
		}
		plan := &safetyv1alpha1.AgentPlan{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: planName}, plan)).To(Succeed())
		Expect(plan.Status.Tools).To(HaveLen(len(p.tools)))
		for _, pin := range plan.Status.Tools {
			t := &safetyv1alpha1.AgentTool{}
			Expect(k8sClient.Get(ctx, client.ObjectKey{Name: pin.Name}, t)).To(Succeed())
			Expect(pin.UID).To(Equal(string(t.UID)))
			Expect(pin.Generation).To(Equal(t.Generation))
		}
	})
})

// profileRefOf is a reference to the project's own SafetyProfile (created by p.profile).
func (p *project) profileRefOf() *safetyv1alpha1.ProfileRef { return spRef(p.ns + "-profile") }
