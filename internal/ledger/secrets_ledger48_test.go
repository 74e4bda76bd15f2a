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
