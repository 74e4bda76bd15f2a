package hook

import (
	"encoding/json"
	"strings"

	"github.com/toolgate/toolgate/internal/argrules"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

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
	pattern, ok := args[patternKey].(string)
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
