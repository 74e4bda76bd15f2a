package safety

import "testing"

// The fourth attacker review's rows: destructive operations the rules read word by word, or by a
// program's name, missed when the words were spelt otherwise (SQL comments, a statement fed on
// standard input), when the program was another spelling or another program (helm's aliases,
// oc, terragrunt run-all) or when a global option came before the subcommand.

// destroyCommands are the project commands the rows' near misses need to be admitted at Default.
var destroyCommands = []ProjectCommand{
	{ID: "pulumi", Command: "pulumi ..."}, {ID: "terragrunt", Command: "terragrunt ..."}, {ID: "sam", Command: "sam ..."},
	{ID: "serverless", Command: "serverless ..."}, {ID: "sls", Command: "sls ..."}, {ID: "oc", Command: "oc ..."},
	{ID: "microk8s", Command: "microk8s ..."}, {ID: "k3s", Command: "k3s ..."}, {ID: "fly", Command: "fly ..."},
	{ID: "flyctl", Command: "flyctl ..."}, {ID: "heroku", Command: "heroku ..."}, {ID: "gh-repo-view", Command: "gh repo view ..."},
	{ID: "bq", Command: "bq ..."}, {ID: "trino", Command: "trino ..."}, {ID: "beeline", Command: "beeline ..."}, {ID: "snowsql", Command: "snowsql ..."},
	{ID: "loginctl", Command: "loginctl ..."}, {ID: "etcdctl", Command: "etcdctl ..."}, {ID: "consul", Command: "consul ..."},
	{ID: "vault", Command: "vault ..."},
}

func destroyCatalogue() []classCase {
	sh := shCall
	const destroy = "destructive operation"
	dbDrop := asked(dc + "database-destroy")
	dataDel, cloudDel := asked(dc+"container-data-delete"), asked(dc+"cloud-resource-delete")
	infra, cluster := asked(dc+"infrastructure-destroy"), asked(dc+"cluster-resource-delete")
	killInit, killAll := denied(dc+"kill-init"), denied(dc+"kill-all-matching")
	return []classCase{
		// SQL is read as the server reads it: comments separate words, and what a client is fed on
		// standard input runs as its -c does.
		{destroy, "DROP DATABASE with a comment between the words", sh(`psql -c 'DROP/**/DATABASE prod'`), dbDrop, sh(`psql -c 'select 1 /* drop */'`), false},
		{destroy, "DROP DATABASE with a line comment between the words", sh("psql -c 'drop -- x\n database prod'"), dbDrop, sh("psql -c 'select 1 -- drop\n'"), false},
		{destroy, "mysql's executable comment", sh(`mysql -e 'DROP /*!50000 DATABASE */ prod'`), dbDrop, sh(`mysql -e 'select /*!50000 1 */'`), false},
		{destroy, "DROP OWNED, every object of a role", sh(`psql -c 'DROP OWNED BY app'`), dbDrop, sh(`psql -c 'select owner from t'`), false},
		{destroy, "a column dropped", sh(`psql -c 'alter table users drop column email'`), dbDrop, sh(`psql -c 'alter table users add column email text'`), false},
		{destroy, "a DELETE without WHERE", sh(`psql -c 'delete from users'`), dbDrop, sh(`psql -c 'delete from sessions where expires < now()'`), false},
		{destroy, "a DELETE without WHERE, an option after it", sh(`psql -c 'delete from users' -d app`), dbDrop, sh(`psql -c 'delete from users where id = 7' -d app`), false},
		{destroy, "DROP DATABASE on a here-string", sh(`psql <<< 'drop database prod'`), dbDrop, sh(`psql db <<< 'select 1'`), false},
		{destroy, "DROP TABLE in a here-document", sh("psql <<SQL\nDROP TABLE users;\nSQL"), dbDrop, sh("psql <<SQL\nselect * from users;\nSQL"), false},
		{destroy, "DROP DATABASE piped from echo", sh(`echo 'drop database prod' | psql`), dbDrop, sh(`echo 'select 1' | psql`), false},
		{destroy, "DROP TABLE piped from printf", sh(`printf 'drop table t;' | psql -d app`), dbDrop, sh(`printf 'select 1;' | psql -d app`), false},
		{destroy, "mysql's DROP DATABASE on a here-string", sh(`mysql <<< 'drop database x'`), dbDrop, sh(`mysql db <<< 'show tables'`), false},
		{destroy, "mysql's DROP DATABASE piped from echo", sh(`echo 'DROP DATABASE x' | mysql -u root`), dbDrop, sh(`echo 'show databases' | mysql -u root`), false},
		{destroy, "duckdb's DROP TABLE on a here-string", sh(`duckdb x.db <<< 'drop table t'`), dbDrop, sh(`duckdb x.db <<< 'select 42'`), false},
		{destroy, "redis FLUSHALL piped from echo", sh(`echo FLUSHALL | redis-cli`), dbDrop, sh(`echo PING | redis-cli`), false},
		{destroy, "redis FLUSHALL on a here-string", sh(`redis-cli -h db <<< flushall`), dbDrop, sh(`redis-cli -h db <<< 'GET k'`), false},
		{destroy, "DROP DATABASE in a here-document cat passes on", sh("cat <<'SQL' | psql\nDROP DATABASE prod;\nSQL"), dbDrop, sh("cat <<'SQL' | psql\nselect 1;\nSQL"), false},
		{destroy, "BigQuery's DROP TABLE", sh(`bq query --nouse_legacy_sql 'DROP TABLE d.t'`), dbDrop, sh(`bq query --nouse_legacy_sql 'select 1'`), false},
		{destroy, "trino's DROP SCHEMA", sh(`trino --execute 'DROP SCHEMA hive.s CASCADE'`), dbDrop, sh(`trino --execute 'show catalogs'`), false},
		{destroy, "beeline's DROP DATABASE", sh(`beeline -u jdbc:hive2://h -e 'drop database d cascade'`), dbDrop, sh(`beeline -u jdbc:hive2://h -e 'show databases'`), false},
		{destroy, "snowsql fed DROP TABLE", sh(`echo 'drop table t;' | snowsql -c prod`), dbDrop, sh(`echo 'select 1;' | snowsql -c prod`), false},
		// Key-value stores emptied: every key under a prefix, or a whole secrets engine.
		{destroy, "every etcd key", sh(`etcdctl del "" --prefix`), dbDrop, sh(`etcdctl del /app/config/x`), false},
		{destroy, "etcd keys from the first on", sh(`etcdctl del --from-key ''`), dbDrop, sh(`etcdctl get --prefix /app`), false},
		{destroy, "every consul key", sh(`consul kv delete -recurse`), dbDrop, sh(`consul kv delete app/config/x`), false},
		{destroy, "a vault secrets engine disabled with its secrets", sh(`vault secrets disable secret/`), dbDrop, sh(`vault secrets list`), false},
		{destroy, "every version of a vault secret destroyed", sh(`vault kv metadata delete secret/app`), dbDrop, sh(`vault kv metadata get secret/app`), false},
		// Killing every process: kill's pid 0 is the caller's whole process group (the agent's shell),
		// -1 every process; pkill or killall with a user and no pattern kill every process of that
		// user; fuser -k of a file system (-m) or of / (every process's root) kills every process on it.
		{destroy, "kill 0, the caller's process group", sh(`kill 0`), killInit, sh(`kill 1234`), false},
		{destroy, "kill -9 0", sh(`kill -9 0`), killInit, sh(`kill -9 1234`), false},
		{destroy, "kill -KILL -- 0 after the options", sh(`kill -KILL -- 0`), killInit, sh(`kill -KILL -- -1234`), false},
		{destroy, "SIGHUP to every process, -s HUP", sh(`kill -s HUP -1`), killInit, sh(`kill -1 1234`), false},
		{destroy, "pkill of every process of root", sh(`pkill -u root`), killAll, sh(`pkill -u root nginx`), false},
		{destroy, "pkill of every process of uid 0", sh(`pkill -9 -U 0`), killAll, sh(`pkill -9 -U 0 -f 'node server.js'`), false},
		{destroy, "killall of every process of a user", sh(`killall -u dev`), killAll, sh(`pkill -u dev -x vite`), false},
		{destroy, "fuser -km /, every process on the root file system", sh(`fuser -km /`), killAll, sh(`pkill -f 'fuser -km'`), false},
		{destroy, "fuser -k of a file system by a file on it", sh(`fuser -k -m /workspace/app`), killAll, sh(`kill %1`), false},
		{destroy, "fuser -k /, every process's root", sh(`fuser -k -9 /`), killAll, sh(`pkill -HUP -x nginx`), false},
		{destroy, "every process of a user ended by loginctl", sh(`loginctl terminate-user dev`), killAll, sh(`loginctl list-sessions`), false},
		{destroy, "the agent's session killed by loginctl", sh(`loginctl kill-session 3`), killAll, sh(`loginctl show-session 3`), false},
		// A container removed with its anonymous volumes (rm -v) loses their data, as compose down -v does.
		{destroy, "compose rm -v", sh(`docker compose rm -v`), dataDel, sh(`docker compose rm -f`), false},
		{destroy, "compose rm -fsv, bundled", sh(`docker compose -f dev.yml rm -fsv db`), dataDel, sh(`docker compose exec db rm -rv /tmp/x`), false},
		{destroy, "docker-compose rm --volumes", sh(`docker-compose rm -f --volumes`), dataDel, sh(`docker-compose run --rm app rm -v x`), false},
		{destroy, "docker-compose -f file down -v", sh(`docker-compose -f dev.yml down -v`), dataDel, sh(`docker compose -f dev.yml down`), false},
		{destroy, "a container removed with its volumes", sh(`docker rm -fv db`), dataDel, sh(`docker run --rm alpine rm -v x`), false},
		{destroy, "podman container rm --volumes", sh(`podman container rm --volumes db`), dataDel, sh(`podman run --rm alpine rm -v /tmp/x`), false},
		// AWS operations that delete, spelt with the verb after a prefix (batch-, admin-, schedule-),
		// and a group scaled to zero, which terminates its instances.
		{destroy, "a KMS key scheduled for deletion", sh(`aws kms schedule-key-deletion --key-id k --pending-window-in-days 7`), cloudDel, sh(`aws kms describe-key --key-id k`), false},
		{destroy, "ECR images deleted in a batch", sh(`aws ecr batch-delete-image --repository-name r --image-ids imageTag=v1`), cloudDel, sh(`aws ecr batch-get-image --repository-name r --image-ids imageTag=v1`), false},
		{destroy, "a Cognito user deleted by an admin", sh(`aws --region eu-west-1 cognito-idp admin-delete-user --user-pool-id p --username u`), cloudDel, sh(`aws cognito-idp admin-get-user --user-pool-id p --username u`), false},
		{destroy, "an auto-scaling group scaled to zero", sh(`aws autoscaling update-auto-scaling-group --auto-scaling-group-name g --min-size 0 --desired-capacity 0`), cloudDel, sh(`aws autoscaling update-auto-scaling-group --auto-scaling-group-name g --desired-capacity 10`), false},
		{destroy, "set-desired-capacity to zero", sh(`aws autoscaling set-desired-capacity --auto-scaling-group-name g --desired-capacity=0`), cloudDel, sh(`aws autoscaling set-desired-capacity --auto-scaling-group-name g --desired-capacity 2`), false},
		{destroy, "an ECS service scaled to zero", sh(`aws ecs update-service --cluster c --service s --desired-count 0`), cloudDel, sh(`aws ecs update-service --cluster c --service s --force-new-deployment`), false},
		{destroy, "DynamoDB items deleted by batch-write-item", sh(`aws dynamodb batch-write-item --request-items '{"t":[{"DeleteRequest":{"Key":{"id":{"S":"1"}}}}]}'`), cloudDel, sh(`aws dynamodb batch-write-item --request-items '{"t":[{"PutRequest":{"Item":{"id":{"S":"1"}}}}]}'`), false},
		{destroy, "an AWS account closed", sh(`aws organizations close-account --account-id 123456789012`), cloudDel, sh(`aws organizations describe-account --account-id 123456789012`), false},
		// Destroying commands behind a global option with a value, through another spelling of the
		// program, or of a program the pack did not name.
		{destroy, "pulumi destroy after -C", sh(`pulumi -C infra destroy`), infra, sh(`pulumi -C infra preview`), false},
		{destroy, "pulumi destroy after --cwd", sh(`pulumi --cwd infra destroy -y`), infra, sh(`pulumi --cwd infra up --diff`), false},
		{destroy, "terragrunt run-all destroy", sh(`terragrunt run-all destroy`), infra, sh(`terragrunt run-all plan`), false},
		{destroy, "terragrunt destroy-all", sh(`terragrunt destroy-all --terragrunt-non-interactive`), infra, sh(`terragrunt plan-all`), false},
		{destroy, "terragrunt run --all destroy", sh(`terragrunt run --all destroy`), infra, sh(`terragrunt run --all plan`), false},
		{destroy, "sam delete, a CloudFormation stack", sh(`sam delete --stack-name app --no-prompts`), infra, sh(`sam deploy --stack-name app`), false},
		{destroy, "serverless remove", sh(`serverless remove --stage prod`), infra, sh(`serverless deploy --stage dev`), false},
		{destroy, "sls remove", sh(`sls remove`), infra, sh(`sls info`), false},
		{destroy, "oc adm drain", sh(`oc adm drain node1 --ignore-daemonsets`), cluster, sh(`oc adm top nodes`), false},
		{destroy, "microk8s kubectl delete", sh(`microk8s kubectl delete ns prod`), cluster, sh(`microk8s kubectl get pods`), false},
		{destroy, "k3s kubectl delete", sh(`k3s kubectl delete deploy x`), cluster, sh(`k3s kubectl get nodes`), false},
		{destroy, "fly apps destroy", sh(`fly apps destroy app -y`), cloudDel, sh(`fly apps list`), false},
		{destroy, "flyctl machine destroy after -a", sh(`flyctl -a app machine destroy 1234 --force`), cloudDel, sh(`fly ssh console -C 'rm -rf /tmp/cache'`), false},
		{destroy, "heroku apps:destroy", sh(`heroku apps:destroy -a app --confirm app`), cloudDel, sh(`heroku apps:info -a app`), false},
		{destroy, "heroku pg:reset", sh(`heroku pg:reset DATABASE_URL -a app`), cloudDel, sh(`heroku run rm -rf tmp -a app`), false},
		{destroy, "gh repo delete", sh(`gh repo delete o/r --yes`), cloudDel, sh(`gh repo view o/r`), false},
		{destroy, "a BigQuery dataset removed", sh(`bq rm -r -f -d proj:dataset`), cloudDel, sh(`bq ls proj:dataset`), false},
		// A dry run deletes nothing and is admitted; --dry-run=none, or a --dry-run that is another
		// option's value, is a real delete.
		{destroy, "oc delete with --dry-run=none, a real run", sh(`oc delete project x --dry-run=none`), cluster, sh(`oc delete project x --dry-run=client`), false},
		{destroy, "a dry run overridden by a later --dry-run=none", sh(`oc delete -f x.yaml --dry-run=server --dry-run=none`), cluster, sh(`oc delete -f x.yaml --dry-run=server`), false},
		{destroy, "--dry-run=client as the selector's value", sh(`oc delete pods --selector --dry-run=client`), cluster, sh(`oc delete pods --selector app=x --dry-run`), false},
	}
}

func init() {
	more := map[string][]string{
		"database-destroy": {"psql -c 'DROP/**/DATABASE prod'", "psql -c 'DROP OWNED BY app'", "mysql -e 'delete from users;'",
			"psql <<< 'drop database prod'", "echo 'drop table t' | sqlite3 app.db", "cockroach sql -e 'drop database x'", "echo FLUSHALL | redis-cli",
			"bq query 'drop table d.t'", "trino --execute 'drop schema s'", "echo 'truncate t' | snowsql",
			"etcdctl del '' --prefix", "etcdctl del --prefix /", "consul kv delete -recurse", "vault secrets disable kv/", "vault kv destroy -versions=1 secret/x",
			"psql -c 'DELETE FROM users WHERE true'", "psql -c 'DELETE FROM users WHERE id = 1 OR 1=1'", "psql -c 'WITH d AS (DELETE FROM users) SELECT 1'",
			"psql -c 'DELETE FROM users RETURNING *'", "mysql -e 'DELETE t FROM t'", "psql -c 'UPDATE users SET password = NULL'",
			"psql -c 'DROP TYPE t CASCADE'", "psql -c 'DROP EXTENSION postgis'", "psql -c \"DO $$BEGIN EXECUTE 'DR'||'OP TABLE t'; END$$\""},
		"kill-init": {"kill 0", "kill -9 0", "kill -KILL -- 0", "kill -HUP -1", "kill -1", "kill -9 ' 0'", "kill -9 '0 '", "kill -9 ' -1'", "kill -9 -- ' -1'"},
		"container-data-delete": {"docker compose rm -v", "docker compose rm -fsv", "docker-compose rm --volumes web", "docker rm -v db", "podman container rm -fv db",
			"docker-compose -f dev.yml down -v", "docker container prune -f"},
		"cloud-resource-delete": {"aws kms schedule-key-deletion --key-id k", "aws ecr batch-delete-image --repository-name r --image-ids imageTag=v1",
			"aws glue batch-delete-table --database-name d --tables-to-delete t", "aws cognito-idp admin-delete-user --user-pool-id p --username u",
			"aws autoscaling set-desired-capacity --auto-scaling-group-name g --desired-capacity 0", "aws ecs update-service --service s --desired-count=0",
			"aws organizations close-account --account-id 1", "fly apps destroy app -y", "flyctl -a app machine destroy 1234",
			"heroku apps:destroy -a app", "heroku pg:reset DATABASE_URL", "gh repo delete o/r --yes", "gh -R o/r release delete v1",
			"bq rm -r -f -d proj:dataset", "gh api -X DELETE repos/o/r", "gh api --method=delete repos/o/r/hooks/1"},
		"infrastructure-destroy": {"pulumi -C infra destroy", "pulumi --cwd infra destroy -y", "terragrunt run-all destroy",
			"terragrunt destroy-all", "terragrunt run --all destroy", "sam delete --no-prompts", "serverless remove", "sls remove --stage prod"},
		"cluster-resource-delete": {"oc adm drain node1", "oc adm prune images --confirm", "helm UNINSTALL x", "microk8s kubectl delete ns x", "k3s kubectl delete pod x",
			"kubectl delete -f x.yaml --dry-run=none", "kubectl delete ns x -l --dry-run=client", "helm uninstall x --dry-run=false",
			"kubectl replace --force -f x.yaml", "oc replace -f x.yaml --force"},
		"local-cluster-delete": {"kind delete cluster", "kind delete clusters --all", "k3d cluster delete dev", "k3d cluster rm dev",
			"minikube delete", "minikube -p dev delete --all --purge", "microk8s reset"},
		"kill-all-matching": {"pkill -u root", "pkill -U 0", "killall -u dev", "fuser -km /", "fuser -k /", "fuser --kill --mount /home", "loginctl terminate-user dev", "loginctl kill-session 3",
			"pkill -v zzzzzz", "pkill --inverse -x zzz", "pkill -f '[^x]'", "pkill '.?'", "pkill 'x*'", "pkill '|'", "pkill '()'", "pkill '[a-z]'", "pkill -P 1", "pkill -9 -P 0"},
	}
	misses := map[string][]string{
		"database-destroy": {"psql -c 'delete from t where id = 1'", "echo 'select 1' | psql", "mysqladmin status",
			"psql -c 'update users set name = 1 where id = 2'", "psql -c 'delete from t where id = 1 returning *'", "psql -c \"select * from t where a = 'x'\"",
			"etcdctl del --prefix /app/cache", "consul kv delete -recurse app/cache", "vault kv delete secret/x", "vault secrets list"},
		"kill-init":             {"kill -1 1234", "kill -s 0 1234", "kill -0 1234", "kill -- -1234", "kill -l 9"},
		"container-data-delete": {"docker compose rm -f", "docker rm -f db", "docker compose exec db rm -rv /tmp/x", "docker run --rm alpine rm -v x", "docker container ls -a"},
		"local-cluster-delete":  {"kind get clusters", "kind create cluster", "k3d cluster list", "minikube status", "microk8s status"},
		"cloud-resource-delete": {"gh api repos/o/r", "gh api -X GET repos/o/r", "gh api --method POST repos/o/r/issues"},
		"kill-all-matching": {"pkill -u dev vite", "killall -u dev node", "fuser -k 8080/tcp", "fuser -vm /", "pkill -F app.pid", "pkill -P $$", "loginctl list-sessions",
			"pkill -f 'node server.js'", "pkill -x vite", "pkill -P 4321"},
	}
	for id, hits := range more {
		ex := rulePackExamples[id]
		ex.hits = append(append([]string(nil), ex.hits...), hits...)
		ex.misses = append(append([]string(nil), ex.misses...), misses[id]...)
		rulePackExamples[id] = ex
	}
}

// A delete's dry run destroys nothing: kubectl's and oc's --dry-run (alone, client or server) and
// helm uninstall --dry-run are admitted at Default; a real run, or a --dry-run word that is not
// the option, is still held for a person.
func TestDryRunDeleteAdmitted(t *testing.T) {
	p := mustCompile(t, &Profile{}, ProjectRules{Workspace: "/workspace", Commands: []ProjectCommand{
		{ID: "kubectl", Command: "kubectl ..."}, {ID: "helm", Command: "helm ..."}, {ID: "oc", Command: "oc ..."}}})
	for _, cmd := range []string{"kubectl delete -f x.yaml --dry-run=client", "kubectl delete -f x.yaml --dry-run=server",
		"kubectl delete -f x.yaml --dry-run", "kubectl --context prod delete ns x --dry-run=client -o yaml", "kubectl drain node1 --dry-run=server",
		"helm uninstall x --dry-run", "helm del x --dry-run -n prod", "oc delete -f x.yaml --dry-run=client"} {
		if d := Evaluate(p, shCall(cmd)); !d.Allowed() {
			t.Errorf("%q: %s %s, want allowed", cmd, d.RuleID, d.Message)
		}
	}
	for _, cmd := range []string{"kubectl delete -f x.yaml --dry-run=none", "kubectl delete -f x.yaml -l 'a=--dry-run=client'",
		"kubectl delete ns x --dry-run=client --dry-run=none", "kubectl delete ns x -l --dry-run=client", "helm uninstall x --dry-run=false",
		"kubectl delete ns x -- --dry-run=client", "bash -c 'kubectl delete ns x' --dry-run=client"} {
		if d := Evaluate(p, shCall(cmd)); d.RuleID != dc+"cluster-resource-delete" {
			t.Errorf("%q: %s %s, want cluster-resource-delete", cmd, d.RuleID, d.Message)
		}
	}
}
