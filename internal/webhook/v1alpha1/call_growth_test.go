package v1alpha1_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// Every call is refused past maxCallValues, updates too. An agent that padded its own call to
// just under that bound would have its cost reporter's report refused, and the call would count
// only its reservation: so the agent may grow a call only to maxGrowableValues, and the rest is
// the reporter's and the operator's.
var _ = Describe("AgentToolCall growth: the agent cannot crowd out its cost reporter", func() {
	It("refuses a call padded past the agent's share, and counts the reporter's report on one padded to its edge", func() {
		p := newProject(nil)
		meter := p.newAgent("meter")
		tool := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: p.ns + "-llm"},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead, CostPerCall: new(resource.MustParse("0.1"))}}
		createCluster(tool)
		ref := p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxCostPerPlan = money("1") }))
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: ref,
			CostReporter: &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount, Name: "meter"}})
		padded := func(name string, n int) *safetyv1alpha1.AgentToolCall {
			c := p.call(planName, tool.Name, "pad", "src/a.go")
			c.GenerateName, c.Name = "", name
			c.Annotations = make(map[string]string, n)
			for i := range n {
				c.Annotations[fmt.Sprintf("example.com/a%05d", i)] = ""
			}
			return c
		}

		By("a call padded past the share is refused, naming metadata, and nothing is stored")
		err := submit(p.agent, padded("too-big", 9000))
		mustDeny(err, "BadRequest", "JSON values (labels, annotations, field managers, arguments), more than", "kept for the reports")
		Expect(causeOf(err).Field).To(Equal("metadata"))
		Expect(p.storedCalls()).To(BeEmpty())

		By("the largest padding the gate admits, found with dry runs (nothing is counted)")
		lo, hi := 0, 9000 // lo is admitted, hi refused
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			if err := submit(p.agent, padded("probe", mid), client.DryRunAll); err == nil {
				lo = mid
			} else {
				mustDeny(err, "BadRequest", "kept for the reports")
				hi = mid
			}
		}
		Expect(lo).To(BeNumerically(">", 5000))
		call := padded("edge", lo)
		mustAdmit(submit(p.agent, call))

		By("the agent cannot grow it further, not even by a report under a field manager of its own")
		call.Status.Phase = safetyv1alpha1.CallPhaseRunning
		err = p.agent.Status().Update(ctx, call, &client.SubResourceUpdateOptions{UpdateOptions: client.UpdateOptions{FieldManager: "padding"}})
		mustDeny(err, "BadRequest", "kept for the reports")

		By("the reporter's report is taken and counted, so the budget holds")
		Expect(report(meter, call, safetyv1alpha1.CallPhaseSucceeded, "5")).To(Succeed())
		Expect(storedPlan(counters, p.ns, planName).Status.Usage.AccumulatedCost).To(Equal("5"))
		mustDeny(submit(p.agent, p.call(planName, tool.Name, "next", "src/b.go")), safety.ReasonToolCostLimitExceeded)
	})

	It("refuses owner references and foreign finalizers added after the create", func() {
		p := newProject(nil)
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinUnrestricted)})
		call := p.call(planName, p.tools[reader], "a", "src/a.go")
		mustAdmit(submit(p.agent, call))
		// Not the operator, whose own updates are its business: an administrator, alice.
		cfg := rest.CopyConfig(cluster.Config)
		cfg.Impersonate = rest.ImpersonationConfig{UserName: "alice", Groups: []string{"system:masters"}}
		admin, err := client.New(cfg, client.Options{Scheme: cluster.Scheme})
		Expect(err).NotTo(HaveOccurred())
		stored := &safetyv1alpha1.AgentToolCall{}
		Expect(admin.Get(ctx, client.ObjectKeyFromObject(call), stored)).To(Succeed())
		withFinalizer := stored.DeepCopy()
		withFinalizer.Finalizers = append(withFinalizer.Finalizers, "example.com/never")
		err = admin.Update(ctx, withFinalizer)
		mustDeny(err, "InvalidUpdate", `finalizer "example.com/never"`)
		Expect(causeOf(err).Field).To(Equal("metadata.finalizers"))
		withOwner := stored.DeepCopy()
		withOwner.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "x", UID: "0c1d6a36-7b39-4f3c-9d7e-5d6c1e0b9a11"}}
		err = admin.Update(ctx, withOwner)
		mustDeny(err, "InvalidUpdate", "owner references")
		By("the near miss: a label of the call's own is still the admin's to add")
		labelled := stored.DeepCopy()
		labelled.Labels = map[string]string{"team": "a"}
		Expect(admin.Update(ctx, labelled)).To(Succeed())
	})
})
