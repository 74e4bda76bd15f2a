package hook_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgate/toolgate/internal/hook"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/pkg/agent"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// Every built-in tool maps onto its AgentTool and the fields the engine checks; what is neither
// checked nor omitted stays in extra, where argument rules see it.
// sha is the digest toolcall carries for an omitted value spelt raw.
func sha(raw string) string {
	sum := sha256.Sum256([]byte(raw))
	return "sha256:" + hex.EncodeToString(sum[:])
}

func TestInvocationMapsTheBuiltins(t *testing.T) {
	cases := []struct {
		tool, input        string
		agentTool, command string
		paths              []string
		extra              string
	}{
		{tool: "Bash", input: `{"command": "ls -la", "description": "list", "timeout": 5}`, agentTool: "bash",
			command: "ls -la", extra: `{"description":"list","timeout":5}`},
		{tool: "Read", input: `{"file_path": "/w/a.go", "offset": 1, "limit": 2}`, agentTool: "read",
			paths: []string{"/w/a.go"}, extra: `{"limit":2,"offset":1}`},
		// The content a file tool sends is carried as its digest (extra.omitted), not as itself.
		{tool: "Write", input: `{"file_path": "/w/a.go", "content": "package a"}`, agentTool: "write", paths: []string{"/w/a.go"},
			extra: `{"omitted":{"content":"` + sha(`"package a"`) + `"}}`},
		{tool: "Edit", input: `{"file_path": "/w/.env", "old_string": "a", "new_string": "b", "replace_all": true}`,
			agentTool: "edit", paths: []string{"/w/.env"},
			extra: `{"omitted":{"new_string":"` + sha(`"b"`) + `","old_string":"` + sha(`"a"`) + `"},"replace_all":true}`},
		{tool: "MultiEdit", input: `{"file_path": "/w/a.go", "edits": [{"old_string": "a", "new_string": "b"}]}`,
			agentTool: "multiedit", paths: []string{"/w/a.go"},
			extra: `{"omitted":{"edits":"` + sha(`[{"old_string": "a", "new_string": "b"}]`) + `"}}`},
		{tool: "NotebookEdit", input: `{"notebook_path": "/w/n.ipynb", "new_source": "x", "cell_id": "c1"}`,
			agentTool: "notebookedit", paths: []string{"/w/n.ipynb"},
			extra: `{"cell_id":"c1","omitted":{"new_source":"` + sha(`"x"`) + `"}}`},
		// Glob's pattern is judged below its path, where Glob resolves it.
		{tool: "Glob", input: `{"pattern": "**/.env", "path": "/w"}`, agentTool: "glob", paths: []string{"/w", "/w/**/.env"},
			extra: `{"pattern":"**/.env"}`},
		{tool: "Glob", input: `{"pattern": "secrets/**/*", "path": "/var/run/"}`, agentTool: "glob",
			paths: []string{"/var/run/", "/var/run/secrets/**/*"}, extra: `{"pattern":"secrets/**/*"}`},
		// Glob opens its path trimmed: the pattern is below /var/run, not "/var/run ".
		{tool: "Glob", input: `{"pattern": "secrets/**", "path": "/var/run "}`, agentTool: "glob",
			paths: []string{"/var/run ", "/var/run/secrets/**"}, extra: `{"pattern":"secrets/**"}`},
		{tool: "Glob", input: `{"pattern": "secrets/**", "path": "\u3000/var/run/\ufeff"}`, agentTool: "glob",
			paths: []string{"\u3000/var/run/\ufeff", "/var/run/secrets/**"}, extra: `{"pattern":"secrets/**"}`},
		// Glob reads a pattern's first names that repeat its directory's last ones as that
		// directory, when it has no such subdirectory: both are judged.
		{tool: "Glob", input: `{"pattern": "run/secrets/**", "path": "/var/run"}`, agentTool: "glob",
			paths: []string{"/var/run", "/var/run/run/secrets/**", "/var/run/secrets/**"}, extra: `{"pattern":"run/secrets/**"}`},
		{tool: "Glob", input: `{"pattern": "./run/secrets/**", "path": "/var/run"}`, agentTool: "glob",
			paths: []string{"/var/run", "/var/run/./run/secrets/**", "/var/run/secrets/**"}, extra: `{"pattern":"./run/secrets/**"}`},
		{tool: "Glob", input: `{"pattern": "run/.//./secrets/**", "path": "/var/run/"}`, agentTool: "glob",
			paths: []string{"/var/run/", "/var/run/run/.//./secrets/**", "/var/run/secrets/**"}, extra: `{"pattern":"run/.//./secrets/**"}`},
		{tool: "Glob", input: `{"pattern": "var/run/secrets/*", "path": "/var/run"}`, agentTool: "glob",
			paths: []string{"/var/run", "/var/run/var/run/secrets/*", "/var/run/secrets/*"}, extra: `{"pattern":"var/run/secrets/*"}`},
		{tool: "Glob", input: `{"pattern": "w/.env*"}`, agentTool: "glob", paths: []string{"w/.env*", "/w/.env*"},
			extra: `{"pattern":"w/.env*"}`},
		{tool: "Glob", input: `{"pattern": "*.go", "path": "src"}`, agentTool: "glob", paths: []string{"src", "src/*.go"},
			extra: `{"pattern":"*.go"}`},
		{tool: "Glob", input: `{"pattern": "/etc/*", "path": "/w"}`, agentTool: "glob", paths: []string{"/w", "/etc/*"},
			extra: `{"pattern":"/etc/*"}`},
		{tool: "Glob", input: `{"pattern": "**/*.md"}`, agentTool: "glob", paths: []string{"**/*.md"}, extra: `{"pattern":"**/*.md"}`},
		{tool: "Grep", input: `{"pattern": "password", "path": "/w", "glob": "*.env", "-i": true}`, agentTool: "grep",
			command: `grep -r --include='*.env' -e password -- /w`, paths: []string{"/w"}, extra: `{"-i":true,"glob":"*.env","pattern":"password"}`},
		// Claude Code's Grep splits its glob at white space and commas and rg expands its braces:
		// a glob that is not one grep --include takes alike narrows nothing, and the whole tree
		// is judged.
		{tool: "Grep", input: `{"pattern": "x", "glob": "{*.go,.env}"}`, agentTool: "grep",
			command: `grep -r -e x -- .`, extra: `{"glob":"{*.go,.env}","pattern":"x"}`},
		{tool: "Grep", input: `{"pattern": "x", "glob": "*.go .env", "path": "/w"}`, agentTool: "grep",
			command: `grep -r -e x -- /w`, paths: []string{"/w"}, extra: `{"glob":"*.go .env","pattern":"x"}`},
		{tool: "Grep", input: `{"pattern": "x", "glob": "*.go,id_rsa"}`, agentTool: "grep",
			command: `grep -r -e x -- .`, extra: `{"glob":"*.go,id_rsa","pattern":"x"}`},
		{tool: "Grep", input: `{"pattern": "x", "glob": "*.go\u3000.env"}`, agentTool: "grep",
			command: `grep -r -e x -- .`, extra: `{"glob":"*.go　.env","pattern":"x"}`},
		{tool: "Grep", input: `{"pattern": "x", "glob": "*_test.go"}`, agentTool: "grep",
			command: `grep -r --include='*_test.go' -e x -- .`, extra: `{"glob":"*_test.go","pattern":"x"}`},
		// Several paths are each searched, as toolcall takes a mapped path.
		{tool: "Grep", input: `{"pattern": "x", "path": ["/var/run", "src"]}`, agentTool: "grep",
			command: `grep -r -e x -- /var/run src`, paths: []string{"/var/run", "src"}, extra: `{"pattern":"x"}`},
		{tool: "Glob", input: `{"pattern": "secrets/*", "path": ["/var/run", "src"]}`, agentTool: "glob",
			paths: []string{"/var/run", "src", "/var/run/secrets/*", "src/secrets/*"}, extra: `{"pattern":"secrets/*"}`},
		// LS (earlier versions) lists a directory: its path is judged, as Glob's is.
		{tool: "LS", input: `{"path": "/etc", "ignore": ["*.log"]}`, agentTool: "ls", paths: []string{"/etc"}, extra: `{"ignore":["*.log"]}`},
		// A name that folds to a built-in's AgentTool is mapped as that built-in.
		{tool: "read", input: `{"file_path": "/w/.env"}`, agentTool: "read", paths: []string{"/w/.env"}},
		{tool: "BASH", input: `{"command": "cat .env"}`, agentTool: "bash", command: "cat .env"},
		{tool: "multi_edit", input: `{"file_path": "/w/a.go", "edits": []}`, agentTool: "multi-edit", extra: `{"edits":[],"file_path":"/w/a.go"}`},
		{tool: "Grep", input: `{"pattern": "it's"}`, agentTool: "grep", command: `grep -r -e 'it'\''s' -- .`, extra: `{"pattern":"it's"}`},
		{tool: "mcp__github__create_issue", input: `{"title": "t"}`, agentTool: "mcp--github--create-issue", extra: `{"title":"t"}`},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			call, err := toolcall.Build(hook.Invocation(hook.Input{ToolName: tc.tool, ToolInput: []byte(tc.input), Cwd: "/w"}, "ns", "p"))
			if err != nil {
				t.Fatalf("Build() error = %v", err)
			}
			a := call.Spec.Arguments
			extra := ""
			if a.Extra != nil {
				extra = string(a.Extra.Raw)
			}
			got := []any{call.Spec.Tool, a.Command, a.Paths, a.Cwd, extra}
			want := []any{tc.agentTool, tc.command, tc.paths, "/w", tc.extra}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestAnswer(t *testing.T) {
	approval := &agent.ToolHumanApprovalRequiredError{Violation: safety.Violation{Message: "needs a person; approve with: kubectl toolgate approve x"}}
	cases := []struct {
		name, decision, reason string
		err                    error
	}{
		{"admitted", hook.Allow, "toolgate admitted the call of bash", nil},
		{"an approval", hook.Ask, "[ToolHumanApprovalRequired] needs a person; approve with: kubectl toolgate approve x", approval},
		{"a denial", hook.Deny, "[ToolAccessDenied] no", &agent.ToolAccessDeniedError{Violation: safety.Violation{Message: "no"}}},
		{"a request denial", hook.Deny, "[ToolNotRegistered] not registered", &agent.RequestError{Reason: "ToolNotRegistered", Message: "not registered"}},
		{"a transport error", hook.Deny, "toolgate could not decide the call of bash, so it is denied: dial tcp: refused", errors.New("dial tcp: refused")},
		// Claude Code shows the reason in a terminal: the agent's text in it shows as escapes.
		{"a denial with hidden text", hook.Deny, `[ToolAccessDenied] rm -rf ~\x1B[2K\rls \u202E`,
			&agent.ToolAccessDeniedError{Violation: safety.Violation{Message: "rm -rf ~\x1b[2K\rls \u202e"}}},
		{"an error with hidden text", hook.Deny, `toolgate could not decide the call of bash, so it is denied: no \x1B]0;title\x07 \u0085`,
			errors.New("no \x1b]0;title\x07 \u0085")},
	}
	for _, tc := range cases {
		got := hook.Answer("bash", tc.err).HookSpecificOutput
		want := hook.SpecificOutput{HookEventName: hook.EventPreToolUse, PermissionDecision: tc.decision, PermissionDecisionReason: tc.reason}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	got := hook.Answer("Bash\x1b[8m", nil).HookSpecificOutput.PermissionDecisionReason
	if want := `toolgate admitted the call of Bash\x1B[8m`; got != want {
		t.Errorf("a tool name with hidden text: reason %q, want %q", got, want)
	}
}

// A path that is neither a string nor strings is refused, naming the field, for the tools whose
// path the hook reads itself (Grep's search command, Glob's pattern): it is never searched as the
// working directory instead.
func TestInvocationRefusesAPathThatIsNotAString(t *testing.T) {
	for _, tc := range []struct{ tool, input string }{
		{"Grep", `{"pattern": "x", "path": [7]}`},
		{"Grep", `{"pattern": "x", "path": 7}`},
		{"Grep", `{"pattern": "x", "path": null}`},
		{"Glob", `{"pattern": "secrets/**", "path": {"p": "/var/run"}}`},
	} {
		_, err := toolcall.Build(hook.Invocation(hook.Input{ToolName: tc.tool, ToolInput: []byte(tc.input), Cwd: "/w"}, "ns", "p"))
		if err == nil || !strings.Contains(err.Error(), "path") {
			t.Errorf("%s %s: error %v, want one naming path", tc.tool, tc.input, err)
		}
	}
}

// A file tool's path key respelled as another decoder may take it (camelCase, a dash) is refused:
// the engine would check the one spelled exactly, and the tool might read the other.
func TestInvocationRefusesARespelledPath(t *testing.T) {
	for _, input := range []string{
		`{"file_path": "/w/a.go", "filePath": "/w/.env"}`,
		`{"file-path": "/w/.env"}`,
	} {
		_, err := toolcall.Build(hook.Invocation(hook.Input{ToolName: "Read", ToolInput: []byte(input), Cwd: "/w"}, "ns", "p"))
		if err == nil || !strings.Contains(err.Error(), `is a respelling of "file_path"`) {
			t.Errorf("Read %s: error %v, want one naming the respelling", input, err)
		}
	}
}

// A built-in's input without the key that names what it runs or touches is refused, naming the
// key: judged, it would name nothing the engine checks, and the tool would read its target under
// whatever key it does take (a field renamed in another version of the agent) unchecked.
func TestInvocationRefusesABuiltinWithoutWhatItTouches(t *testing.T) {
	for _, tc := range []struct{ tool, input, key string }{
		{"Bash", `{}`, "command"},
		{"Bash", `{"cmd": "cat .env"}`, "command"},
		{"Bash", `{"command": ["cat", ".env"]}`, "command"},
		{"Read", `{"path": "/w/.env"}`, "file_path"},
		{"Read", `null`, "file_path"},
		{"Read", ``, "file_path"},
		{"Write", `{"path": "/w/.env", "content": "x"}`, "file_path"},
		{"Edit", `{"filename": "/w/.env", "old_string": "a", "new_string": "b"}`, "file_path"},
		{"MultiEdit", `{"edits": []}`, "file_path"},
		{"NotebookEdit", `{"path": "/w/.env", "new_source": "x"}`, "notebook_path"},
		{"Glob", `{"path": "/etc"}`, "pattern"},
		{"Glob", `{"pattern": 7, "path": "/w"}`, "pattern"},
		{"Grep", `{"path": "/etc"}`, "pattern"},
		{"LS", `{"dir": "/etc"}`, "path"},
	} {
		_, err := toolcall.Build(hook.Invocation(hook.Input{ToolName: tc.tool, ToolInput: []byte(tc.input), Cwd: "/w"}, "ns", "p"))
		if err == nil || !strings.Contains(err.Error(), `"`+tc.key+`"`) {
			t.Errorf("%s %s: error %v, want one naming %q", tc.tool, tc.input, err, tc.key)
		}
	}
}

// A payload that names one of its fields twice, or respells one by case (which Go's decoder
// would take for it), is refused: which value the tool ran with would be a guess.
func TestParseInputRefusesRepeatedOrRespelledFields(t *testing.T) {
	for _, raw := range []string{
		`{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/w/.env"},"tool_input":{"file_path":"/w/a"}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Read","TOOL_NAME":"Bash","tool_input":{"command":"cat /etc/shadow"}}`,
		`{"hook_event_name":"PreToolUse","Tool_Input":{"file_path":"/w/.env"},"tool_name":"Read","tool_input":{"file_path":"/w/a"}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/w/a"},"Cwd":"/"}`,
	} {
		if _, err := hook.ParseInput([]byte(raw)); err == nil || !strings.Contains(err.Error(), "field") {
			t.Errorf("%s: error %v, want one naming the field", raw, err)
		}
	}
	// Fields the hook does not read are the protocol's to add.
	if _, err := hook.ParseInput([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{},"agent_id":"a","permission_mode":"plan"}`)); err != nil {
		t.Errorf("a payload with a field the hook does not read: %v", err)
	}
}

// TestParseInputRefusesAnythingAfterThePayload: one JSON object and nothing after it but space. A
// stray closing brace or bracket after it was taken (the decoder's More sees no further value
// before one), where any other byte was refused.
func TestParseInputRefusesAnythingAfterThePayload(t *testing.T) {
	const payload = `{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/w/a"}}`
	for _, tail := range []string{"}", "]", " }", "{}", "x", "null"} {
		if _, err := hook.ParseInput([]byte(payload + tail)); err == nil || !strings.Contains(err.Error(), "more than one JSON value") {
			t.Errorf("the payload followed by %q: error %v, want it refused", tail, err)
		}
	}
	for _, tail := range []string{"", "\n", " \r\n\t"} {
		if _, err := hook.ParseInput([]byte(payload + tail)); err != nil {
			t.Errorf("the payload followed by %q: %v", tail, err)
		}
	}
}
