package hook_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/testenv"
)

// Claude Code itself, from the npm registry (hack/install-claude-code.sh, pinned), runs
// toolgate-hook as its PreToolUse hook from the shipped sample's settings, in a project with a
// .env, with a pod-bound token of a plan's pod: what the hook answers is what Claude Code does.
// Only the model is scripted (testenv.ScriptedModel): it asks for the tools a model would, and hears
// whatever Claude Code reports of them, which is the proof of what ran.
var _ = Describe("Claude Code with toolgate-hook as its PreToolUse hook", Ordered, func() {
	var (
		claude, ns, home, project, secret, marker string
		settings                                  string
	)

	BeforeAll(func() {
		var err error
		claude, err = testenv.ClaudeCode(GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
		ns = testNamespace("claude-code-")
		tokenFile := codingPlan(ns, "claude-code-0")

		home = GinkgoT().TempDir()
		project = filepath.Join(home, "app")
		Expect(os.Mkdir(project, 0o755)).To(Succeed())
		secret, marker = "SECRET="+rand.Text(), "readme-"+rand.Text()
		Expect(os.WriteFile(filepath.Join(project, ".env"), []byte(secret+"\n"), 0o600)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(project, "README.md"), []byte(marker+"\n"), 0o600)).To(Succeed())

		settings = sampleSettings(strings.Join([]string{hookBinary, "--server", cluster.Config.Host, "--certificate-authority", caFile,
			"--namespace", ns, "--token-file", tokenFile}, " "), true)
	})

	// claudeRun runs Claude Code headless in the project with settings and the model's script,
	// and returns the model, which holds all Claude Code told it.
	claudeRunIn := func(mode, settings string, others map[string][][]testenv.ToolUse, turns ...[]testenv.ToolUse) *testenv.ScriptedModel {
		GinkgoHelper()
		model := testenv.NewScriptedModelWith(others, turns...)
		DeferCleanup(model.Close)
		runCtx, cancel := context.WithTimeout(ctx, 3*time.Minute)
		defer cancel()
		cmd := testenv.ClaudeCodeCommand(runCtx, claude, project, home, model, "Show me the README and the environment file",
			"--settings", settings, "--max-turns", "4", "--permission-mode", mode)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		Expect(cmd.Run()).To(Succeed(), "claude: %s\n%s", stdout.String(), stderr.String())
		return model
	}

	// claudeRun is claudeRunIn Claude Code's default permission mode.
	claudeRun := func(settings string, turns ...[]testenv.ToolUse) *testenv.ScriptedModel {
		GinkgoHelper()
		return claudeRunIn("default", settings, nil, turns...)
	}

	// claudeRunWith is claudeRun with the sample's settings and scripts for other conversations
	// (testenv.NewScriptedModelWith).
	claudeRunWith := func(others map[string][][]testenv.ToolUse, turns ...[]testenv.ToolUse) *testenv.ScriptedModel {
		GinkgoHelper()
		return claudeRunIn("default", settings, others, turns...)
	}

	// heard says whether the model was told the .env's secret: whether a tool read it.
	heard := func(model *testenv.ScriptedModel) bool {
		for _, body := range model.Told() {
			if strings.Contains(string(body), strings.TrimPrefix(secret, "SECRET=")) {
				return true
			}
		}
		return false
	}

	It("runs what toolgate admits and reports toolgate's reason for what it refuses, which never runs", func() {
		env, readme := filepath.Join(project, ".env"), filepath.Join(project, "README.md")
		model := claudeRun(settings, []testenv.ToolUse{
			{ID: "toolu_read_readme", Name: "Read", Input: map[string]any{"file_path": readme}},
			{ID: "toolu_cat_readme", Name: "Bash", Input: map[string]any{"command": "cat README.md", "description": "Show the README"}},
			{ID: "toolu_read_env", Name: "Read", Input: map[string]any{"file_path": env}},
			{ID: "toolu_cat_env", Name: "Bash", Input: map[string]any{"command": "cat .env", "description": "Show the environment file"}},
			{ID: "toolu_write_env", Name: "Write", Input: map[string]any{"file_path": env, "content": "SECRET=overwritten\n"}},
			{ID: "toolu_load_tool", Name: "ToolSearch", Input: map[string]any{"query": "select:NotebookEdit"}},
		}, []testenv.ToolUse{ // once the README is read, which Claude Code asks of an edit
			{ID: "toolu_edit_readme", Name: "Edit", Input: map[string]any{"file_path": readme, "old_string": marker, "new_string": "edited " + marker}},
			{ID: "toolu_grep_project", Name: "Bash", Input: map[string]any{"command": "grep -rn SECRET .", "description": "Search the project"}},
			{ID: "toolu_list_agents", Name: "ListAgents", Input: map[string]any{}},
		})

		results := model.Results()
		for id, shows := range map[string]string{"toolu_read_readme": marker, "toolu_cat_readme": marker,
			"toolu_edit_readme": "README.md", "toolu_load_tool": "NotebookEdit"} {
			Expect(results).To(HaveKey(id))
			Expect(results[id].IsError).To(BeFalse(), "%s: %s", id, results[id].Text())
			Expect(results[id].Text()).To(ContainSubstring(shows), "%s ran: %s", id, results[id].Content)
		}
		Expect(os.ReadFile(readme)).To(Equal([]byte("edited " + marker + "\n")))
		for id, reason := range map[string]string{"toolu_read_env": "[ToolAccessDenied]", "toolu_cat_env": "[ToolAccessDenied]",
			"toolu_write_env": "[ToolAccessDenied]", "toolu_grep_project": "[ToolHumanApprovalRequired]",
			"toolu_list_agents": `[ToolNotRegistered] tool "listagents"`} {
			Expect(results).To(HaveKey(id))
			Expect(results[id].IsError).To(BeTrue(), "%s: %s", id, results[id].Text())
			Expect(results[id].Text()).To(ContainSubstring(reason), id)
		}
		Expect(results["toolu_grep_project"].Text()).To(ContainSubstring("kubectl toolgate approve"))

		By("the refused tools never ran: the model never heard the secret, and the file is as it was")
		Expect(heard(model)).To(BeFalse())
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

	// A subagent is Claude Code again, in the same process, with tools of its own and a
	// conversation of its own with the model: its tool uses go through the same PreToolUse hook,
	// as the pod's plan's calls, or a refused tool would be one Agent tool use away.
	It("gates a subagent's tool uses as its parent's", func() {
		env, notes, noted := filepath.Join(project, ".env"), filepath.Join(project, "NOTES.md"), "notes-"+rand.Text()
		Expect(os.WriteFile(notes, []byte(noted+"\n"), 0o600)).To(Succeed())
		prompt := "subagent-" + rand.Text() + ": show me the notes and the environment file"
		model := claudeRunWith(map[string][][]testenv.ToolUse{prompt: {{
			{ID: "toolu_sub_read_notes", Name: "Read", Input: map[string]any{"file_path": notes}},
			{ID: "toolu_sub_read_env", Name: "Read", Input: map[string]any{"file_path": env}},
			{ID: "toolu_sub_cat_env", Name: "Bash", Input: map[string]any{"command": "cat .env", "description": "Show it"}},
		}}}, []testenv.ToolUse{
			{ID: "toolu_agent", Name: "Agent", Input: map[string]any{"description": "Look around", "prompt": prompt,
				"subagent_type": "general-purpose"}},
		})

		results := model.Results()
		Expect(results).To(HaveKey("toolu_agent"))
		Expect(results["toolu_agent"].IsError).To(BeFalse(), "the subagent ran: %s", results["toolu_agent"].Text())
		Expect(results).To(HaveKey("toolu_sub_read_notes"), "the subagent's conversation reached the model")
		Expect(results["toolu_sub_read_notes"].IsError).To(BeFalse(), results["toolu_sub_read_notes"].Text())
		Expect(results["toolu_sub_read_notes"].Text()).To(ContainSubstring(noted))
		for _, id := range []string{"toolu_sub_read_env", "toolu_sub_cat_env"} {
			Expect(results).To(HaveKey(id))
			Expect(results[id].IsError).To(BeTrue(), "%s: %s", id, results[id].Text())
			Expect(results[id].Text()).To(ContainSubstring("[ToolAccessDenied]"), id)
		}
		Expect(heard(model)).To(BeFalse())

		By("toolgate stored the parent's Agent tool use and the subagent's read, as the pod's plan's calls")
		var calls safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(ns))).To(Succeed())
		seen := map[string]int{}
		for _, c := range calls.Items {
			Expect(c.Spec.Plan).To(Equal("coding"))
			switch {
			case c.Spec.Tool == "agent" && c.Spec.Arguments.Extra != nil && strings.Contains(string(c.Spec.Arguments.Extra.Raw), prompt):
				seen["agent"]++
			case c.Spec.Tool == "read" && slices.Equal(c.Spec.Arguments.Paths, []string{notes}):
				seen["read notes"]++
			}
		}
		Expect(seen).To(Equal(map[string]int{"agent": 1, "read notes": 1}))
	})

	// Claude Code resolves a file tool's path its own way (relative to its directory, ~ as its
	// home, white space trimmed, links followed by the kernel): each spelling must reach the
	// engine as the file it opens.
	It("refuses .env however Claude Code's file tools are told its path", func() {
		Expect(os.Mkdir(filepath.Join(project, "sub"), 0o755)).To(Succeed())
		Expect(os.Symlink(".env", filepath.Join(project, "notes.txt"))).To(Succeed())
		Expect(os.Symlink(project, filepath.Join(project, "sub", "up"))).To(Succeed())
		paths := []string{".env", "./.env", "sub/../.env", " .env", ".env ", project + "//.env", project + "/./.env",
			project + "/sub/../.env", "notes.txt", project + "/notes.txt", "sub/up/.env", project + "/sub/up/notes.txt",
			"/proc/self/cwd/.env", project + "/.env/", "~/app/.env"}
		uses := make([]testenv.ToolUse, 0, len(paths))
		for i, path := range paths {
			uses = append(uses, testenv.ToolUse{ID: fmt.Sprintf("toolu_read_%d", i), Name: "Read", Input: map[string]any{"file_path": path}})
		}
		model := claudeRun(settings, uses)
		results := model.Results()
		for _, u := range uses {
			Expect(results).To(HaveKey(u.ID))
			Expect(results[u.ID].IsError).To(BeTrue(), "%q: %s", u.Input["file_path"], results[u.ID].Text())
			Expect(results[u.ID].Text()).To(ContainSubstring("[ToolAccessDenied]"), "%q", u.Input["file_path"])
		}
		Expect(heard(model)).To(BeFalse())
	})

	// A platform may run its agents in a mode that asks nobody (acceptEdits writes files unasked,
	// auto lets a classifier decide, dontAsk refuses what is not allowed): toolgate's denial holds
	// in each. (bypassPermissions is refused to root, as the suite runs.)
	It("refuses .env in every permission mode a headless agent runs in", func() {
		for _, mode := range []string{"acceptEdits", "auto", "dontAsk", "plan"} {
			model := claudeRunIn(mode, settings, nil, []testenv.ToolUse{
				{ID: "toolu_cat_env", Name: "Bash", Input: map[string]any{"command": "cat .env"}},
				{ID: "toolu_write_env", Name: "Write", Input: map[string]any{"file_path": filepath.Join(project, ".env"), "content": "SECRET=overwritten\n"}},
			})
			for _, id := range []string{"toolu_cat_env", "toolu_write_env"} {
				Expect(model.Results()).To(HaveKey(id), mode)
				Expect(model.Results()[id].IsError).To(BeTrue(), "%s %s: %s", mode, id, model.Results()[id].Text())
				Expect(model.Results()[id].Text()).To(ContainSubstring("[ToolAccessDenied]"), "%s %s", mode, id)
			}
			Expect(heard(model)).To(BeFalse(), mode)
			Expect(os.ReadFile(filepath.Join(project, ".env"))).To(Equal([]byte(secret+"\n")), mode)
		}
	})

	// Settings the agent could write itself would turn its hook off (disableAllHooks) or add hooks
	// that answer first: the project's and the user's Claude Code settings are the agent's own
	// configuration, which the engine refuses to let it change.
	It("refuses the agent's writes of Claude Code's own settings, and stays on after them", func() {
		off := `{"disableAllHooks": true}`
		model := claudeRun(settings, []testenv.ToolUse{
			{ID: "toolu_project_settings", Name: "Write", Input: map[string]any{"file_path": filepath.Join(project, ".claude", "settings.json"), "content": off}},
			{ID: "toolu_local_settings", Name: "Write", Input: map[string]any{"file_path": ".claude/settings.local.json", "content": off}},
			{ID: "toolu_user_settings", Name: "Write", Input: map[string]any{"file_path": "~/.claude/settings.json", "content": off}},
			{ID: "toolu_shell_settings", Name: "Bash", Input: map[string]any{"command": "mkdir -p .claude && echo '" + off + "' > .claude/settings.json"}},
		}, []testenv.ToolUse{
			{ID: "toolu_cat_env", Name: "Bash", Input: map[string]any{"command": "cat .env"}},
		})
		results := model.Results()
		for _, id := range []string{"toolu_project_settings", "toolu_local_settings", "toolu_user_settings", "toolu_shell_settings", "toolu_cat_env"} {
			Expect(results).To(HaveKey(id))
			Expect(results[id].IsError).To(BeTrue(), "%s: %s", id, results[id].Text())
			Expect(results[id].Text()).To(MatchRegexp(`\[Tool(AccessDenied|HumanApprovalRequired)\]`), id)
		}
		Expect(filepath.Join(project, ".claude")).NotTo(BeAnExistingFile())
		Expect(filepath.Join(home, ".claude", "settings.json")).NotTo(BeAnExistingFile())
		Expect(heard(model)).To(BeFalse())
	})

	It("blocks the tool when the hook cannot answer, as the sample's onFailure tells it; without it the tool runs", func() {
		// The hook killed as it starts, as an agent's admitted `pkill -f toolgate-hook` left running
		// would kill it, or the kernel would under memory pressure.
		killed := "/bin/sh -c 'kill -9 $$'"
		catEnv := []testenv.ToolUse{{ID: "toolu_cat_env", Name: "Bash", Input: map[string]any{"command": "cat .env", "description": "Show it"}}}

		model := claudeRun(sampleSettings(killed, true), catEnv)
		Expect(model.Results()).To(HaveKey("toolu_cat_env"))
		Expect(model.Results()["toolu_cat_env"].IsError).To(BeTrue())
		Expect(model.Results()["toolu_cat_env"].Text()).To(ContainSubstring(`onFailure is "block"`))
		Expect(heard(model)).To(BeFalse(), "the tool did not run")

		model = claudeRun(sampleSettings(killed, false), catEnv)
		Expect(heard(model)).To(BeTrue(), "without onFailure the tool ran: %s", model.Results()["toolu_cat_env"].Text())
	})
})

// sampleSettings writes Claude Code settings whose PreToolUse hooks are those of the shipped
// config/samples/hook/managed-settings.json (its matcher, timeout and onFailure), running command,
// without onFailure unless keepOnFailure, and returns the file. Only the hooks are taken: the
// settings are given with --settings, as a user's, since managed settings live in /etc.
func sampleSettings(command string, keepOnFailure bool) string {
	GinkgoHelper()
	path, err := testenv.Path("config", "samples", "hook", "managed-settings.json")
	Expect(err).NotTo(HaveOccurred())
	b, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	var sample struct {
		Hooks map[string][]struct {
			Matcher string           `json:"matcher"`
			Hooks   []map[string]any `json:"hooks"`
		} `json:"hooks"`
	}
	Expect(json.Unmarshal(b, &sample)).To(Succeed())
	Expect(sample.Hooks["PreToolUse"]).NotTo(BeEmpty())
	for _, entry := range sample.Hooks["PreToolUse"] {
		for _, h := range entry.Hooks {
			Expect(h).To(HaveKeyWithValue("onFailure", "block"), "the sample fails closed")
			h["command"] = command
			if !keepOnFailure {
				delete(h, "onFailure")
			}
		}
	}
	b, err = json.Marshal(map[string]any{"hooks": sample.Hooks})
	Expect(err).NotTo(HaveOccurred())
	f := filepath.Join(GinkgoT().TempDir(), "settings.json")
	Expect(os.WriteFile(f, b, 0o600)).To(Succeed())
	return f
}
