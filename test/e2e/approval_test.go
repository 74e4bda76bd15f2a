//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/pkg/agent"
)

var approveInDenial = regexp.MustCompile(`kubectl toolgate approve .*$`)

var _ = Describe("a human approval, through kubectl and the plugin, against the manager binary", func() {
	It("denies the agent; a person runs the command the denial names; the agent is admitted", func() {
		Expect(local.ApplySamples(ctx, GinkgoWriter)).To(Succeed())
		const ns = "payments"
		// Its own ServiceAccount: coding-agent's pod-less plan is the samples' fix-rounding-bug.
		coder, err := testenv.Agent(ctx, local.Admin, k8sClient.Scheme(), ns, "supervised-agent")
		Expect(err).NotTo(HaveOccurred())
		plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "e2e-supervised"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "supervised-agent",
				ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindAutomationProfile, Name: "supervised"}}}
		Expect(k8sClient.Create(ctx, plan)).To(Succeed())
		awaitLocked(ns, plan.Name)
		call := func(name string) *safetyv1alpha1.AgentToolCall {
			return &safetyv1alpha1.AgentToolCall{
				ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
				Spec: safetyv1alpha1.AgentToolCallSpec{Plan: plan.Name, Tool: "read-file", Step: "read-readme",
					Arguments: safetyv1alpha1.ToolArguments{Paths: []string{"README.md"}}},
			}
		}

		By("the agent is denied, and told the command that approves the call")
		err = agent.Submit(ctx, coder, call("e2e-approval-1"))
		Expect(agent.ReasonOf(err)).To(Equal("ToolHumanApprovalRequired"), "%v", err)
		m := approveInDenial.FindStringSubmatch(err.Error())
		Expect(m).NotTo(BeNil(), err.Error())

		By("a person with the shipped approver role runs it as a kubectl plugin")
		alice, err := testenv.Person(ctx, local.Env, k8sClient.Scheme(), "alice@example.com")
		Expect(err).NotTo(HaveOccurred())
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "kubeconfig"), alice.Kubeconfig, 0o600)).To(Succeed())
		root, err := testenv.RepoRoot()
		Expect(err).NotTo(HaveOccurred())
		plugin := filepath.Join(dir, "kubectl-toolgate")
		build := exec.CommandContext(ctx, "go", "build", "-o", plugin, "./cmd/kubectl-toolgate")
		build.Dir = root
		out, err := build.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		// Pasted into a shell, as a person would: kubectl finds the plugin on the PATH.
		kubectl := exec.CommandContext(ctx, "sh", "-c", m[0])
		kubectl.Env = append(os.Environ(), "KUBECONFIG="+filepath.Join(dir, "kubeconfig"),
			"PATH="+dir+":"+filepath.Dir(local.Kubectl)+":"+os.Getenv("PATH"))
		out, err = kubectl.CombinedOutput()
		GinkgoWriter.Printf("kubectl toolgate approve: %s\n", out)
		Expect(err).NotTo(HaveOccurred(), string(out))

		By("the agent's retry is admitted, once")
		Expect(agent.Submit(ctx, coder, call("e2e-approval-2"))).To(Succeed())
		Expect(agent.ReasonOf(agent.Submit(ctx, coder, call("e2e-approval-3")))).To(Equal("ToolHumanApprovalRequired"))

		var approvals safetyv1alpha1.ToolApprovalList
		Expect(k8sClient.List(ctx, &approvals, client.InNamespace(ns))).To(Succeed())
		Expect(approvals.Items).To(HaveLen(1))
		Expect(approvals.Items[0].Spec.Approver).To(Equal("alice@example.com"))
		Expect(approvals.Items[0].Status.UsedBy).To(ConsistOf(HaveField("Call", "e2e-approval-2")))

		By("the manager's ledger holds the approval and its use")
		tail := exec.CommandContext(ctx, plugin, "ledger", "tail", local.LedgerDir, "-n", "50")
		out, err = tail.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		lineWith := func(parts ...string) bool {
			for line := range strings.SplitSeq(string(out), "\n") {
				all := true
				for _, p := range parts {
					all = all && strings.Contains(line, p)
				}
				if all {
					return true
				}
			}
			return false
		}
		approval := `"approval":"payments/` + approvals.Items[0].Name + `"`
		approved := lineWith(`"kind":"approval"`, `"approver":"alice@example.com"`, `"decision":"allow"`)
		Expect(approved).To(BeTrue(), string(out))
		Expect(lineWith(approval, `"call":"e2e-approval-2"`)).To(BeTrue(), string(out))
	})
})
