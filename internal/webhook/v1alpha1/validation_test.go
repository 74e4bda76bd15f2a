package v1alpha1_test

import (
	"fmt"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/toolgate/toolgate/internal/testenv"
)

var _ = Describe("config/samples", func() {
	It("applies every sample cleanly, through the schema and the webhooks", func() {
		dir, err := testenv.Path("config", "samples")
		Expect(err).NotTo(HaveOccurred())
		var kust struct{ Resources []string }
		data, err := os.ReadFile(dir + "/kustomization.yaml")
		Expect(err).NotTo(HaveOccurred())
		Expect(yaml.Unmarshal(data, &kust)).To(Succeed())
		Expect(kust.Resources).NotTo(BeEmpty())
		created := 0
		for _, file := range kust.Resources {
			for _, obj := range decodeFile("config", "samples", file) {
				err := k8sClient.Create(ctx, obj)
				if apierrors.IsAlreadyExists(err) { // the operator may have created a built-in already
					continue
				}
				Expect(err).NotTo(HaveOccurred(), "%s %s from %s", obj.GetKind(), obj.GetName(), file)
				created++
			}
		}
		Expect(created).To(BeNumerically(">=", 10))
	})
})

// badManifest is a manifest the API server must reject, naming field.
type badManifest struct {
	base   string // created first when set
	update bool   // apply yaml as an update of the object base created
	yaml   string
	fields []string
}

var _ = Describe("bad manifests", func() {
	var ns string
	BeforeEach(func() {
		n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "bad-"}}
		Expect(k8sClient.Create(ctx, n)).To(Succeed())
		ns = n.Name
	})

	DescribeTable("are rejected with a message naming the field",
		func(m badManifest) {
			apply := func(doc string) error {
				objs, err := testenv.DecodeYAML([]byte(doc))
				Expect(err).NotTo(HaveOccurred())
				Expect(objs).To(HaveLen(1))
				obj := objs[0]
				if strings.HasPrefix(obj.GetAPIVersion(), "safety.toolgate.dev") && isNamespaced(obj.GetKind()) {
					obj.SetNamespace(ns)
				}
				if !m.update {
					return k8sClient.Create(ctx, obj)
				}
				// The controllers write status meanwhile; retry conflicts so the answer is the
				// validation's, not a stale resourceVersion's.
				return retry.RetryOnConflict(retry.DefaultRetry, func() error {
					cur := &unstructured.Unstructured{}
					cur.SetGroupVersionKind(obj.GroupVersionKind())
					Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), cur)).To(Succeed())
					obj.SetResourceVersion(cur.GetResourceVersion())
					if _, isStatus := obj.Object["status"]; isStatus && obj.Object["spec"] == nil {
						obj.Object["spec"] = cur.Object["spec"]
						return k8sClient.Status().Update(ctx, obj)
					}
					return k8sClient.Update(ctx, obj)
				})
			}
			if m.base != "" {
				objs, err := testenv.DecodeYAML([]byte(m.base))
				Expect(err).NotTo(HaveOccurred())
				for _, o := range objs {
					if isNamespaced(o.GetKind()) {
						o.SetNamespace(ns)
					}
					err := k8sClient.Create(ctx, o)
					if err != nil && strings.Contains(err.Error(), "already the default") {
						continue // another default exists (the samples'), which serves the test as well
					}
					Expect(err).NotTo(HaveOccurred())
					DeferCleanup(func() { _ = k8sClient.Delete(ctx, o) })
				}
			}
			err := apply(m.yaml)
			Expect(err).To(HaveOccurred())
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "want 422 Invalid, got %v", err)
			for _, f := range m.fields {
				Expect(err.Error()).To(ContainSubstring(f))
			}
		},
		Entry("wrong enforcement mode", badManifest{yaml: sp(`enforcementMode: Block`), fields: []string{"spec.enforcementMode", "Unsupported value"}}),
		Entry("negative maxCostPerPlan", badManifest{yaml: sp(`maxCostPerPlan: "-5"`), fields: []string{"spec.maxCostPerPlan", "must not be negative"}}),
		Entry("negative maxTotalCost", badManifest{yaml: sp(`maxTotalCost: "-0.01"`), fields: []string{"spec.maxTotalCost", "must not be negative"}}),
		Entry("maxRetriesPerStep 101", badManifest{yaml: sp(`maxRetriesPerStep: 101`), fields: []string{"spec.maxRetriesPerStep", "100"}}),
		Entry("maxRetriesPerStep -1", badManifest{yaml: sp(`maxRetriesPerStep: -1`), fields: []string{"spec.maxRetriesPerStep"}}),
		Entry("money as a YAML float", badManifest{yaml: sp(`maxCostPerPlan: 1.5`), fields: []string{"spec.maxCostPerPlan"}}),
		Entry("money that is not a number", badManifest{yaml: sp(`maxTotalCost: "ten dollars"`), fields: []string{"spec.maxTotalCost"}}),
		Entry("money finer than a nano-dollar", badManifest{yaml: sp(`maxCostPerPlan: "0.0000000001"`), fields: []string{"spec.maxCostPerPlan", "at most 9 decimal places"}}),
		Entry("bad glob in deniedTools", badManifest{yaml: sp(`deniedTools: ["deploy-["]`), fields: []string{"spec.deniedTools[0]", "glob"}}),
		Entry("a tool both allowed and denied", badManifest{yaml: sp("allowedTools: [shell]\n  deniedTools: [shell]"), fields: []string{"spec.allowedTools", "both allowed and denied"}}),
		Entry("skill category with spaces", badManifest{yaml: sp(`allowedSkillCategories: ["Not Valid!"]`), fields: []string{"spec.allowedSkillCategories[0]"}}),
		Entry("unknown autonomy level", badManifest{yaml: ap("level: Reckless"), fields: []string{"spec.level", "Unsupported value"}}),
		Entry("both safetyProfileRef and inline safety", badManifest{yaml: ap("safetyProfileRef: {name: sandboxed}\n  safety: {requireSandbox: false}"), fields: []string{"spec.safety", "not both"}}),
		Entry("ask confidence above autoApprove", badManifest{yaml: ap("confidenceThresholds: {autoApprove: 50, ask: 80}"), fields: []string{"spec.confidenceThresholds.ask"}}),
		Entry("confidence above 100", badManifest{yaml: ap("confidenceThresholds: {autoApprove: 101}"), fields: []string{"spec.confidenceThresholds.autoApprove"}}),
		Entry("inline safety with retries 101", badManifest{yaml: ap("safety: {maxRetriesPerStep: 101}"), fields: []string{"spec.safety.maxRetriesPerStep"}}),
		Entry("a second default AutomationProfile", badManifest{
			base:   defaultAP("first-default"),
			yaml:   strings.Replace(defaultAP("second-default"), "first", "second", 1),
			fields: []string{`metadata.annotations[safety.toolgate.dev/is-default]`, "already the default"},
		}),
		Entry("is-default annotation neither true nor false", badManifest{yaml: `
apiVersion: safety.toolgate.dev/v1alpha1
kind: AutomationProfile
metadata: {name: yes-please, annotations: {safety.toolgate.dev/is-default: "yes"}}
spec: {}`, fields: []string{`metadata.annotations[safety.toolgate.dev/is-default]`}}),
		Entry("bad regex in a command rule", badManifest{yaml: pp("commandRules: [{id: r1, pattern: 'kubectl (', action: Block}]"), fields: []string{"spec.commandRules[0].pattern"}}),
		Entry("duplicate command rule id", badManifest{yaml: pp("commandRules: [{id: r1, pattern: a, action: Block}, {id: r1, pattern: b, action: Ask}]"), fields: []string{"spec.commandRules[1]", "Duplicate value"}}),
		Entry("rule action that is not Block or Ask", badManifest{yaml: pp("commandRules: [{id: r1, pattern: a, action: Allow}]"), fields: []string{"spec.commandRules[0].action"}}),
		Entry("bad glob in the path policy", badManifest{yaml: pp("pathPolicy: {zeroAccess: ['secrets/[']}"), fields: []string{"spec.pathPolicy.zeroAccess[0]"}}),
		Entry("profile reference to another kind", badManifest{yaml: pp("profileRef: {kind: Pod, name: x}"), fields: []string{"spec.profileRef.kind"}}),
		Entry("duplicate command id", badManifest{yaml: pp("commands: [{id: t, command: make test}, {id: t, command: make lint}]"), fields: []string{"spec.commands[1]", "Duplicate value"}}),
		Entry("a relative workspace", badManifest{yaml: pp("workspace: workspace/app"), fields: []string{"spec.workspace", "must be an absolute path"}}),
		Entry("a workspace that climbs", badManifest{yaml: pp("workspace: /workspace/../etc"), fields: []string{"spec.workspace", "must be a clean path: no '.' or '..' parts"}}),
		Entry("a workspace with a '.' part", badManifest{yaml: pp("workspace: /workspace/./app"), fields: []string{"spec.workspace", "must be a clean path: no '.' or '..' parts"}}),
		Entry("a workspace with a trailing slash", badManifest{yaml: pp("workspace: /workspace/app/"), fields: []string{"spec.workspace", "must be a clean path: no '.' or '..' parts"}}),
		Entry("a workspace with a doubled slash", badManifest{yaml: pp("workspace: /workspace//app"), fields: []string{"spec.workspace", "must be a clean path: no '.' or '..' parts"}}),
		Entry("the root as the workspace", badManifest{yaml: pp("workspace: /"), fields: []string{"spec.workspace", "below /"}}),
		Entry("a workspace longer than 1024", badManifest{yaml: pp("workspace: /" + strings.Repeat("w", 1024)), fields: []string{"spec.workspace", "1024"}}),
		Entry("a call's relative projectDir", badManifest{yaml: call("step: s\n  arguments: {projectDir: workspace/app}"), fields: []string{"spec.arguments.projectDir", "must be an absolute path"}}),
		Entry("a call's projectDir longer than 1024", badManifest{yaml: call("step: s\n  arguments: {projectDir: /" + strings.Repeat("d", 1024) + "}"), fields: []string{"spec.arguments.projectDir", "1024"}}),
		Entry("ProjectPolicy not named project", badManifest{yaml: strings.Replace(pp("{}"), "name: project", "name: other", 1), fields: []string{"must be named project"}}),
		Entry("checkpointable tool that does not write", badManifest{yaml: tool("writes: false\n  checkpointable: true\n  actionClass: read"), fields: []string{"spec.checkpointable"}}),
		Entry("unknown action class", badManifest{yaml: tool("writes: true\n  actionClass: launch"), fields: []string{"spec.actionClass", "Unsupported value"}}),
		Entry("ledger failure policy that does not exist", badManifest{yaml: auditLedger("failurePolicy: Maybe"), fields: []string{"spec.failurePolicy"}}),
		Entry("ledger segments smaller than 4 KiB", badManifest{yaml: auditLedger("rotation: {maxSegmentBytes: 10}"), fields: []string{"spec.rotation.maxSegmentBytes"}}),
		Entry("a flood byte budget under 1 KiB", badManifest{yaml: auditLedger("floodControl: {deniedBytesPerMinute: 1023}"), fields: []string{"spec.floodControl.deniedBytesPerMinute", "1024"}}),
		Entry("a flood byte budget of none", badManifest{yaml: auditLedger("floodControl: {deniedBytesPerMinute: -1}"), fields: []string{"spec.floodControl.deniedBytesPerMinute"}}),
		Entry("a flood byte budget over 1 GiB", badManifest{yaml: auditLedger("floodControl: {deniedBytesPerMinute: 1073741825}"), fields: []string{"spec.floodControl.deniedBytesPerMinute", "1073741824"}}),
		Entry("a step that is not a DNS label", badManifest{yaml: call("step: Build"), fields: []string{"spec.step", "must be a DNS label"}}),
		Entry("a step longer than 63", badManifest{yaml: call("step: " + strings.Repeat("s", 64)), fields: []string{"spec.step", "63"}}),
		Entry("33 paths", badManifest{yaml: call("step: s\n  arguments: {paths: [" + strings.Repeat("a,", 32) + "a]}"), fields: []string{"spec.arguments.paths", "32"}}),
		Entry("a path longer than 1024", badManifest{yaml: call("step: s\n  arguments: {paths: [" + strings.Repeat("p", 1025) + "]}"), fields: []string{"spec.arguments.paths[0]", "1024"}}),
		Entry("a command longer than 8192", badManifest{yaml: call("step: s\n  arguments: {command: " + strings.Repeat("x", 8193) + "}"), fields: []string{"spec.arguments.command", "8192"}}),
		Entry("a cwd longer than 1024", badManifest{yaml: call("step: s\n  arguments: {cwd: " + strings.Repeat("d", 1025) + "}"), fields: []string{"spec.arguments.cwd", "1024"}}),
		Entry("a negative costPerCall", badManifest{yaml: tool("writes: false\n  actionClass: read\n  costPerCall: \"-1\""), fields: []string{"spec.costPerCall", "must not be negative"}}),
		Entry("a costPerCall with ten decimals", badManifest{yaml: tool("writes: false\n  actionClass: read\n  costPerCall: \"0.0000000001\""), fields: []string{"spec.costPerCall", "9 decimal places"}}),
		Entry("maxStepsPerPlan 1001", badManifest{yaml: sp(`maxStepsPerPlan: 1001`), fields: []string{"spec.maxStepsPerPlan", "1000"}}),
		Entry("a declared step that is not a DNS label", badManifest{yaml: planSpec("steps: [build, Test]"), fields: []string{"spec.steps[1]"}}),
		Entry("a cost reporter of an unknown kind", badManifest{yaml: planSpec("costReporter: {kind: Group, name: x}"), fields: []string{"spec.costReporter.kind", "Unsupported value"}}),
		Entry("a user cost reporter with a namespace", badManifest{yaml: planSpec("costReporter: {kind: User, name: x, namespace: team}"), fields: []string{"spec.costReporter.namespace", "only for a ServiceAccount"}}),
		Entry("a denied tool spelled in upper case", badManifest{yaml: sp(`deniedTools: [Shell]`), fields: []string{"spec.deniedTools[0]", "AgentTool", "would deny no tool"}}),
		Entry("a denied tool spelled as its MCP name", badManifest{yaml: sp(`deniedTools: [write_file]`), fields: []string{"spec.deniedTools[0]", "AgentTool", "would deny no tool"}}),
		Entry("a denied tool glob in upper case", badManifest{yaml: sp(`deniedTools: ["Deploy-*"]`), fields: []string{"spec.deniedTools[0]", "AgentTool", "would deny no tool"}}),
		Entry("an allowed tool no AgentTool can be named", badManifest{yaml: sp(`allowedTools: ["read file"]`), fields: []string{"spec.allowedTools[0]", "AgentTool", "would allow no tool"}}),
		Entry("an inline denied tool spelled as the hook's", badManifest{yaml: ap("safety: {deniedTools: [Bash]}"), fields: []string{"spec.safety.deniedTools[0]", "AgentTool", "would deny no tool"}}),
		Entry("an activeDeadlineSeconds beyond a year", badManifest{yaml: planSpec("activeDeadlineSeconds: 9223372037"), fields: []string{"spec.activeDeadlineSeconds", "31536000"}}),
		Entry("a cost reporter ServiceAccount that cannot exist", badManifest{yaml: planSpec("costReporter: {kind: ServiceAccount, name: 'gw:reporter'}"), fields: []string{"spec.costReporter.name", "ServiceAccount"}}),
		Entry("an approval for a step no call can give", badManifest{yaml: approval("step: Build"), fields: []string{"spec.step", "DNS label"}}),
		Entry("an approval naming a projectDir", badManifest{yaml: approval("arguments: {command: ls, projectDir: /workspace/app}"), fields: []string{"spec.arguments", "projectDir"}}),
		Entry("an approval for a step with a space", badManifest{yaml: approval("step: 'step 1'"), fields: []string{"spec.step", "DNS label"}}),
		Entry("a changed AgentPlan spec", badManifest{
			base: plan("false"), update: true, yaml: plan("true"), fields: []string{"spec", "immutable"},
		}),
	)
})

// Near misses of the bad manifests: ordinary spellings the same checks must keep admitting.
var _ = Describe("ordinary manifests", func() {
	DescribeTable("are accepted",
		func(doc string) {
			n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "ok-"}}
			Expect(k8sClient.Create(ctx, n)).To(Succeed())
			objs, err := testenv.DecodeYAML([]byte(doc))
			Expect(err).NotTo(HaveOccurred())
			Expect(objs).To(HaveLen(1))
			if isNamespaced(objs[0].GetKind()) {
				objs[0].SetNamespace(n.Name)
			}
			Expect(k8sClient.Create(ctx, objs[0])).To(Succeed())
			DeferCleanup(func() { _ = k8sClient.Delete(ctx, objs[0]) })
		},
		Entry("tool names and globs AgentTools can match", sp(`deniedTools: [shell, "deploy-*", "{edit,write}", "run-tests?", "[a-c]*", "mcp.fs.*"]`)),
		Entry("allowed tools with a character class", sp(`allowedTools: ["read-*", "[!d]*", grep]`)),
		Entry("inline denied tools", ap("safety: {deniedTools: [bash, \"write-*\"]}")),
		Entry("a plan active for a year", planSpec("activeDeadlineSeconds: 31536000")),
		Entry("a workspace with dotted names", pp("workspace: /srv/my.app/.work/..cache/x.")),
		Entry("a user cost reporter named as the authenticator names it", planSpec("costReporter: {kind: User, name: 'Alice@Example.com'}")),
		Entry("a ServiceAccount cost reporter in another namespace",
			planSpec("costReporter: {kind: ServiceAccount, name: toolgate-gateway, namespace: toolgate-system}")),
	)
})

func isNamespaced(kind string) bool {
	switch kind {
	case "ProjectPolicy", "AgentPlan", "AgentToolCall", "ToolApproval":
		return true
	}
	return false
}

var counter int

func uniqueName(prefix string) string {
	counter++
	return fmt.Sprintf("%s-%d", prefix, counter)
}

func sp(spec string) string {
	return fmt.Sprintf("apiVersion: safety.toolgate.dev/v1alpha1\nkind: SafetyProfile\nmetadata: {name: %s}\nspec:\n  %s\n", uniqueName("bad-sp"), spec)
}

func ap(spec string) string {
	return fmt.Sprintf("apiVersion: safety.toolgate.dev/v1alpha1\nkind: AutomationProfile\nmetadata: {name: %s}\nspec:\n  %s\n", uniqueName("bad-ap"), spec)
}

func defaultAP(name string) string {
	return fmt.Sprintf("apiVersion: safety.toolgate.dev/v1alpha1\nkind: AutomationProfile\nmetadata:\n  name: %s\n  annotations: {safety.toolgate.dev/is-default: \"true\"}\nspec: {}\n", name)
}

func pp(spec string) string {
	return fmt.Sprintf("apiVersion: safety.toolgate.dev/v1alpha1\nkind: ProjectPolicy\nmetadata: {name: project}\nspec:\n  %s\n", spec)
}

func tool(spec string) string {
	return fmt.Sprintf("apiVersion: safety.toolgate.dev/v1alpha1\nkind: AgentTool\nmetadata: {name: %s}\nspec:\n  %s\n", uniqueName("bad-tool"), spec)
}

func auditLedger(spec string) string {
	return fmt.Sprintf("apiVersion: safety.toolgate.dev/v1alpha1\nkind: AuditLedger\nmetadata: {name: default}\nspec:\n  %s\n", spec)
}

func plan(readOnly string) string {
	return fmt.Sprintf("apiVersion: safety.toolgate.dev/v1alpha1\nkind: AgentPlan\nmetadata: {name: p1}\nspec: {serviceAccountName: agent, readOnly: %s}\n", readOnly)
}

func call(spec string) string {
	return fmt.Sprintf("apiVersion: safety.toolgate.dev/v1alpha1\nkind: AgentToolCall\nmetadata: {name: %s}\nspec:\n  plan: p\n  tool: t\n  %s\n", uniqueName("bad-call"), spec)
}

func planSpec(spec string) string {
	return fmt.Sprintf("apiVersion: safety.toolgate.dev/v1alpha1\nkind: AgentPlan\nmetadata: {name: %s}\nspec:\n  serviceAccountName: agent\n  %s\n", uniqueName("bad-plan"), spec)
}

func approval(spec string) string {
	return fmt.Sprintf("apiVersion: safety.toolgate.dev/v1alpha1\nkind: ToolApproval\nmetadata: {name: %s}\nspec:\n  plan: p\n  tool: t\n  approver: a\n  %s\n",
		uniqueName("bad-approval"), spec)
}
