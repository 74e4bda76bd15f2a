package safety

// Fix H's rows: the command docker compose exec|run runs, found after docker's (podman's,
// nerdctl's) global options and read from run's --entrypoint; stores that print credentials
// (aws-vault export, heroku run env); npm run env. Each attack asks or denies at every autonomy
// level; each near miss is an ordinary command of the same program, admitted at Default.
func fixHCatalogue() []classCase {
	sh := shCall
	dcAsk := func(id string) outcome { return asked(dc + id) }
	const (
		compose = "command compose runs in a service"
		stores  = "store prints a credential"
		env     = "environment printed"
	)
	printEnv, printEnvAll := dcAsk("print-environment"), dcAsk("print-environment-env")
	loaded, printStores := dcAsk("print-environment-loaded"), dcAsk("print-credentials-stores")
	return []classCase{
		// A global option of docker with its value apart hid compose: the first word not an
		// option was taken for the subcommand.
		{compose, "docker --context x compose exec env", sh(`docker --context x compose exec web env`), printEnvAll, sh(`docker compose exec web ls`), false},
		{compose, "docker --context x compose exec rm -rf /", sh(`docker --context x compose exec web rm -rf /`), denied(dc + "rm-recursive-root"), sh(`docker compose exec web rm -rf build`), false},
		{compose, "docker -H host compose run env", sh(`docker -H tcp://h:2375 compose run --rm web env`), printEnvAll, sh(`docker compose run --rm web go test ./...`), false},
		{compose, "podman --connection x compose exec env", sh(`podman --connection x compose exec web env`), printEnvAll, sh(`docker compose exec web ls`), false},
		{compose, "podman --storage-driver compose exec env", sh(`podman --storage-driver overlay compose exec web printenv DB`), printEnv, sh(`docker compose exec web ls`), false},
		{compose, "an unknown podman option's value before compose", sh(`podman --newopt v compose exec web env`), printEnvAll, sh(`docker compose exec web ls`), false},
		{compose, "nerdctl -n ns compose exec env", sh(`nerdctl -n k8s.io compose exec web env`), printEnvAll, sh(`docker compose exec web ls`), false},
		{compose, "nerdctl -n ns exec env", sh(`nerdctl -n k8s.io exec web env`), printEnvAll, sh(`docker compose exec web ls`), false},
		{compose, "docker's option value spelled exec before exec", sh(`docker -c exec exec web env`), printEnvAll, sh(`docker compose exec web ls`), false},
		{compose, "compose's option value spelled run before run", sh(`docker compose -p run run web env`), printEnvAll, sh(`docker compose -p run run web ls`), false},
		// compose run --entrypoint X: X, with the words after the service, is what runs.
		{compose, "compose run --entrypoint env", sh(`docker compose run --entrypoint env web`), printEnvAll, sh(`docker compose run --entrypoint ls web`), false},
		{compose, "compose run --entrypoint=printenv", sh(`docker compose run --rm --entrypoint=printenv web`), printEnv, sh(`docker compose run --rm --entrypoint='ls -la' web`), false},
		{compose, "compose run --entrypoint sh, -c after the service", sh(`docker compose run --entrypoint sh web -c env`), printEnvAll, sh(`docker compose run --entrypoint sh web -c 'go test ./...'`), false},
		{compose, "compose run --entrypoint 'sh -c' with a script expanding a variable", sh(`docker compose run --entrypoint 'sh -c' web 'echo $DB'`), loaded, sh(`docker compose run --entrypoint 'sh -c' web 'go test ./...'`), false},
		{compose, "docker-compose run --entrypoint env", sh(`docker-compose run --entrypoint env web`), printEnvAll, sh(`docker-compose run --rm web ls`), false},
		// Stores that print credentials.
		{stores, "aws-vault export", sh(`aws-vault export prof`), printStores, sh(`aws-vault exec prof -- go test ./...`), false},
		{stores, "aws-vault exec --json", sh(`aws-vault exec --json prof`), printStores, sh(`aws-vault exec prof -- aws s3 ls`), false},
		{stores, "aws-vault login --stdout", sh(`aws-vault login prof --stdout`), printStores, sh(`aws-vault exec prof -- ls`), false},
		{stores, "heroku run env -a app", sh(`heroku run env -a app`), printStores, sh(`heroku run ls -a app`), false},
		{stores, "aws-vault exec with no command: its subshell reads a here-string", sh(`aws-vault exec prof <<< 'env'`), printEnvAll, sh(`aws-vault exec prof -- go test ./...`), false},
		{stores, "aws-vault exec with no command: its subshell reads a pipe", sh(`echo env | aws-vault exec prof`), denied(dc + "pipe-into-shell"), sh(`aws-vault exec prof -- go test ./...`), false},
		{stores, "heroku run -a app env", sh(`heroku run -a app env`), printEnvAll, sh(`heroku logs -a app`), false},
		{stores, "heroku run printenv", sh(`heroku run printenv`), printEnv, sh(`heroku ps -a app`), false},
		{stores, "heroku run:detached env", sh(`heroku run:detached env -a app`), printStores, sh(`heroku run ls -a app`), false},
		{stores, "heroku run's words are a script for the dyno's shell", sh(`heroku run 'env | grep DB'`), printEnvAll, sh(`heroku run 'ls -la'`), false},
		{stores, "heroku run of a script expanding a config var", sh(`heroku run 'echo $REDIS_URL' -a app`), loaded, sh(`heroku run 'echo hello' -a app`), false},
		// npm's built-in env script prints the environment, also under a secret loader.
		{env, "npm run env", sh(`npm run env`), dcAsk("print-environment-npm-env"), sh(`npm test`), false},
		{env, "doppler run -- npm run env", sh(`doppler run -- npm run env`), dcAsk("print-environment-npm-env"), sh(`doppler run -- npm test`), false},
		{env, "yarn run env", sh(`yarn run env`), dcAsk("print-environment-npm-env"), sh(`yarn test`), false},
		{env, "npm run --workspace x env", sh(`npm run --workspace x env`), dcAsk("print-environment-npm-env"), sh(`npm test -- env`), false},
	}
}
