package toolcall_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// A search's pattern, include glob and roots are the agent's: the search command writes those
// with characters that do not show as themselves as $'...' words, so a person reading the command
// (in an approval, a denial, the ledger) sees them, and the engine still reads every word back to
// the agent's exact text: a root below a protected directory is still judged as that root.
func TestSearchCommandShowsHiddenTextAndTheEngineReadsItBack(t *testing.T) {
	p, err := safety.Compile(&safety.Profile{}, safety.ProjectRules{Workspace: "/ws",
		Paths: safety.PathPolicy{ZeroAccess: []string{"/ws/secret/"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{
		"x\x1b[2K\ry", "p\u202eq", "\xff\xfe", "z\u200bw\u2060", "l\u2028m", "n\u00a0o", "c1\u009b2K", "d\x7f\b",
		"t\U000E0041", "q'uo\\te",
	} {
		root := "/ws/secret/" + v
		cmd := toolcall.SearchCommand(toolcall.Search{Pattern: v, Include: v, Roots: []string{root}})
		if policy.Visible(cmd) != cmd {
			t.Errorf("the search command for %q holds characters that do not show as themselves: %q", v, cmd)
		}
		d := safety.Evaluate(p, safety.Call{Tool: safety.Tool{Name: "search"},
			Args: safety.Arguments{Command: cmd, Cwd: "/ws"}})
		if d.RuleID != "path-policy:zeroAccess" || !strings.Contains(d.Message, strconv.Quote(root)) {
			t.Errorf("%s: %s %s %s, want a zeroAccess denial of the read of %q", cmd, d.Verdict, d.RuleID, d.Message, root)
		}
	}
}
