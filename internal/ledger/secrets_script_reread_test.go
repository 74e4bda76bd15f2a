package ledger

import "testing"

// TestScriptRereadHidesQuotedSecrets: a POSIX shell's -c script given as one quoted word is read
// as that shell reads it (shell_script_reread.go). Before, it was read blind, and a quoted
// password holding a separator had its tail recorded (review rl41's L3).
func TestScriptRereadHidesQuotedSecrets(t *testing.T) {
	expectHidden(t, []hiddenRow{
		{"kubectl exec p -- sh -c \"PGPASSWORD='p;q' psql\"", ";q"},
		{"oc exec -it p -c db -- bash -c \"PGPASSWORD='p;q' psql\"", ";q"},
		{"sh -c \"PGPASSWORD='p;q' psql\"", ";q"},
		{"bash -ec 'export TOKEN=\"a;b\"'", ";b"},
		{"bash --norc -xc 'export TOKEN=\"a;b\"'", ";b"},
		{"/bin/bash -ec 'export TOKEN=\"a&b|c\"; ./deploy'", "&b|c"},
		{"env A=1 sh -c \"mysql -p'a;b' db\"", ";b"},
		{"time bash5.2 -x -c \"curl -u 'u:p;q' https://h\"", ";q"},
		{"sh -c \"PGPASSWORD='p;q' psql\" && sh -c \"mysql -p'a;b' db\"", ";b"},
		{"sh -c -- \"PGPASSWORD='p;q' psql\"", ";q"},
	})
}

// TestScriptRereadKeepsCommands: where the word is not certainly the script a shell reads as it
// is, or what the script prints may be read again, the reading stays blind. Each row runs its
// command with bash 5.2 (rm a stand-in on PATH; ssh a function running bash -c "$*").
func TestScriptRereadKeepsCommands(t *testing.T) {
	expectKept(t, []keptRow{
		// What the script prints, read again by a shell: its \; is a separator there.
		{"sh -c 'echo PASSWORD=a\\;rm -rf /data' | sh", "rm -rf /data"},
		{"eval \"$(sh -c 'echo PASSWORD=a\\;rm -rf /data')\"", "rm -rf /data"},
		{"{ sh -c 'echo PASSWORD=a\\;rm -rf /data'; } | sh", "rm -rf /data"},
		{"sh -c 'echo PASSWORD=a\\;rm -rf /data' > >(sh)", "rm -rf /data"},
		{"source <(sh -c 'echo PASSWORD=a\\;rm -rf /data')", "rm -rf /data"},
		{"for i in 1; do\nsh -c 'echo PASSWORD=a\\;rm -rf /data'\ndone |\nsh", "rm -rf /data"},
		// The shell named in another command's words: its quotes are removed before a shell reads it.
		{"ssh h sh -c \"PGPASSWORD='p;rm -rf /data'\"", "rm -rf /data"},
		{"eval sh -c \"PGPASSWORD='p;rm -rf /data'\"", "rm -rf /data"},
		{"echo sh -c \"PGPASSWORD='p;rm -rf /data'\" > x.sh; bash x.sh", "rm -rf /data"},
		// Not the script: -c's script is the first operand; -O changes the reading.
		{"sh -c 'eval \"$1\"' sh \"PASSWORD=a;rm -rf /data\"", "rm -rf /data"},
		{"bash -O extglob -c \"PASSWORD='a;b' x; rm -rf /data\"", "rm -rf /data"},
		// Start-up files run first may define aliases: q as echo ' opens a quote the script closes.
		{"BASH_ENV=/tmp/rc bash -c \"q PASSWORD='x;rm -rf /data' '\"", "rm -rf /data"},
		{"bash -ic \"q PASSWORD='x;rm -rf /data' '\"", "rm -rf /data"},
		{"bash -lc \"q PASSWORD='x;rm -rf /data' '\"", "rm -rf /data"},
		{"bash --rcfile /tmp/rc -c \"q PASSWORD='x;rm -rf /data' '\"", "rm -rf /data"},
		{"ZDOTDIR=/tmp/z zsh -c \"q PASSWORD='x;rm -rf /data' '\"", "rm -rf /data"},
		// Scripts whose outer quotes bash changes, or that are not one quoted word.
		{"sh -c \"PGPASSWORD=\\\"p;rm -rf /data\\\"\"", "rm -rf /data"},
		{"sh -c 'PGPASSWORD='\"p;rm -rf /data\"", "rm -rf /data"},
		// Read as a shell reads it, the script's own boundaries stay.
		{"sh -c \"PGPASSWORD=p;rm -rf /data\"", "rm -rf /data"},
		{"bash -c 'sh -c \"PGPASSWORD=p;rm -rf /data\"'", "rm -rf /data"},
		{"sh -c \"echo 'PASSWORD=x;rm -rf /data' > x.sh; sh x.sh\"", "rm -rf /data"},
	})
}
