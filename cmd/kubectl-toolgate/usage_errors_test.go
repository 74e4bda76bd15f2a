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
		// help for a command that does not exist (cobra said "Unknown help topic" on stdout, exit 0).
		{[]string{"help", "nosuch"}, `unknown help topic "nosuch"`},
		// ledger tail names the flag that is wrong, and only that one.
		{[]string{"ledger", "tail", "-n", "-5", "/nonexistent"}, "error: -n/--lines -5: must not be negative\n"},
		{[]string{"ledger", "tail", "--interval", "0s", "/nonexistent"}, "error: --interval 0s: must be positive\n"},
		{[]string{"help", "ledger", "nosuch"}, `unknown help topic "ledger nosuch"`},
		{[]string{"help", "explain", "extra"}, `unknown help topic "explain extra"`},
		// The reports' -o takes text or json only, and one answer: found before any file is read.
		{[]string{"ledger", "verify", "-o", "yaml", "/nonexistent"}, "-o yaml: want text or json"},
		{[]string{"ledger", "verify", "--json", "-o", "text", "/nonexistent"}, "--json and -o text disagree"},
		{[]string{"replay", "--ledger", "/nonexistent", "-o", "wide"}, "-o wide: want text or json"},
		{[]string{"test", "-f", "/nonexistent", "-o", "yaml"}, "-o yaml: want text or json"},
		// A negative count is a usage error, -1 too: it is not a way to ask for the counted default.
		{[]string{"test", "-f", "/nonexistent", "--attempts", "-1"}, "--attempts -1: must not be negative"},
		{[]string{"test", "-f", "/nonexistent", "--attempts=-7"}, "--attempts -7: must not be negative"},
		{[]string{"test", "-f", "/nonexistent", "--repeats", "-2"}, "--repeats -2: must not be negative"},
	} {
		code, out, errOut := runCLI(t, tc.args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stdout %.80q, stderr %.300q; want exit 2, no output, %s", tc.args, code, out, errOut, tc.want)
		}
	}
	// help for a command that exists is its help, exit 0.
	for _, args := range [][]string{{"help"}, {"help", "explain"}, {"help", "ledger", "tail"}} {
		if code, out, errOut := runCLI(t, args...); code != exitOK || !strings.Contains(out, "Usage:") || errOut != "" {
			t.Errorf("%q: exit %d, stdout %.80q, stderr %.300q; want the help", args, code, out, errOut)
		}
	}
}
