package ledger

import "testing"

// Open evidence found while fixing review rl44 (ledger44), not fixed: each row hides a command
// bash runs (run with bash -c as the review's rows; rm a stand-in). They run only with
// LEDGER44_OPEN=1 and each fails on this branch.
func TestLedger44OpenEvidence(t *testing.T) {
	evidenceOnly(t, "LEDGER44_OPEN")
	expectKept(t, []keptRow{
		// the standard input of a group or loop that runs a shell given a link to /dev/stdin: the
		// here-string is on the group, not on the shell's own command (shellReadsArgs)
		{"ln -s /dev/stdin x; { bash x; } <<< PASSWORD='x;rm -rf /data'", "rm -rf /data"},
		{"ln -s /dev/stdin x; while :; do bash x; break; done <<< PASSWORD='x;rm -rf /data'", "rm -rf /data"},
		// a quoted value whose quotes this shell removes, written to a file a shell runs (now or
		// in a later call, whose record shows only bash f): the value is hidden whole as quoted
		{"echo PASSWORD='x;rm -rf /data' > f; bash f", "rm -rf /data"},
		{"cat <<< PASSWORD='x;rm -rf /data' > f; bash f", "rm -rf /data"},
	})
}
