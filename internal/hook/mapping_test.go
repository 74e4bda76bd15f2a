package hook_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgate/toolgate/internal/hook"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/pkg/agent"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// Every built-in tool maps onto its AgentTool and the fields the engine checks; what is neither
// checked nor omitted stays in extra, where argument rules see it.
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
		{tool: "Write", input: `{"file_path": "/w/a.go", "content": "package a"}`, agentTool: "write", paths: []string{"/w/a.go"}},
		{tool: "Edit", input: `{"file_path": "/w/.env", "old_string": "a", "new_string": "b", "replace_all": true}`,
			agentTool: "edit", paths: []string{"/w/.env"}, extra: `{"replace_all":true}`},
		{tool: "MultiEdit", input: `{"file_path": "/w/a.go", "edits": [{"old_string": "a", "new_string": "b"}]}`,
			agentTool: "multiedit", paths: []string{"/w/a.go"}},
		{tool: "NotebookEdit", input: `{"notebook_path": "/w/n.ipynb", "new_source": "x", "cell_id": "c1"}`,
			agentTool: "notebookedit", paths: []string{"/w/n.ipynb"}, extra: `{"cell_id":"c1"}`},
		{tool: "Glob", input: `{"pattern": "**/.env", "path": "/w"}`, agentTool: "glob", paths: []string{"/w", "**/.env"}},
		{tool: "Grep", input: `{"pattern": "password", "path": "/w", "glob": "*.env", "-i": true}`, agentTool: "grep",
			command: `grep -r --include='*.env' -e password -- /w`, extra: `{"-i":true,"glob":"*.env","path":"/w","pattern":"password"}`},
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
	}
	for _, tc := range cases {
		got := hook.Answer("bash", tc.err).HookSpecificOutput
		want := hook.SpecificOutput{HookEventName: hook.EventPreToolUse, PermissionDecision: tc.decision, PermissionDecisionReason: tc.reason}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}
