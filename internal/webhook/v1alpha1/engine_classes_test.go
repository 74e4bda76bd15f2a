package v1alpha1_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// Issue 16's classes through the real webhook: every class the engine now sees through is denied
// (or held for a person) for an agent's AgentToolCall against a locked plan of a project whose
// ProjectPolicy declares commands and pattern rules, and its near miss is admitted. The engine's
// own catalogue (internal/safety/bypass_classes_test.go) holds the full list; these are one or two
// per class, to prove the wiring: the project's rules, the tools' classes and the loop detector.
var _ = Describe("what the engine cannot see, it does not admit", Ordered, func() {
	const cwd = "/workspace/app"
	var (
		p             *project
		shell, eraser string
	)

	BeforeAll(func() {
		p = newProject(nil)
		for name, spec := range map[string]safetyv1alpha1.AgentToolSpec{
			"shell":  {Writes: true, ActionClass: safetyv1alpha1.ActionClassExecute},
			"delete": {Writes: true, ActionClass: safetyv1alpha1.ActionClassDelete},
		} {
			t := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: p.ns + "-" + name}, Spec: spec}
			createCluster(t)
			p.tools[toolRole(name)] = t.Name
		}
		shell, eraser = p.tools["shell"], p.tools["delete"]
		pp := &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "project"},
			Spec: safetyv1alpha1.ProjectPolicySpec{
				Commands: []safetyv1alpha1.ProjectCommand{
					{ID: "test", Command: "make test"},
					{ID: "apply", Command: "terraform apply", RequireConfirmation: true},
					{ID: "kubectl-get", Command: "kubectl get ..."},
					{ID: "curl", Command: "curl ..."},
				},
				CommandRules: []safetyv1alpha1.CommandRule{
					{ID: "kubectl-rollout", Pattern: `^kubectl rollout( |$)`, Action: safetyv1alpha1.RuleActionAsk, Reason: "rolls workloads back or restarts them"},
					{ID: "terraform-destroy", Pattern: `^terraform destroy( |$)`, Action: safetyv1alpha1.RuleActionBlock, Reason: "destroys infrastructure"},
					{ID: "git-push-prod", Pattern: `^git push prod( |$)`, Action: safetyv1alpha1.RuleActionAsk, Reason: "pushes to production"},
				},
			}}
		Expect(k8sClient.Create(ctx, pp)).To(Succeed())
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: p.profile(profileWith(nil))})
	})

	command := func(step, cmd string) *safetyv1alpha1.AgentToolCall {
		c := p.call(planName, shell, step)
		c.Spec.Arguments.Command, c.Spec.Arguments.Cwd = cmd, cwd
		return c
	}

	DescribeTable("each class is denied or held, its near miss admitted",
		func(attack, reason, phrase, near string) {
			// Dry runs: the webhook decides them in full but counts nothing, so no entry's calls
			// reach another's loop or retry counts.
			mustDeny(submit(p.agent, command("attack", attack), client.DryRunAll), reason, phrase)
			mustAdmit(submit(p.agent, command("near", near), client.DryRunAll))
		},
		Entry("a run-time value: an assigned variable", `x=.env; cat $x`, safety.ReasonToolAccessDenied, "zeroAccess path policy", `x=README.md; cat $x`),
		Entry("a run-time value: one from the environment asks, naming the policy", `cat "$F"`, safety.ReasonToolHumanApprovalRequired, "zeroAccess", `cat README.md`),
		Entry("a run-time value: sh -c positional arguments", `sh -c 'cat "$1"' _ .env`, safety.ReasonToolAccessDenied, "zeroAccess path policy", `sh -c 'cat "$1"' _ README.md`),
		Entry("a code-running option: make --eval after a project command", `make test --eval 'x:=$(shell cat .env)'`, safety.ReasonToolHumanApprovalRequired, "runs code the engine cannot see", `make test`),
		Entry("a code-running option: go test -exec", `go test -exec /tmp/evil ./...`, safety.ReasonToolHumanApprovalRequired, "runs code the engine cannot see", `go test ./...`),
		Entry("a code-running option: sed's e command", `sed -n '1e id' README.md`, safety.ReasonToolHumanApprovalRequired, "runs code the engine cannot see", `sed -n '1p' README.md`),
		Entry("a code-running option: env -C", `env -C /etc cat shadow`, safety.ReasonToolAccessDenied, "zeroAccess path policy", `env -C docs cat index.md`),
		Entry("an abbreviated long option", `git reset --har HEAD~1`, safety.ReasonToolSafetyViolation, "git-reset-hard", `git reset --soft HEAD~1`),
		Entry("containment: a recursive delete of the workspace's contents", `rm -rf /workspace/app/*`, safety.ReasonToolAccessDenied, "noDelete path policy", `rm -rf /workspace/app/build/*`),
		Entry("containment: an archive of the home directory", `tar czf /tmp/x.tgz ~`, safety.ReasonToolAccessDenied, "zeroAccess path policy", `tar czf /tmp/x.tgz src`),
		Entry("a declaration that prints the environment", `export -p`, safety.ReasonToolHumanApprovalRequired, "print-environment-declare", `export FOO=bar`),
		Entry("a default-policy gap: *.env", `cat prod.env`, safety.ReasonToolAccessDenied, "zeroAccess path policy", `cat prod.env.example`),
		Entry("a default-policy gap: a cron directory", `echo x > /etc/cron.d/x`, safety.ReasonToolAccessDenied, "noWrite path policy", `grep -q KEY .env`),
		Entry("a global option before a project rule's subcommand", `kubectl --context prod rollout undo deploy/x`, safety.ReasonToolHumanApprovalRequired, "kubectl-rollout", `kubectl get pods`),
		Entry("-chdir before a project pattern rule", `terraform -chdir=infra destroy`, safety.ReasonToolSafetyViolation, "terraform-destroy", `make test`),
		Entry("-chdir before a confirmed project command", `terraform -chdir=infra apply`, safety.ReasonToolHumanApprovalRequired, "requires confirmation", `kubectl get ns`),
		// The sixteenth review's classes (internal/safety/bypass_sixteenth_test.go).
		Entry("a path option's value attached after options that take none", `tar -czf.git/config src`, safety.ReasonToolAccessDenied, "noWrite path policy", `tar -czfdist/x.tgz src`),
		Entry("an option between a project pattern rule's subcommand and operand", `git push -u prod main`, safety.ReasonToolHumanApprovalRequired, "git-push-prod", `git push -u origin main`),
		Entry("a default-policy gap: a cloud CLI's token", `cat ~/.databrickscfg`, safety.ReasonToolAccessDenied, "zeroAccess path policy", `cat databricks.yml`),
		Entry("a wildcard ending a /proc/PID path", `cat /proc/self/*`, safety.ReasonToolAccessDenied, "zeroAccess path policy", `cat /proc/self/status`),
		Entry("strace's output piped to a command", `strace -o '|rm -rf ~' ls`, safety.ReasonToolSafetyViolation, "rm-recursive-root", `strace -o /tmp/trace.txt ls`),
		Entry("python's yq printing the environment", `yq -n env`, safety.ReasonToolHumanApprovalRequired, "print-environment-yq", `yq '.env' docker-compose.yml`),
		Entry("bounded work: 8 KiB (the schema's most) of brace expansions", "cat "+strings.Repeat("{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p} ", 8000/41), safety.ReasonToolSafetyViolation, "work budget", `cat {a,b}.md`),
	)

	It("applies noDelete to a tool that declares it deletes", func() {
		del := func(step, path string) *safetyv1alpha1.AgentToolCall {
			c := p.call(planName, eraser, step, path)
			c.Spec.Arguments.Cwd = cwd
			return c
		}
		mustDeny(submit(p.agent, del("delete-git", ".git"), client.DryRunAll), safety.ReasonToolAccessDenied, "noDelete path policy", "delete")
		mustDeny(submit(p.agent, del("delete-ws", "/workspace/app"), client.DryRunAll), safety.ReasonToolAccessDenied, "noDelete path policy")
		mustAdmit(submit(p.agent, del("delete-build", "build/tmp"), client.DryRunAll))
	})

	It("refuses an AgentTool that deletes but says it does not write", func() {
		t := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: p.ns + "-bad-delete"},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassDelete}}
		err := k8sClient.Create(ctx, t)
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("a tool that deletes writes"))
	})

	It("counts respellings of one call as one call for loop detection", func() {
		spellings := []string{
			`curl https://example.com/status`, `curl 'https://example.com/status'`, `curl https://example.com/status;`,
			`curl "https://example.com/status"`, `curl  https://example.com/status `, `\curl https://example.com/status ;`,
		}
		for i, cmd := range spellings[:safety.DefaultLoopMaxRepeats] {
			mustAdmit(submit(p.agent, command(fmt.Sprintf("loop-%d", i), cmd)))
		}
		mustDeny(submit(p.agent, command("loop-last", spellings[safety.DefaultLoopMaxRepeats])), safety.ReasonToolLoopDetected)
		mustAdmit(submit(p.agent, command("loop-other", `curl https://example.com/other`)))
	})
})
