package v1alpha1_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// The project's directory is a fact the platform states (ProjectPolicy spec.workspace) or the
// agent's front door knows (spec.arguments.projectDir: the hook's CLAUDE_PROJECT_DIR); the cwd
// is the agent's to choose. Through the real API server, the workspace is locked into the plan's
// snapshot, and a recursive read or delete of the project from /tmp is held or denied as one from
// inside it; in a project without the field, only the call's projectDir makes it so.
var _ = Describe("the project's directory, named by the platform or the call", Ordered, ContinueOnFailure, func() {
	const workspace = "/workspace/app"
	var withWS, without *project

	shellIn := func(p *project) {
		GinkgoHelper()
		t := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: p.ns + "-shell"},
			Spec: safetyv1alpha1.AgentToolSpec{Writes: true, ActionClass: safetyv1alpha1.ActionClassExecute}}
		createCluster(t)
		p.tools[toolRole("shell")] = t.Name
	}
	command := func(p *project, step, cwd, projectDir, cmd string) *safetyv1alpha1.AgentToolCall {
		c := p.call(planName, p.tools["shell"], step)
		c.Spec.Arguments.Command, c.Spec.Arguments.Cwd, c.Spec.Arguments.ProjectDir = cmd, cwd, projectDir
		return c
	}

	BeforeAll(func() {
		withWS, without = newProject(nil), newProject(nil)
		shellIn(withWS)
		shellIn(without)
		Expect(k8sClient.Create(ctx, &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: withWS.ns, Name: "project"},
			Spec: safetyv1alpha1.ProjectPolicySpec{Workspace: workspace}})).To(Succeed())
		withWS.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: withWS.profile(profileWith(nil))})
		without.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: without.profile(profileWith(nil))})
	})

	It("locks the workspace into the plan's snapshot", func() {
		plan := &safetyv1alpha1.AgentPlan{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: withWS.ns, Name: planName}, plan)).To(Succeed())
		Expect(plan.Status.Snapshot.Project).NotTo(BeNil())
		Expect(plan.Status.Snapshot.Project.Workspace).To(Equal(workspace))
	})

	It("holds a recursive read of the workspace from /tmp for a person, and denies its delete", func() {
		mustDeny(submit(withWS.agent, command(withWS, "grep", "/tmp", "", "grep -r SECRET "+workspace), client.DryRunAll),
			safety.ReasonToolHumanApprovalRequired, "project directory "+workspace)
		mustDeny(submit(withWS.agent, command(withWS, "cp", "/tmp", "", "cp -r "+workspace+" /tmp/copy"), client.DryRunAll),
			safety.ReasonToolHumanApprovalRequired, "project directory "+workspace)
		mustDeny(submit(withWS.agent, command(withWS, "rm", "/tmp", "", "rm -rf "+workspace), client.DryRunAll),
			safety.ReasonToolAccessDenied, "noDelete path policy")
		// Near misses: a subdirectory of it, and an unrelated tree, from /tmp.
		mustAdmit(submit(withWS.agent, command(withWS, "grep-src", "/tmp", "", "grep -r SECRET "+workspace+"/src"), client.DryRunAll))
		mustAdmit(submit(withWS.agent, command(withWS, "grep-in", workspace, "", "grep -r SECRET src/"), client.DryRunAll))
	})

	It("keeps the locked workspace when the ProjectPolicy's changes", func() {
		pp := &safetyv1alpha1.ProjectPolicy{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: withWS.ns, Name: "project"}, pp)).To(Succeed())
		pp.Spec.Workspace = "/elsewhere"
		Expect(k8sClient.Update(ctx, pp)).To(Succeed())
		Consistently(func(g Gomega) {
			plan := &safetyv1alpha1.AgentPlan{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: withWS.ns, Name: planName}, plan)).To(Succeed())
			g.Expect(plan.Status.Snapshot.Project.Workspace).To(Equal(workspace))
		}).WithTimeout(time.Second).WithPolling(waitInterval).Should(Succeed())
		mustDeny(submit(withWS.agent, command(withWS, "grep-after", "/tmp", "", "grep -r SECRET "+workspace), client.DryRunAll),
			safety.ReasonToolHumanApprovalRequired, "project directory "+workspace)
	})

	It("without a workspace, takes the call's projectDir for the project, and only adds protection with it", func() {
		// The class the field closes: without it, the project is any directory from /tmp.
		mustAdmit(submit(without.agent, command(without, "grep-unknown", "/tmp", "", "grep -r SECRET "+workspace), client.DryRunAll))
		mustDeny(submit(without.agent, command(without, "grep", "/tmp", workspace, "grep -r SECRET "+workspace), client.DryRunAll),
			safety.ReasonToolHumanApprovalRequired, "project directory "+workspace)
		mustDeny(submit(without.agent, command(without, "rm", "/tmp", workspace, "rm -rf "+workspace), client.DryRunAll),
			safety.ReasonToolAccessDenied, "noDelete path policy")
		mustAdmit(submit(without.agent, command(without, "grep-src", "/tmp", workspace, "grep -r SECRET "+workspace+"/src"), client.DryRunAll))
	})
})
