// Package hook is toolgate's coding-agent hook: it speaks Claude Code's PreToolUse protocol (a
// JSON payload on stdin naming the tool and its input, a JSON decision on stdout) and turns each
// tool use into an AgentToolCall of the pod's plan, through pkg/toolcall's one mapping and
// pkg/agent's Submit, created with the pod's own ServiceAccount token. It adds no policy of its
// own: toolgate's answer is the decision, and anything that keeps it from getting one denies.
package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/toolgate/toolgate/internal/jsonobject"
	"github.com/toolgate/toolgate/internal/policy"
)

// EventPreToolUse is the one hook event this hook answers.
const EventPreToolUse = "PreToolUse"

// MaxPayloadBytes bounds what the hook reads from stdin: the tool's arguments plus the payload's
// own fields. A file tool's content is omitted from the call (toolcall.ArgumentMap.Omit), so a
// Write may carry a large file; what is judged is at most toolcall.MaxArgumentBytes. A larger
// payload is denied.
const MaxPayloadBytes = 32 << 20

// Input is the PreToolUse payload a coding agent writes to the hook's stdin.
type Input struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	PermissionMode string          `json:"permission_mode,omitempty"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolUseID      string          `json:"tool_use_id,omitempty"`
}

// Decisions a PreToolUse hook can give.
const (
	Allow = "allow"
	Deny  = "deny"
	Ask   = "ask"
)

// Output is the hook's answer on stdout.
type Output struct {
	HookSpecificOutput SpecificOutput `json:"hookSpecificOutput"`
}

// SpecificOutput is the PreToolUse part of the answer.
type SpecificOutput struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

func answer(decision, reason string) Output {
	// Claude Code shows the reason in the person's terminal, and it holds the agent's text (the
	// tool's name, the denial, the command that approves the call): every character that would
	// not show as itself is written as an escape.
	return Output{HookSpecificOutput: SpecificOutput{HookEventName: EventPreToolUse,
		PermissionDecision: decision, PermissionDecisionReason: policy.Visible(reason)}}
}

// ParseInput decodes a payload strictly enough that the tool the agent sees run is the tool
// toolgate decided on: one JSON object, the PreToolUse event, a tool name, and a tool input that
// is an object (or absent).
func ParseInput(raw []byte) (Input, error) {
	var in Input
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&in); err != nil {
		return in, fmt.Errorf("the payload is not a PreToolUse JSON object: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF { // not More: it sees no value before a stray '}' or ']'
		return in, fmt.Errorf("the payload holds more than one JSON value")
	}
	if err := uniqueFields(raw); err != nil {
		return in, err
	}
	if in.HookEventName != EventPreToolUse {
		return in, fmt.Errorf("hook_event_name is %q; toolgate-hook answers only %s", in.HookEventName, EventPreToolUse)
	}
	if in.ToolName == "" {
		return in, fmt.Errorf("the payload names no tool_name")
	}
	if t := bytes.TrimSpace(in.ToolInput); len(t) > 0 && t[0] != '{' && !bytes.Equal(t, []byte("null")) {
		return in, fmt.Errorf("tool_input must be a JSON object")
	}
	return in, nil
}

// inputFields are the payload's keys the hook reads (Input's JSON names).
var inputFields = func() []string {
	t := reflect.TypeFor[Input]()
	keys := make([]string, 0, t.NumField())
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		keys = append(keys, name)
	}
	return keys
}()

// uniqueFields refuses a payload (one JSON object, already decoded) that names a field twice or
// respells one of the hook's fields by case: Go's decoder takes the last of them, and a key in
// any case for the field, so the tool or input decided on could be another than the one run.
func uniqueFields(raw []byte) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil { // '{'
		return fmt.Errorf("the payload is not a PreToolUse JSON object: %w", err)
	} else if t != json.Delim('{') {
		return nil // null: no fields, and no event, which ParseInput refuses next
	}
	seen := map[string]bool{}
	for key, err := range jsonobject.Members(dec) {
		if err != nil {
			return fmt.Errorf("the payload is not a PreToolUse JSON object: %w", err)
		}
		if seen[key] {
			return fmt.Errorf("the payload repeats the field %q", key)
		}
		seen[key] = true
		for _, field := range inputFields {
			if key != field && strings.EqualFold(key, field) {
				return fmt.Errorf("the payload's field %q respells %q; spell it exactly", key, field)
			}
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return fmt.Errorf("the payload is not a PreToolUse JSON object: %w", err)
		}
	}
	return nil
}
