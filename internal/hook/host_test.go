package hook_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/hook"
)

// A built-in naming another machine in "_host" (Claude Code 2.1.332's remote tool forwarding)
// is refused before anything is asked of toolgate: the hook would judge its path as the pod's
// while it ran elsewhere. Its own environment's names pass on (to the plan lookup, which fails
// here), as does an MCP tool's "_host", which is one of its arguments.
func TestDecideRefusesABuiltinThatNamesAnotherMachine(t *testing.T) {
	noPlan := errors.New("no plan in this test")
	g := &hook.Gate{Plan: func(context.Context) (string, error) { return "", noPlan }}
	cases := []struct {
		tool, input string
		refused     bool
	}{
		{"Read", `{"file_path": "/w/README.md", "_host": "laptop"}`, true},
		{"Bash", `{"command": "ls", "_host": "build-box"}`, true},
		{"Write", `{"file_path": "/w/a.go", "content": "x", "_host": "laptop"}`, true},
		{"read", `{"file_path": "/w/README.md", "_host": "laptop"}`, true},
		{"Read", `{"file_path": "/w/README.md", "\u005fhost": "laptop"}`, true},
		{"Read", `{"file_path": "/w/README.md", "_host": "container", "_host": "laptop"}`, true},
		{"Read", `{"file_path": "/w/README.md", "_host": "Container"}`, true}, // Claude Code compares exactly
		{"Read", `{"file_path": "/w/README.md", "_host": ["laptop"]}`, true},
		{"Read", `{"file_path": "/w/README.md", "_host": null}`, true}, // over-refusal: a string or nothing
		// A value no bound of the judged arguments holds does not hide the host.
		{"MultiEdit", `{"file_path": "/w/a.go", "edits": [` + strings.Repeat(`{"old_string": "a", "new_string": "b"},`, 5000) +
			`{}], "_host": "laptop"}`, true},
		{"Read", `{"file_path": "/w/README.md"}`, false},
		{"Read", `{"file_path": "/w/README.md", "_host": ""}`, false},
		{"Read", `{"file_path": "/w/README.md", "_host": " container "}`, false},
		{"Grep", `{"pattern": "x", "_host": "this-machine"}`, false},
		{"mcp__db__query", `{"sql": "select 1", "_host": "laptop"}`, false},
	}
	for _, tc := range cases {
		payload, _ := json.Marshal(map[string]any{"hook_event_name": hook.EventPreToolUse, "tool_name": tc.tool,
			"cwd": "/w", "tool_input": json.RawMessage(tc.input)})
		d := g.Decide(context.Background(), payload).HookSpecificOutput
		refused := strings.HasPrefix(d.PermissionDecisionReason, "["+hook.ReasonRemoteHost+"]")
		if d.PermissionDecision != hook.Deny || refused != tc.refused {
			t.Errorf("%s %.80s: %s %q, want refused %s: %v", tc.tool, tc.input, d.PermissionDecision,
				d.PermissionDecisionReason, hook.ReasonRemoteHost, tc.refused)
		}
	}
}
