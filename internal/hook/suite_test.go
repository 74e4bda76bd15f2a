package hook_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/testenv"
)

var (
	ctx       context.Context
	cluster   *testenv.Cluster
	k8sClient client.Client
	// hookBinary is cmd/toolgate-hook, built once for the suite.
	hookBinary string
	// caFile verifies the test API server, as a pod's mounted ca.crt does.
	caFile string
	// ledgerDir holds the operator's ledger.
	ledgerDir string
)

func TestHook(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Hook Suite")
}

var _ = BeforeSuite(func() {
	// Background work (flushers that tick each second, controllers under CI load) is waited for,
	// never raced: gomega's 1-second default is shorter than one flush tick.
	SetDefaultEventuallyTimeout(30 * time.Second)
	SetDefaultEventuallyPollingInterval(20 * time.Millisecond)
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	ctx = context.Background()
	ledgerDir = GinkgoT().TempDir()
	var err error
	cluster, err = testenv.StartOperator(ledgerDir, "envtest")
	Expect(err).NotTo(HaveOccurred())
	k8sClient = cluster.Client

	By("building cmd/toolgate-hook, the binary a coding agent's settings run")
	root, err := testenv.RepoRoot()
	Expect(err).NotTo(HaveOccurred())
	dir := GinkgoT().TempDir()
	hookBinary = filepath.Join(dir, "toolgate-hook")
	build := exec.Command("go", "build", "-o", hookBinary, "./cmd/toolgate-hook")
	build.Dir = root
	out, err := build.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "%s", out)
	caFile = filepath.Join(dir, "ca.crt")
	Expect(os.WriteFile(caFile, cluster.Config.CAData, 0o600)).To(Succeed())
})

var _ = AfterSuite(func() {
	if cluster != nil {
		Expect(cluster.Stop()).To(Succeed())
	}
})

// testNamespace makes a namespace named from prefix for one container of the suite.
func testNamespace(prefix string) string {
	GinkgoHelper()
	n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix}}
	Expect(k8sClient.Create(ctx, n)).To(Succeed())
	return n.Name
}

// agentTokenFile is the file a pod's projected volume would mount: a token of ServiceAccount sa
// bound to pod in ns (both made if missing), as the hook reads it with --token-file.
func agentTokenFile(ns, sa, pod string) string {
	GinkgoHelper()
	agent, err := testenv.AgentPod(ctx, cluster.Config, cluster.Scheme, ns, sa, pod)
	Expect(err).NotTo(HaveOccurred())
	f := filepath.Join(GinkgoT().TempDir(), "token")
	Expect(os.WriteFile(f, []byte(agent.Config.BearerToken), 0o600)).To(Succeed())
	return f
}

// codingPlan registers the coding agent's tools, gives namespace ns a ProjectPolicy and a locked
// plan "coding" bound to pod (of ServiceAccount coding-agent) under a profile that needs no
// sandbox, checkpoint or approval, and returns the pod's token file once the webhook decides the
// pod's calls on their merits.
func codingPlan(ns, pod string) string {
	GinkgoHelper()
	tokenFile := agentTokenFile(ns, "coding-agent", pod)
	for name, spec := range map[string]safetyv1alpha1.AgentToolSpec{
		"bash":              {Writes: true, ActionClass: safetyv1alpha1.ActionClassExecute},
		"read":              {ActionClass: safetyv1alpha1.ActionClassRead},
		"write":             {Writes: true, ActionClass: safetyv1alpha1.ActionClassWrite},
		"edit":              {Writes: true, ActionClass: safetyv1alpha1.ActionClassWrite},
		"grep":              {ActionClass: safetyv1alpha1.ActionClassRead},
		"toolsearch":        {ActionClass: safetyv1alpha1.ActionClassRead},
		"agent":             {ActionClass: safetyv1alpha1.ActionClassDispatch}, // Claude Code's subagents
		"mcp--github--push": {ActionClass: safetyv1alpha1.ActionClassRead},
	} {
		// AgentTools are cluster-wide: other containers of the suite register the same tools with
		// the same spec, in any order.
		err := k8sClient.Create(ctx, &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: spec})
		Expect(client.IgnoreAlreadyExists(err)).To(Succeed())
	}
	Expect(k8sClient.Create(ctx, &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "project"},
		Spec: safetyv1alpha1.ProjectPolicySpec{Commands: []safetyv1alpha1.ProjectCommand{{ID: "test", Command: "make test"}},
			ArgumentRules: []safetyv1alpha1.ArgumentRule{{Name: "no-force", Tools: []string{"mcp--github--push"},
				Expression: "!has(args.force) || !args.force"}}}})).To(Succeed())
	profile := &safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: ns},
		Spec: safetyv1alpha1.SafetyProfileSpec{RequireSandbox: new(false), RequireCheckpoints: new(false),
			RequireHumanApproval: new(false), MaxRetriesPerStep: new(int32(100))}}
	Expect(k8sClient.Create(ctx, profile)).To(Succeed())
	plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "coding"},
		Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "coding-agent", PodName: pod,
			ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: profile.Name}}}
	Expect(k8sClient.Create(ctx, plan)).To(Succeed())
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(plan), plan)).To(Succeed())
		g.Expect(meta.IsStatusConditionTrue(plan.Status.Conditions, safetyv1alpha1.AgentPlanLockedCondition)).To(BeTrue())
	}).Should(Succeed())
	// The webhook's cache may lag the lock: wait until a read is decided on its merits.
	Eventually(func() string {
		return run(payload("read.json"), "--server", cluster.Config.Host, "--certificate-authority", caFile,
			"--namespace", ns, "--token-file", tokenFile).PermissionDecisionReason
	}).Should(ContainSubstring("admitted"))
	return tokenFile
}
