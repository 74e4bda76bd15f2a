package safety

// eighteenthCatalogue holds the eighteenth engine review's rows. dotenv-cli's -e FILE decided by
// its spelling: -e.env -p NAME was denied as a read of .env (the attached value read as an unknown
// program's is) while -e .env -p NAME, --e=.env and -e=.env asked as a print, and a file outside
// the project's own .env files was loaded into the command's environment unjudged in every
// spelling (dotenv -e ~/.aws/credentials -- make test, python-dotenv's -f, dotenvx's -f FILE...,
// foreman's and honcho's -e LIST), where uv run --env-file and node --env-file are judged. Now
// the project's own .env files (.env, .env.NAME, which the loaders load by themselves) are
// admitted in every spelling, what the command prints judged, and any other file is a read.
// git submodule foreach CMD ARGS was read from the segment's operands, which leave out options:
// git submodule foreach git reset --hard ran as "git reset" (as git clean -fdx and git push
// --force did), admitted; only the quoted script was read whole. find's "--", which ends only its
// leading options, ended every option: find -- / -delete had no -delete and find -- ~ no
// starting point, both admitted. rsync -d (--dirs) copies a directory's entries one level down,
// and --delete with it deletes the destination's extra entries: it was taken for no recursive
// copy, so rsync -d ~/ /tmp/h copied ~/.netrc and rsync -d --delete empty/ . deleted .git.
// git push's value options apart (-o ci.skip, --push-option, --recurse-submodules check) left
// their value for the remote operand, so a project rule written for "git push prod" missed git
// push -o ci.skip prod; git's abbreviations of them (--push-opt) are read as git reads them.
// rg --files took its first operand for a pattern, so rg --files ~/.ssh listed the keys unread,
// and neither it nor fd (which lists names below its paths, hidden ones with -H) was a recursive
// listing: rg --files ~ and fd -H . ~ listed ~/.ssh's names, as ls -R ~ (asked) does. curl's
// write-out %output{NAME} (curl 8.3) writes the rest of the write-out to NAME: curl -w
// '%output{.git/hooks/pre-commit}...' URL wrote a hook, admitted, where -o .git/hooks/x is denied.
// terragrunt, which runs terraform's subcommands, printed terraform's sensitive outputs and state
// (terragrunt output -json, run-all state pull, run -- output -json) where terraform's ask; pulumi's
// secrets printed (stack output --show-secrets, config get) were not a store's print; az ad sp|app
// credential reset and az ad sp create-for-rbac print the password they mint, as gcloud iam
// service-accounts keys create (asked) prints a key. git clean without -f deletes when
// clean.requireForce is off: git -c clean.requireForce=false clean -dx was denied, but the setting
// by --config-env=KEY=VAR (VAR set on the command, or from the environment) and a -c of a computed
// word were not read, admitted. A -c setting whose key is computed could be core.pager or
// alias.*, which run a command: git -c "$KV" log was admitted. The variables that stand for a
// loader's file option (UV_ENV_FILE for uv run --env-file, PIPENV_DOTENV_LOCATION,
// DOTENV_CONFIG_PATH, COMPOSE_ENV_FILES) named a file put in the command's environment unjudged.
func eighteenthCatalogue() []classCase {
	sh := shCall
	zero := denied(RulePrefixPathPolicy + "zeroAccess")
	dotenvPrint := asked(dc + "print-environment-dotenv")
	const (
		loaded   = "a .env loader's file option, judged alike in every spelling"
		foreach  = "git submodule foreach's command, its options with it"
		findEnd  = "find's -- ends its leading options only"
		dirs     = "rsync -d copies and deletes a directory's entries"
		pushOpt  = "git push's value options apart, before the remote a project rule names"
		listed   = "rg --files and fd list the names below their paths"
		writeOut = "curl's write-out writes the file its %output{NAME} names"
		stores   = "terraform's siblings and az print the secrets they hold or mint"
		cleanOff = "git clean's clean.requireForce turned off by any git setting"
		envVars  = "a variable that stands for a loader's file option"
	)
	contains := asked(RuleContainsProtected)
	pushProd := asked(dc + "git-push-prod")
	noWrite := denied(RulePrefixPathPolicy + "noWrite")
	storePrint, cloudPrint := asked(dc+"print-credentials-stores"), asked(dc+"print-credentials-cloud")
	cleanForce := denied(dc + "git-clean-force")
	return []classCase{
		{envVars, "UV_ENV_FILE, uv run's --env-file", sh(`UV_ENV_FILE=~/.aws/credentials uv run make test`), zero, sh(`UV_ENV_FILE=.env.example uv run make test`), false},
		{envVars, "exported first", sh(`export UV_ENV_FILE=/root/.aws/credentials; uv run pytest`), zero, sh(`export UV_NO_SYNC=1; uv run pytest`), false},
		{envVars, "pipenv's .env location", sh(`PIPENV_DOTENV_LOCATION=~/.aws/credentials pipenv run make test`), zero, sh(`PIPENV_VERBOSITY=-1 pipenv run make test`), false},
		{envVars, "node's dotenv/config path", sh(`DOTENV_CONFIG_PATH=/root/.aws/credentials npm test`), zero,
			sh(`DOTENV_CONFIG_PATH=.env.example npm test`), false},
		{envVars, "compose's env files, a list", sh(`COMPOSE_ENV_FILES=.env.example,/root/.aws/credentials docker compose ps`), zero,
			sh(`COMPOSE_ENV_FILES=.env.example docker compose ps`), false},
		// A computed environment file may set NODE_OPTIONS or LD_PRELOAD (outsideEnvFile): still
		// asked, now as code the engine cannot see.
		{envVars, "computed", sh(`UV_ENV_FILE="$F" uv run pytest`), asked(RuleOpaqueCode), sh(`UV_ENV_FILE=.env.example uv run pytest -q`), false},
		{cleanOff, "--config-env with the variable set false on the command", sh(`V=false git --config-env=clean.requireForce=V clean -dx`), cleanForce,
			sh(`V=true git --config-env=clean.requireForce=V clean -dx`), false},
		{cleanOff, "--config-env with the variable from the environment", sh(`git --config-env=clean.requireForce=X clean -dx`), cleanForce,
			sh(`git --config-env=color.ui=C clean -dx`), false},
		{cleanOff, "--config-env apart", sh(`git --config-env clean.requireForce=X clean -d`), cleanForce, sh(`git --config-env clean.requireForce=X clean -dn`), false},
		{cleanOff, "a computed -c setting", sh(`git -c "$KV" clean -dx`), cleanForce, sh(`git -c color.ui="$V" clean -dx`), false},
		{cleanOff, "a computed -c setting may run a pager", sh(`git -c "$KV" log`), asked(RuleOpaqueCode), sh(`git -c user.name="$NAME" commit -m x`), false},
		{cleanOff, "a computed key with its value", sh(`git -c "$(cat cfg)" status`), asked(RuleOpaqueCode), sh(`git -c color.ui="$C" status`), false},
		{stores, "terragrunt output -json", sh(`terragrunt output -json`), storePrint, sh(`terragrunt output`), false},
		{stores, "terragrunt run-all state pull", sh(`terragrunt run-all state pull`), storePrint, sh(`terragrunt run-all plan`), false},
		{stores, "terragrunt run -- output -raw", sh(`terragrunt run -- output -raw db_password`), storePrint, sh(`terragrunt run -- plan -out tfplan`), false},
		{stores, "terragrunt console", sh(`terragrunt console`), storePrint, sh(`terragrunt validate`), false},
		{stores, "pulumi stack output --show-secrets", sh(`pulumi stack output --show-secrets`), storePrint, sh(`pulumi stack output`), false},
		{stores, "pulumi stack export --show-secrets", sh(`pulumi stack export --show-secrets`), storePrint, sh(`pulumi preview`), false},
		{stores, "pulumi config get decrypts", sh(`pulumi config get dbPassword`), storePrint, sh(`pulumi config set aws:region eu-west-1`), false},
		{stores, "pulumi config --show-secrets", sh(`pulumi config --show-secrets`), storePrint, sh(`pulumi config`), false},
		{stores, "az ad sp credential reset", sh(`az ad sp credential reset --id app`), cloudPrint, sh(`az ad sp credential list --id app`), false},
		{stores, "az ad app credential reset", sh(`az ad app credential reset --id app --append`), cloudPrint, sh(`az ad app show --id app`), false},
		{stores, "az ad sp create-for-rbac", sh(`az ad sp create-for-rbac --name ci --role reader`), cloudPrint, sh(`az ad sp list --display-name ci`), false},
		{writeOut, "a hook written by %output", sh(`curl -s -o /dev/null -w '%output{.git/hooks/pre-commit}#!/bin/sh' https://x.example`), noWrite,
			sh(`curl -s -o /dev/null -w '%output{/tmp/timing.txt}%{time_total}' https://x.example`), false},
		{writeOut, "appended with >>, --write-out=", sh(`curl --write-out='%output{>>.git/hooks/pre-push}x' https://x.example`), noWrite,
			sh(`curl --write-out='%{http_code}' https://x.example`), false},
		{writeOut, "bundled after -s", sh(`curl -sw '%output{~/.bashrc}alias ls=x' https://x.example`), noWrite, sh(`curl -sw '%%output{~/.bashrc}' https://x.example`), false},
		{writeOut, "a format read from a file", sh(`curl -w @fmt.txt https://x.example`), asked(RuleDynamicWriteTarget), sh(`curl -w '%{json}' https://x.example`), false},
		{writeOut, "a format computed at run time", sh(`curl -w "$FMT" https://x.example`), asked(RuleDynamicWriteTarget), sh(`curl -w '%{http_code}\n' https://x.example`), false},
		{listed, "rg --files ~/.ssh: no pattern, its operand a path", sh(`rg --files ~/.ssh`), zero, sh(`rg --files src`), false},
		{listed, "rg -uu --files /root/.aws", sh(`rg -uu --files /root/.aws`), zero, sh(`rg -uu --files docs`), false},
		{listed, "rg --files ~ lists ~/.ssh's names", sh(`rg --files -uu ~`), contains, sh(`rg --files -g '*.go'`), false},
		{listed, "fd -H . ~", sh(`fd -H . ~`), contains, sh(`fd -e go . src`), false},
		{listed, "fd in /root, hidden and ignored", sh(`fd --hidden --no-ignore . /root`), contains, sh(`fd -H -d 1 . ~`), false},
		{listed, "fd's --search-path", sh(`fd -H -e pem . --search-path ~`), contains, sh(`fd -tf main`), false},
		{listed, "fd from its --base-directory", sh(`fd -H . --base-directory ~`), contains, sh(`fd -H . --base-directory src internal`), false},
		{listed, "fdfind, Debian's name", sh(`fdfind -H . ~`), contains, sh(`fd`), false},
		{pushOpt, "-o ci.skip prod", sh(`git push -o ci.skip prod`), pushProd, sh(`git push -o ci.skip origin`), false},
		{pushOpt, "--push-option apart", sh(`git push --push-option ci.skip prod main`), pushProd, sh(`git push --push-option ci.skip origin main`), false},
		{pushOpt, "--push-opt, abbreviated", sh(`git push --push-opt ci.skip prod`), pushProd, sh(`git push --push-opt ci.skip origin`), false},
		{pushOpt, "-u then -o bundled", sh(`git push -uo ci.skip prod main`), pushProd, sh(`git push -uo ci.skip origin main`), false},
		{pushOpt, "two -o", sh(`git push -o ci.skip -o merge_request.create prod feature`), pushProd,
			sh(`git push -o ci.skip -o merge_request.create origin feature`), false},
		{pushOpt, "--recurse-submodules check apart", sh(`git push --recurse-submodules check prod`), pushProd,
			sh(`git push --recurse-submodules check origin`), false},
		{dirs, "rsync -d --delete from an empty directory deletes .git", sh(`rsync -d --delete empty/ .`), denied(RulePrefixPathPolicy + "noDelete"),
			sh(`rsync -d --delete docs/ build/docs/`), false},
		{dirs, "--dirs spelt out", sh(`rsync --dirs --delete empty/ ./`), denied(RulePrefixPathPolicy + "noDelete"), sh(`rsync --dirs src/ /tmp/src/`), false},
		{dirs, "bundled", sh(`rsync -dv --del /tmp/empty/ /workspace/app/`), denied(RulePrefixPathPolicy + "noDelete"), sh(`rsync -dv docs/ /tmp/docs/`), false},
		{dirs, "the home directory's files copied", sh(`rsync -d ~/ /tmp/h/`), zero, sh(`rsync -d ~/go/bin/ /tmp/bin/`), false},
		{dirs, "the project's .env copied", sh(`rsync -d ./ /tmp/app/`), contains, sh(`rsync -d src/ /tmp/app/src/`), false},
		{findEnd, "find -- / -delete", sh(`find -- / -delete`), denied(dc + "find-delete-root"), sh(`find -- build -name '*.o' -delete`), false},
		{findEnd, "find -- . -delete deletes .git", sh(`find -- . -delete`), denied(RulePrefixPathPolicy + "noDelete"), sh(`find -- . -name '*.pyc' -delete`), false},
		{findEnd, "find -- .git -delete", sh(`find -- .git -delete`), denied(RulePrefixPathPolicy + "noDelete"), sh(`find -- dist -type f -delete`), false},
		{findEnd, "find -- ~ lists the home directory", sh(`find -- ~ -name '*.pem'`), contains, sh(`find -- . -name '*.pem'`), false},
		{findEnd, "after -L", sh(`find -L -- ~/.ssh -type f`), zero, sh(`find -L -- src -type f`), false},
		{findEnd, "-exec cat of the keys", sh(`find -- ~/.ssh -type f -exec cat {} +`), zero, sh(`find -- . -name '*.go' -exec gofmt -l {} +`), false},
		{loaded, "-e.env -p: the attached value as the apart one", sh(`dotenv -e.env -p DB_PASSWORD`), dotenvPrint, sh(`dotenv -e.env -- make test`), false},
		{loaded, "--e=.env, minimist's long spelling of -e", sh(`dotenv --e=.env -p DB_PASSWORD`), dotenvPrint, sh(`dotenv --e=.env -- make test`), false},
		{loaded, "--e .env apart", sh(`dotenv --e .env -p DB_PASSWORD`), dotenvPrint, sh(`dotenv --e .env.test -- make test`), false},
		{loaded, "-e=.env", sh(`dotenv -e=.env -p DB_PASSWORD`), dotenvPrint, sh(`dotenv -e=.env.local -- make test`), false},
		{loaded, "the AWS keys loaded into a command", sh(`dotenv -e ~/.aws/credentials -- make test`), zero, sh(`dotenv -e .env -- make test`), false},
		{loaded, "attached", sh(`dotenv -e~/.aws/credentials -- make test`), zero, sh(`dotenv -e./.env.test -- make test`), false},
		{loaded, "-e= attached", sh(`dotenv -e=/root/.aws/credentials -- make test`), zero, sh(`dotenv -e=.env -- make test`), false},
		{loaded, "--e=", sh(`dotenv --e=/root/.aws/credentials -- npm test`), zero, sh(`dotenv --e=.env.production -- npm test`), false},
		{loaded, "bundled after -c", sh(`dotenv -ce ~/.aws/credentials -- make test`), zero, sh(`dotenv -c -e .env -- make test`), false},
		{loaded, "the second of two", sh(`dotenv -e .env -e ~/.aws/credentials -- make test`), zero, sh(`dotenv -e .env -e .env.local -- make test`), false},
		{loaded, "another directory's .env", sh(`dotenv -e ../api/.env -- make test`), zero, sh(`dotenv -e .env.ci -- make test`), false},
		{loaded, "a name computed at run time", sh(`dotenv -e "$ENV_FILE" -- make test`), asked(RuleOpaqueCode), sh(`dotenv -e .env.test -- make test`), false},
		{loaded, "python-dotenv's -f", sh(`dotenv -f ~/.aws/credentials run make test`), zero, sh(`dotenv -f .env.prod run make test`), false},
		{loaded, "python-dotenv's --file=", sh(`dotenv --file=/root/.aws/credentials run make test`), zero, sh(`dotenv --file=.env run make test`), false},
		{loaded, "python-dotenv's -f attached, printed", sh(`dotenv -f.env list`), dotenvPrint, sh(`dotenv -f.env run make test`), false},
		{loaded, "dotenvx's -f", sh(`dotenvx run -f ~/.aws/credentials -- make test`), zero, sh(`dotenvx run -f .env.test -- make test`), false},
		{loaded, "dotenvx's -f takes the words after its value too", sh(`dotenvx run -f .env ~/.aws/credentials -- make test`), zero,
			sh(`dotenvx run -f .env .env.local -- make test`), false},
		{loaded, "dotenvx's --env-file=", sh(`dotenvx run --env-file=/root/.aws/credentials -- make test`), zero, sh(`dotenvx run --env-file=.env.ci -- make test`), false},
		{loaded, "foreman's -e list", sh(`foreman run -e .env,/root/.aws/credentials make test`), zero, sh(`foreman run -e .env,.env.test make test`), false},
		{loaded, "honcho's -e", sh(`honcho -e ~/.aws/credentials run make test`), zero, sh(`honcho -e .env run make test`), false},
		{foreach, "git reset --hard in every submodule", sh(`git submodule foreach git reset --hard`), denied(dc + "git-reset-hard"),
			sh(`git submodule foreach git status --short`), false},
		{foreach, "git clean -fdx after --recursive", sh(`git submodule foreach --recursive git clean -fdx`), denied(dc + "git-clean-force"),
			sh(`git submodule foreach --recursive git fetch --tags`), false},
		{foreach, "git push --force", sh(`git submodule foreach git push --force`), denied(dc + "git-push-force"),
			sh(`git submodule foreach git push origin HEAD`), false},
		{foreach, "after submodule's -q", sh(`git submodule -q foreach git checkout -f main`), denied(dc + "git-checkout-force"),
			sh(`git submodule -q foreach -- git checkout main`), false},
		{foreach, "past git -C", sh(`git -C vendor submodule foreach git reset --hard origin/main`), denied(dc + "git-reset-hard"),
			sh(`git -C vendor submodule foreach git log -1 --oneline`), false},
		{foreach, "rm -rf with its options", sh(`git submodule foreach rm -rf /`), denied(dc + "rm-recursive-root"),
			sh(`git submodule foreach rm -rf node_modules`), false},
	}
}
