package ledger

import "testing"

// rl46E and rl46Use enable aliases and use q after a definition (as rl44E, rl44Use).
const rl46E, rl46Use = "shopt -s expand_aliases\n", "\nq; mysql -p'X;rm -rf /data"

// TestLedger46KeepsCommands: review rl46's rows fixed. A keyed option's value whose JSON key is
// written with \u escapes (\u0063ommand is command to the CLIs' JSON readers) is a script: before,
// its quoted separators were data and rm was hidden.
func TestLedger46KeepsCommands(t *testing.T) {
	expectKept(t, []keptRow{
		// After an --entrypoint shell and its image, -e is the shell's option (sh -c -e SCRIPT),
		// not docker's environment: its value is the script (it was read as data, rm hidden).
		// printf -v with the name attached (-vBASH_ALIASES[q], -v"$n") defines an alias too.
		{"docker run --entrypoint sh img -c -e \"PASSWORD=x;rm -rf /data\"", "rm -rf /data"},
		{"docker run --entrypoint /bin/bash img -c -e \"PASSWORD=x;rm -rf /data\"", "rm -rf /data"},
		{rl46E + "printf -vBASH_ALIASES[q] %s \"echo '\"" + rl46Use, "rm -rf /data"},
		{rl46E + "printf -v\"BASH_ALIASES[q]\" %s \"echo '\"" + rl46Use, "rm -rf /data"},
		{rl46E + "n='BASH_ALIASES[q]'; printf -v\"$n\" %s \"echo '\"" + rl46Use, "rm -rf /data"},
		{`aws ecs run-task --overrides '{"containerOverrides":[{"name":"x","\u0063ommand":["sh","-c","PASSWORD=x;rm -rf /data"]}]}'`, "rm -rf /data"},
		{`az vm extension set -n CustomScript --publisher Microsoft.Azure.Extensions --settings '{"\u0063ommandToExecute":"PASSWORD=x;rm -rf /data"}'`, "rm -rf /data"},
		{`aws ssm start-session --target i-1 --document-name AWS-StartInteractiveCommand --parameters '{"\u0063ommand":["PASSWORD=x;rm -rf /data"]}'`, "rm -rf /data"},
		{`aws ssm create-association --name AWS-RunShellScript --parameters '{"\u0063ommands":["PASSWORD=x;rm -rf /data"]}'`, "rm -rf /data"},
	})
}

// TestLedger46HidesSecrets: a < inside $(( )) or (( )) compares and fills no descriptor: before,
// it read the whole text blind and a later quoted password's tail was recorded.
func TestLedger46HidesSecrets(t *testing.T) {
	expectHidden(t, []hiddenRow{
		{"echo $((3<4))\nexport DB_PASSWORD='p;ss'", ";ss"},
		{"if (( 1<2 )); then :; fi\nexport DB_PASSWORD='p;ss'", ";ss"},
	})
}
