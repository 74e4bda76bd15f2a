package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/pkg/agent"
)

// demoNamespace is the samples' project.
const demoNamespace = "payments"

// notesAgent is the ServiceAccount of the demo's second plan (config/samples creates it).
const notesAgent = "release-notes-agent"

// approveCommand is the command a ToolHumanApprovalRequired denial hands the agent for a person.
var approveCommand = regexp.MustCompile(`kubectl toolgate approve .*$`)

// approvalFlow shows a call that needs a person: the agent is denied and told what to ask for, a
// person (a user with a client certificate and the shipped approver role, not the agent) runs that
// command with the kubectl plugin, and the agent's retry is admitted.
func approvalFlow(ctx context.Context, local *testenv.Local, admin, coder client.Client) error {
	plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: demoNamespace, Name: "release-notes"},
		Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: notesAgent, Description: "every call needs a person",
			ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindAutomationProfile, Name: "supervised"}}}
	step("creating plan payments/release-notes with the AutomationProfile supervised (every call needs a person)")
	if err := admin.Create(ctx, plan); err != nil {
		return err
	}
	call := func() *safetyv1alpha1.AgentToolCall {
		return &safetyv1alpha1.AgentToolCall{
			ObjectMeta: metav1.ObjectMeta{Namespace: demoNamespace, GenerateName: "read-changelog-"},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: plan.Name, Tool: "read-file", Step: "read-changelog",
				Arguments: safetyv1alpha1.ToolArguments{Paths: []string{"CHANGELOG.md"}}},
		}
	}
	// A ServiceAccount with an active plan bound to no pod has no other active plan, so the second plan has its own
	// agent; the first agent cannot pick this plan to get around the person it requires.
	notes, err := testenv.Agent(ctx, local.Admin, admin.Scheme(), demoNamespace, notesAgent)
	if err != nil {
		return err
	}
	step("agent coding-agent tries the same call under plan release-notes, which is not its plan")
	fmt.Println("  " + agent.Describe(agent.Submit(ctx, coder, call())))
	step("agent " + notesAgent + " submits read-changelog (tool read-file) for plan release-notes")
	err = agent.Submit(ctx, notes, call())
	fmt.Println("  " + agent.Describe(err))
	command := approveCommand.FindString(fmt.Sprint(err))
	if command == "" {
		return fmt.Errorf("the denial names no approve command: %w", err)
	}

	step("a person, alice@example.com (client certificate, approver ClusterRole), runs that command with the plugin")
	alice, err := testenv.Person(ctx, local.Env, admin.Scheme(), "alice@example.com")
	if err != nil {
		return err
	}
	kubeconfig := filepath.Join(local.Dir, "alice.kubeconfig")
	if err := os.WriteFile(kubeconfig, alice.Kubeconfig, 0o600); err != nil {
		return err
	}
	root, err := testenv.RepoRoot()
	if err != nil {
		return err
	}
	plugin := filepath.Join(local.Dir, "kubectl-toolgate")
	build := exec.CommandContext(ctx, "go", "build", "-o", plugin, "./cmd/kubectl-toolgate")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building the kubectl plugin: %w: %s", err, out)
	}
	fmt.Println("  $ " + command)
	person := exec.CommandContext(ctx, "sh", "-c", command)
	path := strings.Join([]string{local.Dir, filepath.Dir(local.Kubectl), os.Getenv("PATH")}, string(os.PathListSeparator))
	person.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig, "PATH="+path)
	out, err := person.CombinedOutput()
	fmt.Print(indent(string(out)))
	if err != nil {
		return fmt.Errorf("kubectl toolgate approve: %w", err)
	}

	step("agent " + notesAgent + " submits read-changelog again")
	err = agent.Submit(ctx, notes, call())
	fmt.Println("  " + agent.Describe(err))
	if err != nil {
		return errors.New("the approved call was not admitted")
	}
	// The operator writes an approval's expiry into its status just after it is created: wait
	// for it, so that the listing shows it.
	written := func(ctx context.Context) (bool, error) {
		var list safetyv1alpha1.ToolApprovalList
		if err := admin.List(ctx, &list, client.InNamespace(demoNamespace)); err != nil {
			return false, err
		}
		for _, a := range list.Items {
			if a.Status.ExpiresAt == nil {
				return false, nil
			}
		}
		return true, nil
	}
	if err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, written); err != nil {
		return fmt.Errorf("waiting for the operator to write the approval's expiry: %w", err)
	}
	step("kubectl get toolapprovals -n payments")
	_, err = local.KubectlRun(ctx, os.Stdout, "get", "toolapprovals", "-n", demoNamespace)
	return err
}

func indent(s string) string {
	if s == "" {
		return ""
	}
	return "  " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
}
