package ledger

import "testing"

// Review rl46 (attacker review of ledger44's fixes, report only): each row failed on main at
// de66d490; [R] marks a row 2444f291 kept, a regression of ledger44's commits. Rows that hide rm were checked with
// bash 5.2 (rm a stand-in; docker a stand-in that execs its --entrypoint with the image's
// arguments); JSON keys spelled with \u escapes decode to the same key in Go's and Python's
// JSON readers (kubectl, aws, az). TestReviewRL46RedactsAsMain runs only with RL46_EVIDENCE=1.

func rl46Skip(t *testing.T) {
	t.Helper()
	evidenceOnly(t, "RL46_EVIDENCE")
}

// TestReviewRL46HidesCommands: texts whose record hid rm -rf /data, which bash runs; fixed by
// ledger47 and run always (secrets_ledger47_test.go holds each class's respellings).
func TestReviewRL46HidesCommands(t *testing.T) {
	const p = `"PASSWORD=x;rm -rf /data"`
	expectKept(t, []keptRow{
		// H2 [R] (905155ab): -e after the image is the entrypoint shell's option, not docker's
		// --env: sh -c -e SCRIPT runs SCRIPT, whose quoted word is taken for an env value.
		// H3 (905155ab): an --entrypoint the host shell globs to a shell, or longer than the
		// 64 bytes arg() reads (= form), is taken for no shell.
		{"docker run --entrypoint /bin/da?h img -c " + p, "rm -rf /data"},
		{"docker run --entrypoint /bin/bas? img -c " + p, "rm -rf /data"},
		{"docker run --entrypoint=/usr/lib/../lib/../lib/../lib/../lib/../lib/../lib/../../bin/sh img -c " + p, "rm -rf /data"},
		// H4 (d8b49dfc, af0512b4): printf -v with its name attached (getopt accepts -vNAME;
		// [R] for the two literal names, which 2444f291 caught by any mention), and a nameref declared first and pointed at BASH_ALIASES by a later assignment.
		{rl46E + "declare -n r; r=BASH_ALIASES; r[q]=\"echo '\"" + rl46Use, "rm -rf /data"},
		{rl46E + "declare -n r\nr=BASH_ALIASES\nr[q]=\"echo '\"" + rl46Use, "rm -rf /data"},
		// H5 (905155ab; [R] for the two ssm rows): keyedScript looks for the words command/script/args in the raw value;
		// a JSON key spelled with a \u escape is the same key to the CLI's JSON reader.
		// M6 (905155ab): the same container command through options not in the list, and an
		// abbreviation az's argparse accepts (azure-cli#2105: prefix matching).
		{`kubectl patch deploy x -p '{"spec":{"template":{"spec":{"containers":[{"name":"x","command":["sh","-c","PASSWORD=x;rm -rf /data"]}]}}}}'`, "rm -rf /data"},
		{`aws ecs run-task --cli-input-json '{"overrides":{"containerOverrides":[{"name":"x","command":["sh","-c","PASSWORD=x;rm -rf /data"]}]}}'`, "rm -rf /data"},
		{"az vm create -n vm --custom-d " + p, "rm -rf /data"},
		// L7 (before ledger44 too): a shell the rereader list does not name, as entrypoint;
		// an interpreter's os.system in a data program's arguments (the host's python3 -c
		// "…" keeps it).
		{"docker run --entrypoint hush img -c " + p, "rm -rf /data"},
		{"docker run --entrypoint lksh img -c " + p, "rm -rf /data"},
		{`kubectl exec pod -- python3 -c "import os; os.system('PASSWORD=x;rm -rf /data')"`, "rm -rf /data"},
		// L7: a shell's -c spelled as a brace expansion the host shell makes (bash {-c,} runs
		// bash -c), in a data program's arguments; a manifest given on kubectl's input.
		{"kubectl exec pod -- bash {-c,} " + p, "rm -rf /data"},
		{"docker run img sh {-c,} " + p, "rm -rf /data"},
		{`kubectl apply -f - <<< '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},"spec":{"containers":[{"name":"x","image":"busybox","command":["sh","-c","PASSWORD=x;rm -rf /data"]}]}}'`, "rm -rf /data"},
	})
}

// TestReviewRL46RedactsAsMain: common secret shapes 2444f291 hid whole that this branch
// records in part (the part after the separator): every row is [R].
func TestReviewRL46RedactsAsMain(t *testing.T) {
	rl46Skip(t)
	expectHidden(t, []hiddenRow{
		// L8 (e54b2a82): [[ 2<3 ]] was taken for a filled descriptor; fixed by ledger47
		// (TestLedger47ConditionFillsNoDescriptor).
		// L9 (39896acc): a computed source operand reads the line's rest blind (nvm's idiom).
		{". \"$NVM_DIR/nvm.sh\"; mysql -p'p;ss' db", ";ss"},
		// L10 (39896acc): a script operand spelled with .., ~ or $ (no input redirected, no
		// pipe: nothing from the text can reach the shell's input), or any input redirection
		// or pipe into a script shell.
		{"bash ../scripts/deploy.sh --password 'a;b'", ";b"},
		{"bash ~/bin/deploy.sh --password 'a;b'", ";b"},
		{"bash \"$SCRIPT_DIR/deploy.sh\" --password 'a;b'", ";b"},
		{"bash scripts/deploy.sh --password 'a;b' < /dev/null", ";b"},
		{"yes | bash scripts/deploy.sh --password 'a;b'", ";b"},
		// L11 (af0512b4, d8b49dfc): common computed-name idioms read the rest blind.
		{"printf -v \"$name\" '%s' \"$value\"\nexport DB_PASSWORD='p;ss'", ";ss"},
		{"read -rp \"$v: \" \"$v\"\nexport DB_PASSWORD='p;ss'", ";ss"},
		{"declare \"$k=$v\"\nexport DB_PASSWORD='p;ss'", ";ss"},
		// L12 (e54b2a82, its documented over-record, for completeness).
		{"exec < /dev/null\nexport DB_PASSWORD='p;ss'", ";ss"},
		{"exec 3< hosts.txt\nexport DB_PASSWORD='p;ss'", ";ss"},
	})
}
