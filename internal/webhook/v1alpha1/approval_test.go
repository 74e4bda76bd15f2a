package v1alpha1_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/internal/testenv"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
)

// RecordApproval lets the suite's switchable ledger record approvals too.
func (s *switchableLog) RecordApproval(ctx context.Context, a audit.Approval) error {
	s.mu.Lock()
	l := s.log
	s.mu.Unlock()
	al, ok := l.(audit.ApprovalLog)
	if !ok {
		return errors.New("the ledger in use cannot record approvals")
	}
	return al.RecordApproval(ctx, a)
}

// person is a human user with a client certificate and the shipped approver ClusterRole.
type person struct {
	name   string
	client client.Client
}

var personCount int

func newPerson() person {
	GinkgoHelper()
	personCount++
	name := fmt.Sprintf("person-%d@example.com", personCount)
	h, err := testenv.Person(ctx, cluster.Env, cluster.Scheme, name)
	Expect(err).NotTo(HaveOccurred())
	return person{name: name, client: h.Client}
}

// approval builds a ToolApproval by approver for the project's plan and tool; adjust narrows it.
func (p *project) approval(approver, tool string, adjust func(*safetyv1alpha1.ToolApprovalSpec)) *safetyv1alpha1.ToolApproval {
	a := &safetyv1alpha1.ToolApproval{
		ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, GenerateName: "approval-"},
		Spec:       safetyv1alpha1.ToolApprovalSpec{Plan: planName, Tool: tool, Approver: approver, Reason: "reviewed the diff"},
	}
	if adjust != nil {
		adjust(&a.Spec)
	}
	return a
}

// approve creates the approval as the person and waits until the API server returns it with its
// defaults.
func (p *project) approve(who person, tool string, adjust func(*safetyv1alpha1.ToolApprovalSpec)) *safetyv1alpha1.ToolApproval {
	GinkgoHelper()
	a := p.approval(who.name, tool, adjust)
	Expect(who.client.Create(ctx, a)).To(Succeed())
	return a
}

// approvalRequired is a project whose plan locks a profile requiring human approval.
func approvalRequired(restrict func(*safetyv1alpha1.SafetyProfileSpec)) *project {
	GinkgoHelper()
	p := newProject(nil)
	p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) {
		s.RequireHumanApproval = new(true)
		if restrict != nil {
			restrict(s)
		}
	})), CostReporter: trustAgent()})
	return p
}

func approvalStatus(a *safetyv1alpha1.ToolApproval) safetyv1alpha1.ToolApprovalStatus {
	GinkgoHelper()
	got := &safetyv1alpha1.ToolApproval{}
	Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(a), got)).To(Succeed())
	return got.Status
}

// ledgerRecords returns the fields of the ledger's newest records of kind that mention ns.
func ledgerRecords(kind, ns string) []map[string]any {
	GinkgoHelper()
	report, err := ledger.Verify(ledgerDir)
	Expect(err).NotTo(HaveOccurred())
	Expect(report.OK()).To(BeTrue(), report.Summary())
	return recordsOf(ledgerDir, kind, ns)
}

var _ = Describe("Human approvals: granted by people, never by the agent", func() {
	It("follows the flow: the denial names the approval to ask for, a person approves, the agent's retry is admitted once", func() {
		p := approvalRequired(nil)
		alice := newPerson()
		call := p.call(planName, p.tools[reader], "step-1", "src/main.go")

		By("the agent is denied and told exactly which approval to ask for, arguments spelled out")
		mustDeny(submit(p.agent, call.DeepCopy()), safety.ReasonToolHumanApprovalRequired, "human approval",
			"kubectl toolgate approve -n "+p.ns+" "+planName+" --tool "+p.tools[reader]+" --step step-1 --path src/main.go")

		By("a person approves exactly that call")
		a := p.approve(alice, p.tools[reader], func(s *safetyv1alpha1.ToolApprovalSpec) {
			s.Step, s.Arguments = "step-1", &safetyv1alpha1.ToolArguments{Paths: []string{"src/main.go"}}
		})
		Expect(a.Spec.Uses).To(Equal(int32(1)), "single use by default")
		Expect(a.Spec.ExpirationSeconds).To(Equal(int32(3600)), "an hour by default")

		By("the agent's retry is admitted, and the use is counted on the approval")
		admitted := call.DeepCopy()
		mustAdmit(submit(p.agent, admitted))
		st := approvalStatus(a)
		Expect(st.Used).To(Equal(int32(1)))
		Expect(st.UsedBy).To(ConsistOf(And(
			HaveField("Call", admitted.Name), HaveField("Requester", "system:serviceaccount:"+p.ns+":"+agentSA))))

		By("a second call is denied: the approval is used up, and the denial says so")
		mustDeny(submit(p.agent, call.DeepCopy()), safety.ReasonToolHumanApprovalRequired, "used 1 of 1 times")

		By("the ledger holds the approval, who gave it, and its use")
		Expect(ledgerRecords("approval", p.ns)).To(ContainElement(And(
			HaveKeyWithValue("decision", "allow"), HaveKeyWithValue("name", a.Name),
			HaveKeyWithValue("approver", alice.name), HaveKeyWithValue("requester", alice.name),
			HaveKeyWithValue("note", "reviewed the diff"),
			HaveKeyWithValue("arguments", HaveKeyWithValue("paths", ConsistOf("src/main.go"))))))
		Expect(ledgerRecords("decision", p.ns)).To(ContainElement(And(
			HaveKeyWithValue("call", admitted.Name), HaveKeyWithValue("decision", "allow"),
			HaveKeyWithValue("approval", p.ns+"/"+a.Name))))
	})

	It("never spells out in the hint what the record hides: such arguments are pinned by digest, and the pin approves them", func() {
		const secret = "hunter2-db-pass-0xC0FFEE"
		p := approvalRequired(nil)
		alice := newPerson()
		call := p.call(planName, p.tools[reader], "step-1", "src/main.go")
		call.Spec.Arguments.Extra = &runtime.RawExtension{Raw: []byte(`{"env":[{"name":"DB_PASSWORD","value":"` + secret + `"}]}`)}

		By("the denial, which the agent and approvers read, pins the arguments by digest instead of spelling the secret out")
		digest := policy.ArgumentsDigest(call.Spec.Arguments)
		msg := mustDeny(submit(p.agent, call.DeepCopy()), safety.ReasonToolHumanApprovalRequired, "--arguments-digest "+digest)
		Expect(msg).NotTo(ContainSubstring(secret))

		By("the ledger's decision record holds the secret nowhere, message included")
		var denied []map[string]any
		for _, r := range ledgerRecords("decision", p.ns) {
			if r["decision"] == "deny" && r["step"] == "step-1" {
				denied = append(denied, r)
			}
		}
		Expect(denied).NotTo(BeEmpty())
		for _, r := range denied {
			Expect(fmt.Sprint(r)).NotTo(ContainSubstring(secret))
		}

		By("the command the hint gives admits the call")
		p.approve(alice, p.tools[reader], func(s *safetyv1alpha1.ToolApprovalSpec) { s.Step, s.ArgumentsDigest = "step-1", digest })
		mustAdmit(submit(p.agent, call.DeepCopy()))
	})

	It("admits an approved call of an agent whose ServiceAccount name is as long as Kubernetes allows", func() {
		// Its username, system:serviceaccount:NS:NAME, is longer than a ServiceAccount's name: the
		// approval's record of the use (status.usedBy[].requester) must hold it, or no approval of
		// this agent could ever be used.
		p := newProject(nil)
		long := strings.Repeat("a", 253)
		agent := p.newAgent(long)
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ServiceAccountName: long, ProfileRef: p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) {
			s.RequireHumanApproval = new(true)
		}))})
		call := p.call(planName, p.tools[reader], "step-1")
		mustDeny(submit(agent, call.DeepCopy()), safety.ReasonToolHumanApprovalRequired)
		a := p.approve(newPerson(), p.tools[reader], nil)
		mustAdmit(submit(agent, call.DeepCopy()))
		Expect(approvalStatus(a).UsedBy).To(ConsistOf(HaveField("Requester", "system:serviceaccount:"+p.ns+":"+long)))
	})

	It("refuses an approval from the plan's own ServiceAccount, even when RBAC would let it create one", func() {
		p := approvalRequired(nil)
		self := "system:serviceaccount:" + p.ns + ":" + agentSA

		By("agents' roles cannot create approvals at all")
		err := p.agent.Create(ctx, p.approval(self, p.tools[reader], nil))
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "%v", err)
		Expect(reasonOf(err)).To(Equal("?"), "RBAC refused it, not the webhook: %v", err)

		By("with the approver role bound to the agent by mistake, the webhook still refuses")
		bindApprover(p.ns, agentSA)
		Eventually(func() string {
			return reasonOf(p.agent.Create(ctx, p.approval(self, p.tools[reader], nil)))
		}).WithTimeout(waitTimeout).Should(Equal(webhookv1alpha1.ReasonSelfApproval))
		err = p.agent.Create(ctx, p.approval(self, p.tools[reader], nil))
		Expect(err).To(HaveOccurred())
		Expect(causeOf(err).Field).To(Equal("spec.approver"))
		Expect(err.Error()).To(ContainSubstring("cannot approve its own calls"))

		By("the call is still denied, and the refused approval is in the ledger")
		mustDeny(submit(p.agent, p.call(planName, p.tools[reader], "step-1")), safety.ReasonToolHumanApprovalRequired)
		Expect(ledgerRecords("approval", p.ns)).To(ContainElement(And(
			HaveKeyWithValue("decision", "deny"), HaveKeyWithValue("reason", webhookv1alpha1.ReasonSelfApproval),
			HaveKeyWithValue("requester", self))))
		var list safetyv1alpha1.ToolApprovalList
		Expect(k8sClient.List(ctx, &list, client.InNamespace(p.ns))).To(Succeed())
		Expect(list.Items).To(BeEmpty())
	})

	It("refuses approvals from other ServiceAccounts unless the operator trusts them", func() {
		p := approvalRequired(nil)
		bot := p.newAgent("review-bot")
		bindApprover(p.ns, "review-bot")
		user := "system:serviceaccount:" + p.ns + ":review-bot"
		Eventually(func() string {
			return reasonOf(bot.Create(ctx, p.approval(user, p.tools[reader], nil)))
		}).WithTimeout(waitTimeout).Should(Equal(webhookv1alpha1.ReasonServiceAccountApprover))
	})

	// The API server names a ServiceAccount by its groups as well as by its username; an identity
	// that carries a ServiceAccount's, a node's or an anonymous request's groups under another
	// username (an impersonated or externally authenticated user) is no person either.
	DescribeTable("refuses an approver that is a machine or nobody by its groups, whatever its username",
		func(groups func(ns string) []string, reason string) {
			p := approvalRequired(nil)
			// A person with the approver role, whose requests are then made with the groups below.
			h := newPerson()
			cfg := rest.CopyConfig(cluster.Config)
			cfg.Impersonate = rest.ImpersonationConfig{UserName: h.name, Groups: groups(p.ns)}
			c, err := client.New(cfg, client.Options{Scheme: cluster.Scheme, Mapper: k8sClient.RESTMapper()})
			Expect(err).NotTo(HaveOccurred())
			err = c.Create(ctx, p.approval(h.name, p.tools[reader], nil))
			Expect(reasonOf(err)).To(Equal(reason), "%v", err)
			Expect(causeOf(err).Field).To(Equal("spec.approver"))
			Expect(err.Error()).To(ContainSubstring(h.name))
			mustDeny(submit(p.agent, p.call(planName, p.tools[reader], "step-1")), safety.ReasonToolHumanApprovalRequired)

			By("the near miss: the same user with a person's groups approves")
			cfg.Impersonate.Groups = []string{"system:authenticated", "developers"}
			c, err = client.New(cfg, client.Options{Scheme: cluster.Scheme, Mapper: k8sClient.RESTMapper()})
			Expect(err).NotTo(HaveOccurred())
			Expect(c.Create(ctx, p.approval(h.name, p.tools[reader], nil))).To(Succeed())
			mustAdmit(submit(p.agent, p.call(planName, p.tools[reader], "step-1")))
		},
		Entry("all ServiceAccounts' group", func(string) []string {
			return []string{"system:serviceaccounts", "system:authenticated"}
		}, webhookv1alpha1.ReasonServiceAccountApprover),
		Entry("one namespace's ServiceAccounts' group", func(ns string) []string {
			return []string{"system:serviceaccounts:" + ns, "system:authenticated"}
		}, webhookv1alpha1.ReasonServiceAccountApprover),
		Entry("the nodes' group", func(string) []string { return []string{"system:nodes", "system:authenticated"} },
			webhookv1alpha1.ReasonApproverNotAPerson),
		Entry("the unauthenticated group", func(string) []string { return []string{"system:unauthenticated"} },
			webhookv1alpha1.ReasonApproverNotAPerson),
	)

	It("refuses an approval whose approver is not the identity creating it", func() {
		p := approvalRequired(nil)
		alice := newPerson()
		err := alice.client.Create(ctx, p.approval("someone-else@example.com", p.tools[reader], nil))
		Expect(reasonOf(err)).To(Equal(webhookv1alpha1.ReasonApproverMismatch), "%v", err)
		Expect(causeOf(err).Field).To(Equal("spec.approver"))
		Expect(err.Error()).To(ContainSubstring(alice.name))
	})

	It("refuses an approval for a plan or tool that does not exist, naming the field", func() {
		p := approvalRequired(nil)
		alice := newPerson()
		err := alice.client.Create(ctx, p.approval(alice.name, p.tools[reader], func(s *safetyv1alpha1.ToolApprovalSpec) { s.Plan = "nope" }))
		Expect(reasonOf(err)).To(Equal(webhookv1alpha1.ReasonPlanNotFound), "%v", err)
		Expect(causeOf(err).Field).To(Equal("spec.plan"))
		err = alice.client.Create(ctx, p.approval(alice.name, "no-such-tool", nil))
		Expect(reasonOf(err)).To(Equal(webhookv1alpha1.ReasonToolNotRegistered), "%v", err)
		Expect(causeOf(err).Field).To(Equal("spec.tool"))
	})

	DescribeTable("a mismatched approval admits nothing, and the denial says why",
		func(adjust func(p *project, s *safetyv1alpha1.ToolApprovalSpec), why string) {
			p := approvalRequired(nil)
			// Another agent's: one ServiceAccount has one pod-less plan (PlanConflict).
			p.newAgent("other")
			p.plan("other", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted"), ServiceAccountName: "other"})
			alice := newPerson()
			a := p.approve(alice, p.tools[reader], func(s *safetyv1alpha1.ToolApprovalSpec) { adjust(p, s) })
			if a.Spec.Plan != planName {
				// An approval for another plan is not even listed for this one.
				mustDeny(submit(p.agent, p.call(planName, p.tools[reader], "step-1", "src/a.go")), safety.ReasonToolHumanApprovalRequired)
			} else {
				mustDeny(submit(p.agent, p.call(planName, p.tools[reader], "step-1", "src/a.go")),
					safety.ReasonToolHumanApprovalRequired, "ToolApproval "+a.Name+" does not apply: "+why)
			}
			Expect(approvalStatus(a).Used).To(BeZero())
		},
		Entry("another tool", func(p *project, s *safetyv1alpha1.ToolApprovalSpec) { s.Tool = p.tools[writer] }, "it is for tool"),
		Entry("another step", func(_ *project, s *safetyv1alpha1.ToolApprovalSpec) { s.Step = "step-2" }, "it is for step step-2"),
		Entry("other arguments", func(_ *project, s *safetyv1alpha1.ToolApprovalSpec) {
			s.Arguments = &safetyv1alpha1.ToolArguments{Paths: []string{"src/a.go", "src/b.go"}}
		}, "it is for other arguments"),
		Entry("another arguments digest", func(_ *project, s *safetyv1alpha1.ToolApprovalSpec) {
			s.ArgumentsDigest = policy.ArgumentsDigest(safetyv1alpha1.ToolArguments{Paths: []string{"src/b.go"}})
		}, "it is for other arguments"),
		Entry("another plan", func(_ *project, s *safetyv1alpha1.ToolApprovalSpec) { s.Plan = "other" }, ""),
	)

	It("an approval made for an earlier plan of the same name admits nothing, even when the new plan is made in the same second", func() {
		p := approvalRequired(nil)
		alice := newPerson()
		approval := p.approve(alice, p.tools[reader], nil)
		old := &safetyv1alpha1.AgentPlan{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: planName}, old)).To(Succeed())
		Expect(k8sClient.Delete(ctx, old)).To(Succeed())
		Eventually(func() bool {
			return apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(old), &safetyv1alpha1.AgentPlan{}))
		}).WithTimeout(waitTimeout).Should(BeTrue())

		By("the plan was released only once its approvals were revoked")
		err := k8sClient.Get(ctx, client.ObjectKeyFromObject(approval), &safetyv1alpha1.ToolApproval{})
		Expect(apierrors.IsNotFound(err)).To(BeTrue(), "the deleted plan's approval is still there: %v", err)

		By("a plan made again under the name at once (creation times have whole seconds) finds no approval")
		p.plan(planName, old.Spec)
		mustDeny(submit(p.agent, p.call(planName, p.tools[reader], "step-1")), safety.ReasonToolHumanApprovalRequired)
		Expect(ledgerRecords("approval", p.ns)).To(ContainElement(HaveKeyWithValue("name", approval.Name)), "the ledger keeps it")
	})

	It("refuses an approval for a plan being deleted or ended, naming the field", func() {
		p := approvalRequired(nil)
		alice := newPerson()
		plan := &safetyv1alpha1.AgentPlan{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: planName}, plan)).To(Succeed())
		const hold = "example.com/hold"
		plan.Finalizers = append(plan.Finalizers, hold)
		Expect(k8sClient.Update(ctx, plan)).To(Succeed())
		Expect(k8sClient.Delete(ctx, plan)).To(Succeed())

		err := alice.client.Create(ctx, p.approval(alice.name, p.tools[reader], nil))
		Expect(reasonOf(err)).To(Equal(webhookv1alpha1.ReasonPlanNotFound), "%v", err)
		Expect(causeOf(err).Field).To(Equal("spec.plan"))
		Expect(err.Error()).To(ContainSubstring("is being deleted"))

		Eventually(func() error {
			held := &safetyv1alpha1.AgentPlan{}
			if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(plan), held); err != nil {
				return err
			}
			held.Finalizers = slices.DeleteFunc(held.Finalizers, func(f string) bool { return f == hold })
			return k8sClient.Update(ctx, held)
		}).WithTimeout(waitTimeout).Should(Succeed())

		By("an ended plan takes none either")
		p.unlockedPlan("ended", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted"), ServiceAccountName: "other",
			ActiveDeadlineSeconds: new(int64(1))})
		condition(p.ns, "ended", safetyv1alpha1.AgentPlanActiveCondition, metav1.ConditionFalse, safetyv1alpha1.AgentPlanDeadlineExceededReason)
		err = alice.client.Create(ctx, p.approval(alice.name, p.tools[reader], func(s *safetyv1alpha1.ToolApprovalSpec) { s.Plan = "ended" }))
		Expect(reasonOf(err)).To(Equal(webhookv1alpha1.ReasonPlanExpired), "%v", err)
		Expect(causeOf(err).Field).To(Equal("spec.plan"))
	})

	It("an expired approval admits nothing", func() {
		p := approvalRequired(nil)
		alice := newPerson()
		a := p.approve(alice, p.tools[reader], func(s *safetyv1alpha1.ToolApprovalSpec) { s.ExpirationSeconds = 1 })
		got := &safetyv1alpha1.ToolApproval{}
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(a), got)).To(Succeed())
		time.Sleep(time.Until(got.CreationTimestamp.Add(1100 * time.Millisecond)))
		mustDeny(submit(p.agent, p.call(planName, p.tools[reader], "step-1")), safety.ReasonToolHumanApprovalRequired, "it expired at")
		Expect(approvalStatus(a).Used).To(BeZero())
	})

	It("two concurrent calls cannot both use one single-use approval; a three-use approval admits exactly three of ten", func() {
		for _, uses := range []int32{1, 3} {
			p := approvalRequired(nil)
			alice := newPerson()
			a := p.approve(alice, p.tools[reader], func(s *safetyv1alpha1.ToolApprovalSpec) { s.Uses = uses })
			const callers = 10
			errs := make([]error, callers)
			var wg sync.WaitGroup
			for i := range callers {
				// Each its own path: ten identical calls would be a loop, and a call counted past the
				// loop limit that happens to take an approval first would be refused ToolLoopDetected.
				wg.Go(func() {
					errs[i] = submit(p.agent, p.call(planName, p.tools[reader], fmt.Sprintf("step-%d", i), fmt.Sprintf("src/%d.go", i)))
				})
			}
			wg.Wait()
			admitted := 0
			for _, err := range errs {
				if err == nil {
					admitted++
					continue
				}
				Expect(reasonOf(err)).To(Equal(safety.ReasonToolHumanApprovalRequired), "%v", err)
			}
			Expect(admitted).To(Equal(int(uses)))
			st := approvalStatus(a)
			Expect(st.Used).To(Equal(uses))
			Expect(st.UsedBy).To(HaveLen(int(uses)))
			Expect(p.storedCalls()).To(HaveLen(int(uses)))
		}
	})

	It("uses no approval on a call a later check denies, nor on a dry run", func() {
		p := approvalRequired(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxCostPerPlan = money("1") })
		alice := newPerson()
		a := p.approve(alice, p.tools[reader], func(s *safetyv1alpha1.ToolApprovalSpec) { s.Uses = 2 })

		By("a dry run is admitted but counts nothing")
		Expect(p.agent.Create(ctx, p.call(planName, p.tools[reader], "step-1"), client.DryRunAll)).To(Succeed())
		Expect(approvalStatus(a).Used).To(BeZero())

		By("the first call uses the approval; once the plan's cost reaches its limit the cost check denies, using nothing")
		first := p.call(planName, p.tools[reader], "step-1")
		mustAdmit(submit(p.agent, first))
		Expect(report(p.agent, first, safetyv1alpha1.CallPhaseSucceeded, "1")).To(Succeed())
		next := p.call(planName, p.tools[reader], "step-2")
		awaitDecision(p.agent, next, safety.ReasonToolCostLimitExceeded)
		mustDeny(submit(p.agent, next), safety.ReasonToolCostLimitExceeded)
		Expect(approvalStatus(a).Used).To(Equal(int32(1)))

		By("its record says it was decided with the approval applied, naming none used: the facts the rule decided on")
		var denied []map[string]any
		for _, r := range ledgerRecords("decision", p.ns) {
			if r["step"] == "step-2" {
				denied = append(denied, r)
			}
		}
		Expect(denied).NotTo(BeEmpty())
		Expect(denied).To(HaveEach(And(HaveKeyWithValue("decision", "deny"), HaveKeyWithValue("ruleId", "max-cost-per-plan"),
			Not(HaveKey("approval")), HaveKeyWithValue("facts", HaveKeyWithValue("humanApproved", true)))))
	})

	It("turns a rule's \"ask\" into an admission for exactly the approved command", func() {
		p := newProject(nil)
		shell := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: p.ns + "-shell"},
			Spec: safetyv1alpha1.AgentToolSpec{Writes: true, ActionClass: safetyv1alpha1.ActionClassExecute}}
		createCluster(shell)
		p.tools["shell"] = shell.Name
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: p.profile(profileWith(nil))})
		chmod := func(file string) *safetyv1alpha1.AgentToolCall {
			c := p.call(planName, shell.Name, "step-1")
			c.Spec.Arguments.Command = "chmod 777 " + file
			return c
		}
		mustDeny(submit(p.agent, chmod("build.sh")), safety.ReasonToolHumanApprovalRequired, "chmod-world-writable")
		alice := newPerson()
		p.approve(alice, shell.Name, func(s *safetyv1alpha1.ToolApprovalSpec) {
			s.Uses, s.Arguments = 2, chmod("build.sh").Spec.Arguments.DeepCopy()
		})
		mustDeny(submit(p.agent, chmod("deploy.sh")), safety.ReasonToolHumanApprovalRequired, "it is for other arguments")
		mustAdmit(submit(p.agent, chmod("build.sh")))
	})

	It("keeps an approval's spec immutable and its use count from going down", func() {
		p := approvalRequired(nil)
		alice := newPerson()
		a := p.approve(alice, p.tools[reader], nil)
		mustAdmit(submit(p.agent, p.call(planName, p.tools[reader], "step-1")))

		got := &safetyv1alpha1.ToolApproval{}
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(a), got)).To(Succeed())
		widened := got.DeepCopy()
		widened.Spec.Uses = 100
		err := k8sClient.Update(ctx, widened)
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring("spec is immutable"))

		reset := got.DeepCopy()
		reset.Status.Used = 0
		err = k8sClient.Status().Update(ctx, reset)
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring("used never decreases"))

		Expect(alice.client.Status().Update(ctx, reset)).NotTo(Succeed(), "approvers cannot write status")

		By("nor by taking the whole status away, where a rule on the status itself is not evaluated")
		err = k8sClient.Status().Patch(ctx, got.DeepCopy(), client.RawPatch(types.MergePatchType, []byte(`{"status":null}`)))
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring("used never decreases"))
		Expect(approvalStatus(a).Used).To(Equal(int32(1)))
		mustDeny(submit(p.agent, p.call(planName, p.tools[reader], "step-1")), safety.ReasonToolHumanApprovalRequired, "used 1 of 1 times")
	})
})

// bindApprover binds the shipped approver ClusterRole to a ServiceAccount: the misconfiguration
// the webhook must survive.
func bindApprover(ns, sa string) {
	GinkgoHelper()
	cs, err := kubernetes.NewForConfig(cluster.Config)
	Expect(err).NotTo(HaveOccurred())
	role, err := testenv.EnsureApproverRole(ctx, cs)
	Expect(err).NotTo(HaveOccurred())
	binding := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "approver-" + sa},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: role.Name},
		Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Namespace: ns, Name: sa}},
	}
	_, err = cs.RbacV1().RoleBindings(ns).Create(ctx, binding, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
}
