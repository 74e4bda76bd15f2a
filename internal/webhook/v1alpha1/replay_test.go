package v1alpha1_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/replay"
	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/pkg/agent"
)

// replaySuiteLedger is the acceptance check the suite ends with: every decision the suite's
// webhook made, replayed under the snapshot its plan was locked with, comes out as recorded.
func replaySuiteLedger() {
	rep, err := replay.Replay(ctx, ledgerDir, nil)
	Expect(err).NotTo(HaveOccurred())
	var human bytes.Buffer
	replay.WriteHuman(&human, rep)
	GinkgoWriter.Println(human.String())
	Expect(rep.Flips).To(BeEmpty(), "replaying the suite's own decisions under their own snapshots")
	Expect(rep.Unchanged).To(Equal(rep.Replayed))
	Expect(rep.RuleChanged).To(BeEmpty(), "every denial's record holds the facts its rule decided on")
}

func flipsIn(rep replay.Report, ns string) []replay.Flip {
	var out []replay.Flip
	for _, f := range rep.Flips {
		if f.Namespace == ns {
			out = append(out, f)
		}
	}
	return out
}

var _ = Describe("replaying the ledger", func() {
	It("reproduces every decision under its own snapshot, and a candidate policy flips exactly the decisions it changes", func() {
		n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "replay-"}}
		Expect(k8sClient.Create(ctx, n)).To(Succeed())
		ns := n.Name
		coder, err := testenv.Agent(ctx, cluster.Config, cluster.Scheme, ns, "coder")
		Expect(err).NotTo(HaveOccurred())
		profile := func(sandbox bool) *safetyv1alpha1.SafetyProfile {
			return &safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: ns + "-sp"}, Spec: safetyv1alpha1.SafetyProfileSpec{
				RequireSandbox: new(sandbox), RequireCheckpoints: new(false), RequireHumanApproval: new(false)}}
		}
		Expect(k8sClient.Create(ctx, profile(true))).To(Succeed())
		for _, t := range []*safetyv1alpha1.AgentTool{
			{ObjectMeta: metav1.ObjectMeta{Name: ns + "-read"}, Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}},
			{ObjectMeta: metav1.ObjectMeta{Name: ns + "-write"}, Spec: safetyv1alpha1.AgentToolSpec{Writes: true, ActionClass: safetyv1alpha1.ActionClassWrite}},
		} {
			Expect(k8sClient.Create(ctx, t)).To(Succeed())
		}
		Expect(k8sClient.Create(ctx, &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "p"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "coder",
				ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: ns + "-sp"}}})).To(Succeed())
		call := func(name, tool, sandbox string, paths ...string) *safetyv1alpha1.AgentToolCall {
			return &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
				Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "p", Tool: ns + "-" + tool, Step: name, SandboxID: sandbox,
					Arguments: safetyv1alpha1.ToolArguments{Paths: paths}}}
		}
		Expect(agent.Submit(ctx, coder, call("read-src", "read", "", "src/a.go"))).To(Succeed())
		Expect(agent.Submit(ctx, coder, call("read-secret", "read", "", "secrets/db.txt"))).To(Succeed())
		Expect(agent.Submit(ctx, coder, call("write-sandboxed", "write", "sb", "src/b.go"))).To(Succeed())
		Expect(agent.ReasonOf(agent.Submit(ctx, coder, call("write-bare", "write", "", "src/c.go")))).To(Equal("ToolSandboxRequired"))
		Expect(agent.ReasonOf(agent.Submit(ctx, coder, call("read-env", "read", "", ".env")))).NotTo(BeEmpty())

		By("under the recorded snapshots: nothing flips")
		rep, err := replay.Replay(ctx, ledgerDir, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Verified).To(BeTrue(), rep.VerifySummary)
		Expect(rep.Flips).To(BeEmpty())

		By("under a tightened project policy and a looser profile, from YAML files as the CLI reads them")
		dir := GinkgoT().TempDir()
		tight := &safetyv1alpha1.ProjectPolicy{TypeMeta: metav1.TypeMeta{APIVersion: safetyv1alpha1.GroupVersion.String(), Kind: "ProjectPolicy"},
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "project"},
			Spec:       safetyv1alpha1.ProjectPolicySpec{PathPolicy: &safetyv1alpha1.PathPolicy{ZeroAccess: []string{"secrets/"}}}}
		loose := profile(false)
		loose.TypeMeta = metav1.TypeMeta{APIVersion: safetyv1alpha1.GroupVersion.String(), Kind: "SafetyProfile"}
		var docs []byte
		for _, o := range []client.Object{tight, loose} {
			b, err := yaml.Marshal(o)
			Expect(err).NotTo(HaveOccurred())
			docs = append(append(docs, b...), []byte("---\n")...)
		}
		file := filepath.Join(dir, "candidate.yaml")
		Expect(os.WriteFile(file, docs, 0o600)).To(Succeed())
		var out bytes.Buffer
		code := replay.Run(ctx, replay.Options{Ledger: ledgerDir, Files: []string{file}, JSON: true}, &out, GinkgoWriter)
		Expect(code).To(Equal(replay.ExitFlips), out.String())
		var got replay.Report
		Expect(json.Unmarshal(out.Bytes(), &got)).To(Succeed())
		mine := flipsIn(got, ns)
		Expect(mine).To(HaveLen(2), out.String())
		Expect(mine[0]).To(And(HaveField("Call", "write-bare"), HaveField("From", "deny"), HaveField("To", "allow"),
			HaveField("RecordedRule", "require-sandbox")), "deny→allow comes first")
		Expect(mine[1]).To(And(HaveField("Call", "read-secret"), HaveField("From", "allow"), HaveField("To", "deny"),
			HaveField("Rule", "path-policy:zeroAccess")))
		Expect(got.ByRule).To(HaveKeyWithValue("path-policy:zeroAccess", HaveField("Flipped", BeNumerically(">=", 1))))

		By("the human report names the flips")
		out.Reset()
		Expect(replay.Run(ctx, replay.Options{Ledger: ledgerDir, Files: []string{file}}, &out, GinkgoWriter)).To(Equal(replay.ExitFlips))
		Expect(out.String()).To(And(ContainSubstring("deny→allow"), ContainSubstring("write-bare"), ContainSubstring("read-secret")))
	})
	It("re-decides a plan under the configuration its lock saw, not under edits the running plan never saw", func() {
		n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "replay-lock-"}}
		Expect(k8sClient.Create(ctx, n)).To(Succeed())
		ns := n.Name
		coder, err := testenv.Agent(ctx, cluster.Config, cluster.Scheme, ns, "coder")
		Expect(err).NotTo(HaveOccurred())
		sp := &safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: ns + "-sp"}, Spec: safetyv1alpha1.SafetyProfileSpec{
			RequireSandbox: new(true), RequireCheckpoints: new(false), RequireHumanApproval: new(false)}}
		Expect(k8sClient.Create(ctx, sp)).To(Succeed())
		tool := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: ns + "-write"},
			Spec: safetyv1alpha1.AgentToolSpec{Writes: true, ActionClass: safetyv1alpha1.ActionClassWrite}}
		Expect(k8sClient.Create(ctx, tool)).To(Succeed())
		Expect(k8sClient.Create(ctx, &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "p"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "coder",
				ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: sp.Name}}})).To(Succeed())
		write := func(name string) error {
			return agent.Submit(ctx, coder, &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
				Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "p", Tool: tool.Name, Step: name,
					Arguments: safetyv1alpha1.ToolArguments{Paths: []string{"src/a.go"}}}})
		}
		Expect(agent.ReasonOf(write("before-edit"))).To(Equal("ToolSandboxRequired"))
		By("the profile loses its sandbox rule; the running plan keeps it")
		Expect(retry.RetryOnConflict(retry.DefaultRetry, func() error {
			if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(sp), sp); err != nil {
				return err
			}
			sp.Spec.RequireSandbox = new(false)
			return k8sClient.Update(ctx, sp)
		})).To(Succeed())
		Expect(agent.ReasonOf(write("after-edit"))).To(Equal("ToolSandboxRequired"))

		By("a candidate that changes nothing these calls touch flips none of them")
		unrelated := &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "project"},
			Spec: safetyv1alpha1.ProjectPolicySpec{PathPolicy: &safetyv1alpha1.PathPolicy{ZeroAccess: []string{"vault/"}}}}
		rep, err := replay.Replay(ctx, ledgerDir, []client.Object{unrelated})
		Expect(err).NotTo(HaveOccurred())
		Expect(flipsIn(rep, ns)).To(BeEmpty())
		Expect(rep.ByRule).To(HaveKeyWithValue("require-sandbox", HaveField("Replayed", BeNumerically(">=", 2))))
	})
})
