//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/replay"
	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/pkg/agent"
)

var _ = Describe("kubectl toolgate replay, on the manager's own ledger", func() {
	It("replays every decision so far with no flip, and flips the call a tightened profile would deny", func() {
		ns, open, tool, _ := lockedNamespace("replay-", safetyv1alpha1.SafetyProfileSpec{
			RequireSandbox: new(false), RequireCheckpoints: new(false)})
		coder, err := testenv.Agent(ctx, local.Admin, k8sClient.Scheme(), ns, "agent")
		Expect(err).NotTo(HaveOccurred())
		Expect(agent.Submit(ctx, coder, &safetyv1alpha1.AgentToolCall{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "read-1"},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "p", Tool: tool, Step: "read",
				Arguments: safetyv1alpha1.ToolArguments{Paths: []string{"src/main.go"}}},
		})).To(Succeed())
		kc := pluginKubeconfig()
		report := func(args ...string) (replay.Report, int) {
			GinkgoHelper()
			line := append([]string{"toolgate", "replay", "--ledger", local.LedgerDir, "-o", "json"}, args...)
			out, errOut, code := kubectlPlugin(kc, line...)
			var rep replay.Report
			Expect(json.Unmarshal([]byte(out), &rep)).To(Succeed(), errOut)
			return rep, code
		}

		By("under the snapshots the plans were locked with, nothing flips")
		rep, code := report()
		Expect(code).To(Equal(replay.ExitNoFlips), "%+v", rep.Flips)
		Expect(rep.Verified).To(BeTrue(), rep.VerifySummary)
		Expect(rep.Flips).To(BeEmpty())
		Expect(rep.Replayed).To(BeNumerically(">=", 1))

		By("under the same profile denying the tool, the admitted read flips to deny, and nothing else")
		tight := open.DeepCopy()
		tight.Spec.DeniedTools = []string{tool}
		tight.TypeMeta = metav1.TypeMeta{APIVersion: safetyv1alpha1.GroupVersion.String(), Kind: "SafetyProfile"}
		data, err := yaml.Marshal(tight)
		Expect(err).NotTo(HaveOccurred())
		file := filepath.Join(GinkgoT().TempDir(), "tight.yaml")
		Expect(os.WriteFile(file, data, 0o600)).To(Succeed())
		rep, code = report("-f", file)
		Expect(code).To(Equal(replay.ExitFlips))
		Expect(rep.Flips).To(ConsistOf(And(
			HaveField("Ref.Namespace", ns), HaveField("Ref.Call", "read-1"),
			HaveField("From", "allow"), HaveField("To", "deny"))))
	})
})
