package ledger

import (
	"strings"
	"testing"
)

// Ledger47: the rows of review rl46 that hid rm -rf /data, which bash runs, as classes, with
// respellings of each; and the near misses each fix must leave hidden whole.

// rl47P is a quoted script a shell runs: PASSWORD=x, then rm.
const rl47P = `"PASSWORD=x;rm -rf /data"`

// TestLedger47AnyEntrypointIsAShell: an --entrypoint was a shell only where its name was one the
// rereader list knows, read to 64 bytes; the host's glob, an unknown shell, a link or a long path
// made the container's -c script data. Any entrypoint now runs the arguments as a shell's.
func TestLedger47AnyEntrypointIsAShell(t *testing.T) {
	rows := make([]keptRow, 0, 32)
	for _, e := range []string{"/bin/da?h", "/bin/bas?", "*sh", "hush", "lksh", "toybox", "/usr/local/bin/sh-static", "=/bin/da?h", "=hush",
		"=/usr/lib/../lib/../lib/../lib/../lib/../lib/../lib/../../bin/sh"} {
		sep := " "
		if e[0] == '=' {
			sep = ""
		}
		rows = append(rows, keptRow{"docker run --entrypoint" + sep + e + " img -c " + rl47P, "rm -rf /data"},
			keptRow{"podman run --rm --entrypoint" + sep + e + " img -ec " + rl47P, "rm -rf /data"})
	}
	rows = append(rows, keptRow{"docker run --entrypoint python3 img -c \"import os; os.system('PASSWORD=x;rm -rf /data')\"", "rm -rf /data"})
	expectKept(t, rows)
	// the environment before the image is still data to docker
	expectHidden(t, []hiddenRow{
		{"docker run --entrypoint /app/server -e \"POSTGRES_PASSWORD=p@ss;word\" img", ";word"},
		{"docker run --entrypoint hush --env=\"POSTGRES_PASSWORD=p@ss;word\" img -c 'exec postgres'", ";word"},
	})
}

// TestLedger47AnyReferenceReadsBlind: a reference declared first and pointed at BASH_ALIASES by
// a later assignment defined an alias no word of declare showed. Any declare -n, local -n,
// typeset -n (eval's too) now reads the rest of the text blind.
func TestLedger47AnyReferenceReadsBlind(t *testing.T) {
	const def = "r=BASH_ALIASES; r[q]=\"echo '\"" + rl46Use
	expectKept(t, []keptRow{
		{rl46E + "declare -n r; " + def, "rm -rf /data"},
		{rl46E + "declare -n r\nr=BASH_ALIASES\nr[q]=\"echo '\"" + rl46Use, "rm -rf /data"},
		{rl46E + "typeset -n r; " + def, "rm -rf /data"},
		{rl46E + "f() { local -n r; " + def[:len(def)-len(rl46Use)] + "; }; f" + rl46Use, "rm -rf /data"},
		{rl46E + "declare -gn r; " + def, "rm -rf /data"},
		{rl46E + "declare \"-n\" r; " + def, "rm -rf /data"},
		{rl46E + "builtin declare -n r; " + def, "rm -rf /data"},
		{rl46E + "eval 'declare -n r'; " + def, "rm -rf /data"},
		{rl46E + "eval declare -n r; " + def, "rm -rf /data"},
		{rl46E + "e=declare; $e -n r; " + def, "rm -rf /data"},
		{rl46E + "e=declare o=-n; $e $o r; " + def, "rm -rf /data"},
		{rl46E + "declare${IFS}-n r; " + def, "rm -rf /data"},
		{rl46E + "d=d; ${d}eclare -gn r; " + def, "rm -rf /data"},
	})
	// no reference: a quoted password after declare, or a computed command, is hidden whole
	expectHidden(t, []hiddenRow{
		{"declare -r x=1\nexport DB_PASSWORD='p;ss'", ";ss"},
		{"$CC -o x x.c\nexport DB_PASSWORD='p;ss'", ";ss"},
		{"eval \"$(ssh-agent -s)\"\nexport DB_PASSWORD='p;ss'", ";ss"},
	})
}

// rl47Cmd is a container's command list whose script runs rm.
const rl47Cmd = `"command":["sh","-c","PASSWORD=x;rm -rf /data"]`

// TestLedger47KeyedArgumentsAreScripts: a JSON or YAML value naming a container's command was a
// script only after --parameters, --metadata, --overrides, --settings; kubectl patch -p, aws
// --cli-input-json, a here-string on kubectl's input and az's prefixes of --custom-data were
// data. Now any argument of a data program, and a here-string's word, is read so; az and aws
// take a prefix of a script option for it.
func TestLedger47KeyedArgumentsAreScripts(t *testing.T) {
	manifest := `{"apiVersion":"v1","kind":"Pod","spec":{"containers":[{"name":"x",` + rl47Cmd + `}]}}`
	expectKept(t, []keptRow{
		{`kubectl patch deploy x -p '{"spec":{"template":{"spec":{"containers":[{"name":"x",` + rl47Cmd + `}]}}}}'`, "rm -rf /data"},
		{`kubectl patch deploy x --patch='{"spec":{"containers":[{` + rl47Cmd + `}]}}'`, "rm -rf /data"},
		{`oc patch dc x --type=json -p '[{"op":"add","path":"/spec/template/spec/containers/0/args","value":["-c","PASSWORD=x;rm -rf /data"]}]'`, "rm -rf /data"},
		{`aws ecs run-task --cli-input-json '{"overrides":{"containerOverrides":[{"name":"x",` + rl47Cmd + `}]}}'`, "rm -rf /data"},
		{"aws ecs run-task --cli-input-yaml 'overrides: {containerOverrides: [{name: x, command: [sh, -c, \"PASSWORD=x;rm -rf /data\"]}]}'", "rm -rf /data"},
		{`aws ecs run-task --cli-input-json '{"overrides":{"containerOverrides":[{"name":"x","\u0063ommand":["sh","-c","PASSWORD=x;rm -rf /data"]}]}}'`, "rm -rf /data"},
		{`aws ecs run-task --cli-input-json '{"overrides":{"containerOverrides":[{"name":"x","COMMAND":["sh","-c","PASSWORD=x;rm -rf /data"]}]}}'`, "rm -rf /data"},
		{"az vm create -n vm --custom-d " + rl47P, "rm -rf /data"},
		{"az vm create -n vm --custom=" + rl47P, "rm -rf /data"},
		{"az vm create -n vm --user-d=" + rl47P, "rm -rf /data"},
		{"aws ec2 run-instances --user-d " + rl47P, "rm -rf /data"},
		{"kubectl apply -f - <<< '" + manifest + "'", "rm -rf /data"},
		{"kubectl create -f - <<<'" + manifest + "'", "rm -rf /data"},
		{`curl -X POST https://k8s/api/v1/namespaces/x/pods -d '` + manifest + `'`, "rm -rf /data"},
		{`curl --unix-socket /var/run/docker.sock -d '{"Image":"alpine","Cmd":["sh","-c","PASSWORD=x;rm -rf /data"]}' http://d/containers/create`, "rm -rf /data"},
		{`curl --unix-socket /var/run/docker.sock -d '{"Image":"alpine","Healthcheck":{"Test":["CMD-SHELL","PASSWORD=x;rm -rf /data"]}}' http://d/containers/create`, "rm -rf /data"},
	})
	// near misses: data without command keys stays hidden whole
	expectHidden(t, []hiddenRow{
		{`kubectl patch secret x -p '{"stringData":{"password":"p;ss"}}'`, ";ss"},
		{`aws rds modify-db-instance --cli-input-json '{"MasterUserPassword":"p;ss"}'`, ";ss"},
		{"docker run -e \"POSTGRES_PASSWORD=p@ss;word\" img", ";word"},
		{"kubectl create secret generic x --from-literal='password=a;b&c'", ";b&c"},
		{"az deployment group create --parameters 'adminPassword=p@ss;word'", ";word"},
		{"kubectl create secret generic x --from-literal=password=\"a;b\" <<< '{\"password\":\"a;b\"}'", ";b"},
		{"az vm create -n vm --admin-password 'p;ss'", ";ss"},
		{"curl --user 'name:p;ss' https://x", ";ss"},
	})
}

// rl47Py is an interpreter's inline code that runs rm through a shell.
const rl47Py = `"import os; os.system('PASSWORD=x;rm -rf /data')"`

// TestLedger47ContainerCommandsAreNoData: the command a data program runs in a container
// (kubectl exec pod -- CMD, docker run IMG CMD) had its quoted arguments taken for data unless
// CMD was a shell by name, where the host's python3 -c "…" keeps its rm. Now a command line
// after kubectl's -- and a docker or podman run's, exec's or create's arguments from its image
// on are read as the host's (its environment before the image stays data).
func TestLedger47ContainerCommandsAreNoData(t *testing.T) {
	expectKept(t, []keptRow{
		{"kubectl exec pod -- python3 -c " + rl47Py, "rm -rf /data"},
		{"kubectl exec -it pod -c app -- python -c " + rl47Py, "rm -rf /data"},
		{"oc exec pod -- perl -e \"system('PASSWORD=x;rm -rf /data')\"", "rm -rf /data"},
		{"kubectl exec pod -- ruby -e \"system('PASSWORD=x;rm -rf /data')\"", "rm -rf /data"},
		{"kubectl exec pod -- node -e \"require('child_process').execSync('PASSWORD=x;rm -rf /data')\"", "rm -rf /data"},
		{"kubectl exec pod -- php -r \"system('PASSWORD=x;rm -rf /data');\"", "rm -rf /data"},
		{"kubectl exec pod -- hush -c " + rl47P, "rm -rf /data"},
		{"kubectl exec pod -- /bin/da?h -c " + rl47P, "rm -rf /data"},
		{"kubectl run x --image=img --restart=Never -- lksh -c " + rl47P, "rm -rf /data"},
		{"docker run img python3 -c " + rl47Py, "rm -rf /data"},
		{"docker run --rm -it --name x -v /a:/b img /bin/da?h -c " + rl47P, "rm -rf /data"},
		{"docker exec -it c perl -e \"system('PASSWORD=x;rm -rf /data')\"", "rm -rf /data"},
		{"docker container run img hush -c " + rl47P, "rm -rf /data"},
		{"docker compose run svc lksh -c " + rl47P, "rm -rf /data"},
		{"podman run --network host img node -e \"require('child_process').execSync('PASSWORD=x;rm -rf /data')\"", "rm -rf /data"},
		{"docker run img awk 'BEGIN{system(\"PASSWORD=x;rm -rf /data\")}'", "rm -rf /data"},
		{"kubectl exec pod python3 -c " + rl47Py, "rm -rf /data"},
		{"kubectl -n ns exec -c app pod perl -e \"system('PASSWORD=x;rm -rf /data')\"", "rm -rf /data"},
		{"oc exec pod hush -c " + rl47P, "rm -rf /data"},
		{"kubectl run x --image=img hush -c " + rl47P, "rm -rf /data"},
	})
	// the environment before the image and a secret's literal stay data
	expectHidden(t, []hiddenRow{
		{"docker run --name x -p 80:80 -v a:/b -e \"POSTGRES_PASSWORD=p@ss;word\" img", ";word"},
		{"docker exec -e \"POSTGRES_PASSWORD=p@ss;word\" c psql", ";word"},
		{"kubectl run x --image=i --env=\"POSTGRES_PASSWORD=p@ss;word\" -- postgres", ";word"},
		{"docker login -u x -p 'p;ss' registry", ";ss"},
	})
}

// TestLedger47RecordsByChoice: the over-records of this branch. A program run in a container may
// be a shell, and an option docker's list does not know may take the image's place.
func TestLedger47RecordsByChoice(t *testing.T) {
	for _, in := range []string{
		"docker run --entrypoint /app/server img \"DB_PASSWORD=p;ss\"",
		"docker run img ./server \"DB_PASSWORD=p;ss\"",
		"kubectl exec pod -- env \"DB_PASSWORD=p;ss\" ./server",
		"docker run --stop-signal TERM --stop-timeout 5 -e \"POSTGRES_PASSWORD=p@ss;word\" img",
		"declare -n r=x\nexport DB_PASSWORD='p;ss'",
	} {
		if out := RedactSecrets(in); !strings.Contains(out, ";") || strings.Count(out, "[REDACTED") == 0 {
			t.Errorf("%q: got %q, want the part after ; recorded and the rest hidden", in, out)
		}
	}
}

// TestLedger47BraceMayBeAnOption: bash {-c,} "…" runs bash -c "…", but the shell's words were
// read for -c without the host's brace expansion: {-c,} was taken for a script file and the
// script for its data. An unquoted brace among a shell's options now counts as a -c. (The two
// container rows are also kept by TestLedger47ContainerCommandsAreNoData's rule.)
func TestLedger47BraceMayBeAnOption(t *testing.T) {
	expectKept(t, []keptRow{
		{"bash {-c,} \"mysql -p'X;rm -rf /data'\"", "rm -rf /data"},
		{"bash {-c,} 'mysql --password \"X;rm -rf /data\"'", "rm -rf /data"},
		{"sh {-ec,-x} 'mysql --password \"X;rm -rf /data\"'", "rm -rf /data"},
		{"/bin/bash -e {-c,-x} 'mysql --password \"X;rm -rf /data\"'", "rm -rf /data"},
		{"zsh {,-c} 'mysql --password \"X;rm -rf /data\"'", "rm -rf /data"},
		{"kubectl exec pod -- bash {-c,} " + rl47P, "rm -rf /data"},
		{"docker run img sh {-c,} " + rl47P, "rm -rf /data"},
	})
	// a quoted brace is a script's name, and a script's arguments stay data
	expectHidden(t, []hiddenRow{
		{"bash './{x}.sh' --password 'a;b'", ";b"},
		{"bash ./deploy.sh --password 'a;b'", ";b"},
	})
}

// TestLedger47ConditionFillsNoDescriptor: [[ 2<3 ]] compares strings, but 2< was taken for a
// filled descriptor and the whole text read blind, recording a quoted password's tail.
func TestLedger47ConditionFillsNoDescriptor(t *testing.T) {
	expectHidden(t, []hiddenRow{
		{"[[ 2<3 ]] && echo y\nexport DB_PASSWORD='p;ss'", ";ss"},
		{"if [[ \"$a\" < 3 ]]; then :; fi\nwhile [[ 2<3 ]]; do break; done\nexport DB_PASSWORD='p;ss'", ";ss"},
	})
	// a descriptor filled after ]] or outside [[ ]] still reads the text blind
	expectKept(t, []keptRow{
		{"exec 3<<< 'mysql -p\"X;rm -rf /data\"'; [[ 2<3 ]]; bash /dev/fd/3", "rm -rf /data"},
		{"[[ 1 ]] 3<<< 'mysql -p\"X;rm -rf /data\"'", "rm -rf /data"},
	})
}
