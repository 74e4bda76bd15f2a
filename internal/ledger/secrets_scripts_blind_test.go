package ledger

import "testing"

// TestShellScriptsStayBlind: a shell's -c script is read blind (every separator in it a
// boundary), never a second time as that shell reads it. 2dc19219 read a POSIX shell's -c script
// given as one quoted word again, to hide sh -c "PGPASSWORD='p;q' psql" whole (it records ;q),
// and was reverted: review rs45 found each row below hidden by it (S1–S5), the inside's reading
// depending on what the text cannot show (a start-up file or BASHOPTS from the environment, dash's
// reading of ((, a fifo or coproc reading what the script prints, a function named sh, an image's
// entrypoint after kubectl run --). Rows marked (bash) or (dash) ran with that shell, rm a
// stand-in on PATH; /tmp/rc holds "shopt -s expand_aliases" and alias q="echo '".
func TestShellScriptsStayBlind(t *testing.T) {
	const script = "((cat <<E\nPGPASSWORD='x\nE\n);rm -rf /data; #'\n)"
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
		// Review rs45.
		{"mkfifo p; sh < p & sh -c 'echo PASSWORD=a\\;rm -rf /data' > p; wait", "rm -rf /data"},            // (bash)
		{"coproc sh; sh -c 'echo PASSWORD=a\\;rm -rf /data' >&${COPROC[1]}", "rm -rf /data"},               // (bash)
		{"sh(){ eval \"${2//\\'/}\"; }; sh -c \"PGPASSWORD='p;rm -rf /data' psql\"", "rm -rf /data"},       // (bash)
		{"export BASH_E''NV=/tmp/rc; bash -c \"q PASSWORD='x;rm -rf /data' '\"", "rm -rf /data"},           // (bash)
		{"declare -x BASH_E\\NV=/tmp/rc; bash -c \"q PASSWORD='x;rm -rf /data' '\"", "rm -rf /data"},       // (bash)
		{"v=BASH_E; declare -x ${v}NV=/tmp/rc; bash -c \"q PASSWORD='x;rm -rf /data' '\"", "rm -rf /data"}, // (bash)
		{"env BASHOPTS=extglob bash -c 'echo @( #) ; PGPASSWORD=a;rm -rf /data'", "rm -rf /data"},          // (bash)
		{"env BASHOPTS=extglob bash -c 'echo @( #) ; curl -H Cookie:a;rm -rf /data'", "rm -rf /data"},      // (bash)
		{"bash -c \"q PASSWORD='x;rm -rf /data' '\"", "rm -rf /data"},                                      // (bash, BASH_ENV=/tmp/rc)
		{"bash -c 'echo @( #) ; PGPASSWORD=a;rm -rf /data'", "rm -rf /data"},                               // (bash, BASHOPTS=extglob)
		{"sh -c \"" + script + "\"", "rm -rf /data"},                                                       // (dash)
		{"kubectl exec p -- sh -c \"" + script + "\"", "rm -rf /data"},                                     // a container's sh is dash or ash
		{"kubectl run x --image=img -- sh -c \"PGPASSWORD='p;rm -rf /data' psql\"", "rm -rf /data"},
		{"kubectl debug p -it --image=img --arguments-only -- sh -c \"PGPASSWORD='p;rm -rf /data' psql\"", "rm -rf /data"},
	})
}
