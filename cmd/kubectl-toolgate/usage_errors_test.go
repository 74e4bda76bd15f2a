package main

import (
	"strings"
	"testing"
)

// Bad usage exits 2 naming what is wrong, and prints nothing a script would take for output:
// a shell the completion does not know, a missing shell, an unknown flag before the command
// (which cobra alone reported as an unknown command, the word after it).
func TestUsageErrorsNameTheProblem(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"completion", "tcsh"}, `"tcsh"`},
		{[]string{"completion"}, "bash, zsh, fish or powershell"},
		{[]string{"--bogus", "explain", "p"}, "unknown flag: --bogus"},
		{[]string{"--bogus", "approve", "p", "--tool", "x"}, "unknown flag: --bogus"},
		{[]string{"nosuch", "p"}, `unknown command "nosuch"`},
		// The reports' -o takes text or json only, and one answer: found before any file is read.
		{[]string{"ledger", "verify", "-o", "yaml", "/nonexistent"}, "-o yaml: want text or json"},
		{[]string{"ledger", "verify", "--json", "-o", "text", "/nonexistent"}, "--json and -o text disagree"},
		{[]string{"replay", "--ledger", "/nonexistent", "-o", "wide"}, "-o wide: want text or json"},
		{[]string{"test", "-f", "/nonexistent", "-o", "yaml"}, "-o yaml: want text or json"},
	} {
		code, out, errOut := runCLI(t, tc.args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stdout %.80q, stderr %.300q; want exit 2, no output, %s", tc.args, code, out, errOut, tc.want)
		}
	}
}
