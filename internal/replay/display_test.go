package replay

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/policy"
)

// The report names what the calls named: a plan or tool the agent spelt with an escape sequence or
// a bidi override (the ledger records the denial of such a call) shows as escapes.
func TestWriteHumanShowsHiddenText(t *testing.T) {
	rep := Report{Ledger: "/l", Verified: true, Decisions: 1, Replayed: 1,
		Flips: []Flip{{Ref: Ref{Writer: "w", Seq: 3, Namespace: "ns", Plan: "p\x1b[2K\rok", Call: "c", Tool: "t\u202ex"},
			From: "deny", To: "allow", RecordedRule: "r\u200b"}},
		UnreplayableByWhy: map[string]int{"tool t\u0085 is gone": 1}}
	var out strings.Builder
	WriteHuman(&out, rep)
	if got := out.String(); policy.Visible(got) != strings.ReplaceAll(got, "\n", `\n`) {
		t.Errorf("the report holds characters that do not show as themselves:\n%q", got)
	}
	for _, want := range []string{`p\x1B[2K\rok`, `t\u202Ex`, `r\u200B`, `tool t\u0085 is gone`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report does not show %s:\n%s", want, out.String())
		}
	}
}
