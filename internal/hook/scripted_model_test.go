package hook_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// scriptedModel stands in for the model behind the Anthropic Messages API that Claude Code talks to
// (ANTHROPIC_BASE_URL): the model is the one part of a coding agent that cannot run here. Its
// answers are a script: the k-th answer of a conversation (k assistant turns already in the
// request) asks for turns[k]'s tool uses, in one message as a model does when it calls tools in
// parallel; past the script it ends the turn with text. It keeps every request's body, which is
// everything Claude Code told the model: the tools' results, and whatever else a tool put there.
type scriptedModel struct {
	*httptest.Server
	turns [][]toolUse

	mu       sync.Mutex
	requests []messagesRequest
	bodies   [][]byte
}

// toolUse is one tool the model asks for.
type toolUse struct {
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

// toolResult is a tool_result block of a user message: what Claude Code reports of a tool use.
type toolResult struct {
	Type      string          `json:"type"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

func newScriptedModel(turns ...[]toolUse) *scriptedModel {
	m := &scriptedModel{turns: turns}
	m.Server = httptest.NewServer(http.HandlerFunc(m.serve))
	return m
}

func (m *scriptedModel) serve(w http.ResponseWriter, r *http.Request) {
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
	var blocks []map[string]any
	stop := "end_turn"
	if turn < len(m.turns) && req.Stream {
		for _, u := range m.turns[turn] {
			blocks = append(blocks, map[string]any{"type": "tool_use", "id": u.ID, "name": u.Name, "input": u.Input})
		}
		stop = "tool_use"
	} else {
		blocks = append(blocks, map[string]any{"type": "text", "text": "done"})
	}
	message := map[string]any{"id": fmt.Sprintf("msg_%d", turn), "type": "message", "role": "assistant", "model": "scripted",
		"stop_sequence": nil, "usage": map[string]int{"input_tokens": 1, "output_tokens": 1}}
	if !req.Stream { // Claude Code's side requests (a title, a check) are answered whole
		message["content"], message["stop_reason"] = blocks, stop
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(message)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	event := func(kind string, data map[string]any) {
		data["type"] = kind
		b, _ := json.Marshal(data)
		_, _ = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", kind, b)
	}
	message["content"], message["stop_reason"] = []any{}, nil
	event("message_start", map[string]any{"message": message})
	for i, b := range blocks {
		switch b["type"] {
		case "tool_use": // the input arrives as streamed JSON, as the API streams it
			input, _ := json.Marshal(b["input"])
			event("content_block_start", map[string]any{"index": i, "content_block": map[string]any{
				"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			event("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		default:
			event("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			event("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "text_delta", "text": b["text"]}})
		}
		event("content_block_stop", map[string]any{"index": i})
	}
	event("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": 1}})
	event("message_stop", map[string]any{})
}

// results returns the tool results Claude Code reported to the model, by tool use id.
func (m *scriptedModel) results() map[string]toolResult {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]toolResult{}
	for _, req := range m.requests {
		for _, msg := range req.Messages {
			var blocks []toolResult
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

// told returns every request's body: all Claude Code sent the model.
func (m *scriptedModel) told() [][]byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([][]byte(nil), m.bodies...)
}

// text is the result's content as the model reads it: a string, or the text of its blocks (a
// tool_reference block, ToolSearch's answer, by the tool it loads).
func (r toolResult) text() string {
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
