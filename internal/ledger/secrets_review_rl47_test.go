package ledger

import "testing"

// Review rl47: an attacker's review of ledger47's fixes. Each row below failed on rl47's base
// (main at 1be1091b); they are evidence, run only with RL47_EVIDENCE=1 (the password rows, fixed, are
// TestLedger48KeysAndExpansionsOnly). Every command row was
// run in bash 5.2 with a stand-in rm printing "RM RAN" (and a stand-in docker that execs the
// image's entrypoint with the container's arguments), and rm ran.

// rl47rQ is a script whose rm runs, but whose quoted password hides the rm where the script is
// only marked at its outer quotes (bash -c runs mysql -p"X", then rm).
const rl47rQ = `'mysql -p"X";rm -rf /data'`

// TestReviewRL47HidesCommands: commands bash (or the container's shell) runs, hidden whole.
func TestReviewRL47HidesCommands(t *testing.T) {
	evidenceOnly(t, "RL47_EVIDENCE")
	expectKept(t, []keptRow{
		// 1. A data program's script is marked at its outer quotes but not read as a script: its
		// inner quotes hide what follows (bash -c 'mysql -p"X";rm -rf /data' keeps the rm). Left:
		// a here-document's manifest (the arguments' rows: TestLedger48DataScriptsReadBlind).
		{"kubectl apply -f - <<'EOF'\nspec:\n  containers:\n  - name: x\n    command: [sh, -c, " + rl47rQ + "]\nEOF", "rm -rf /data"},

		// 2. (-e right after the image, fixed: TestLedger48DataScriptsReadBlind)

		// 3. (braces the host expands into -c, fixed: TestLedger48CheapOnes)

		// 4. (namerefs via eval, {-n,}, trap, mapfile -C: fixed, TestLedger48EvalTrapMapfileReadBlind)

		// 5. A command key spelled so the CLI reads "command"/"Cmd" but the raw text holds no
		// key: split by the host's quotes or a backslash (bash joins them), or a YAML escape
		// other than \u (\x63; an explicit key folded over a line; a !!binary key: PyYAML and
		// sigs.k8s.io/yaml read each as the key).
		{`kubectl patch deploy x -p '{"spec":{"template":{"spec":{"containers":[{"name":"x","comm'"and"'":["sh","-c","PASSWORD=x;rm -rf /data"]}]}}}}'`, "rm -rf /data"},
		{`kubectl patch deploy x -p {\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"x\",\"co\mmand\":[\"sh\",\"-c\",\"PASSWORD=x\;rm\ -rf\ /data\"]}]}}}}`, "rm -rf /data"},
		{`kubectl apply -f - <<< '{"apiVersion":"v1","kind":"Pod","spec":{"containers":[{"name":"x","comm'"and"'":["sh","-c","PASSWORD=x;rm -rf /data"]}]}}'`, "rm -rf /data"},
		{`curl --unix-socket /var/run/docker.sock -d '{"Image":"alpine","C'"md"'":["sh","-c","PASSWORD=x;rm -rf /data"]}' http://d/containers/create`, "rm -rf /data"},
		{`kubectl patch deploy x -p '{"spec":{"template":{"spec":{"containers":[{"name":"x","\x63ommand":["sh","-c","PASSWORD=x;rm -rf /data"]}]}}}}'`, "rm -rf /data"},
		{`aws ecs run-task --cli-input-yaml 'overrides: {containerOverrides: [{name: x, "\x63ommand": [sh, -c, "PASSWORD=x;rm -rf /data"]}]}'`, "rm -rf /data"},
		{"aws ecs run-task --cli-input-yaml 'overrides: {containerOverrides: [{name: x, ? \"comm\\\n    and\" : [sh, -c, \"PASSWORD=x;rm -rf /data\"]}]}'", "rm -rf /data"},
		// sigs.k8s.io/yaml (kubectl's reader) turns each of these keys into "command" (checked)
		{"kubectl apply -f - <<< 'spec: {containers: [{name: x, !!binary Y29tbWFuZA==: [sh, -c, \"PASSWORD=x;rm -rf /data\"]}]}'", "rm -rf /data"},
		{"kubectl patch deploy x -p '{spec: {template: {spec: {containers: [{name: x, !!binary Y29tbWFuZA==: [sh, -c, \"PASSWORD=x;rm -rf /data\"]}]}}}}'", "rm -rf /data"},
		{"kubectl patch deploy x -p '{spec: {template: {spec: {containers: [{name: x, ? \"comm\\\n    and\" : [sh, -c, \"PASSWORD=x;rm -rf /data\"]}]}}}}'", "rm -rf /data"},

		// 6. A backquoted subcommand starts no container command.
		{"docker `echo run` img python3 -c " + rl47Py, "rm -rf /data"},

		// 6b., 7. (--health-cmd=…, podman exec -l: fixed, TestLedger48CheapOnes)

		// 8. (at 7d9c978e too) ledger47's reason, "which programs are shells is not knowable
		// from a name", holds for a shell reading its input: a pipe into a container's /bin/da?h
		// keeps the script data (the host's own, and hush: TestLedger48UnknownShellsReadArgs).
		{"printf '%s\\n' " + rl47rQ + " | kubectl exec -i pod -- /bin/da?h", "rm -rf /data"},
	})
}
