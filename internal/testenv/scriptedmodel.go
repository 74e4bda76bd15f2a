package testenv

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
)

// ScriptedModel stands in for the model behind the Anthropic Messages API that Claude Code talks to
// (ANTHROPIC_BASE_URL; ClaudeCodeCommand): the model is the one part of a coding agent that cannot run here. Its
// answers are a script: the k-th answer of a conversation (k assistant turns already in the
// request) asks for turns[k]'s tool uses, in one message as a model does when it calls tools in
// parallel; past the script it ends the turn with text. It keeps every request's body, which is
// everything Claude Code told the model: the tools' results, and whatever else a tool put there.
type ScriptedModel struct {
	*httptest.Server
	turns [][]ToolUse
	// others are the scripts of other conversations (a subagent's), by a text their first
	// message holds (the prompt its parent gave it); read-only once the model serves.
	others []conversation

	mu       sync.Mutex
	requests []messagesRequest
	bodies   [][]byte
}

// ToolUse is one tool the model asks for.
type ToolUse struct {
	ID    string
	Name  string
	Input map[string]any
}

// messagesRequest is what this model reads of a request: its conversation.
type messagesRequest struct {
	Stream   bool `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

// ToolResult is a tool_result block of a user message: what Claude Code reports of a tool use.
type ToolResult struct {
	Type      string          `json:"type"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

// conversation is the script of the conversations whose first message holds marker.
type conversation struct {
	marker string
	turns  [][]ToolUse
}

// NewScriptedModel starts a model answering with turns, on loopback; Close stops it.
func NewScriptedModel(turns ...[]ToolUse) *ScriptedModel {
	return NewScriptedModelWith(nil, turns...)
}

// NewScriptedModelWith starts a model answering with turns, and any conversation whose first
// message holds one of others' keys (a subagent's, whose first message is the prompt its
// parent's Agent tool use gave it) with that key's turns instead.
func NewScriptedModelWith(others map[string][][]ToolUse, turns ...[]ToolUse) *ScriptedModel {
	m := &ScriptedModel{turns: turns}
	for _, marker := range slices.Sorted(maps.Keys(others)) { // the same script for a request every run
		m.others = append(m.others, conversation{marker: marker, turns: others[marker]})
	}
	m.Server = httptest.NewServer(http.HandlerFunc(m.serve))
	return m
}

// script is the turns that answer req's conversation.
func (m *ScriptedModel) script(req messagesRequest) [][]ToolUse {
	if len(req.Messages) > 0 {
		for _, c := range m.others {
			if strings.Contains(string(req.Messages[0].Content), c.marker) {
				return c.turns
			}
		}
	}
	return m.turns
}

func (m *ScriptedModel) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil || r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		http.Error(w, `{"type":"error","error":{"type":"not_found_error","message":"not served"}}`, http.StatusNotFound)
		return
	}
	var req messagesRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"bad JSON"}}`, http.StatusBadRequest)
		return
	}
	m.mu.Lock()
	m.requests, m.bodies = append(m.requests, req), append(m.bodies, body)
	m.mu.Unlock()
	turn := 0
	for _, msg := range req.Messages {
		if msg.Role == "assistant" {
			turn++
		}
	}
	var blocks []contentBlock
	stop := "end_turn"
	if turns := m.script(req); turn < len(turns) && req.Stream {
		for _, u := range turns[turn] {
			input, _ := json.Marshal(u.Input)
			blocks = append(blocks, contentBlock{Type: blockToolUse, ID: u.ID, Name: u.Name, Input: input})
		}
		stop = blockToolUse
	} else {
		blocks = append(blocks, contentBlock{Type: blockText, Text: new("done")})
	}
	message := &messageBody{ID: fmt.Sprintf("msg_%d", turn), Type: "message", Role: "assistant", Model: "scripted",
		Usage: map[string]int{"input_tokens": 1, "output_tokens": 1}}
	if !req.Stream { // Claude Code's side requests (a title, a check) are answered whole
		message.Content, message.StopReason = blocks, &stop
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(message)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(e streamEvent) {
		b, _ := json.Marshal(e)
		_, _ = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.Type, b)
	}
	message.Content = []contentBlock{}
	send(streamEvent{Type: "message_start", Message: message})
	for i, b := range blocks {
		start, delta := b, map[string]string{"type": "text_delta", "text": ""}
		if b.Type == blockToolUse { // the input arrives as streamed JSON, as the API streams it
			start.Input = json.RawMessage(`{}`)
			delta = map[string]string{"type": "input_json_delta", "partial_json": string(b.Input)}
		} else {
			start.Text, delta[blockText] = new(""), *b.Text
		}
		send(streamEvent{Type: "content_block_start", Index: &i, ContentBlock: &start})
		send(streamEvent{Type: "content_block_delta", Index: &i, Delta: delta})
		send(streamEvent{Type: "content_block_stop", Index: &i})
	}
	send(streamEvent{Type: "message_delta", Delta: map[string]any{"stop_reason": stop, "stop_sequence": nil},
		Usage: map[string]int{"output_tokens": 1}})
	send(streamEvent{Type: "message_stop"})
}

// The Messages API's shapes, as much of them as Claude Code reads.
const (
	blockToolUse = "tool_use"
	blockText    = "text"
)

type contentBlock struct {
	Type  string          `json:"type"`
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	Text  *string         `json:"text,omitempty"`
}

type messageBody struct {
	ID           string         `json:"id"`
	Type         string         `json:"type"`
	Role         string         `json:"role"`
	Model        string         `json:"model"`
	Content      []contentBlock `json:"content"`
	StopReason   *string        `json:"stop_reason"`
	StopSequence *string        `json:"stop_sequence"`
	Usage        map[string]int `json:"usage"`
}

type streamEvent struct {
	Type         string         `json:"type"`
	Index        *int           `json:"index,omitempty"`
	Message      *messageBody   `json:"message,omitempty"`
	ContentBlock *contentBlock  `json:"content_block,omitempty"`
	Delta        any            `json:"delta,omitempty"`
	Usage        map[string]int `json:"usage,omitempty"`
}

// Results returns the tool results Claude Code reported to the model, by tool use id.
func (m *ScriptedModel) Results() map[string]ToolResult {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]ToolResult{}
	for _, req := range m.requests {
		for _, msg := range req.Messages {
			var blocks []ToolResult
			if msg.Role != "user" || json.Unmarshal(msg.Content, &blocks) != nil { // a string content holds no results
				continue
			}
			for _, b := range blocks {
				if b.Type == "tool_result" {
					out[b.ToolUseID] = b
				}
			}
		}
	}
	return out
}

// Told returns every request's body: all Claude Code sent the model.
func (m *ScriptedModel) Told() [][]byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([][]byte(nil), m.bodies...)
}

// Text is the result's content as the model reads it: a string, or the text of its blocks (a
// tool_reference block, ToolSearch's answer, by the tool it loads).
func (r ToolResult) Text() string {
	var s string
	if json.Unmarshal(r.Content, &s) == nil {
		return s
	}
	var blocks []struct {
		Text     string `json:"text"`
		ToolName string `json:"tool_name"`
	}
	_ = json.Unmarshal(r.Content, &blocks)
	var out strings.Builder
	for _, b := range blocks {
		out.WriteString(b.Text + b.ToolName)
	}
	return out.String()
}

// ClaudeCodeCommand is Claude Code (binary, from ClaudeCode) run headless (-p prompt) in dir with
// args, talking to model, with nothing of the caller's environment but PATH: home as its home
// (where it keeps its state), and no traffic to anywhere but the model and what args name.
func ClaudeCodeCommand(ctx context.Context, binary, dir, home string, model *ScriptedModel, prompt string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, binary, append([]string{"-p", prompt, "--output-format", "json"}, args...)...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "SHELL=/bin/bash",
		"ANTHROPIC_BASE_URL=" + model.URL, "ANTHROPIC_API_KEY=sk-ant-test-only",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1"}
	return cmd
}
