package hook

import (
	"strings"

	"github.com/toolgate/toolgate/pkg/toolcall"
)

// tool is how one of the coding agent's built-in tools maps onto a registered AgentTool.
type tool struct {
	// agentTool is the AgentTool name calls ask for (AgentTool names are DNS subdomains, so
	// Claude Code's "Bash" is registered as "bash").
	agentTool string
	args      toolcall.ArgumentMap
}

// filePath is the key of the file a file tool reads or writes.
const filePath = "file_path"

// builtins maps Claude Code's built-in tools. File paths are checked by the engine's path policy
// whichever tool names them; bulk content (a file's new text, an edit's strings) is omitted from
// the call, so a large write is not refused for its size: the path decides it.
var builtins = map[string]tool{
	"Bash":         {"bash", toolcall.ArgumentMap{Command: "command"}},
	"Read":         {"read", toolcall.ArgumentMap{Paths: []string{filePath}}},
	"Write":        {"write", toolcall.ArgumentMap{Paths: []string{filePath}, Omit: []string{"content"}}},
	"Edit":         {"edit", toolcall.ArgumentMap{Paths: []string{filePath}, Omit: []string{"old_string", "new_string"}}},
	"MultiEdit":    {"multiedit", toolcall.ArgumentMap{Paths: []string{filePath}, Omit: []string{"edits"}}},
	"NotebookEdit": {"notebookedit", toolcall.ArgumentMap{Paths: []string{"notebook_path"}, Omit: []string{"new_source"}}},
	"Glob":         {"glob", toolcall.ArgumentMap{Paths: []string{"path", "pattern"}}},
	// Grep's path and glob are judged inside the search command the hook adds (search.go).
	"Grep": {"grep", toolcall.ArgumentMap{Command: searchCommandKey}},
}

// AgentToolName is the AgentTool a tool of the coding agent is submitted as: a built-in's
// registered name, otherwise the tool's own name in lower case with '_' as '-' (an MCP tool
// "mcp__github__create_issue" is "mcp--github--create-issue"). A tool nobody registered is then
// refused ToolNotRegistered by toolgate, not guessed at here.
func AgentToolName(name string) string {
	if t, ok := builtins[name]; ok {
		return t.agentTool
	}
	return strings.ReplaceAll(strings.ToLower(name), "_", "-")
}

// Invocation is the tool invocation a PreToolUse payload asks for, for plan in namespace.
// The payload's cwd is the working directory (the tools' own paths are absolute).
func Invocation(in Input, namespace, plan string) toolcall.Invocation {
	inv := toolcall.Invocation{Namespace: namespace, Plan: plan, Tool: AgentToolName(in.ToolName),
		Arguments: in.ToolInput, Cwd: in.Cwd}
	if t, ok := builtins[in.ToolName]; ok {
		inv.Map = t.args
	}
	if in.ToolName == "Grep" {
		inv.Arguments = withSearchCommand(in.ToolInput)
	}
	return inv
}
