package hook

import (
	"encoding/json"
	"strings"

	"github.com/toolgate/toolgate/internal/argrules"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// tool is how one of the coding agent's built-in tools maps onto a registered AgentTool.
type tool struct {
	// agentTool is the AgentTool name calls ask for (AgentTool names are DNS subdomains, so
	// Claude Code's "Bash" is registered as "bash").
	agentTool string
	args      toolcall.ArgumentMap
}

// filePath is the key of the file a file tool reads or writes; patternKey the key of what Glob
// and Grep look for.
const (
	filePath   = "file_path"
	patternKey = "pattern"
	globKey    = "glob"
)

// builtins maps Claude Code's built-in tools. File paths are checked by the engine's path policy
// whichever tool names them; bulk content (a file's new text, an edit's strings) is omitted from
// the call, so a large write is not refused for its size: the path decides it.
var builtins = map[string]tool{
	"Bash":         {"bash", toolcall.ArgumentMap{Command: "command", Required: []string{"command"}}},
	"Read":         {"read", fileTool(filePath)},
	"Write":        {"write", fileTool(filePath, "content")},
	"Edit":         {"edit", fileTool(filePath, "old_string", "new_string")},
	"MultiEdit":    {"multiedit", fileTool(filePath, "edits")},
	"NotebookEdit": {"notebookedit", fileTool("notebook_path", "new_source")},
	// LS (earlier versions) lists a directory's names, as Glob does below its path.
	"LS": {"ls", fileTool("path")},
	// Glob's pattern is judged where Glob resolves it, below its path (globPatternKey).
	"Glob": {"glob", toolcall.ArgumentMap{Paths: []string{"path", globPatternKey}, Required: []string{patternKey}}},
	// Grep reads every file below its path (the session's working directory when it names none),
	// so its path is a tree: the engine judges it as toolcall.SearchCommand's grep -r, the
	// command the gateway gives a ToolServer's treePaths, and as the same search through Bash.
	"Grep": {"grep", toolcall.ArgumentMap{TreePaths: []string{"path"}, SearchPattern: patternKey, SearchInclude: globKey,
		Required: []string{patternKey}}},
}

// fileTool is the map of a tool that touches the one file (or directory) its required key names,
// with the keys of its bulk content omitted.
func fileTool(path string, omit ...string) toolcall.ArgumentMap {
	return toolcall.ArgumentMap{Paths: []string{path}, Required: []string{path}, Omit: omit}
}

// builtinNamed is the built-in tool name is, or respells: a tool whose name folds to a
// built-in's AgentTool ("read", "BASH") is mapped as that built-in, never submitted under the
// built-in's AgentTool with none of its paths or its command checked.
func builtinNamed(name string) (string, tool, bool) {
	if t, ok := builtins[name]; ok {
		return name, t, true
	}
	folded := foldedName(name)
	for key, t := range builtins {
		if t.agentTool == folded {
			return key, t, true
		}
	}
	return "", tool{}, false
}

func foldedName(name string) string { return strings.ReplaceAll(strings.ToLower(name), "_", "-") }

// AgentToolName is the AgentTool a tool of the coding agent is submitted as: a built-in's
// registered name, otherwise the tool's own name in lower case with '_' as '-' (an MCP tool
// "mcp__github__create_issue" is "mcp--github--create-issue"). A tool nobody registered is then
// refused ToolNotRegistered by toolgate, not guessed at here.
func AgentToolName(name string) string {
	if _, t, ok := builtinNamed(name); ok {
		return t.agentTool
	}
	return foldedName(name)
}

// Invocation is the tool invocation a PreToolUse payload asks for, for plan in namespace.
// The payload's cwd is the working directory (the tools' own paths are absolute).
func Invocation(in Input, namespace, plan string) toolcall.Invocation {
	inv := toolcall.Invocation{Namespace: namespace, Plan: plan, Tool: AgentToolName(in.ToolName),
		Arguments: in.ToolInput, Cwd: in.Cwd}
	key, t, ok := builtinNamed(in.ToolName)
	if ok {
		inv.Map = t.args
	}
	switch key {
	case "Glob":
		inv.Arguments = withGlobPattern(in.ToolInput, in.Cwd)
	case "Grep":
		if !oneGlob(in.ToolInput) {
			inv.Map.SearchInclude = "" // the whole tree is judged
		}
	}
	return inv
}

// oneGlob says whether Grep's glob is the one file-name glob that grep's --include, as the engine
// reads it, takes it for. Claude Code's Grep splits its glob at white space, and at commas outside
// braces, and hands each part to rg, which expands braces: "{*.go,.env}" or "*.go .env" searches
// .env, where --include='{*.go,.env}' names no file but one with braces in its name, and a search
// of the project so narrowed was admitted. Such a glob narrows nothing the engine can judge. True
// for no glob, and for one that is not a string (toolcall.Build refuses it).
func oneGlob(input json.RawMessage) bool {
	args, err := argrules.ParseObject(input, toolcall.MaxArgumentBytes)
	g, isString := args[globKey].(string)
	return err != nil || !isString ||
		!strings.ContainsFunc(g, func(r rune) bool { return r == ',' || r == '{' || r == '}' || jsSpace(r) })
}
