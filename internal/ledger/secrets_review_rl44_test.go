package ledger

import (
	"os"
	"strings"
	"testing"
)

// Evidence of review-rl44 (attacker review of ledger43's shell mask: aliases, a data program's
// --entrypoint and script options, $[ ], a shell's script operand that is its input). Rows ledger44
// fixed moved to secrets_ledger44_test.go; the rest run only with RL44_EVIDENCE=1 and each fails on 2444f291.

func rl44Evidence(t *testing.T) {
	t.Helper()
	if os.Getenv("RL44_EVIDENCE") != "1" {
		t.Skip("review-rl44 evidence: set RL44_EVIDENCE=1")
	}
}

// rl44E and rl44Use enable aliases and use q after a definition (as rl42E, rl42Use).
const rl44E, rl44Use = "shopt -s expand_aliases\n", "\nq; mysql -p'X;rm -rf /data"

// rl44KeepsCommands: a redaction hides a command bash 5.2 runs. Rows marked (bash) were run
// with bash -c in a scratch dir, rm a stand-in on PATH that logs its call; the others (a
// container's or a VM's shell) are read from the program's documented behaviour.
var rl44KeepsCommands = []struct{ in, cmd string }{
	// H6: aliases defined where setting/assignsAlias do not look: a computed or brace-expanded
	// name, eval of $'…' escapes or of an assignment to BASH_ALIASES, ${BASH_ALIASES[q]=…},
	// declare of a brace-expanded BASH_{ALIASES,…}.
	{rl44E + "n=q; alias $n=\"echo '\"" + rl44Use, "rm -rf /data"},                      // (bash)
	{rl44E + "alias {q,r}=\"echo '\"" + rl44Use, "rm -rf /data"},                        // (bash)
	{rl44E + "eval $'alias \\x71=\"echo \\x27\"'" + rl44Use, "rm -rf /data"},            // (bash)
	{rl44E + "eval 'BASH_ALIASES[q]=\"echo '\\''\"'" + rl44Use, "rm -rf /data"},         // (bash)
	{rl44E + "builtin eval 'BASH_ALIASES[q]=\"echo '\\''\"'" + rl44Use, "rm -rf /data"}, // (bash)
	{rl44E + ": ${BASH_ALIASES[q]=\"echo '\"}" + rl44Use, "rm -rf /data"},               // (bash)
	{rl44E + "declare BASH_{ALIASES,X}[q]=\"echo '\"" + rl44Use, "rm -rf /data"},        // (bash)
}

func TestRL44KeepsCommands(t *testing.T) {
	rl44Evidence(t)
	for _, tc := range rl44KeepsCommands {
		if out := RedactSecrets(tc.in); !strings.Contains(out, tc.cmd) {
			t.Errorf("%q: got %q, which hides %q", tc.in, out, tc.cmd)
		}
	}
}

// TestRL44LeakedSecrets: secrets main hid whole that ledger43's paths record in part.
func TestRL44LeakedSecrets(t *testing.T) {
	rl44Evidence(t)
	expectHidden(t, []hiddenRow{
		// L3: prose naming BASH_ALIASES in a word of printf, read or declare -p (which assign or
		// print, and here name no variable to assign) reads the rest blind; echo's does not.
		{"printf 'BASH_ALIASES holds aliases\\n'\npassword: 'a;b'", ";b"},
		{"declare -p BASH_ALIASES\npassword: 'a;b'", ";b"},
		{"read -r -p \"BASH_ALIASES?\" x\npassword: 'a;b'", ";b"},
	})
}
