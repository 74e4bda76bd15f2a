package toolcall_test

import (
	"encoding/json"
	"testing"

	"github.com/toolgate/toolgate/pkg/toolcall"
)

// A named working directory a tool may take in another way than the engine judges it, beside the
// edge space, "~" and "$" plainCwd refuses: a file: URL (the engine itself reads a path's file:
// URL as its path, stripFileURL, but a cwd "file:///etc" is joined as /srv/file:///etc, or judged
// as the relative "file:///etc" with no base: the engine admitted "cat shadow" in
// either, denies it in /etc), and a leading "-", which a tool that runs `cd "$dir"` in a shell
// takes as cd's operand "-" ($OLDPWD) or as an option ("-P": no operand, $HOME).
func TestCwdTakenAnotherWay(t *testing.T) {
	m := toolcall.ArgumentMap{Command: "cmd", Cwd: "dir"}
	for _, dir := range []string{"file:///etc", "FILE:/etc", "file://localhost/%65tc", "-", "-P"} {
		args, _ := json.Marshal(map[string]string{"cmd": "cat shadow", "dir": dir})
		call, err := toolcall.Build(toolcall.Invocation{Namespace: "ns", Plan: "p", Tool: "run", Map: m,
			Arguments: args, Cwd: "/srv"})
		if err == nil {
			t.Errorf("cwd %q is built as %q, judged there, where a tool that takes it another way runs elsewhere",
				dir, call.Spec.Arguments.Cwd)
		}
	}
}
