package hook_test

import (
	"slices"
	"testing"

	"github.com/toolgate/toolgate/internal/hook"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// Glob's path of white space only: withGlobPattern trimmed it to "" and joined the pattern below it
// as "/secrets/**", at the file system's root, and the engine skipped the path " " (foldPath trims
// it to nothing). Glob opens the trimmed path as expandPath does, and a blank one is the working
// directory: it lists /var/run/secrets/**, which the engine denies zeroAccess
// ("/run/secrets/") when spelt "secrets/**" from /var/run, and admits as [" ", "/secrets/**"].
func TestGlobBlankPathIsTheWorkingDirectory(t *testing.T) {
	for _, path := range []string{`" "`, `"\u3000"`, `[" "]`} {
		call, err := toolcall.Build(hook.Invocation(hook.Input{ToolName: "Glob", Cwd: "/var/run",
			ToolInput: []byte(`{"pattern": "secrets/**", "path": ` + path + `}`)}, "ns", "p"))
		if err != nil {
			continue // refused: no hole
		}
		paths := call.Spec.Arguments.Paths
		if !slices.Contains(paths, "/var/run/secrets/**") && !slices.Contains(paths, "secrets/**") {
			t.Errorf("Glob of secrets/** below the path %s from /var/run is judged as %q, not below /var/run, "+
				"where Glob lists it", path, paths)
		}
	}
}

// The same for Grep, before treeRoot: a path of white space only was carried as
// the tree " " (grep -r -e SECRET -- ' '), which the engine admitted from the project /w, where Grep,
// opening it as expandPath does (trimmed; blank is the working directory), searches the whole
// project, .env included. Spelt "." or "/w" the same search needs a person's approval ("the
// engine cannot rule out that it holds /w/.env").
func TestGrepBlankPathIsTheWorkingDirectory(t *testing.T) {
	for _, path := range []string{`" "`, `"\u3000"`, `[" "]`} {
		call, err := toolcall.Build(hook.Invocation(hook.Input{ToolName: "Grep", Cwd: "/w",
			ToolInput: []byte(`{"pattern": "SECRET", "path": ` + path + `}`)}, "ns", "p"))
		if err != nil {
			continue // refused: no hole
		}
		paths := call.Spec.Arguments.Paths
		if !slices.Contains(paths, "/w") && !slices.Contains(paths, ".") {
			t.Errorf("Grep below the path %s from /w is judged as %q (%s), not as a search of /w, where Grep "+
				"searches it", path, paths, call.Spec.Arguments.Command)
		}
	}
}
