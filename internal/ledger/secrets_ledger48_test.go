package ledger

import "testing"

// Ledger48: the rows of review rl47, as classes, with respellings of each; and the near misses
// each fix must leave as they were.

// TestLedger48KeysAndExpansionsOnly: ledger47 read a keyword anywhere in a data program's
// argument, and any $ or backquote, as a script: a password holding $, Shell or Cmd had its
// quoted tail recorded. Now a keyword counts only as a key, and $ only where bash expands it.
func TestLedger48KeysAndExpansionsOnly(t *testing.T) {
	expectHidden(t, []hiddenRow{
		{"docker run -e 'POSTGRES_PASSWORD=pa$$;word' postgres", ";word"},
		{"docker run --env 'DB_PASSWORD=hunter2$;x' img", ";x"},
		{"podman run -e \"API_TOKEN=abc\\$def;ghi\" img", ";ghi"},
		{"podman run -e API_TOKEN=\"abc\\`def;ghi\" img", ";ghi"},
		{"kubectl create secret generic x --from-literal='password=pa$$;word'", ";word"},
		{"kubectl create secret generic db --from-literal='DB_PASSWORD=Shell;word'", ";word"},
		{"kubectl create secret generic db --from-literal='DB_PASSWORD=xCMDx;word'", ";word"},
		{"kubectl create secret generic db --from-literal='DB_PASSWORD=args&exec;word'", ";word"},
		{"helm install x c --set 'db.password=pa$$;word'", ";word"},
		{"helm upgrade x c --set-string='db.password=$cript;word'", ";word"},
		{"curl -d 'password=pa$$;word' https://x/login", ";word"},
		{"curl --data 'user=a&password=Command;word' https://x/login", ";word"},
		// near misses, hidden whole as before
		{"docker run -e \"POSTGRES_PASSWORD=p;w\" postgres", ";w"},
		{"kubectl create secret generic x --from-literal='password=x;y'", ";y"},
		{"mysql -p'X;Y' db", ";Y"},
		{"PGPASSWORD='a;b' psql", ";b"},
	})
	// a key, or a $ bash expands, still makes the value a script
	expectKept(t, []keptRow{
		{`kubectl patch deploy x -p "{\"spec\":{\"$c\":[\"sh\",\"-c\",\"PASSWORD=x;rm -rf /data\"]}}"`, "rm -rf /data"},
		{`curl -d "x'$k'"'":["sh","-c","PASSWORD=x;rm -rf /data"]' http://d/containers/create`, "rm -rf /data"},
		{`kubectl patch deploy x -p '{"spec":{"containers":[{"name":"x","command" : ["sh","-c","PASSWORD=x;rm -rf /data"]}]}}'`, "rm -rf /data"},
		{`kubectl patch deploy x -p '{spec: {containers: [{name: x, 'command': [sh, -c, "PASSWORD=x;rm -rf /data"]}]}}'`, "rm -rf /data"},
		{`kubectl patch deploy x -p "{\"spec\":{\"containers\":[{\"name\":\"x\",\"Args\":[\"-c\",\"PASSWORD=x;rm -rf /data\"]}]}}"`, "rm -rf /data"},
		{`curl --unix-socket /var/run/docker.sock -d '{"Image":"a","Healthcheck":{"Test":["CMD","sh","-c","PASSWORD=x;rm -rf /data"]}}' http://d/containers/create`, "rm -rf /data"},
		{`kubectl patch deploy x --type=json -p '[{"op":"add","path":"/spec/template/spec/containers/0/command","value":["sh","-c","PASSWORD=x;rm -rf /data"]}]'`, "rm -rf /data"},
		{`aws ssm send-command --parameters 'Commands=["PASSWORD=x;rm -rf /data"]'`, "rm -rf /data"},
		{`kubectl apply -f - <<< 'spec: {containers: [{name: x, runCmd : [sh, -c, "PASSWORD=x;rm -rf /data"]}]}'`, "rm -rf /data"},
	})
}

// rl48Q is a script whose rm runs, but whose inner quotes hide the rm where the script is only
// marked at its outer quotes (bash -c runs mysql -p"X", then rm).
const rl48Q = `'mysql -p"X";rm -rf /data'`

// TestLedger48UnknownShellsReadArgs: a command word the host globs or computes, or a shell no
// list named (hush, lksh, bash-5.2, bash-static, sh.distrib), given -c or piped into, kept its
// script data. Now such a word is taken for a shell: it reads -c's script or its input again.
func TestLedger48UnknownShellsReadArgs(t *testing.T) {
	rows := make([]keptRow, 0, 64)
	for _, sh := range []string{"/bin/da?h", "/bin/b?sh", "/bin/b[a]sh", "/usr/bin/*sh", "$SH", `"${SHELL}"`, "${SH:-sh}", "`which sh`", "$(command -v sh)",
		"hush", "lksh", "pdksh", "oksh", "loksh", "rksh", "rzsh", "bash-static", "/bin/bash-5.2", "zsh-5.9", "ksh_93", "/usr/bin/sh.distrib", "busybox-1.36"} {
		rows = append(rows, keptRow{sh + " -c " + rl48Q, "rm -rf /data"},
			keptRow{"echo " + rl48Q + " | " + sh, "rm -rf /data"},
			keptRow{"sudo -u x true; " + sh + " -ec " + rl48Q, "rm -rf /data"})
	}
	rows = append(rows, keptRow{"sudo hush -c " + rl48Q, "rm -rf /data"},
		keptRow{"FOO=1 $SH -c " + rl48Q, "rm -rf /data"},
		keptRow{"echo " + rl48Q + " | docker exec -i c hush", "rm -rf /data"})
	expectKept(t, rows)
	expectHidden(t, []hiddenRow{
		// near misses: a computed program given a script file or no -c, and the test commands
		{`"$MYSQL" --password='X;Y' db`, ";Y"},
		{"$CC -o out main.c; mysql -p'X;Y'", ";Y"},
		{"[ -s f ] && mysql -p'X;Y'", ";Y"},
		{"ls *.txt | wc -l; mysql -p'X;Y'", ";Y"},
		// a JSON's [ after its { names no command
		{`curl -d '{"roles":["a"],"password":"p;w"}' https://x/login`, ";w"},
		{`echo '{"roles":[$x],"password":"p;w"}' | jq .`, ";w"},
	})
}

// TestLedger48DataScriptsReadBlind: a data program's script (an entrypoint's arguments, the
// image's, --scripts, --user-data, a keyed value, a here-string's) was marked at its outer
// quotes only, so inner quotes hid what followed; and -e right after the image was taken for
// docker's, though docker stops reading options at the image. Now the script is read as bash
// -c's is (blind, to the command's end), and the image itself begins the container's command.
func TestLedger48DataScriptsReadBlind(t *testing.T) {
	rows := make([]keptRow, 0, 32)
	for _, q := range []string{rl48Q, `"mysql -p'X';rm -rf /data"`, `'mysql --password="X" && rm -rf /data'`} {
		rows = append(rows,
			keptRow{"docker run --entrypoint /bin/da?h img -c " + q, "rm -rf /data"},
			keptRow{"docker run --rm --entrypoint=sh -e A=1 img -c " + q, "rm -rf /data"},
			keptRow{"kubectl exec pod -- /bin/da?h -c " + q, "rm -rf /data"},
			keptRow{"oc exec -it pod -- sh -ec " + q, "rm -rf /data"},
			keptRow{"docker run shimg -c " + q, "rm -rf /data"},
			keptRow{"podman run -d shcimg -e " + q, "rm -rf /data"},
			keptRow{"docker run shcimg --env " + q, "rm -rf /data"},
			keptRow{"az vm run-command invoke -g g -n vm --command-id RunShellScript --scripts " + q, "rm -rf /data"},
			keptRow{"az vm run-command invoke -g g -n vm --command-id RunShellScript --scr " + q, "rm -rf /data"},
			keptRow{"aws ec2 run-instances --user-data " + q, "rm -rf /data"},
			keptRow{"docker run img bash -O {extglob,-c} " + q, "rm -rf /data"},
			keptRow{"kubectl exec pod -- {sh,-c} " + q, "rm -rf /data"},
		)
	}
	rows = append(rows,
		keptRow{`kubectl patch deploy x -p '{"spec":{"containers":[{"name":"x","command":["sh","-c","mysql -p\"X\";rm -rf /data"]}]}}'`, "rm -rf /data"},
		keptRow{`kubectl apply -f - <<< '{"spec":{"containers":[{"name":"x","args":["-c","mysql -p\"X\";rm -rf /data"]}]}}'`, "rm -rf /data"})
	expectKept(t, rows)
	// near misses: the environment before the image, a secret's literal, a JSON without a key
	expectHidden(t, []hiddenRow{
		{"docker run -e \"POSTGRES_PASSWORD=p;w\" postgres", ";w"},
		{"docker run --name db --env 'POSTGRES_PASSWORD=p;w' -d postgres", ";w"},
		{"docker run --entrypoint sh -e 'DB_PASSWORD=p;w' img -c 'echo hi'", ";w"},
		{"kubectl run x --image=i --env=\"POSTGRES_PASSWORD=p@ss;word\" -- postgres", ";word"},
		{"kubectl create secret generic x --from-literal='password=x;y'", ";y"},
		{`kubectl patch secret x -p '{"stringData":{"password":"p;w"}}'`, ";w"},
	})
	// over-record, by choice: a container's command may be a shell by any name, so its
	// arguments are read as bash -c's are, and a quoted password's tail is recorded
	expectKept(t, []keptRow{{"kubectl exec pod -- mysql -p'X;Y' db", ";Y"}, {"docker run img mysql -p'X;Y'", ";Y"}})
}

// rl48Py is a container's interpreter whose script runs rm.
const rl48Py = `"import os; os.system('PASSWORD=x;rm -rf /data')"`

// TestLedger48CheapOnes: a brace the host expands into -c (in a shell option's value, in the
// command word), a brace-expanded subcommand, --health-cmd=… and podman exec -l (--latest, no
// value) kept a script data. Now each reads it blind.
func TestLedger48CheapOnes(t *testing.T) {
	expectKept(t, []keptRow{
		{"bash -O {extglob,-c} " + rl48Q, "rm -rf /data"},
		{"bash +O {extglob,-c} " + rl48Q, "rm -rf /data"},
		{"bash -o {errexit,-c} " + rl48Q, "rm -rf /data"},
		{"bash -euo {pipefail,-c} " + rl48Q, "rm -rf /data"},
		{"bash --rcfile {/dev/null,-c} " + rl48Q, "rm -rf /data"},
		{"bash --init-file {/dev/null,-c} " + rl48Q, "rm -rf /data"},
		{"{bash,-c} " + rl48Q, "rm -rf /data"},
		{"{sh,-ec} " + rl48Q, "rm -rf /data"},
		{"/bin/{ba,}sh -c " + rl48Q, "rm -rf /data"},
		{"sudo {bash,-c} " + rl48Q, "rm -rf /data"},
		{"env {hush,-c} " + rl48Q, "rm -rf /data"},
		{"docker {run,} img python3 -c " + rl48Py, "rm -rf /data"},
		{"kubectl {exec,} pod python3 -c " + rl48Py, "rm -rf /data"},
		{"podman {exec,} c python3 -c " + rl48Py, "rm -rf /data"},
		{"docker run -d --health-cmd='PASSWORD=x;rm -rf /data' img", "rm -rf /data"},
		{"docker run -d --health-cmd 'PASSWORD=x;rm -rf /data' img", "rm -rf /data"},
		{"podman run -d --health-cmd=\"PASSWORD=x;rm -rf /data\" img", "rm -rf /data"},
		{"docker service create --health-cmd=\"PASSWORD=x;rm -rf /data\" img", "rm -rf /data"},
		{"podman exec -l hush -c " + rl48Q, "rm -rf /data"},
		{"podman exec -l python3 -c " + rl48Py, "rm -rf /data"},
		{"podman exec -it -l python3 -c " + rl48Py, "rm -rf /data"},
	})
	expectHidden(t, []hiddenRow{
		// near misses: docker run's -l is --label, a brace with no shell in it
		{"docker run -l a=b -e 'POSTGRES_PASSWORD=p;w' postgres", ";w"},
		{"cp f{,.bak}; mysql -p'X;Y'", ";Y"},
		{"echo {a,b}; mysql -p'X;Y'", ";Y"},
	})
}

// rl48Use is an alias use that runs rm once r[q] is "echo '" (bash 5.2, expand_aliases).
const rl48Use = "; r=BASH_ALIASES; r[q]=\"echo '\"\nq; mysql -p'X;rm -rf /data;#'"

// TestLedger48EvalTrapMapfileReadBlind: eval's words were read for alias definitions only, a
// brace {-n,} after a computed command was no -n to it, and trap's action and mapfile -C's
// callback (code bash runs later) were not read for a reference: each could declare r a
// reference to BASH_ALIASES unseen. Now any $ or backquote eval expands again (not $( alone),
// such a brace, any trap action and any mapfile -C read the rest of the text blind.
func TestLedger48EvalTrapMapfileReadBlind(t *testing.T) {
	rows := make([]keptRow, 0, 24)
	for _, d := range []string{
		"d=declare; eval \"$d -n r\"", "d=declare; eval \"$d\" -n r", "d=declare; eval \"$d\" {-n,} r",
		"eval $'\\x64eclare -n r'", "eval $'\\x64eclare \\x2dn r'", "e=declare; eval '$e -n r'", "e=declare; eval \"${e} -gn r\"",
		"e=declare; eval `echo $e` -n r", "e=declare; $e {-n,} r", "d=declare; \"$d\" {-n,} r", "d=declare; builtin $d {-n,} r",
		"trap 'declare -gn r' DEBUG; :; trap - DEBUG", "trap -- 'declare -gn r' RETURN", "mapfile -C 'declare -gn r <<<' -c 1 a <<< x",
		"readarray -tC 'declare -gn r <<<' -c 1 a <<< x",
	} {
		rows = append(rows, keptRow{rl46E + d + rl48Use, "rm -rf /data"})
	}
	rows = append(rows, keptRow{"mapfile -C 'mysql -p\"X\";rm -rf /data;:' -c 1 a <<< x", "rm -rf /data"},
		keptRow{rl46E + "trap 'BASH_ALIASES[q]=\"echo '\"'\"'\"' DEBUG; :; trap - DEBUG\nq; mysql -p'X;rm -rf /data;#'", "rm -rf /data"})
	expectKept(t, rows)
	expectHidden(t, []hiddenRow{
		// near misses: eval of a command substitution (as before), a trap reset or ignored
		{"eval \"$(ssh-agent -s)\"\nexport DB_PASSWORD='p;ss'", ";ss"},
		{"trap - INT\ntrap '' HUP\ntrap -p\nexport DB_PASSWORD='p;ss'", ";ss"},
		{"mapfile -t lines < f; export DB_PASSWORD='p;ss'", ";ss"},
	})
	// over-record, by choice: any trap action reads the rest blind
	expectKept(t, []keptRow{{"trap 'rm -f \"$tmp\"' EXIT\nexport DB_PASSWORD='p;ss'", ";ss"}})
}
