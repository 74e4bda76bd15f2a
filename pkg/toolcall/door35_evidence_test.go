package toolcall_test

import (
	"os"
	"testing"

	"github.com/toolgate/toolgate/pkg/toolcall"
)

// Evidence of review door35's finding 3 (report only; no fix on this branch): a gateway tool's
// working directory named with space before it (" /etc") is taken as relative and joined below
// the ToolServer's directory ("/srv/ /etc"), which the engine judges as a directory inside it,
// while a tool that trims the value (JavaScript's trim, Python's strip) runs in /etc: "cat shadow"
// there is admitted. The engine trims an absolute working directory ("/etc " is /etc); the join
// here comes first. Fails today; run with DOOR35_EVIDENCE=1.
func TestDoor35CwdWithSpaceBeforeIt(t *testing.T) {
	if os.Getenv("DOOR35_EVIDENCE") == "" {
		t.Skip("review door35 evidence: fails until the finding is fixed; run with DOOR35_EVIDENCE=1")
	}
	m := toolcall.ArgumentMap{Command: "cmd", Cwd: "dir"}
	call, err := toolcall.Build(toolcall.Invocation{Namespace: "ns", Plan: "p", Tool: "run", Map: m, Cwd: "/srv",
		Arguments: []byte(`{"cmd": "cat shadow", "dir": " /etc"}`)})
	if err == nil && call.Spec.Arguments.Cwd == "/srv/ /etc" {
		t.Errorf("cwd %q: judged below /srv, where a tool that trims it runs in /etc", call.Spec.Arguments.Cwd)
	}
}
