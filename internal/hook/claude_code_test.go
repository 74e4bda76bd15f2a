package hook_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/testenv"
)

// Claude Code itself, from the npm registry (hack/install-claude-code.sh, pinned), runs
// toolgate-hook as its PreToolUse hook from the settings docs/hook.md gives, in a project with a
// .env, with a pod-bound token of a plan's pod: what the hook answers is what Claude Code does.
// Only the model is scripted (scriptedModel): it asks for the tools a model would, and hears
// whatever Claude Code reports of them, which is the proof of what ran.
var _ = Describe("Claude Code with toolgate-hook as its PreToolUse hook", Ordered, func() {
	var (
		claude, ns, project, secret, marker string
		settings                            string
	)

	BeforeAll(func() {
		var err error
		claude, err = testenv.ClaudeCode(GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
		ns = testNamespace("claude-code-")
		tokenFile := codingPlan(ns, "claude-code-0")

		project = filepath.Join(GinkgoT().TempDir(), "app")
		Expect(os.Mkdir(project, 0o755)).To(Succeed())
		secret, marker = "SECRET="+rand.Text(), "readme-"+rand.Text()
		Expect(os.WriteFile(filepath.Join(project, ".env"), []byte(secret+"\n"), 0o600)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(project, "README.md"), []byte(marker+"\n"), 0o600)).To(Succeed())

		// The hook as docs/hook.md's managed settings run it, given here with --settings (managed
		// settings live in /etc, outside a test's reach; the hook is the same either way).
		hookCommand := strings.Join([]string{hookBinary, "--server", cluster.Config.Host, "--certificate-authority", caFile,
			"--namespace", ns, "--token-file", tokenFile}, " ")
		b, err := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{
			"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": hookCommand, "timeout": 60}}}}}})
		Expect(err).NotTo(HaveOccurred())
		settings = filepath.Join(GinkgoT().TempDir(), "settings.json")
		Expect(os.WriteFile(settings, b, 0o600)).To(Succeed())
	})

	It("runs what toolgate admits and reports toolgate's reason for what it refuses, which never runs", func() {
		env, readme := filepath.Join(project, ".env"), filepath.Join(project, "README.md")
		model := newScriptedModel([]toolUse{
			{ID: "toolu_read_readme", Name: "Read", Input: map[string]any{"file_path": readme}},
			{ID: "toolu_cat_readme", Name: "Bash", Input: map[string]any{"command": "cat README.md", "description": "Show the README"}},
			{ID: "toolu_read_env", Name: "Read", Input: map[string]any{"file_path": env}},
			{ID: "toolu_cat_env", Name: "Bash", Input: map[string]any{"command": "cat .env", "description": "Show the environment file"}},
			{ID: "toolu_write_env", Name: "Write", Input: map[string]any{"file_path": env, "content": "SECRET=overwritten\n"}},
			{ID: "toolu_load_tool", Name: "ToolSearch", Input: map[string]any{"query": "select:NotebookEdit"}},
		}, []toolUse{ // once the README is read, which Claude Code asks of an edit
			{ID: "toolu_edit_readme", Name: "Edit", Input: map[string]any{"file_path": readme, "old_string": marker, "new_string": "edited " + marker}},
			{ID: "toolu_grep_project", Name: "Bash", Input: map[string]any{"command": "grep -rn SECRET .", "description": "Search the project"}},
			{ID: "toolu_subagent", Name: "Agent", Input: map[string]any{"description": "Find secrets", "prompt": "Print .env",
				"subagent_type": "general-purpose"}},
		})
		DeferCleanup(model.Close)

		runCtx, cancel := context.WithTimeout(ctx, 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(runCtx, claude, "-p", "Show me the README and the environment file",
			"--settings", settings, "--output-format", "json", "--max-turns", "4")
		cmd.Dir = project
		// Nothing of the test's own environment: a home of its own (Claude Code keeps its state
		// there), the scripted model as the API, and no traffic to anywhere else.
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + GinkgoT().TempDir(), "SHELL=/bin/bash",
			"ANTHROPIC_BASE_URL=" + model.URL, "ANTHROPIC_API_KEY=sk-ant-test-only",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1"}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		Expect(cmd.Run()).To(Succeed(), "claude: %s\n%s", stdout.String(), stderr.String())

		results := model.results()
		for id, shows := range map[string]string{"toolu_read_readme": marker, "toolu_cat_readme": marker,
			"toolu_edit_readme": "README.md", "toolu_load_tool": "NotebookEdit"} {
			Expect(results).To(HaveKey(id), "Claude Code's output: %s", stdout.String())
			Expect(results[id].IsError).To(BeFalse(), "%s: %s", id, results[id].text())
			Expect(results[id].text()).To(ContainSubstring(shows), "%s ran: %s", id, results[id].Content)
		}
		Expect(os.ReadFile(readme)).To(Equal([]byte("edited " + marker + "\n")))
		for id, reason := range map[string]string{"toolu_read_env": "[ToolAccessDenied]", "toolu_cat_env": "[ToolAccessDenied]",
			"toolu_write_env": "[ToolAccessDenied]", "toolu_grep_project": "[ToolHumanApprovalRequired]",
			"toolu_subagent": `[ToolNotRegistered] tool "agent"`} {
			Expect(results).To(HaveKey(id), "Claude Code's output: %s", stdout.String())
			Expect(results[id].IsError).To(BeTrue(), "%s: %s", id, results[id].text())
			Expect(results[id].text()).To(ContainSubstring(reason), id)
		}
		Expect(results["toolu_grep_project"].text()).To(ContainSubstring("kubectl toolgate approve"))

		By("the refused tools never ran: the model never heard the secret, and the file is as it was")
		for _, body := range model.told() {
			Expect(string(body)).NotTo(ContainSubstring(strings.TrimPrefix(secret, "SECRET=")))
		}
		Expect(os.ReadFile(env)).To(Equal([]byte(secret + "\n")))

		By("toolgate stored the admitted calls, as the pod's plan's, and none of .env")
		var calls safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(ns))).To(Succeed())
		seen := make([]string, 0, len(calls.Items))
		for _, c := range calls.Items {
			Expect(c.Spec.Plan).To(Equal("coding"))
			Expect(c.Spec.Arguments.Command + strings.Join(c.Spec.Arguments.Paths, " ")).NotTo(ContainSubstring(".env"))
			seen = append(seen, c.Spec.Tool+" "+c.Spec.Arguments.Command+strings.Join(c.Spec.Arguments.Paths, " "))
		}
		Expect(seen).To(ContainElements("read "+readme, "bash cat README.md", "edit "+readme))
	})
})
