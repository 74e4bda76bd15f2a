package ledger

import "testing"

// Ledger47: the rows of review rl46 that hid rm -rf /data, which bash runs, as classes, with
// respellings of each; and the near misses each fix must leave hidden whole.

// rl47P is a quoted script a shell runs: PASSWORD=x, then rm.
const rl47P = `"PASSWORD=x;rm -rf /data"`

// TestLedger47AnyEntrypointIsAShell: an --entrypoint was a shell only where its name was one the
// rereader list knows, read to 64 bytes; the host's glob, an unknown shell, a link or a long path
// made the container's -c script data. Any entrypoint now runs the arguments as a shell's.
func TestLedger47AnyEntrypointIsAShell(t *testing.T) {
	rows := []keptRow{}
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
	})
	// no reference: a quoted password after declare is hidden whole
	expectHidden(t, []hiddenRow{{"declare -r x=1\nexport DB_PASSWORD='p;ss'", ";ss"}})
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
