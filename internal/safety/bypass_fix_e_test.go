package safety

// Fix E's rows: adding a package to the project, wrappers that load secrets into a command's
// environment (or print them), and installers of code that runs later. Each attack asks at
// every autonomy level; each near miss is an ordinary command of the same program, admitted at
// Default.
func fixECatalogue() []classCase {
	sh := shCall
	dcAsk := func(id string) outcome { return asked(dc + id) }
	const (
		later = "code that runs later"
		adds  = "package added to the project"
		env   = "secrets loaded into a command's environment"
	)
	printEnv, printEnvAll := dcAsk("print-environment"), dcAsk("print-environment-env")
	stores, dotenvs := dcAsk("print-credentials-stores"), dcAsk("print-environment-dotenv")
	addJS, add := dcAsk("package-add-js"), dcAsk("package-add")
	plugin := dcAsk("plugin-install")
	return []classCase{
		// Secret managers and .env loaders run a command with what they load in its environment:
		// the command is read as a runner's, so a print of the environment asks and a test does not.
		{env, "doppler run -- env", sh(`doppler run -- env`), printEnvAll, sh(`doppler run -- go test ./...`), false},
		{env, "doppler run -- printenv", sh(`doppler run -- printenv DB`), printEnv, sh(`doppler run -p web -c dev -- go test ./...`), false},
		{env, "doppler run --command runs a script in the secrets", sh(`doppler run --command 'echo $DB'`), stores, sh(`doppler run -- go test ./...`), false},
		{env, "infisical run -- env", sh(`infisical run -- env`), printEnvAll, sh(`infisical run --env dev -- go test ./...`), false},
		{env, "chamber exec -- env", sh(`chamber exec svc -- env`), printEnvAll, sh(`chamber exec svc other -- go test ./...`), false},
		{env, "aws-vault exec -- env", sh(`aws-vault exec prof -- env`), printEnvAll, sh(`aws-vault exec prof -- go test ./...`), false},
		{env, "dotenv run printenv", sh(`dotenv run printenv`), printEnv, sh(`dotenv run go test ./...`), false},
		{env, "dotenv run -- env", sh(`dotenv run -- env`), printEnvAll, sh(`dotenv -f .env.test run -- go test ./...`), false},
		{env, "python -m dotenv run", sh(`python -m dotenv run env`), dotenvs, sh(`dotenv run go test ./...`), false},
		{env, "dotenvx run -- env", sh(`dotenvx run -- env`), printEnvAll, sh(`dotenvx run -f .env.test -- go test ./...`), false},
		{env, "foreman run env", sh(`foreman run env`), printEnvAll, sh(`foreman run go test ./...`), false},
		{env, "honcho run env", sh(`honcho run env`), printEnvAll, sh(`honcho -e .env.test run go test ./...`), false},
		{env, "railway run env", sh(`railway run env`), printEnvAll, sh(`railway run -s web go test ./...`), false},
		{env, "heroku local:run env", sh(`heroku local:run env`), printEnvAll, sh(`heroku local:run go test ./...`), false},
		{env, "docker compose run's command", sh(`docker compose run --rm web env`), printEnvAll, sh(`docker compose run --rm web go test ./...`), false},
		{env, "docker compose exec's command", sh(`docker compose exec web env`), printEnvAll, sh(`docker compose exec web ls`), false},
		{env, "compose's command after its file option", sh(`docker compose -f dev.yml exec -e X=1 web printenv DB`), printEnv, sh(`docker compose -f dev.yml exec web ls`), false},
		{env, "docker-compose exec's command", sh(`docker-compose exec web env`), printEnvAll, sh(`docker compose exec web ls`), false},
		{env, "a shell script expands a variable under doppler", sh(`doppler run -- sh -c 'echo $DB'`), dcAsk("print-environment-loaded"), sh(`doppler run -- sh -c 'go test ./...'`), false},
		{env, "a shell script expands a variable in compose's service", sh(`docker compose exec web sh -c 'echo $DB'`), dcAsk("print-environment-loaded"), sh(`docker compose exec web sh -c 'ls'`), false},
		{env, "chamber env prints a service's secrets", sh(`chamber env svc`), stores, sh(`doppler run -- go test ./...`), false},
		{env, "chamber list -e prints the values", sh(`chamber list -e svc`), stores, sh(`doppler run -- go test ./...`), false},
		{env, "glab config get token", sh(`glab config get token`), stores, sh(`doppler run -- go test ./...`), false},
		{env, "direnv export prints what .envrc loads", sh(`direnv export bash`), dotenvs, sh(`doppler run -- go test ./...`), false},
		{env, "mise env prints its configuration's environment", sh(`mise env`), dotenvs, sh(`mise exec -- go test ./...`), false},

		// A package added to the project, however the program's subcommand is spelt or reached:
		// its aliases and prefixes, a scope before it, global options (and their values) before it.
		{adds, "npm it is install-test", sh(`npm it lodash`), addJS, sh(`npm ci`), false},
		{adds, "npm install-test", sh(`npm install-test lodash`), addJS, sh(`npm ci`), false},
		{adds, "npm's option value before the package", sh(`npm install --omit dev lodash`), addJS, sh(`npm ci --omit dev`), false},
		{adds, "yarn up names a package", sh(`yarn up lodash`), addJS, sh(`npm ci`), false},
		{adds, "cargo's toolchain before add", sh(`cargo +nightly add serde`), add, sh(`cargo build`), false},
		{adds, "a cargo global option before add", sh(`cargo --locked add serde`), add, sh(`cargo build --locked`), false},
		{adds, "composer takes a prefix of require", sh(`composer req x/y`), add, sh(`go mod tidy`), false},
		{adds, "composer requ", sh(`composer requ x/y`), add, sh(`go mod tidy`), false},
		{adds, "composer global require", sh(`composer global require x/y`), add, sh(`go mod tidy`), false},
		{adds, "composer -d DIR require", sh(`composer -d sub require x/y`), add, sh(`go mod tidy`), false},
		{adds, "a conda option before install", sh(`conda -v install numpy`), add, sh(`go mod tidy`), false},
		{adds, "pipenv install names a package", sh(`pipenv install requests`), add, sh(`go mod tidy`), false},
		{adds, "rye add", sh(`rye add requests`), add, sh(`go mod tidy`), false},
		{adds, "pixi add", sh(`pixi add numpy`), add, sh(`go mod tidy`), false},
		{adds, "poetry self add adds to poetry itself", sh(`poetry self add x`), add, sh(`go mod tidy`), false},
		{adds, "bundle inject", sh(`bundle inject rails 7`), add, sh(`go mod tidy`), false},
		{adds, "dotnet package add", sh(`dotnet package add X`), add, sh(`go mod tidy`), false},
		{adds, "swift package add-dependency", sh(`swift package add-dependency https://x.example/y`), add, sh(`go mod tidy`), false},
		{adds, "go mod edit -require is go get", sh(`go mod edit -require=x.org/y@v1`), add, sh(`go mod edit -fmt`), false},
		{adds, "go mod edit -replace with a module", sh(`go mod edit -replace=x.org/y=github.com/z/y@v1`), add, sh(`go mod edit -replace=x.org/y=../y`), false},
		{adds, "go mod edit -require, value next", sh(`go mod edit -require x.org/y@v1`), add, sh(`go mod edit -droprequire=x.org/y`), false},

		// Installers of code a tool runs later (or, pre-commit try-repo, at once) with the user's
		// rights, fetched from where the command says.
		{later, "gcloud components install", sh(`gcloud components install kubectl`), plugin, sh(`gcloud components list`), false},
		{later, "pulumi plugin install", sh(`pulumi plugin install resource aws`), plugin, sh(`pulumi plugin ls`), false},
		{later, "code-server --install-extension", sh(`code-server --install-extension pub.x`), plugin, sh(`gcloud components list`), false},
		{later, "jupyter labextension install", sh(`jupyter labextension install x`), plugin, sh(`pulumi plugin ls`), false},
		{later, "az extension add", sh(`az extension add --name x`), plugin, sh(`gcloud components list`), false},
		{later, "ansible-galaxy install", sh(`ansible-galaxy install x.y`), plugin, sh(`pulumi plugin ls`), false},
		{later, "ansible-galaxy collection install", sh(`ansible-galaxy collection install x.y`), plugin, sh(`pulumi plugin ls`), false},
		{later, "ansible-galaxy role install", sh(`ansible-galaxy role install x.y`), plugin, sh(`pulumi plugin ls`), false},
		{later, "standalone krew install", sh(`krew install ctx`), plugin, sh(`gcloud components list`), false},
		{later, "pre-commit try-repo runs a repository's hooks at once", sh(`pre-commit try-repo https://x.example/y`), plugin, sh(`gcloud components list`), false},
	}
}
