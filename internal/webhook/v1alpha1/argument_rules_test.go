package v1alpha1_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/replay"
	"github.com/toolgate/toolgate/internal/safety"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
)

// Argument rules through the real API server: a ProjectPolicy's CEL rules over a call's extra
// arguments admit or deny with their own reason, extra arguments beyond the bounds are refused
// naming spec.arguments.extra, a rule that does not compile is refused at admission naming its
// index, and a plan keeps the rules it locked.
var _ = Describe("argument rules", Ordered, func() {
	var (
		p   *project
		pay string
		pp  *safetyv1alpha1.ProjectPolicy
		ref *safetyv1alpha1.ProfileRef
	)

	BeforeAll(func() {
		p = newProject(nil)
		t := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: p.ns + "-pay"},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}}
		createCluster(t)
		pay = t.Name
		pp = &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "project"},
			Spec: safetyv1alpha1.ProjectPolicySpec{ArgumentRules: []safetyv1alpha1.ArgumentRule{
				{Name: "amount", Tools: []string{pay}, Expression: "args.amount < 400", Message: "payments stay below 400"},
				{Name: "recipient", Tools: []string{pay}, Expression: "args.recipient.endsWith('@example.com')"},
				{Name: "no-priority", Tools: []string{pay}, Expression: "!has(args.priority_send) || !args.priority_send"},
				{Name: "reports", Tools: []string{pay}, Expression: "paths.all(f, f.startsWith('/tmp/reports/'))"},
				{Name: "no-force", Tools: []string{pay}, Expression: "!has(args.options) || !has(args.options.force) || !args.options.force"},
				{Name: "no-forced-job", Tools: []string{pay}, Expression: "!has(args.jobs) || args.jobs.all(j, !has(j.force) || !j.force)"},
			}}}
		Expect(k8sClient.Create(ctx, pp)).To(Succeed())
		ref = p.profile(profileWith(nil))
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: ref})
	})

	payment := func(extra string) *safetyv1alpha1.AgentToolCall {
		c := p.call(planName, pay, "pay")
		if extra != "" {
			c.Spec.Arguments.Extra = &runtime.RawExtension{Raw: []byte(extra)}
		}
		return c
	}

	It("admits a call whose arguments satisfy every rule", func() {
		mustAdmit(submit(p.agent, payment(`{"amount": 399.5, "recipient": "ops@example.com", "memo": "rent"}`)))
	})

	It("records the arguments the rules read, so replay decides the same, and a tighter rule flips the admitted call", func() {
		mustDeny(submit(p.agent, payment(`{"amount": 450, "recipient": "ops@example.com"}`)),
			safety.ReasonToolArgumentRuleViolated, "argument rule amount")
		rep, err := replay.Replay(ctx, ledgerDir, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(flipsIn(rep, p.ns)).To(BeEmpty())
		Expect(rep.ByRule).To(HaveKeyWithValue(safety.RulePrefixArgumentRule+"amount",
			HaveField("Replayed", BeNumerically(">=", 1))), "the refusal was replayed, not skipped")

		tight := pp.DeepCopy()
		tight.TypeMeta = metav1.TypeMeta{APIVersion: safetyv1alpha1.GroupVersion.String(), Kind: "ProjectPolicy"}
		tight.Spec.ArgumentRules[0].Expression = "args.amount < 300"
		rep, err = replay.Replay(ctx, ledgerDir, []client.Object{tight})
		Expect(err).NotTo(HaveOccurred())
		Expect(flipsIn(rep, p.ns)).To(ConsistOf(And(HaveField("From", "allow"), HaveField("To", "deny"),
			HaveField("Rule", safety.RulePrefixArgumentRule+"amount"))), "the admitted payment of 399.5")
	})

	DescribeTable("denies, with its own reason, a call a rule refuses or cannot evaluate",
		func(extra string, phrases ...string) {
			msg := mustDeny(submit(p.agent, payment(extra), client.DryRunAll), safety.ReasonToolArgumentRuleViolated, phrases...)
			Expect(msg).NotTo(BeEmpty())
		},
		Entry("an amount at the limit", `{"amount": 400, "recipient": "ops@example.com"}`, "argument rule amount", "payments stay below 400"),
		Entry("a recipient elsewhere", `{"amount": 1, "recipient": "ops@example.com.evil.io"}`, "argument rule recipient", "endsWith"),
		Entry("an amount as a string", `{"amount": "1", "recipient": "ops@example.com"}`, "could not be evaluated", "no such overload"),
		Entry("no amount", `{"recipient": "ops@example.com"}`, "could not be evaluated", "no such key"),
		Entry("a look-alike amount key", `{"аmount": 1, "recipient": "ops@example.com"}`, "could not be evaluated"),
		Entry("no extra arguments at all", ``, "could not be evaluated"),
		// The rule judges the key absent; a Go tool (any case) or a Python one (camelCase alias)
		// would read the respelling as the key.
		Entry("a respelling of a key a rule reads", `{"amount": 1, "recipient": "ops@example.com", "prioritySend": true}`,
			"argument rule no-priority", "prioritySend", "respells", "priority_send"),
		// has() of a key of a string is false, so the rule judged no force in it; a tool that
		// decodes the text (the Python MCP SDK's servers do) reads force: true.
		Entry("options sent as JSON text, where the rule reads a key below them",
			`{"amount": 1, "recipient": "ops@example.com", "options": "{\"force\": true}"}`,
			"argument rule no-force", `"options" is a string holding JSON text`, "options.force"),
		// all() over a map binds its keys, strings without a force; a tool taking the map of jobs
		// runs the values.
		Entry("a map of jobs where the rule reads a key of each element of a list",
			`{"amount": 1, "recipient": "ops@example.com", "jobs": {"a": {"force": true}}}`,
			"argument rule no-forced-job", `"jobs" is an object, whose keys (strings) the rule iterates`, "jobs.*.force"),
	)

	It("judges the paths as the engine resolves them, not as the agent spelled them", func() {
		c := payment(`{"amount": 1, "recipient": "ops@example.com"}`)
		c.Spec.Arguments.Paths = []string{"/tmp/reports/../elsewhere/statement.pdf"}
		mustDeny(submit(p.agent, c, client.DryRunAll), safety.ReasonToolArgumentRuleViolated, "argument rule reports")
		c = payment(`{"amount": 1, "recipient": "ops@example.com"}`)
		c.Spec.Arguments.Paths = []string{"/tmp/reports/2026/../statement.pdf", "file:///tmp/reports/x.pdf"}
		mustAdmit(submit(p.agent, c, client.DryRunAll))
	})

	DescribeTable("refuses extra arguments beyond the bounds, naming spec.arguments.extra, before any rule runs",
		func(extra, phrase string) {
			err := submit(p.agent, payment(extra))
			mustDeny(err, webhookv1alpha1.ReasonBadRequest, phrase)
			Expect(causeOf(err).Field).To(Equal(policy.FieldExtra))
		},
		Entry("too large", `{"amount": 1, "recipient": "ops@example.com", "memo": "`+strings.Repeat("x", 20<<10)+`"}`, "as canonical JSON"),
		Entry("too deep", `{"amount": 1, "recipient": "ops@example.com", "memo": `+strings.Repeat(`{"a":`, 20)+"1"+strings.Repeat("}", 20)+`}`, "deeper than 16"),
		Entry("a huge array", `{"amount": 1, "recipient": "ops@example.com", "memo": [`+strings.Repeat("0,", 1500)+`0]}`, "more than 1024 values"),
		Entry("a full-width key", `{"ａｍｏｕｎｔ": 1, "amount": 1, "recipient": "ops@example.com"}`, "NFKC"),
		Entry("a NUL a C library would end the recipient at", `{"amount": 1, "recipient": "x@evil.io\u0000@example.com"}`,
			"recipient holds a NUL character"),
		Entry("keys that differ only in case", `{"Amount": 100000, "amount": 1, "recipient": "ops@example.com"}`, "differ only in case"),
	)

	It("stores nothing for a refused call", func() {
		Expect(countTool(p.storedCalls(), pay)).To(Equal(1), "only the admitted payment is stored")
	})

	It("keeps the rules a plan locked when the ProjectPolicy changes", func() {
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(pp), pp)).To(Succeed())
		pp.Spec.ArgumentRules[0].Expression = "args.amount < 10"
		Expect(k8sClient.Update(ctx, pp)).To(Succeed())
		mustAdmit(submit(p.agent, payment(`{"amount": 399, "recipient": "ops@example.com"}`), client.DryRunAll))

		// A plan locked after the edit (its own ServiceAccount: one active plan per agent) gets it.
		second := p.newAgent("second")
		p.plan("later", safetyv1alpha1.AgentPlanSpec{ProfileRef: ref, ServiceAccountName: "second"})
		later := payment(`{"amount": 399, "recipient": "ops@example.com"}`)
		later.Spec.Plan = "later"
		mustDeny(submit(second, later, client.DryRunAll), safety.ReasonToolArgumentRuleViolated, "argument rule amount")
	})

	It("admits a refused call as would_deny under a Warn profile, with the rule's warning", func() {
		q := newProject(nil)
		t := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: q.ns + "-pay"},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}}
		createCluster(t)
		Expect(k8sClient.Create(ctx, &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: q.ns, Name: "project"},
			Spec: safetyv1alpha1.ProjectPolicySpec{ArgumentRules: []safetyv1alpha1.ArgumentRule{
				{Name: "amount", Expression: "args.amount < 400"}}}})).To(Succeed())
		q.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: q.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) {
			s.EnforcementMode = safetyv1alpha1.EnforcementModeWarn
		}))})
		agent, w := q.agentWithWarnings()
		c := q.call(planName, t.Name, "pay")
		c.Spec.Arguments.Extra = &runtime.RawExtension{Raw: []byte(`{"amount": 500}`)}
		mustAdmit(submit(agent, c))
		Expect(w.list()).To(ContainElement(ContainSubstring("[ToolArgumentRuleViolated] argument rule amount")))
	})

	DescribeTable("refuses at admission a rule that does not compile, naming its index",
		func(rule safetyv1alpha1.ArgumentRule, phrase string) {
			bad := &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: newProject(nil).ns, Name: "project"},
				Spec: safetyv1alpha1.ProjectPolicySpec{ArgumentRules: []safetyv1alpha1.ArgumentRule{
					{Name: "fine", Expression: "true"}, rule}}}
			err := k8sClient.Create(ctx, bad)
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "want 422 Invalid, got %v", err)
			Expect(err.Error()).To(ContainSubstring("spec.argumentRules[1].expression"))
			Expect(err.Error()).To(ContainSubstring(phrase))
		},
		Entry("a syntax error", safetyv1alpha1.ArgumentRule{Name: "bad", Expression: "args.amount <"}, "does not compile"),
		Entry("an unknown variable", safetyv1alpha1.ArgumentRule{Name: "bad", Expression: "amount < 400"}, "undeclared reference"),
		Entry("not a bool", safetyv1alpha1.ArgumentRule{Name: "bad", Expression: "size(command)"}, "must evaluate to a bool"),
		Entry("an estimated cost over the limit",
			safetyv1alpha1.ArgumentRule{Name: "bad", Expression: "args.items.all(x, args.items.all(y, x == y))"}, "estimated cost"),
	)

	It("refuses at admission a rule for a tool name no AgentTool can have, naming it", func() {
		bad := &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: newProject(nil).ns, Name: "project"},
			Spec: safetyv1alpha1.ProjectPolicySpec{ArgumentRules: []safetyv1alpha1.ArgumentRule{
				{Name: "no-force", Tools: []string{"bash", "Bash"}, Expression: "true"}}}}
		err := k8sClient.Create(ctx, bad)
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "want 422 Invalid, got %v", err)
		Expect(err.Error()).To(And(ContainSubstring("spec.argumentRules[0].tools[1]"), ContainSubstring("would apply to no tool")))
		Expect(err.Error()).NotTo(ContainSubstring("tools[0]"))
	})
})

func countTool(calls []safetyv1alpha1.AgentToolCall, tool string) int {
	n := 0
	for _, c := range calls {
		if c.Spec.Tool == tool {
			n++
		}
	}
	return n
}
