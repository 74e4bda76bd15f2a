package hook

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/internal/argrules"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// globPatternKey is the argument the hook adds to a Glob call: its pattern as Glob resolves it,
// below its path when it names one (pattern "secrets/**" under path "/var/run" is
// "/var/run/secrets/**"), which the engine judges; resolved against the session's working
// directory instead, it would name another tree.
const globPatternKey = "path_pattern"

// withGlobPattern gives a Glob call its pattern as Glob resolves it, from cwd when it names no
// path. Input that is not a strict JSON object, or whose path or pattern is not a string, is left
// as it is, for toolcall.Build to refuse (path is mapped) or the engine to see no pattern.
func withGlobPattern(input json.RawMessage, cwd string) json.RawMessage {
	args, err := argrules.ParseObject(input, toolcall.MaxArgumentBytes)
	roots, ok := pathRoots(args)
	if err != nil || args == nil || !ok {
		return input
	}
	pattern, ok := args[patternKey].(string)
	if !ok {
		return input
	}
	if strings.HasPrefix(pattern, "/") || strings.HasPrefix(pattern, "~") {
		args[globPatternKey] = pattern
		return marshalOr(args, input)
	}
	var patterns []any
	if len(roots) == 0 {
		roots = []string{""} // judged from the working directory, as Glob lists it
	}
	for _, root := range roots {
		// Glob opens its path trimmed (expandPath): "/var/run " is /var/run, and a blank one is
		// the working directory, not "" below "/".
		root = strings.TrimFunc(root, jsSpace)
		if root == "" {
			patterns = append(patterns, pattern)
			root = "."
		} else {
			patterns = append(patterns, strings.TrimSuffix(root, "/")+"/"+pattern)
		}
		if dir, ok := openedPath(root, cwd); ok {
			patterns = appendUnrepeated(patterns, dir, pattern)
		}
	}
	args[globPatternKey] = patterns
	if len(patterns) == 1 {
		args[globPatternKey] = patterns[0]
	}
	return marshalOr(args, input)
}

// appendUnrepeated adds the pattern Glob lists below dir when it reads the pattern's first names
// as a repetition of dir's last ones (Claude Code's Glob, when dir has no such subdirectory:
// "run/secrets/**" below /var/run lists /var/run/secrets/**, not /var/run/run/secrets/**, and
// "w/.env*" from /w lists /w/.env*), so that both are judged. Its "." and empty names are none
// ("./run/secrets/**", "run//secrets/**"): whether Glob cleans them first is not known here, and
// judging one more pattern can only ask more.
func appendUnrepeated(patterns []any, dir, pattern string) []any {
	parts := slices.DeleteFunc(strings.Split(pattern, "/"), func(name string) bool { return name == "." || name == "" })
	literal := 0 // the pattern's leading names that are no glob, all but its last
	for literal < len(parts)-1 && parts[literal] != "" && !strings.ContainsAny(parts[literal], "*?[]{}!") {
		literal++
	}
	names := strings.FieldsFunc(dir, func(r rune) bool { return r == '/' || r == '\\' })
	for n := literal; n > 0; n-- {
		if n <= len(names) && slices.Equal(parts[:n], names[len(names)-n:]) {
			return append(patterns, strings.TrimSuffix(dir, "/")+"/"+strings.Join(parts[n:], "/"))
		}
	}
	return patterns
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
