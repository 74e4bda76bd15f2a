package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/testenv"
)

var approveCommand = regexp.MustCompile(`kubectl toolgate approve (.*)$`)

// TestApproveFlow is the flow a person follows: the agent's denial names a command, the person
// runs exactly that command as themselves, the agent's retry is admitted.
func TestApproveFlow(t *testing.T) {
	cl := startCluster(t)
	ctx := context.Background()
	ns := namespace(t, cl.Client, "approve-")
	agent := approvalPlan(t, cl, ns)
	call := func() *safetyv1alpha1.AgentToolCall {
		return &safetyv1alpha1.AgentToolCall{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, GenerateName: "call-"},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "p", Tool: ns + "-read", Step: "s1",
				Arguments: safetyv1alpha1.ToolArguments{Paths: []string{"README.md"}}},
		}
	}
	alice, out := approveAsDenialSays(t, cl, ns, agent, call())
	want := alice + " approves 1 call(s) of plan p running tool " + ns + "-read for step s1 " +
		"with exactly these arguments:\n    path:    README.md\n"
	if !strings.Contains(out, want) {
		t.Fatalf("approve said %q, want it to contain %q", out, want)
	}

	var list safetyv1alpha1.ToolApprovalList
	if err := cl.Client.List(ctx, &list, client.InNamespace(ns)); err != nil || len(list.Items) != 1 {
		t.Fatalf("want one ToolApproval, got %v (%v)", len(list.Items), err)
	}
	if a := list.Items[0].Spec; a.Approver != alice || a.Reason != "read-only, fine" || a.ExpirationSeconds != 3600 {
		t.Fatalf("the approval is %+v", a)
	}
	admitted := call()
	if err := agent.Create(ctx, admitted); err != nil {
		t.Fatalf("the approved call was denied: %v", err)
	}
	if err := agent.Create(ctx, call()); err == nil || !strings.Contains(err.Error(), "used 1 of 1 times") {
		t.Fatalf("a second call must be denied, the approval used up: %v", err)
	}
}

// An MCP tool's call carries its other arguments (a payment's amount and recipient) in
// spec.arguments.extra: the denial's command spells them out, so the person reads the amount
// they approve, and the approval admits that call and no other amount.
func TestApproveFlowSpellsOutExtraArguments(t *testing.T) {
	cl := startCluster(t)
	ctx := context.Background()
	ns := namespace(t, cl.Client, "approve-extra-")
	agent := approvalPlan(t, cl, ns)
	call := func(extra string) *safetyv1alpha1.AgentToolCall {
		return &safetyv1alpha1.AgentToolCall{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, GenerateName: "call-"},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "p", Tool: ns + "-read", Step: "pay-1",
				Arguments: safetyv1alpha1.ToolArguments{Extra: &runtime.RawExtension{Raw: []byte(extra)}}},
		}
	}
	alice, out := approveAsDenialSays(t, cl, ns, agent, call(`{"to": "bob@example.com", "amount": 300}`))
	want := alice + " approves 1 call(s) of plan p running tool " + ns + "-read for step pay-1 " +
		"with exactly these arguments:\n    extra:   '{\"amount\":300,\"to\":\"bob@example.com\"}'\n"
	if !strings.Contains(out, want) {
		t.Fatalf("approve said %q, want it to contain %q", out, want)
	}
	if err := agent.Create(ctx, call(`{"amount": 3000, "to": "bob@example.com"}`)); err == nil ||
		!strings.Contains(err.Error(), "it is for other arguments") {
		t.Fatalf("another amount must not be admitted by the approval: %v", err)
	}
	if err := agent.Create(ctx, call(`{"amount":300,"to":"bob@example.com"}`)); err != nil {
		t.Fatalf("the approved call was denied: %v", err)
	}
}

// approveAsDenialSays has the agent's call denied for want of approval and runs, as a person
// (alice), exactly the approve command the denial names; it returns alice's name and what the
// plugin printed.
func approveAsDenialSays(t *testing.T, cl *testenv.Cluster, ns string, agent client.Client,
	call *safetyv1alpha1.AgentToolCall) (string, string) {
	t.Helper()
	ctx := context.Background()
	alice, err := testenv.Person(ctx, cl.Env, cl.Scheme, "alice-"+ns+"@example.com")
	if err != nil {
		t.Fatal(err)
	}
	aliceConfig := writeFile(t, "alice.kubeconfig", alice.Kubeconfig)
	var denial string
	eventually(t, "the agent is denied for want of approval", func() error {
		err := agent.Create(ctx, call.DeepCopy())
		if err == nil {
			t.Fatal("a call that needs approval was admitted without one")
		}
		denial = err.Error()
		if !strings.Contains(denial, "[ToolHumanApprovalRequired]") {
			return err
		}
		return nil
	})
	m := approveCommand.FindStringSubmatch(denial)
	if m == nil {
		t.Fatalf("the denial names no approve command: %s", denial)
	}
	args := append([]string{"approve"}, shellWords(t, m[1])...)
	code, out, errOut := runCLI(t, append(args, "--kubeconfig", aliceConfig, "--reason", "read-only, fine")...)
	if code != exitOK {
		t.Fatalf("approve %v: exit %d\n%s%s", args, code, out, errOut)
	}
	t.Logf("the denial: %s\nkubectl toolgate %s\n%s", denial, strings.Join(args, " "), out)
	return alice.Name, out
}

// TestApproveRefused: the plan's agent cannot approve with the plugin (RBAC refuses it), and the
// plugin says so with exit status 1.
func TestApproveRefused(t *testing.T) {
	cl := startCluster(t)
	ns := namespace(t, cl.Client, "approve-refused-")
	approvalPlan(t, cl, ns)
	agentConfig, err := testenv.AgentConfig(context.Background(), cl.Config, ns, "agent")
	if err != nil {
		t.Fatal(err)
	}
	kc := tokenKubeconfig(t, agentConfig)
	code, out, errOut := runCLI(t, "approve", "p", "--tool", ns+"-read", "-n", ns, "--kubeconfig", kc)
	if code != exitFailed || !strings.Contains(errOut, "approval refused") || !strings.Contains(errOut, "forbidden") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	var list safetyv1alpha1.ToolApprovalList
	if err := cl.Client.List(context.Background(), &list, client.InNamespace(ns)); err != nil || len(list.Items) != 0 {
		t.Fatalf("want no ToolApproval, got %d (%v)", len(list.Items), err)
	}
}

func TestApproveUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"approve"}, "want one PLAN, got 0 arguments; --tool is required"},
		{[]string{"approve", "p", "--tool", "t", "--uses", "0"}, "--uses must be 1 to 100, not 0"},
		{[]string{"approve", "p", "--tool", "t", "--uses", "101"}, "--uses must be 1 to 100, not 101"},
		{[]string{"approve", "p", "--tool", "t", "--expires", "0s"},
			"--expires must be whole seconds from 1s to 168h, not 0s"},
		{[]string{"approve", "p", "--tool", "t", "--expires", "169h"}, "not 169h0m0s"},
		{[]string{"approve", "p", "q", "--tool", "t"}, "want one PLAN, got 2 arguments"},
		{[]string{"approve", "p", "--tool", "t", "--no-arguments", "--path", "a"}, "--no-arguments contradicts"},
		{[]string{"approve", "p", "--tool", "t", "--command", "ls",
			"--arguments-digest", "sha256:" + strings.Repeat("0", 64)}, "exclude each other"},
		{[]string{"approve", "p", "--tool", "t", "--extra", `{"a":1,"a":2}`}, "--extra: "},
		{[]string{"approve", "p", "--tool", "t", "--extra", `[1]`}, "--extra: "},
		{[]string{"approve", "p", "--tool", "t", "--no-arguments", "--extra", `{"a":1}`}, "--no-arguments contradicts"},
		{[]string{"approve", "p", "--tool", "t", "--extra", `{"a":1}`,
			"--arguments-digest", "sha256:" + strings.Repeat("0", 64)}, "exclude each other"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, errOut, tc.want)
		}
	}
	code, out, _ := runCLI(t, "approve", "-h")
	if code != exitOK || !strings.Contains(out, "kubectl toolgate approve PLAN --tool TOOL") {
		t.Errorf("approve -h: exit %d, %q", code, out)
	}
}

// approvalPlan creates a plan p in ns, for ServiceAccount agent, that needs human approval for
// every call, and a read-only tool; it returns the agent's client.
func approvalPlan(t *testing.T, cl *testenv.Cluster, ns string) client.Client {
	t.Helper()
	sp := &safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: ns + "-approval"},
		Spec: safetyv1alpha1.SafetyProfileSpec{
			RequireHumanApproval: new(true), RequireSandbox: new(false), RequireCheckpoints: new(false)}}
	create(t, cl.Client, sp)
	create(t, cl.Client, &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: ns + "-read"},
		Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}})
	agent, err := testenv.Agent(context.Background(), cl.Config, cl.Scheme, ns, "agent")
	if err != nil {
		t.Fatal(err)
	}
	create(t, cl.Client, &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "p"},
		Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "agent",
			ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: sp.Name}}})
	awaitLocked(t, cl.Client, ns, "p")
	return agent
}

// tokenKubeconfig writes a kubeconfig that authenticates with cfg's bearer token.
func tokenKubeconfig(t *testing.T, cfg *rest.Config) string {
	t.Helper()
	kc := clientcmdapi.NewConfig()
	kc.Clusters["test"] = &clientcmdapi.Cluster{Server: cfg.Host, CertificateAuthorityData: cfg.CAData}
	kc.AuthInfos["agent"] = &clientcmdapi.AuthInfo{Token: cfg.BearerToken}
	kc.Contexts["test"] = &clientcmdapi.Context{Cluster: "test", AuthInfo: "agent"}
	kc.CurrentContext = "test"
	data, err := clientcmd.Write(*kc)
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "agent.kubeconfig", data)
}

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// shellWords splits a command line the way the person's shell does (a real bash: a value with
// characters that do not show as themselves is a $'...' word, which dash does not read), so the
// test runs exactly what a person pasting the denial's command would.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	sh := exec.Command("bash", "-c", "for w in "+line+`; do printf '%s\0' "$w"; done`)
	sh.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
	out, err := sh.Output()
	if err != nil {
		t.Fatalf("bash could not read %q: %v", line, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}
