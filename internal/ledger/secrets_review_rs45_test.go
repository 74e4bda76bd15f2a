package ledger

import (
	"os"
	"testing"
)

// Evidence of review-rs45 (attacker review of the -c script's second reading,
// shell_script_reread.go, 2dc19219 and 4bdc66ce). Nothing is fixed here; the rows run only with
// RS45_EVIDENCE=1. Each row's rm -rf /data was kept by the blind reading (c657abcf) and is hidden
// on 4bdc66ce. Rows marked (bash) or (dash) were run in a scratch dir with that shell, rm a
// stand-in on PATH that logs its call; /tmp/rc holds "shopt -s expand_aliases" and
// alias q="echo '".

func rs45Evidence(t *testing.T) {
	t.Helper()
	if os.Getenv("RS45_EVIDENCE") != "1" {
		t.Skip("review-rs45 evidence: set RS45_EVIDENCE=1")
	}
}

// TestRS45ScriptMaskOverridesBlindLine (S1): a script's mask is copied over the line's blind
// marking (rereadLines), so a line that hands text to a shell (sh < p &, coproc sh, eval) is no
// longer blind inside the script, and what the script prints reaches that shell without | or
// $(. The same lines with echo at the top level keep rm.
func TestRS45ScriptMaskOverridesBlindLine(t *testing.T) {
	rs45Evidence(t)
	expectKept(t, []keptRow{
		{"mkfifo p; sh < p & sh -c 'echo PASSWORD=a\\;rm -rf /data' > p; wait", "rm -rf /data"},      // (bash)
		{"coproc sh; sh -c 'echo PASSWORD=a\\;rm -rf /data' >&${COPROC[1]}", "rm -rf /data"},         // (bash)
		{"sh(){ eval \"${2//\\'/}\"; }; sh -c \"PGPASSWORD='p;rm -rf /data' psql\"", "rm -rf /data"}, // (bash)
	})
}

// TestRS45StartupFileNamedWithoutENV (S2): scriptsUncertain looks for the letters ENV, and the
// name BASH_ENV is spelled with quotes, a backslash or a variable.
func TestRS45StartupFileNamedWithoutENV(t *testing.T) {
	rs45Evidence(t)
	expectKept(t, []keptRow{
		{"export BASH_E''NV=/tmp/rc; bash -c \"q PASSWORD='x;rm -rf /data' '\"", "rm -rf /data"},           // (bash)
		{"declare -x BASH_E\\NV=/tmp/rc; bash -c \"q PASSWORD='x;rm -rf /data' '\"", "rm -rf /data"},       // (bash)
		{"v=BASH_E; declare -x ${v}NV=/tmp/rc; bash -c \"q PASSWORD='x;rm -rf /data' '\"", "rm -rf /data"}, // (bash)
	})
}

// TestRS45ShellOptionsFromEnvironment (S3): bash takes shopt options from BASHOPTS in its
// environment: with extglob, @( #) is one word and its # no comment, so what the second reading
// takes for a comment bash runs.
func TestRS45ShellOptionsFromEnvironment(t *testing.T) {
	rs45Evidence(t)
	expectKept(t, []keptRow{
		{"env BASHOPTS=extglob bash -c 'echo @( #) ; PGPASSWORD=a;rm -rf /data'", "rm -rf /data"},     // (bash)
		{"env BASHOPTS=extglob bash -c 'echo @( #) ; curl -H Cookie:a;rm -rf /data'", "rm -rf /data"}, // (bash)
	})
}

// TestRS45EnvironmentNotInText (S3b): the same start-up file or option exported by an earlier
// call of a persistent shell, or set in the agent's pod: the text shows nothing. Run with
// BASH_ENV=/tmp/rc, and with BASHOPTS=extglob, in the environment (bash).
func TestRS45EnvironmentNotInText(t *testing.T) {
	rs45Evidence(t)
	expectKept(t, []keptRow{
		{"bash -c \"q PASSWORD='x;rm -rf /data' '\"", "rm -rf /data"},        // (bash, BASH_ENV=/tmp/rc)
		{"bash -c 'echo @( #) ; PGPASSWORD=a;rm -rf /data'", "rm -rf /data"}, // (bash, BASHOPTS=extglob)
	})
}

// TestRS45DashReadsDoubleParenAsSubshells (S4): the inside is read as bash reads it, where (( at
// a command's start is arithmetic without here-documents or comments; dash (/bin/sh on Debian
// and Ubuntu), ash and posh read two subshells, a here-document whose body holds the ' that the
// second reading takes for a quote, and a # comment that holds the closing one.
func TestRS45DashReadsDoubleParenAsSubshells(t *testing.T) {
	rs45Evidence(t)
	const script = "((cat <<E\nPGPASSWORD='x\nE\n);rm -rf /data; #'\n)"
	expectKept(t, []keptRow{
		{"sh -c \"" + script + "\"", "rm -rf /data"},                   // (dash)
		{"kubectl exec p -- sh -c \"" + script + "\"", "rm -rf /data"}, // a container's sh is dash or ash
	})
}

// TestRS45KubectlArgsToEntrypoint (S5): kubectl run without --command (and kubectl debug
// --arguments-only) gives the words after -- to the image's entrypoint as its arguments, not as
// the program: an entrypoint that runs eval "$@" reads the script's quotes again (bash -c
// 'eval "$@"' ep sh -c "PGPASSWORD='p;rm -rf /data' psql" runs rm).
func TestRS45KubectlArgsToEntrypoint(t *testing.T) {
	rs45Evidence(t)
	expectKept(t, []keptRow{
		{"kubectl run x --image=img -- sh -c \"PGPASSWORD='p;rm -rf /data' psql\"", "rm -rf /data"},
		{"kubectl debug p -it --image=img --arguments-only -- sh -c \"PGPASSWORD='p;rm -rf /data' psql\"", "rm -rf /data"},
	})
}
