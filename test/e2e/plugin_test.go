//go:build e2e

package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/testenv"
)

// The plugin as a platform engineer runs it: built once into a directory on the PATH, with the
// name kubectl completes it by beside it, and run by the pinned kubectl.
var (
	pluginOnce sync.Once
	pluginDir  string
	pluginErr  error
)

func buildPlugin() string {
	GinkgoHelper()
	pluginOnce.Do(func() {
		// In the suite's directory, not the spec's: it outlives the spec that happens to build it.
		pluginDir = filepath.Join(local.Dir, "plugin")
		if pluginErr = os.MkdirAll(pluginDir, 0o755); pluginErr != nil {
			return
		}
		root, err := testenv.RepoRoot()
		if err != nil {
			pluginErr = err
			return
		}
		binary := filepath.Join(pluginDir, "kubectl-toolgate")
		build := exec.CommandContext(ctx, "go", "build", "-o", binary, "./cmd/kubectl-toolgate")
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			pluginErr = errors.New(string(out))
			return
		}
		pluginErr = os.Symlink("kubectl-toolgate", filepath.Join(pluginDir, "kubectl_complete-toolgate"))
	})
	Expect(pluginErr).NotTo(HaveOccurred())
	return pluginDir
}

// pluginKubeconfig writes a kubeconfig whose current context points at no cluster and whose
// context "e2e" is the administrator's: only --context e2e reaches the cluster.
func pluginKubeconfig() string {
	GinkgoHelper()
	cfg, err := clientcmd.LoadFromFile(local.Kubeconfig)
	Expect(err).NotTo(HaveOccurred())
	admin := cfg.Contexts[cfg.CurrentContext].DeepCopy()
	nowhere := cfg.Clusters[admin.Cluster].DeepCopy()
	nowhere.Server = "https://127.0.0.1:1"
	cfg.Clusters["nowhere"] = nowhere
	cfg.Contexts["nowhere"] = &clientcmdapi.Context{Cluster: "nowhere", AuthInfo: admin.AuthInfo}
	cfg.Contexts["e2e"] = admin
	cfg.CurrentContext = "nowhere"
	path := filepath.Join(GinkgoT().TempDir(), "kubeconfig")
	Expect(clientcmd.WriteToFile(*cfg, path)).To(Succeed())
	return path
}

// kubectlPlugin runs `kubectl ARGS...` with the plugin on the PATH and kubeconfig as $KUBECONFIG;
// it returns standard output, standard error and the exit status.
func kubectlPlugin(kubeconfig string, args ...string) (string, string, int) {
	GinkgoHelper()
	dir := buildPlugin()
	cmd := exec.CommandContext(ctx, local.Kubectl, args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig, "PATH="+dir+":"+os.Getenv("PATH"))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if exit := (*exec.ExitError)(nil); errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		Expect(err).NotTo(HaveOccurred())
	}
	GinkgoWriter.Printf("kubectl %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errOut.String())
	return out.String(), errOut.String(), code
}

// pluginNamespace creates a namespace of the spec's own, with a locked plan p that needs a
// person's approval for every call and a registered read-only tool; it returns the namespace,
// the tool and the plan's snapshot hash.
func pluginNamespace() (string, string, string) {
	GinkgoHelper()
	ns, _, tool, hash := lockedNamespace("plugin-", safetyv1alpha1.SafetyProfileSpec{
		RequireHumanApproval: new(true), RequireSandbox: new(false), RequireCheckpoints: new(false)})
	return ns, tool, hash
}

// lockedNamespace creates a namespace named after prefix with a SafetyProfile of spec (named
// after the namespace), a registered read-only tool, and plan p of ServiceAccount "agent" locked
// to the profile; it returns the namespace, the profile, the tool's name and the snapshot hash.
func lockedNamespace(prefix string, spec safetyv1alpha1.SafetyProfileSpec) (
	ns string, profile *safetyv1alpha1.SafetyProfile, tool, hash string) {
	GinkgoHelper()
	n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix}}
	Expect(k8sClient.Create(ctx, n)).To(Succeed())
	ns = n.Name
	sp := &safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: ns + "-profile"}, Spec: spec}
	t := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: ns + "-read"},
		Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}}
	for _, obj := range []client.Object{sp, t} {
		Expect(k8sClient.Create(ctx, obj)).To(Succeed())
		DeferCleanup(func() { _ = k8sClient.Delete(ctx, obj) })
	}
	plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "p"},
		Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "agent",
			ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: sp.Name}}}
	Expect(k8sClient.Create(ctx, plan)).To(Succeed())
	awaitLocked(ns, "p")
	Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "p"}, plan)).To(Succeed())
	return ns, sp, t.Name, plan.Status.Snapshot.Hash
}

var _ = Describe("the kubectl plugin, run by the real kubectl", func() {
	It("explains a plan with -n, --context and -o yaml or jsonpath, the flags anywhere on the line", func() {
		ns, _, hash := pluginNamespace()
		kc := pluginKubeconfig()

		By("without --context the plugin uses the current context, which reaches no cluster")
		_, errOut, code := kubectlPlugin(kc, "toolgate", "explain", "-n", ns, "p")
		Expect(code).To(Equal(2))
		Expect(errOut).To(ContainSubstring("reading AgentPlan " + ns + "/p"))

		By("kubectl toolgate explain -n NS PLAN --context e2e -o yaml")
		out, errOut, code := kubectlPlugin(kc, "toolgate", "explain", "-n", ns, "p", "--context", "e2e", "-o", "yaml")
		Expect(code).To(Equal(0), errOut)
		var ex map[string]any
		Expect(yaml.Unmarshal([]byte(out), &ex)).To(Succeed())
		Expect(ex).To(HaveKeyWithValue("kind", "AgentPlanExplanation"))
		Expect(ex).To(HaveKeyWithValue("plan", "p"))
		Expect(ex).To(HaveKeyWithValue("namespace", ns))
		Expect(ex).To(HaveKeyWithValue("snapshotHash", hash))
		Expect(ex).To(HaveKeyWithValue("locked", true))

		By("the flags before the command, and -o jsonpath")
		out, errOut, code = kubectlPlugin(kc, "toolgate", "--context", "e2e", "-n", ns, "explain", "p",
			"-o", "jsonpath={.snapshotHash}")
		Expect(code).To(Equal(0), errOut)
		Expect(out).To(Equal(hash))

		By("a usage error exits 2 through kubectl")
		_, errOut, code = kubectlPlugin(kc, "toolgate", "explain", "p", "--context", "e2e", "--frobnicate")
		Expect(code).To(Equal(2))
		Expect(errOut).To(ContainSubstring("unknown flag: --frobnicate"))
	})

	It("approves as the person --as impersonates, and refuses one without the approver role", func() {
		ns, tool, _ := pluginNamespace()
		alice, err := testenv.Person(ctx, local.Env, k8sClient.Scheme(), "alice-"+ns+"@example.com")
		Expect(err).NotTo(HaveOccurred())
		kc := pluginKubeconfig()

		By("an administrator runs kubectl toolgate --as alice approve ...")
		out, errOut, code := kubectlPlugin(kc, "toolgate", "--as", alice.Name, "--context", "e2e", "approve", "-n", ns, "p",
			"--tool", tool, "--no-arguments", "-o", "jsonpath={.metadata.name}")
		Expect(code).To(Equal(0), errOut)
		approval := &safetyv1alpha1.ToolApproval{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: out}, approval)).To(Succeed())
		Expect(approval.Spec.Approver).To(Equal(alice.Name))
		Expect(approval.Spec.Arguments).NotTo(BeNil())

		By("--as someone the cluster gives no approver role is refused, exit 1, and creates nothing")
		_, errOut, code = kubectlPlugin(kc, "toolgate", "--as", "mallory@example.com", "--context", "e2e", "approve",
			"-n", ns, "p", "--tool", tool)
		Expect(code).To(Equal(1))
		Expect(errOut).To(ContainSubstring("approval refused: mallory@example.com"))
		Expect(errOut).To(ContainSubstring("forbidden"))
		var list safetyv1alpha1.ToolApprovalList
		Expect(k8sClient.List(ctx, &list, client.InNamespace(ns))).To(Succeed())
		Expect(list.Items).To(HaveLen(1))
	})

	It("completes kubectl toolgate <TAB> through kubectl_complete-toolgate", func() {
		ns, _, _ := pluginNamespace()
		kc := pluginKubeconfig()

		By("the commands")
		out, _, code := kubectlPlugin(kc, "__complete", "toolgate", "")
		Expect(code).To(Equal(0))
		for _, c := range []string{"approve", "completion", "explain", "ledger", "test"} {
			Expect(strings.Split(out, "\n")).To(ContainElement(HavePrefix(c+"\t")), out)
		}

		By("a plan's name, read from the cluster with the flags given")
		out, _, code = kubectlPlugin(kc, "__complete", "toolgate", "explain", "--context", "e2e", "-n", ns, "")
		Expect(code).To(Equal(0))
		Expect(out).To(Equal("p\n:4\n"))
	})
})
