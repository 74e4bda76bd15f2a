package ledger

import (
	"strings"
	"testing"
)

// Review rl48: an attacker's review of ledger48's fixes (8203f9e6..704c7b01). Each row below
// fails on main at 704c7b01; they are evidence, run only with RL48_EVIDENCE=1.

// TestReviewRL48RecordsSecrets: ordinary secret shapes main hid whole at 7d9c978e (before
// ledger47) and whose quoted tail is recorded now. Each row's output at 7d9c978e hides the part.
func TestReviewRL48RecordsSecrets(t *testing.T) {
	evidenceOnly(t, "RL48_EVIDENCE")
	expectHidden(t, []hiddenRow{
		// L1 (the rest is fixed: TestLedger49KeepsSecretsBesideExpansions): a password that
		// holds an expansion bash makes is no data, and its tail after a separator is recorded.
		{`kubectl create secret generic db --from-literal="password=x$y;w"`, ";w"},

		// L3. A neighbouring key or environment variable named command/cmd/args/shell/exec/script
		// (an API's login verb, a container's SHELL) does the same, before or after the secret.
		{`docker run -e SHELL=/bin/bash -e POSTGRES_PASSWORD='a;w' postgres`, ";w"},
		{`docker run -e COMMAND=serve -e POSTGRES_PASSWORD='a;w' postgres`, ";w"},
		{`docker run -e ARGS=--x -e POSTGRES_PASSWORD='a;w' postgres`, ";w"},
		{`curl -X POST -d '{"command": "login", "password": "p;w"}' https://x`, ";w"},
		{`curl -d 'exec=1&password=p;w' https://x/login`, ";w"},
		{`kubectl patch secret x -p '{"stringData":{"password":"p;w","cmd":"x"}}'`, ";w"},
		{`aws secretsmanager create-secret --name x --secret-string '{"password":"p;w","shell":"x"}'`, ";w"},
		{`helm install x c --set-json 'db={"password":"p;w","cmd":"x"}'`, ";w"},
		{`helm upgrade --install x c --set image.args=x --set 'db.password=a;word'`, ";word"},

		// L4. The password itself holds a key shape (Shell:1, cmd=x, Exec=1).
		{`docker login -p 'cmd=x;c' r.io`, ";c"},
		{`docker run -e 'POSTGRES_PASSWORD=Shell:1;w' postgres`, ";w"},
		{`kubectl create secret generic db --from-literal='password=Exec=1;w'`, ";w"},
		{`curl -u 'user:cmd=x;ss' https://x`, ";ss"},

		// L5. A value longer than keyedScriptLookahead (a secret string holding a certificate)
		// counts as a script.
		{`aws secretsmanager create-secret --name x --secret-string '{"password":"p;w","cert":"` + strings.Repeat("A", 5000) + `"}'`, ";w"},
		{`kubectl patch secret x -p '{"stringData":{"password":"p;w","tls.crt":"` + strings.Repeat("A", 5000) + `"}}'`, ";w"},

		// L7. A computed command word with no -c, read from a pipe (a pager), reads the rest
		// of the line blind.
		{"git log | ${PAGER:-less}; mysql -p'X;Y' db", ";Y"},
	})
}

// TestReviewRL48HidesCommands: commands a container runs, hidden whole. The YAML rows were
// checked with sigs.k8s.io/yaml v1.6.0 (kubectl's reader: YAMLToJSON gives "command"); the JSON
// rows are read by Go's encoding/json (Docker's API, kubectl's JSON path), which takes a newline between a key and its colon.
func TestReviewRL48HidesCommands(t *testing.T) {
	evidenceOnly(t, "RL48_EVIDENCE")
	expectKept(t, []keptRow{
		// H1. A newline between a JSON key and its colon: keyEnds skips blanks only.
		{"curl --unix-socket /var/run/docker.sock -d '{\"Image\":\"alpine\",\"Cmd\"\n:[\"sh\",\"-c\",\"PASSWORD=x;rm -rf /data\"]}' http://d/containers/create", "rm -rf /data"},
		{"kubectl apply -f - <<< '{\"spec\":{\"containers\":[{\"name\":\"x\",\"command\"\n:[\"sh\",\"-c\",\"PASSWORD=x;rm -rf /data\"]}]}}'", "rm -rf /data"},

		// H2. A YAML explicit key (? command, its : on the next line) and an alias key
		// (name: &k command, then *k : [...]) name no key in the raw text.
		{"kubectl patch deploy x -p 'spec:\n  template:\n    spec:\n      containers:\n      - name: x\n        ? command\n        : [sh, -c, \"mysql -p\\\"X\\\";rm -rf /data\"]\n'", "rm -rf /data"},
		{`kubectl patch deploy x -p '{spec: {template: {spec: {containers: [{name: &k command, *k : [sh, -c, "mysql -p\"X\";rm -rf /data"]}]}}}}'`, "rm -rf /data"},

		// H4. A brace the host expands in a key (Cm'{d,}' is "Cmd" and "Cm"): the second word is
		// one more URL to curl, which reports it malformed (error 3, checked) and posts the same
		// body to the next URL. A respelling of rl47's host-quote split, through a brace.
		{`curl -g --unix-socket /var/run/docker.sock -d '{"Image":"a","Cm'{d,}'":["sh","-c","PASSWORD=x;rm -rf /data"]}' http://d/containers/create`, "rm -rf /data"},

		// H3. nerdctl (docker's CLI for containerd, same run syntax) is no container program:
		// docker run shcimg -e '…' reads the script, nerdctl run shcimg -e '…' keeps it data.
		{`nerdctl run shcimg -e 'mysql -p"X";rm -rf /data'`, "rm -rf /data"},
	})
}

// TestReviewRL48SourceDeclaresReference (rl48Use: ledger48's alias use): eval's rule (its expanded words read the rest blind)
// respelled as source or . of a here-string or a process substitution: the sourced text runs in
// this shell, so its declare -gn r makes r a reference unseen. Each row was run in bash 5.2.15
// with a stand-in rm printing "RM RAN", and rm ran.
func TestReviewRL48SourceDeclaresReference(t *testing.T) {
	evidenceOnly(t, "RL48_EVIDENCE")
	expectKept(t, []keptRow{
		{rl46E + "source <(echo 'declare -gn r')" + rl48Use, "rm -rf /data"},
		{rl46E + ". /dev/stdin <<< 'declare -gn r'" + rl48Use, "rm -rf /data"},
		{rl46E + "source /dev/stdin <<< 'declare -gn r'" + rl48Use, "rm -rf /data"},
	})
}
