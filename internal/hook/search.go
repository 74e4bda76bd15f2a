package hook

import (
	"encoding/json"
	"strings"

	"github.com/toolgate/toolgate/internal/argrules"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// searchCommandKey is the argument the hook adds to a Grep call: the shell command that reads
// what Grep reads, which the engine judges.
const searchCommandKey = "command"

// withSearchCommand gives a Grep call the equivalent shell command. Grep reads every file under
// its path (the session's working directory when it names none), filtered by its glob; as a
// path argument alone that tree would be one file to the engine, whose path policy then never
// sees the protected files inside it (/etc/shadow under /etc, .env under the project). As
// `grep -r` the engine knows it reads the whole tree, as it does for the same search through
// Bash. Input that is not a strict JSON object is left as it is, for toolcall.Build to refuse.
func withSearchCommand(input json.RawMessage) json.RawMessage {
	args, err := argrules.ParseObject(input, toolcall.MaxArgumentBytes)
	roots, ok := pathRoots(args)
	if err != nil || args == nil || !ok {
		return input // refused by toolcall.Build: path is mapped, and must be a string or strings
	}
	words := []string{"grep", "-r"}
	if g, ok := args["glob"].(string); ok && g != "" {
		words = append(words, "--include="+policy.ShellQuote(g))
	}
	pattern, _ := args["pattern"].(string)
	if len(roots) == 0 {
		roots = []string{"."}
	}
	words = append(words, "-e", policy.ShellQuote(pattern), "--")
	for _, root := range roots {
		words = append(words, policy.ShellQuote(root))
	}
	args[searchCommandKey] = strings.Join(words, " ")
	return marshalOr(args, input)
}

// globPatternKey is the argument the hook adds to a Glob call: its pattern as Glob resolves it,
// below its path when it names one (pattern "secrets/**" under path "/var/run" is
// "/var/run/secrets/**"), which the engine judges; resolved against the session's working
// directory instead, it would name another tree.
const globPatternKey = "path_pattern"

// withGlobPattern gives a Glob call its pattern as Glob resolves it. Input that is not a strict
// JSON object, or whose path or pattern is not a string, is left as it is, for toolcall.Build to
// refuse (path is mapped) or the engine to see no pattern.
func withGlobPattern(input json.RawMessage) json.RawMessage {
	args, err := argrules.ParseObject(input, toolcall.MaxArgumentBytes)
	roots, ok := pathRoots(args)
	if err != nil || args == nil || !ok {
		return input
	}
	pattern, ok := args["pattern"].(string)
	if !ok {
		return input
	}
	if len(roots) == 0 || strings.HasPrefix(pattern, "/") || strings.HasPrefix(pattern, "~") {
		args[globPatternKey] = pattern
		return marshalOr(args, input)
	}
	patterns := make([]any, 0, len(roots))
	for _, root := range roots {
		patterns = append(patterns, strings.TrimSuffix(root, "/")+"/"+pattern)
	}
	args[globPatternKey] = patterns
	if len(patterns) == 1 {
		args[globPatternKey] = patterns[0]
	}
	return marshalOr(args, input)
}

// pathRoots is the path argument of a search, as toolcall takes a mapped path: none, one or
// several; an empty string is none, the working directory. False when toolcall.Build refuses it.
func pathRoots(args map[string]any) ([]string, bool) {
	if p, isString := args["path"].(string); isString && p == "" {
		return nil, true
	}
	roots, err := toolcall.PathsArgument(args, "path")
	return roots, err == nil
}

// marshalOr is args as JSON, or input when they cannot be written.
func marshalOr(args map[string]any, input json.RawMessage) json.RawMessage {
	out, err := json.Marshal(args)
	if err != nil {
		return input
	}
	return out
}
