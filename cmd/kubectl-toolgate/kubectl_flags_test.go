package main

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/testenv"
)

// TestKubectlFlags: the connection flags are kubectl's and go anywhere on the line; -o is
// kubectl's printers; a bad -o changes nothing.
func TestKubectlFlags(t *testing.T) {
	cl := startCluster(t)
	ns := namespace(t, cl.Client, "flags-")
	kc := twoContexts(t, kubeconfig(t, cl.Env, "default"))
	create(t, cl.Client, &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "p"},
		Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "agent",
			ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: "read-only"}}})
	hash := awaitLocked(t, cl.Client, ns, "p").Status.Snapshot.Hash

	t.Run("the current context is not the cluster; --context picks it, before or after the arguments", func(t *testing.T) {
		code, _, errOut := runCLI(t, "explain", "-n", ns, "p", "--kubeconfig", kc)
		if code != exitUsage || !strings.Contains(errOut, "reading AgentPlan "+ns+"/p") {
			t.Fatalf("without --context: exit %d, stderr %q", code, errOut)
		}
		for _, args := range [][]string{
			{"explain", "-n", ns, "p", "--context", "test", "-o", "yaml", "--kubeconfig", kc},
			{"--kubeconfig", kc, "--context", "test", "-n", ns, "explain", "p", "-o", "yaml"},
		} {
			code, out, errOut := runCLI(t, args...)
			var ex map[string]any
			if err := yaml.Unmarshal([]byte(out), &ex); err != nil || code != exitOK {
				t.Fatalf("%v: exit %d, %v\n%s%s", args, code, err, out, errOut)
			}
			if ex["kind"] != explanationKind || ex["plan"] != "p" || ex["namespace"] != ns || ex["snapshotHash"] != hash {
				t.Errorf("%v: the YAML is %v, want plan %s/p locked to %s", args, ex, ns, hash)
			}
		}
	})

	t.Run("-o jsonpath, go-template and name", func(t *testing.T) {
		for format, want := range map[string]string{
			"jsonpath={.snapshotHash}": hash,
			"go-template={{.plan}}":    "p",
			"name":                     "agentplan.safety.toolgate.dev/p\n",
			"jsonpath={.effective[4]}": "readOnly=true",
		} {
			code, out, errOut := runCLI(t, "explain", "p", "-n", ns, "--context", "test", "--kubeconfig", kc, "-o", format)
			if code != exitOK || out != want {
				t.Errorf("-o %s: exit %d, %q (stderr %q), want %q", format, code, out, errOut, want)
			}
		}
	})

	t.Run("a bad -o is a usage error, before anything is read or created", func(t *testing.T) {
		for _, args := range [][]string{
			{"explain", "p", "-o", "table"},
			{"explain", "p", "-o", "jsonpath={.unclosed"},
			{"approve", "p", "--tool", "t", "-o", "wide"},
		} {
			// The kubeconfig is missing: a command that got as far as connecting would say so.
			code, out, errOut := runCLI(t, append(args, "--kubeconfig", kc+"-missing")...)
			if code != exitUsage || out != "" || !strings.Contains(errOut, "-o ") || strings.Contains(errOut, "kubeconfig") {
				t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
			}
		}
	})

	t.Run("cobra's usage errors exit 2", func(t *testing.T) {
		for _, args := range [][]string{
			{"explain", "p", "--frobnicate"},
			{"approve", "p", "--tool", "t", "--uses", "many"},
			{"--request-timeout"},
			{"ledger", "verify", "--json=maybe", "dir"},
		} {
			code, out, errOut := runCLI(t, args...)
			if code != exitUsage || out != "" || !strings.Contains(errOut, "Run 'kubectl toolgate") {
				t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
			}
		}
	})
}

// TestApproveImpersonated: an administrator approves as the person --as names; the approval is
// that person's, and --as someone without the approver role is refused with exit 1.
func TestApproveImpersonated(t *testing.T) {
	cl := startCluster(t)
	ctx := context.Background()
	ns := namespace(t, cl.Client, "approve-as-")
	approvalPlan(t, cl, ns)
	pat, err := testenv.Person(ctx, cl.Env, cl.Scheme, "pat-"+ns+"@example.com")
	if err != nil {
		t.Fatal(err)
	}
	admin := kubeconfig(t, cl.Env, ns)

	code, out, errOut := runCLI(t, "--as", pat.Name, "approve", "p", "--tool", ns+"-read", "--no-arguments",
		"--kubeconfig", admin, "-o", "jsonpath={.metadata.name} {.spec.approver}")
	name, approver, _ := strings.Cut(out, " ")
	if code != exitOK || approver != pat.Name {
		t.Fatalf("approve --as %s: exit %d, %q, stderr %q", pat.Name, code, out, errOut)
	}
	a := &safetyv1alpha1.ToolApproval{}
	err = cl.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, a)
	if err != nil || a.Spec.Approver != pat.Name {
		t.Fatalf("the stored approval %s: approver %q (%v), want %s", name, a.Spec.Approver, err, pat.Name)
	}

	code, out, errOut = runCLI(t, "approve", "p", "--tool", ns+"-read", "--kubeconfig", admin,
		"--as", "nobody@example.com")
	if code != exitFailed || out != "" || !strings.Contains(errOut, "approval refused: nobody@example.com") ||
		!strings.Contains(errOut, "forbidden") {
		t.Fatalf("approve --as nobody: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	var list safetyv1alpha1.ToolApprovalList
	if err := cl.Client.List(ctx, &list, client.InNamespace(ns)); err != nil || len(list.Items) != 1 {
		t.Fatalf("want only pat's approval, got %d (%v)", len(list.Items), err)
	}
}

// TestCompletion: cobra's completion, which kubectl asks for a plugin's arguments, lists the
// commands and, from the cluster, the plans of the namespace.
func TestCompletion(t *testing.T) {
	code, out, _ := runCLI(t, "__complete", "")
	for _, c := range []string{"test\t", "explain\t", "ledger\t", "approve\t", "completion\t"} {
		if code != exitOK || !strings.Contains(out, "\n"+c) && !strings.HasPrefix(out, c) {
			t.Errorf("__complete \"\": exit %d, no %q in %q", code, c, out)
		}
	}
	code, out, _ = runCLI(t, "completion", "bash")
	if code != exitOK || !strings.Contains(out, "__start_kubectl-toolgate") {
		t.Errorf("completion bash: exit %d, %.200q", code, out)
	}

	cl := startCluster(t)
	ns := namespace(t, cl.Client, "complete-")
	kc := kubeconfig(t, cl.Env, "default")
	for _, name := range []string{"fix-bug", "fix-docs", "other"} {
		create(t, cl.Client, &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "agent-" + name}})
	}
	code, out, _ = runCLI(t, "__complete", "explain", "--kubeconfig", kc, "-n", ns, "fix")
	if want := "fix-bug\nfix-docs\n:4\n"; code != exitOK || out != want {
		t.Errorf("__complete explain fix: exit %d, %q, want %q", code, out, want)
	}
	// --tool completes with the registered AgentTools, cluster-scoped.
	for _, name := range []string{ns + "-read", ns + "-run", "elsewhere-" + ns} {
		create(t, cl.Client, &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}})
	}
	code, out, _ = runCLI(t, "__complete", "approve", "--kubeconfig", kc, "-n", ns, "fix-bug", "--tool", ns+"-r")
	if want := ns + "-read\n" + ns + "-run\n:4\n"; code != exitOK || out != want {
		t.Errorf("__complete approve --tool: exit %d, %q, want %q", code, out, want)
	}
}

// twoContexts rewrites the kubeconfig at path so that its current context points nowhere and its
// context "test" is the one it had.
func twoContexts(t *testing.T, path string) string {
	t.Helper()
	cfg, err := clientcmd.LoadFromFile(path)
	if err != nil {
		t.Fatal(err)
	}
	current := cfg.Contexts[cfg.CurrentContext].DeepCopy()
	cfg.Contexts["test"] = current
	nowhere := cfg.Clusters[current.Cluster].DeepCopy()
	nowhere.Server = "https://127.0.0.1:1"
	cfg.Clusters["nowhere"] = nowhere
	cfg.Contexts["nowhere"] = &clientcmdapi.Context{Cluster: "nowhere", AuthInfo: current.AuthInfo}
	cfg.CurrentContext = "nowhere"
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestHelp: the global flags are listed once, by options; ledger tail's -n is its count.
func TestHelp(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		want     []string
		unwanted string
	}{
		{[]string{"options"},
			[]string{"--as string", "--context string", "-n, --namespace string", "--token string"}, ""},
		{[]string{"explain", "-h"},
			[]string{"kubectl toolgate explain PLAN", "-o, --output FORMAT", "'kubectl toolgate options'"}, "--as string"},
		{[]string{"ledger", "tail", "--help"},
			[]string{"kubectl toolgate ledger tail DIR", "-n, --lines int"}, "--namespace"},
	} {
		code, out, errOut := runCLI(t, tc.args...)
		for _, w := range tc.want {
			if code != exitOK || !strings.Contains(out, w) {
				t.Errorf("%v: exit %d, stderr %q, no %q in\n%s", tc.args, code, errOut, w, out)
			}
		}
		if tc.unwanted != "" && strings.Contains(out, tc.unwanted) {
			t.Errorf("%v lists %q:\n%s", tc.args, tc.unwanted, out)
		}
	}
}
