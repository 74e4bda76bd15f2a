package hook_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/toolgate/toolgate/internal/hook"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// A Glob or Grep path of white space only is the working directory: the tool opens it trimmed
// (expandPath), and a blank one is where the session is. Before, Glob's pattern was joined below
// "" as "/secrets/**", at the file system's root, and Grep's tree was " " (grep -r -e SECRET --
// ' '); the engine skipped the path " " (foldPath trims it to nothing) and admitted both, where
// Glob lists /var/run/secrets/** (denied zeroAccess when spelt "secrets/**" from /var/run) and
// Grep searches the whole project, .env included (asked for when spelt "." or "/w").
func TestASearchOfABlankPathIsOfTheWorkingDirectory(t *testing.T) {
	for _, c := range []struct {
		tool, cwd, input string
		want             []string
	}{
		{"Glob", "/var/run", `{"pattern": "secrets/**", "path": %s}`, []string{"/var/run/secrets/**", "secrets/**"}},
		{"Grep", "/w", `{"pattern": "SECRET", "path": %s}`, []string{"/w", "."}},
	} {
		for _, path := range []string{`" "`, `"\u3000"`, `[" "]`} {
			input := []byte(fmt.Sprintf(c.input, path))
			call, err := toolcall.Build(hook.Invocation(hook.Input{ToolName: c.tool, Cwd: c.cwd, ToolInput: input}, "ns", "p"))
			if err != nil {
				continue // refused: no hole
			}
			if paths := call.Spec.Arguments.Paths; !slices.ContainsFunc(c.want, func(w string) bool { return slices.Contains(paths, w) }) {
				t.Errorf("%s %s from %s is judged as %q (%s), not as one of %q, where the tool searches",
					c.tool, input, c.cwd, paths, call.Spec.Arguments.Command, c.want)
			}
		}
	}
}
