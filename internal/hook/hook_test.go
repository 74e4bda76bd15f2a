package hook_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/hook"
)

// The hook as a coding agent runs it: the built binary, the protocol's documented payloads on
// stdin, a real pod-bound ServiceAccount token in a file (as a projected volume mounts it), and
// the real API server, webhook and engine deciding.
var _ = Describe("toolgate-hook", Ordered, func() {
	const pod = "coding-agent-0"
	var (
		ns        string
		tokenFile string
	)

	BeforeAll(func() {
		ns = testNamespace("hook-")
		tokenFile = codingPlan(ns, pod)
	})

	args := func(extra ...string) []string {
		return append([]string{"--server", cluster.Config.Host, "--certificate-authority", caFile,
			"--namespace", ns, "--token-file", tokenFile}, extra...)
	}

	DescribeTable("answers the documented payloads with toolgate's decision",
		func(file, decision string, phrases ...string) {
			out := run(payload(file), args()...)
			Expect(out.HookEventName).To(Equal(hook.EventPreToolUse))
			Expect(out.PermissionDecision).To(Equal(decision), "%s: %s", file, out.PermissionDecisionReason)
			for _, p := range phrases {
				Expect(out.PermissionDecisionReason).To(ContainSubstring(p))
			}
		},
		Entry("a read of the project", "read.json", hook.Allow, "admitted the call of read"),
		Entry("a read of .env", "read-env.json", hook.Deny, "[ToolAccessDenied]", ".env"),
		Entry("an edit of .env", "edit.json", hook.Deny, "[ToolAccessDenied]", ".env"),
		Entry("a shell command that reads .env", "bash-env.json", hook.Deny, "[ToolAccessDenied]", ".env"),
		Entry("a write in the project", "write.json", hook.Allow),
		Entry("a project command", "bash.json", hook.Allow),
		Entry("a tool nobody registered", "unknown-tool.json", hook.Deny, "[ToolNotRegistered]", `"webfetch"`),
		Entry("a malformed payload", "malformed.json", hook.Deny, "refused the payload", "not a PreToolUse JSON object"),
		Entry("another hook event", "wrong-event.json", hook.Deny, "answers only PreToolUse"),
	)

	// An MCP tool's whole input is its extra arguments, and only argument rules judge them: a key
	// respelling one a rule reads (Go's encoding/json ignores case) and a NUL a C library would
	// end a string at do not pass the rule.
	DescribeTable("judges an MCP tool's input by the project's argument rules, as the tool would read it",
		func(input map[string]any, decision string, phrases ...string) {
			out := run(toolPayload("mcp__github__push", input), args()...)
			Expect(out.PermissionDecision).To(Equal(decision), out.PermissionDecisionReason)
			for _, p := range phrases {
				Expect(out.PermissionDecisionReason).To(ContainSubstring(p))
			}
		},
		Entry("force in another case", map[string]any{"branch": "main", "Force": true}, hook.Deny,
			"[ToolArgumentRuleViolated]", "respells"),
		Entry("force as a camelCase alias's kin", map[string]any{"branch": "main", "FORCE": true}, hook.Deny, "respells"),
		Entry("a NUL in a value", map[string]any{"branch": "main\x00--force"}, hook.Deny, "NUL"),
		Entry("force, false", map[string]any{"branch": "main", "force": false}, hook.Allow),
		Entry("no force", map[string]any{"branch": "main"}, hook.Allow),
	)

	DescribeTable("judges a Grep by the tree it reads, as the same search through Bash",
		func(input map[string]any, decision string, phrases ...string) {
			out := run(toolPayload("Grep", input), args()...)
			Expect(out.PermissionDecision).To(Equal(decision), out.PermissionDecisionReason)
			for _, p := range phrases {
				Expect(out.PermissionDecisionReason).To(ContainSubstring(p))
			}
		},
		Entry("a directory holding /etc/shadow", map[string]any{"pattern": "root:", "path": "/etc"}, hook.Deny, "[ToolAccessDenied]"),
		Entry("the same, narrowed by a glob", map[string]any{"pattern": "root:", "path": "/etc", "glob": "shadow"}, hook.Deny, "[ToolAccessDenied]"),
		Entry("no path: the whole project, which may hold .env", map[string]any{"pattern": "password"}, hook.Deny),
		Entry("one file of the project", map[string]any{"pattern": "TODO", "path": "/workspace/app/src/main.go"}, hook.Allow),
		// Claude Code hands rg each part of a glob split at white space and commas, and rg
		// expands braces: these search .env, and narrow nothing grep --include takes alike.
		Entry("the project, by a glob whose braces name .env", map[string]any{"pattern": "password", "glob": "{*.go,.env}"}, hook.Deny),
		Entry("the project, by a glob Claude Code splits", map[string]any{"pattern": "password", "glob": "*.go .env"}, hook.Deny),
		Entry("the project's Go files", map[string]any{"pattern": "password", "glob": "*.go"}, hook.Allow),
	)

	It("refuses a built-in whose input names its target under a key the map does not know", func() {
		for tool, input := range map[string]map[string]any{
			"Read": {"path": "/workspace/app/.env"},
			"Bash": {"cmd": "cat .env"},
		} {
			out := run(toolPayload(tool, input), args()...)
			Expect(out.PermissionDecision).To(Equal(hook.Deny), "%s: %s", tool, out.PermissionDecisionReason)
			Expect(out.PermissionDecisionReason).To(ContainSubstring("refused the tool input"))
			Expect(out.PermissionDecisionReason).To(MatchRegexp(`argument "(file_path|command)" is required and missing`))
		}
	})

	// The engine judges paths as written; Claude Code's Read opens them, following the links on
	// the agent's filesystem, outside any sandbox. The hook, beside it, follows them too.
	It("judges a file tool's path by where its symbolic links lead too, as the tool will open it", func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, ".env"), []byte("SECRET=1\n"), 0o600)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "README.md"), []byte("hi\n"), 0o600)).To(Succeed())
		Expect(os.Symlink(".env", filepath.Join(dir, "notes.txt"))).To(Succeed())
		Expect(os.Symlink(".", filepath.Join(dir, "here"))).To(Succeed())
		Expect(os.Symlink(dir, filepath.Join(GinkgoT().TempDir(), "ws"))).To(Succeed())
		in := func(tool string, input map[string]any) []byte {
			b, _ := json.Marshal(map[string]any{"session_id": "s", "transcript_path": "/t.jsonl", "cwd": dir,
				"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input})
			return b
		}
		Expect(run(in("Read", map[string]any{"file_path": filepath.Join(dir, "README.md")}), args()...).PermissionDecision).
			To(Equal(hook.Allow), "a file that is no link")
		// Claude Code trims the path and takes its ".." lexically before it opens it.
		for _, path := range []string{filepath.Join(dir, "notes.txt"), "notes.txt", filepath.Join(dir, "here", "notes.txt"),
			filepath.Join(dir, "here", ".", "here", "notes.txt"), " " + filepath.Join(dir, "notes.txt"), "notes.txt ",
			dir + "/nothere/../notes.txt"} {
			out := run(in("Read", map[string]any{"file_path": path}), args()...)
			Expect(out.PermissionDecision).To(Equal(hook.Deny), "%s: %s", path, out.PermissionDecisionReason)
			Expect(out.PermissionDecisionReason).To(And(ContainSubstring("[ToolAccessDenied]"), ContainSubstring(".env")), path)
		}
		By("a tree Grep searches through a link is judged as the tree it leads to")
		Expect(os.Symlink("/etc", filepath.Join(dir, "conf"))).To(Succeed())
		out := run(in("Grep", map[string]any{"pattern": "TODO", "path": filepath.Join(dir, "README.md")}), args()...)
		Expect(out.PermissionDecision).To(Equal(hook.Allow), out.PermissionDecisionReason)
		out = run(in("Grep", map[string]any{"pattern": "root:", "path": filepath.Join(dir, "conf")}), args()...)
		Expect(out.PermissionDecision).To(Equal(hook.Deny), out.PermissionDecisionReason)
		Expect(out.PermissionDecisionReason).To(ContainSubstring("[ToolAccessDenied]"))

		By("a new file below a linked directory is judged where it will be written")
		out = run(in("Write", map[string]any{"file_path": filepath.Join(dir, "here", ".env"), "content": "x"}), args()...)
		Expect(out.PermissionDecision).To(Equal(hook.Deny), out.PermissionDecisionReason)
		Expect(run(in("Write", map[string]any{"file_path": filepath.Join(dir, "here", "new.txt"), "content": "x"}), args()...).
			PermissionDecision).To(Equal(hook.Allow), "a write the link leads back into the project")
	})

	It("stores only the admitted calls, with the payload's arguments", func() {
		var calls safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(ns))).To(Succeed())
		var paths []string
		for _, c := range calls.Items {
			Expect(c.Spec.Plan).To(Equal("coding"))
			paths = append(paths, c.Spec.Arguments.Paths...)
			if c.Spec.Tool == "bash" {
				Expect(c.Spec.Arguments.Command).To(Equal("make test"))
				Expect(c.Spec.Arguments.Cwd).To(Equal("/workspace/app"))
				Expect(string(c.Spec.Arguments.Extra.Raw)).To(Equal(`{"description":"Run the project's tests","timeout":120000}`))
			}
			if c.Spec.Tool == "write" {
				Expect(c.Spec.Arguments.Extra).NotTo(BeNil(), "a file's content is carried as its digest")
				Expect(string(c.Spec.Arguments.Extra.Raw)).To(MatchRegexp(`^\{"omitted":\{"content":"sha256:[0-9a-f]{64}"\}\}$`),
					"a file's content is carried as its digest only")
			}
		}
		Expect(paths).NotTo(ContainElement(ContainSubstring(".env")))
		Expect(paths).To(ContainElement("/workspace/app/README.md"))
	})

	It("denies a call that needs a person's approval, naming the command that gives it; asks only when told to", func() {
		out := run(bashPayload("terraform apply"), args()...)
		Expect(out.PermissionDecision).To(Equal(hook.Deny), out.PermissionDecisionReason)
		Expect(out.PermissionDecisionReason).To(ContainSubstring("[ToolHumanApprovalRequired]"))
		Expect(out.PermissionDecisionReason).To(ContainSubstring("kubectl toolgate approve"))

		out = run(bashPayload("terraform apply"), args("--ask-for-approvals")...)
		Expect(out.PermissionDecision).To(Equal(hook.Ask), out.PermissionDecisionReason)
		Expect(out.PermissionDecisionReason).To(ContainSubstring("[ToolHumanApprovalRequired]"))
	})

	It("denies when it cannot reach toolgate, and when it has no token", func() {
		out := run(payload("read.json"), "--server", "https://127.0.0.1:1", "--certificate-authority", caFile,
			"--namespace", ns, "--token-file", tokenFile, "--plan", "coding")
		Expect(out.PermissionDecision).To(Equal(hook.Deny))
		Expect(out.PermissionDecisionReason).To(ContainSubstring("could not decide"))

		out = run(payload("read.json"), "--server", cluster.Config.Host, "--namespace", ns, "--token-file", "/nonexistent/token")
		Expect(out.PermissionDecision).To(Equal(hook.Deny))
		Expect(out.PermissionDecisionReason).To(ContainSubstring("reading the ServiceAccount token"))
		Expect(out.PermissionDecisionReason).To(HavePrefix("toolgate-hook cannot ask toolgate"), "a setup error, not a missing plan")
	})

	It("leaves the tools of the MCP server named as toolgate's gateway to the gateway, and no other", func() {
		var before safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &before, client.InNamespace(ns))).To(Succeed())
		gatewayRead := toolPayload("mcp__toolgate__read_file", map[string]any{"path": ".env"})

		out := run(gatewayRead, args("--gateway-mcp-server", "toolgate")...)
		Expect(out.PermissionDecision).To(Equal(hook.Allow), out.PermissionDecisionReason)
		Expect(out.PermissionDecisionReason).To(ContainSubstring("toolgate's gateway (MCP server toolgate) gates the call"))

		out = run(gatewayRead, args()...)
		Expect(out.PermissionDecision).To(Equal(hook.Deny), "without the flag it is any MCP tool: %s", out.PermissionDecisionReason)
		Expect(out.PermissionDecisionReason).To(ContainSubstring("[ToolNotRegistered]"))
		for _, other := range []string{"mcp__files__read_file", "mcp__toolgate_files__read_file", "mcp__toolgatex__read_file",
			"mcp__toolgate___read_file", "mcp__toolgate____read_file", "mcp__toolgate__x__read_file", "mcp__Toolgate__read_file"} {
			out = run(toolPayload(other, map[string]any{"path": ".env"}), args("--gateway-mcp-server", "toolgate")...)
			Expect(out.PermissionDecision).To(Equal(hook.Deny), "%s: %s", other, out.PermissionDecisionReason)
			Expect(out.PermissionDecisionReason).To(ContainSubstring("[ToolNotRegistered]"))
		}

		var after safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &after, client.InNamespace(ns))).To(Succeed())
		Expect(after.Items).To(HaveLen(len(before.Items)), "the hook created no call for the gateway's tool, and none was admitted")
	})

	It("refuses to start with a gateway server name that could be the prefix of another server's tools", func() {
		for _, name := range []string{"toolgate__x", "_toolgate", "tool gate", ""} {
			cmd := exec.Command(hookBinary, args("--gateway-mcp-server="+name)...)
			cmd.Stdin = bytes.NewReader(toolPayload("mcp__toolgate__x__read", map[string]any{}))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if name == "" { // not named: every tool is submitted
				Expect(err).NotTo(HaveOccurred(), stderr.String())
				Expect(string(out)).To(ContainSubstring(`"permissionDecision":"deny"`))
				continue
			}
			var exit *exec.ExitError
			Expect(errors.As(err, &exit)).To(BeTrue(), "%q: %v", name, err)
			Expect(exit.ExitCode()).To(Equal(2), "the protocol's block")
			Expect(stderr.String()).To(ContainSubstring("--gateway-mcp-server"))
			Expect(out).To(BeEmpty())
		}
	})

	It("blocks, with nothing on stdout, when its command line asks for help or holds a stray argument", func() {
		// Exit 0 with no answer is success to the agent, which would run every tool; and flags
		// after a stray word are never read, so the hook would run on defaults the platform did
		// not choose.
		for _, argv := range [][]string{args("-h"), args("--help"), args("hook", "--plan", "coding"), args("--no-such-flag")} {
			cmd := exec.Command(hookBinary, argv...)
			cmd.Stdin = bytes.NewReader(payload("read.json"))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			var exit *exec.ExitError
			Expect(errors.As(err, &exit)).To(BeTrue(), "%q: %v, stdout %s", argv, err, out)
			Expect(exit.ExitCode()).To(Equal(2), "%q: the protocol's block", argv)
			Expect(out).To(BeEmpty())
			Expect(stderr.String()).NotTo(BeEmpty())
		}
	})

	It("denies a plan the pod is not bound to, named by flag", func() {
		out := run(payload("read.json"), args("--plan", "someone-elses")...)
		Expect(out.PermissionDecision).To(Equal(hook.Deny))
		Expect(out.PermissionDecisionReason).To(ContainSubstring("[PlanNotFound]"))
	})
})

func payload(file string) []byte {
	GinkgoHelper()
	b, err := os.ReadFile(filepath.Join("testdata", file))
	Expect(err).NotTo(HaveOccurred())
	return b
}

func bashPayload(command string) []byte {
	return toolPayload("Bash", map[string]any{"command": command})
}

// toolPayload is a PreToolUse payload of tool with input, in the project /workspace/app.
func toolPayload(tool string, input map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{"session_id": "s", "transcript_path": "/t.jsonl", "cwd": "/workspace/app",
		"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input})
	return b
}

// run runs the hook binary with stdin and returns its answer; it must exit 0 with one JSON object.
func run(stdin []byte, args ...string) hook.SpecificOutput {
	GinkgoHelper()
	cmd := exec.Command(hookBinary, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	Expect(err).NotTo(HaveOccurred(), "toolgate-hook: %s", stderr.String())
	var o hook.Output
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	Expect(dec.Decode(&o)).To(Succeed(), "stdout: %s", out)
	Expect(strings.TrimSpace(string(out))).To(HavePrefix(`{"hookSpecificOutput":`))
	return o.HookSpecificOutput
}
