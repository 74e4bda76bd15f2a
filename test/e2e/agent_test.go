//go:build e2e

package e2e

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/pkg/agent"
)

var _ = Describe("an agent with a real ServiceAccount token, against the manager binary", Ordered, func() {
	var coder client.Client
	const ns = "payments"

	BeforeAll(func() {
		Expect(local.ApplySamples(ctx, GinkgoWriter)).To(Succeed())
		var err error
		coder, err = testenv.Agent(ctx, local.Admin, k8sClient.Scheme(), ns, "coding-agent")
		Expect(err).NotTo(HaveOccurred())
		awaitLocked(ns, "fix-rounding-bug")
	})

	call := func(name, tool, sandbox, command string, paths ...string) *safetyv1alpha1.AgentToolCall {
		return &safetyv1alpha1.AgentToolCall{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "fix-rounding-bug", Tool: tool, Step: name, SandboxID: sandbox,
				Arguments: safetyv1alpha1.ToolArguments{Command: command, Paths: paths}},
		}
	}

	It("is admitted for a checkpointable write inside its sandbox, and reports its cost", func() {
		c := call("e2e-write", "write-file", "sb-1", "", "src/refunds/round.go")
		Expect(agent.Submit(ctx, coder, c)).To(Succeed())
		c.Status = safetyv1alpha1.AgentToolCallStatus{
			Phase: safetyv1alpha1.CallPhaseSucceeded, Cost: new(resource.MustParse("0.25")),
		}
		Expect(agent.Report(ctx, coder, c)).To(Succeed())
		Eventually(func(g Gomega) string {
			p := &safetyv1alpha1.AgentPlan{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "fix-rounding-bug"}, p)).To(Succeed())
			return p.Status.Usage.AccumulatedCost
		}).WithTimeout(30e9).Should(Equal("0.25"))
	})

	It("is denied with a typed reason it can act on, and the denied call is never stored", func() {
		err := agent.Submit(ctx, coder, call("e2e-nosandbox", "write-file", "", "", "src/refunds/round.go"))
		_, isSandbox := errors.AsType[*agent.ToolSandboxRequiredError](err)
		Expect(isSandbox).To(BeTrue(), "got %v", err)
		Expect(err.Error()).To(ContainSubstring("require_sandbox"))

		err = agent.Submit(ctx, coder, call("e2e-secrets", "shell", "sb-1", "bash -c 'cat ./src/../.env'"))
		Expect(agent.ReasonOf(err)).To(Equal("ToolAccessDenied"))
		stored := &safetyv1alpha1.AgentToolCall{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "e2e-secrets"}, stored)).NotTo(Succeed())
	})

	It("cannot submit for a plan that belongs to another ServiceAccount", func() {
		intruder, err := testenv.Agent(ctx, local.Admin, k8sClient.Scheme(), ns, "intruder")
		Expect(err).NotTo(HaveOccurred())
		err = agent.Submit(ctx, intruder, call("e2e-intruder", "read-file", "", "", "README.md"))
		Expect(agent.ReasonOf(err)).To(Equal("AgentIdentityMismatch"))
	})

	It("keeps its locked profile when the profile is edited; a new plan gets the edit", func() {
		Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
			sp := &safetyv1alpha1.SafetyProfile{}
			if err := k8sClient.Get(ctx, client.ObjectKey{Name: "payments-team"}, sp); err != nil {
				return err
			}
			sp.Spec.RequireSandbox = new(false)
			return k8sClient.Update(ctx, sp)
		})).To(Succeed())
		err := agent.Submit(ctx, coder, call("e2e-nosandbox-2", "write-file", "", "", "src/refunds/round.go"))
		Expect(agent.ReasonOf(err)).To(Equal("ToolSandboxRequired"), "the running plan must keep requiring a sandbox")

		// A new plan for another agent: coding-agent's one pod-less plan is fix-rounding-bug.
		refactorer, err := testenv.Agent(ctx, local.Admin, k8sClient.Scheme(), ns, "refactor-agent")
		Expect(err).NotTo(HaveOccurred())
		fresh := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "after-edit"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "refactor-agent", Action: "refactor"}}
		Expect(k8sClient.Create(ctx, fresh)).To(Succeed())
		awaitLocked(ns, fresh.Name)
		c := call("e2e-after-edit", "write-file", "", "", "src/refunds/round.go")
		c.Spec.Plan = "after-edit"
		Expect(agent.Submit(ctx, refactorer, c)).To(Succeed())
	})
})
