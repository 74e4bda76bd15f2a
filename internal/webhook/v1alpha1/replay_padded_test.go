package v1alpha1_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/replay"
	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/pkg/agent"
)

// An agent that pads its arguments past the ledger's string limit would choose which of its
// decisions an auditor can re-check: a cut argument no longer hashes to argumentsDigest, and
// replay must skip it. Under the default configuration every argument the schema admits is
// recorded whole.
var _ = Describe("replaying padded arguments", func() {
	It("replays decisions whose arguments are as long as the schema admits, under the default configuration", func() {
		n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "replay-pad-"}}
		Expect(k8sClient.Create(ctx, n)).To(Succeed())
		ns := n.Name
		coder, err := testenv.Agent(ctx, cluster.Config, cluster.Scheme, ns, "coder")
		Expect(err).NotTo(HaveOccurred())
		sp := &safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: ns + "-sp"}, Spec: safetyv1alpha1.SafetyProfileSpec{
			RequireSandbox: new(false), RequireCheckpoints: new(false), RequireHumanApproval: new(false)}}
		Expect(k8sClient.Create(ctx, sp)).To(Succeed())
		for _, t := range []*safetyv1alpha1.AgentTool{
			{ObjectMeta: metav1.ObjectMeta{Name: ns + "-read"}, Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}},
			{ObjectMeta: metav1.ObjectMeta{Name: ns + "-shell"}, Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassExecute}},
		} {
			Expect(k8sClient.Create(ctx, t)).To(Succeed())
		}
		Expect(k8sClient.Create(ctx, &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "p"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "coder",
				ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: sp.Name}}})).To(Succeed())
		call := func(name, tool string, args safetyv1alpha1.ToolArguments) *safetyv1alpha1.AgentToolCall {
			return &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
				Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "p", Tool: ns + "-" + tool, Step: name,
					SandboxID: "sbx-" + strings.Repeat("é", 249), Arguments: args}}
		}
		// The schema counts characters; the ledger counts bytes: 8192 four-byte runes are 32 KiB.
		pad := strings.Repeat(" ", 2000) + "# " + strings.Repeat("𝔭", 8192-2010)
		_ = agent.Submit(ctx, coder, call("padded-ls", "shell", safetyv1alpha1.ToolArguments{Command: "ls src" + pad}))
		Expect(agent.ReasonOf(agent.Submit(ctx, coder, call("padded-force-push", "shell",
			safetyv1alpha1.ToolArguments{Command: "git push --force origin main" + pad[:3000]})))).NotTo(BeEmpty())
		wide := "src/" + strings.Repeat("é", 1020)
		Expect(agent.Submit(ctx, coder, call("wide-path", "read", safetyv1alpha1.ToolArguments{
			Paths: []string{wide, strings.ToUpper(wide)}, Cwd: "/w/" + strings.Repeat("ü", 1020)}))).To(Succeed())
		Expect(agent.Submit(ctx, coder, call("long-extra", "read", safetyv1alpha1.ToolArguments{Paths: []string{"src/a.go"},
			Extra: &runtime.RawExtension{Raw: []byte(`{"note":"` + strings.Repeat("x", 12000) + `"}`)}}))).To(Succeed())

		rep, err := replay.Replay(ctx, ledgerDir, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Verified).To(BeTrue(), rep.VerifySummary)
		Expect(flipsIn(rep, ns)).To(BeEmpty())
		for _, u := range rep.Unreplayable { // a plan still locking refuses before the engine: not ours
			if u.Namespace == ns {
				Expect(u.Why).NotTo(HavePrefix(replay.WhyArgsAltered), u.Call)
			}
		}
	})
})
