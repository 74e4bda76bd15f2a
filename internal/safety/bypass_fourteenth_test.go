package safety

// fourteenthCatalogue holds the fourteenth engine review's rows. Azure's clients that print an
// app's or a container's environment with its plain values: az containerapp show|list (and a
// revision's, a job's or a job execution's), az container show|list, az spring app [deployment]
// show|list and az ml online-deployment|batch-deployment|job show|list print each container's
// env (az container export writes it to a file), a value beside every name not kept as a
// secret, as docker inspect does; -o table and a --query that selects fields holding no
// environment stay admitted. Ansible inventories that run as scripts where the reading did not
// look: a directory inventory into which the line wrote a file (each executable file in it is run,
// each other one parsed by the plugin it names), an inventory named by ANSIBLE_INVENTORY (or the
// older ANSIBLE_HOSTS), prefixed or exported, and -i's long spelling --inventory-file and its
// abbreviations (--inven), which the reading did not know as -i. A build or test tool told
// where its definition is — cargo --manifest-path, docker compose -f and --project-directory,
// docker build's context and -f, tox -c, just --justfile and -d, task -t, rake -f, gradle
// --init-script and -p, mvn -f, nox -f, ninja -f, npm --prefix, yarn --cwd, uv run --project,
// composer -d, bundle --gemfile, pytest -c — runs what that file or that directory's definitions
// say: one the line wrote, or fed on standard input, was admitted (at Default for cargo, compose,
// docker build, tox, pytest) while echo ... > Makefile && make asks. And just --command runs any
// command line, --shell the program its recipes run in. Definitions the reading did not know by
// their name: compose's override file, which it merges into the one named (admitted at Default),
// go-task's lower-case Taskfile, rake's rakefile.rb (a declared rake ran it at Default), bundler's
// gems.rb, and those of task and process runners the reading did not count as build tools: pixi,
// devbox, a Procfile (honcho, foreman), an Earthfile, a Brewfile (Ruby, which brew bundle runs),
// Leiningen's project.clj, the Clojure CLI's deps.edn, babel's configuration module, docker buildx
// bake's file. And pytest's
// plugin modules (-p, PYTEST_PLUGINS) and options (PYTEST_ADDOPTS): a module the line wrote is
// imported before collection, as conftest.py is, and was admitted at Default. rclone's removals
// of a local path (rclone purge ~, delete /, rmdirs, deletefile): a plain path is a local remote,
// and only the removals' remotes were read (cloud-storage-delete), so rclone purge ~ was admitted
// at Default; the local paths are now deletes the path policy judges, as rm -r's are. Hosting
// and cloud clients' deletes cloud-resource-delete did not list (vercel rm, netlify sites:delete
// and firebase firestore:delete were admitted at Default; wrangler, linode-cli, oci, sst,
// glab, scw, railway and supabase at Yolo), now hosting-resource-delete, a rule of its own so
// that aws, gcloud and az commands do not pay for its pattern, and a database dropped or reset by an
// application framework's or migration tool's own command (rails db:drop, prisma migrate reset,
// alembic downgrade base, flyway clean, mix ecto.reset, ...), which runs the DROP the engine's
// database-destroy reads in a client's text: a declared rake ran rake db:drop at Default. And a
// declared ansible-playbook ran what it was given whatever it was: a playbook the line wrote, fed
// or computed, and the inventory scripts, extra-vars templates and module paths the ad-hoc
// command's reading asks for, all admitted at Default. git rebase -i with a sequence editor the
// line names (GIT_SEQUENCE_EDITOR='sed -i s/pick/exec id/'), which rewrites the todo list into
// exec lines that run commands, as rebase -x's do: admitted at Default. And compose's
// COMPOSE_FILE, read as its -f is. A definition written by a name the engine does not see: cp or
// mv of a glob into the tool's directory (cp /tmp/x/* . && make test: the glob's names may be
// Makefile's), and npm pkg set of a script (or set-script), which npm writes into package.json
// itself; both admitted at Default or Yolo while echo ... > Makefile && make asks. And ansible's
// vault password file (--vault-password-file, --vault-pass-file, --vault-id LABEL@SOURCE), which
// ansible runs when it is executable: a script, one the line wrote or a computed one was admitted
// at Default, while ANSIBLE_VAULT_PASSWORD_FILE asks.
// fourteenthCommands are the project's declared uses of the tools whose ordinary commands the
// fourteenth review's near misses run.
var fourteenthCommands = []ProjectCommand{
	{ID: "just", Command: "just ..."}, {ID: "npm-prefix", Command: "npm --prefix web run build"},
	{ID: "rake", Command: "rake ..."}, {ID: "composer", Command: "composer ..."},
	{ID: "rails-migrate", Command: "rails db:migrate"}, {ID: "prisma-migrate", Command: "npx prisma migrate dev"},
	{ID: "alembic-upgrade", Command: "alembic upgrade head"}, {ID: "ecto-migrate", Command: "mix ecto.migrate"},
	{ID: "ef-update", Command: "dotnet ef database update"}, {ID: "supabase-reset", Command: "supabase db reset"},
	{ID: "flyway-migrate", Command: "flyway migrate"}, {ID: "sqlx-migrate", Command: "sqlx migrate run"},
	{ID: "playbook", Command: "ansible-playbook ..."},
}

func fourteenthCatalogue() []classCase {
	sh := shCall
	envPrint := asked(dc + "print-environment-service")
	opaque := asked(RuleOpaqueCode)
	const (
		azEnv     = "an Azure client prints an app's environment with its values"
		inventory = "an ansible inventory runs code the reading did not see"
		defined   = "a build tool runs a definition the line wrote or fed, named by an option"
		named     = "a build tool runs a definition the line wrote, by a name the reading did not know"
		plugin    = "pytest loads a plugin module or configuration the line wrote"
		rcloneDel = "rclone removes a local path"
		cloudDel  = "a hosting or cloud client deletes what it hosts"
		dbReset   = "a framework's command drops or resets a database"
		playbook  = "a declared ansible-playbook runs what the line wrote or what ansible reads besides"
		todo      = "git rebase -i runs a todo list an editor the line names rewrote"
		unnamed   = "a build definition written by a name the reading does not see"
		vault     = "ansible runs a vault password script"
	)
	gone, reset := asked(dc+"hosting-resource-delete"), asked(dc+"database-reset-framework")
	return []classCase{
		{azEnv, "az containerapp show", sh(`az containerapp show -n web -g rg`), envPrint, sh(`az containerapp show -n web -g rg -o table`), false},
		{azEnv, "az containerapp list", sh(`az containerapp list -g rg`), envPrint, sh(`az containerapp list -g rg --query '[].name' -o tsv`), false},
		{azEnv, "az containerapp list as YAML", sh(`az containerapp list --output yaml`), envPrint, sh(`az containerapp list --output table`), false},
		{azEnv, "az containerapp revision show", sh(`az containerapp revision show -n web -g rg --revision web--r1`), envPrint,
			sh(`az containerapp revision list -n web -g rg --query '[].{name:name, active:properties.active}' -o table`), false},
		{azEnv, "az containerapp job show", sh(`az containerapp job show -n nightly -g rg`), envPrint, sh(`az containerapp job list -g rg -o table`), false},
		{azEnv, "az containerapp job execution show", sh(`az containerapp job execution show -n nightly -g rg --job-execution-name e1`), envPrint,
			sh(`az containerapp job execution list -n nightly -g rg --query '[].properties.status'`), false},
		{azEnv, "az container show", sh(`az container show --name web --resource-group rg`), envPrint, sh(`az container show --name web --resource-group rg --query instanceView.state`), false},
		{azEnv, "az spring app deployment show", sh(`az spring app deployment show -n green --app api -s svc -g rg`), envPrint, sh(`az spring app list -s svc -g rg -o table`), false},
		{azEnv, "a query of the environment", sh(`az containerapp show -n web -g rg --query "properties.template.containers[0].env[].value"`), envPrint,
			sh(`az containerapp show -n web -g rg --query properties.template.containers[0].image`), false},
		{azEnv, "a query of a whole container", sh(`az containerapp show -n web -g rg --query 'properties.template.containers[0]'`), envPrint,
			sh(`az containerapp show -n web -g rg --query 'properties.template.containers[0].resources'`), false},
		{azEnv, "a query of the template", sh(`az containerapp show -n web -g rg --query '{t: properties.template, n: name}'`), envPrint,
			sh(`az containerapp show -n web -g rg --query '{fqdn: properties.configuration.ingress.fqdn, n: name}'`), false},
		{azEnv, "a query of whole objects, filtered", sh(`az containerapp list --query "[?name=='web']"`), envPrint, sh(`az containerapp list --query "[?name=='web'].id"`), false},
		{azEnv, "a query by a wildcard", sh(`az containerapp show -n web -g rg --query 'properties.template.containers[].*'`), envPrint,
			sh(`az containerapp show -n web -g rg --query 'properties.template.containers[].name'`), false},
		{azEnv, "a query by an escaped name", sh(`az containerapp show -n web -g rg --query 'properties.template.containers[0]."\u0065nv"'`), envPrint,
			sh(`az containerapp show -n web -g rg --query 'properties.latestRevisionName'`), false},
		{azEnv, "a query of the whole object", sh(`az containerapp show -n web -g rg --query @ -o table`), envPrint, sh(`az containerapp show -n web -g rg --query location`), false},
		{azEnv, "a computed query", sh(`az containerapp show -n web -g rg --query "$Q"`), envPrint, sh(`az containerapp show -n web -g rg --query name -o tsv`), false},
		{azEnv, "a computed output", sh(`az containerapp list -o "$FMT"`), envPrint, sh(`az containerapp list -otable`), false},
		{azEnv, "an abbreviated query beside a table", sh(`az containerapp show -n web -g rg -o table --que properties.template`), envPrint,
			sh(`az containerapp show -n web -g rg --output=table`), false},
		{azEnv, "a names-only table, then the environment", sh(`az containerapp list -o table && az containerapp show -n web -g rg -o json`), envPrint,
			sh(`az containerapp list -o table && az containerapp secret list -n web -g rg`), false},
		{azEnv, "az ml online-deployment show", sh(`az ml online-deployment show -n blue -e ep -g rg -w ws`), envPrint,
			sh(`az ml online-deployment list -e ep -g rg -w ws -o table`), false},
		{azEnv, "az ml job show", sh(`az ml job show -n run-1 -g rg -w ws`), envPrint, sh(`az ml job show -n run-1 -g rg -w ws --query status`), false},
		{azEnv, "az container export to a file", sh(`az container export -g rg -n web -f web.yaml -o none`), envPrint, sh(`az container list -g rg -o table`), false},
		{azEnv, "a table, then JSON, the last output winning", sh(`az containerapp show -n web -g rg -o table -o json`), envPrint,
			sh(`az containerapp show -n web -g rg -o json -o table`), false},
		{inventory, "a script written into an inventory directory", sh(`echo 'import os; os.system("id")' > inventory/x.py && ansible all -i inventory/ -m ping`), opaque,
			sh(`echo 'import os' > tools/x.py && ansible all -i inventory/ -m ping`), false},
		{inventory, "a directory inventory named without its slash", sh(`printf '#!/bin/sh\nid\n' > inventory/hosts && chmod +x inventory/hosts; ansible all -i inventory -m ping`), opaque,
			sh(`mkdir -p inventory && ansible all -i inventory -m ping`), false},
		{inventory, "a file written from inside the inventory directory", sh(`cd inventory && echo x > gen && cd .. && ansible all -i inventory -m ping`), opaque,
			sh(`echo x > inventory.bak && ansible all -i inventory -m ping`), false},
		{inventory, "a script inventory by ANSIBLE_INVENTORY", sh(`ANSIBLE_INVENTORY=./inv.py ansible all -m ping`), opaque,
			sh(`export ANSIBLE_INVENTORY=inventory/hosts.yml; ansible all -m ping`), false},
		{inventory, "a script inventory by an exported ANSIBLE_INVENTORY", sh(`export ANSIBLE_INVENTORY=hosts.yml,inv.sh; ansible all -m ping`), opaque,
			sh(`export ANSIBLE_INVENTORY=hosts.yml,prod.ini; ansible all -m ping`), false},
		{inventory, "a written inventory by ANSIBLE_HOSTS", sh(`echo x > h && export ANSIBLE_HOSTS=h; ansible all -m ping`), opaque,
			sh(`export ANSIBLE_HOSTS=hosts; ansible all -m ping`), false},
		{inventory, "a computed ANSIBLE_INVENTORY", sh(`export ANSIBLE_INVENTORY="$INV"; ansible all -m ping`), opaque, sh(`export ANSIBLE_FORKS=10; ansible all -m ping`), false},
		{inventory, "--inventory-file", sh(`ansible all --inventory-file=inv.py -m ping`), opaque, sh(`ansible all --inventory-file inventory.ini -m ping`), false},
		{inventory, "--inven, an abbreviation", sh(`ansible all --inven ./hosts.sh -m ping`), opaque, sh(`ansible all --inven hosts.yml -m ping`), false},
		{defined, "cargo --manifest-path of a written manifest", sh(`echo '[package]' > /tmp/x/Cargo.toml && cargo build --manifest-path /tmp/x/Cargo.toml`), opaque,
			sh(`cargo build --manifest-path crates/x/Cargo.toml`), false},
		{defined, "cargo --manifest-path beside a written build.rs", sh(`echo 'fn main(){}' > /tmp/x/build.rs && cargo build --manifest-path=/tmp/x/Cargo.toml`), opaque,
			sh(`echo x > src/main.rs && cargo build --manifest-path crates/x/Cargo.toml`), false},
		{defined, "docker compose -f of a written file", sh(`echo 'services: {x: {image: alpine, volumes: ["/:/h"]}}' > /tmp/c.yml && docker compose -f /tmp/c.yml up`), opaque,
			sh(`docker compose -f compose.dev.yml up -d`), false},
		{defined, "docker compose -f on standard input", sh(`docker compose -f - up <<< 'services: {x: {image: alpine, privileged: true}}'`), opaque,
			sh(`docker compose logs -f web`), false},
		{defined, "docker compose --project-directory", sh(`echo x > /tmp/x/compose.yaml && docker compose --project-directory /tmp/x up`), opaque,
			sh(`docker compose -f docker-compose.yml -f docker-compose.override.yml config --services`), false},
		{defined, "docker build of a written context", sh(`echo 'FROM alpine' > /tmp/x/Dockerfile && docker build -t app:1 /tmp/x`), opaque,
			sh(`echo x > notes.md && docker build -t app:1 .`), false},
		{defined, "docker build -f of a written Dockerfile", sh(`echo 'FROM alpine' > /tmp/D && docker build -f /tmp/D .`), opaque,
			sh(`echo x > app.py && docker build -f docker/Dockerfile .`), false},
		{defined, "tox -c of a written file", sh(`printf '[testenv]\ncommands = sh -c id\n' > /tmp/t.ini && tox -c /tmp/t.ini`), opaque,
			sh(`tox -c tox.ini -e py312`), false},
		{defined, "pytest -c of a written file", sh(`printf '[pytest]\naddopts = -p evil\n' > /tmp/p.ini && pytest -c /tmp/p.ini`), opaque,
			sh(`echo x > tests/test_a.py && pytest -c setup.cfg`), false},
		{defined, "just --justfile of a written file", sh(`printf 'x:\n\trm -rf ~\n' > /tmp/j && just --justfile /tmp/j x`), opaque, sh(`just --justfile ci.just test`), false},
		{defined, "just --justfile on standard input", sh("just --justfile /dev/stdin x <<'X'\nx:\n\trm -rf ~\nX"), opaque, sh(`just --list`), false},
		{defined, "just -d of a directory with a written justfile", sh(`printf 'x:\n\tid\n' > /tmp/x/justfile && just -d /tmp/x x`), opaque, sh(`just -d . test`), false},
		{defined, "just --command", sh(`just --command 'rm -rf ~'`), opaque, sh(`just test`), false},
		{defined, "task --taskfile of a written file", sh(`echo 'x' > /tmp/T.yml && task --taskfile /tmp/T.yml x`), opaque, sh(`cargo test`), false},
		{defined, "rake -f of a written file", sh(`echo 'task(:x) { sh "id" }' > /tmp/R && rake -f /tmp/R x`), opaque, sh(`rake -f Rakefile test`), false},
		{defined, "gradle --init-script of a written file", sh(`echo x > /tmp/i.gradle && gradle --init-script /tmp/i.gradle build`), opaque, sh(`gradle test`), false},
		{defined, "gradle -p of a directory with a written build", sh(`echo x > /tmp/x/build.gradle && gradle -p /tmp/x build`), opaque, sh(`mvn test`), false},
		{defined, "mvn -f of a written POM's directory", sh(`echo x > /tmp/x/pom.xml && mvn -f /tmp/x package`), opaque, sh(`echo x > src/A.java && mvn test`), false},
		{defined, "npm --prefix of a written package.json", sh(`echo '{"scripts":{"build":"id"}}' > /tmp/x/package.json && npm --prefix /tmp/x run build`), opaque,
			sh(`echo x > web/src/app.ts && npm --prefix web run build`), false},
		{defined, "yarn --cwd", sh(`echo x > /tmp/x/package.json && yarn --cwd /tmp/x test`), opaque, sh(`yarn test`), false},
		{defined, "uv run --project", sh(`echo x > /tmp/x/pyproject.toml && uv run --project /tmp/x x`), opaque, sh(`uv run pytest`), false},
		{defined, "composer --working-dir", sh(`echo x > /tmp/x/composer.json && composer --working-dir=/tmp/x run-script x`), opaque, sh(`composer install`), false},
		{defined, "bundle --gemfile", sh(`echo x > /tmp/x/Gemfile && bundle exec --gemfile /tmp/x/Gemfile rake`), opaque, sh(`rake test`), false},
		{defined, "nox -f of a written file", sh(`echo x > /tmp/n.py && nox -f /tmp/n.py`), opaque, sh(`pdm run pytest`), false},
		{defined, "ninja -f of a written file", sh(`echo x > /tmp/b.ninja && ninja -f /tmp/b.ninja`), opaque, sh(`npm test`), false},
		{named, "compose's override file", sh(`echo 'services: {web: {volumes: ["/:/h"]}}' > docker-compose.override.yml && docker compose up -d`), opaque,
			sh(`echo x > app.py && docker compose up -d`), false},
		{named, "compose.override.yaml", sh(`cp /tmp/o.yaml compose.override.yaml; docker compose up`), opaque, sh(`cp compose.yaml /tmp/compose.bak; docker compose up`), false},
		{named, "go-task's lower-case taskfile", sh(`printf 'tasks: {x: {cmds: [id]}}' > taskfile.yml && task x`), opaque, sh(`npm test`), false},
		{named, "rake's rakefile.rb, rake declared", sh(`echo 'task(:default) { sh "id" }' > rakefile.rb && rake`), opaque, sh(`echo x > lib/a.rb && rake test`), false},
		{named, "bundler's gems.rb", sh(`echo 'system("id")' > gems.rb && bundle exec rspec`), opaque, sh(`cargo test`), false},
		{named, "docker buildx bake's file", sh(`echo 'target "x" { dockerfile-inline = "FROM alpine" }' > docker-bake.hcl && docker buildx bake`), opaque,
			sh(`echo x > app.py && docker build -t app .`), false},
		{named, "pixi's tasks", sh(`printf '[tasks]\nx = "id"\n' > pixi.toml && pixi run x`), opaque, sh(`yarn test`), false},
		{named, "devbox's scripts", sh(`echo '{"shell":{"scripts":{"x":"id"}}}' > devbox.json && devbox run x`), opaque, sh(`uv run pytest`), false},
		{named, "a Procfile, honcho", sh(`echo 'web: sh -c id' > Procfile && honcho start`), opaque, sh(`gradle test`), false},
		{named, "an Earthfile", sh(`printf 'x:\n  LOCALLY\n  RUN id\n' > Earthfile && earthly +x`), opaque, sh(`mvn test`), false},
		{named, "a Brewfile, brew bundle", sh(`echo 'system "id"' > Brewfile && brew bundle`), opaque, sh(`pdm run pytest`), false},
		{named, "Leiningen's project.clj", sh(`echo '(do (clojure.java.shell/sh "id"))' > project.clj && lein test`), opaque, sh(`echo x > src/a.clj && just test`), false},
		{named, "the Clojure CLI's deps.edn", sh(`echo '{:aliases {:x {:main-opts ["-e" "(x)"]}}}' > deps.edn && clj -M:x`), opaque, sh(`composer install`), false},
		{named, "babel's configuration module", sh(`echo 'require("child_process").execSync("id")' > babel.config.js && npx babel src`), opaque, sh(`npx tsc --noEmit`), false},
		{plugin, "python -m pytest -p of a written module", sh(`echo 'import os; os.system("id")' > c.py && python -m pytest -p c`), opaque,
			sh(`echo x > tests/test_c.py && pytest -p pytest_cov tests`), false},
		{plugin, "pytest -p attached", sh(`echo x > c.py && pytest -pc`), opaque, sh(`echo x > c.py && pytest -p no:c`), false},
		{plugin, "a written package by its dotted name", sh(`echo x > plug/x.py && python3 -m pytest -p plug.x`), opaque, sh(`pytest -p no:cacheprovider`), false},
		{plugin, "PYTEST_PLUGINS", sh(`echo x > c.py && PYTEST_PLUGINS=c python -m pytest`), opaque, sh(`export PYTEST_PLUGINS=pytest_cov; python -m pytest`), false},
		{plugin, "PYTEST_PLUGINS exported", sh(`echo x > c.py && export PYTEST_PLUGINS=a,c; pytest`), opaque, sh(`export PYTEST_PLUGINS=a,b; echo x > c.py; pytest`), false},
		{plugin, "PYTEST_ADDOPTS' -p", sh(`echo x > c.py && PYTEST_ADDOPTS='-p c' pytest`), opaque, sh(`PYTEST_ADDOPTS='-x -q' pytest`), false},
		{plugin, "PYTEST_ADDOPTS' -c", sh(`echo x > /tmp/p.ini && PYTEST_ADDOPTS='-c /tmp/p.ini' python -m pytest`), opaque, sh(`PYTEST_ADDOPTS='-c pytest.ini' python -m pytest`), false},
		{rcloneDel, "rclone purge ~", sh(`rclone purge ~`), denied(zero), sh(`rclone purge ./build`), false},
		{rcloneDel, "rclone delete /", sh(`rclone delete /`), denied(zero), sh(`rclone ls ~`), false},
		{rcloneDel, "rclone rmdirs of the home directory", sh(`rclone rmdirs ~/`), denied(zero), sh(`rclone lsd remote:`), false},
		{rcloneDel, "rclone purge behind a global option", sh(`rclone --config r.conf purge /etc`), denied(zero), sh(`rclone --config r.conf lsd remote:`), false},
		{rcloneDel, "rclone purge of .git", sh(`rclone purge .git`), denied(RulePrefixPathPolicy + "noDelete"), sh(`rclone purge /workspace/app/build`), false},
		{cloudDel, "vercel rm", sh(`vercel rm my-app --yes`), gone, sh(`vercel deploy --prod`), false},
		{cloudDel, "vercel remove behind a global option", sh(`vercel --token t remove my-app --safe`), gone, sh(`vercel ls`), false},
		{cloudDel, "netlify sites:delete", sh(`netlify sites:delete x --force`), gone, sh(`netlify deploy --prod`), false},
		{cloudDel, "ntl env:unset", sh(`ntl env:unset API_URL`), gone, sh(`netlify status`), false},
		{cloudDel, "firebase firestore:delete", sh(`firebase firestore:delete --all-collections -f`), gone, sh(`firebase deploy --only hosting`), false},
		{cloudDel, "firebase database:remove", sh(`firebase database:remove / -f`), gone, sh(`firebase emulators:start`), false},
		{cloudDel, "wrangler r2 bucket delete", sh(`wrangler r2 bucket delete assets`), gone, sh(`firebase firestore:indexes`), false},
		{cloudDel, "linode-cli delete", sh(`linode-cli linodes delete 123`), gone, sh(`vercel env ls`), false},
		{cloudDel, "oci terminate", sh(`oci compute instance terminate --instance-id x --force`), gone, sh(`serverless deploy`), false},
		{cloudDel, "sst remove", sh(`sst remove --stage prod`), gone, sh(`railway up`), false},
		{cloudDel, "glab repo delete", sh(`glab repo delete o/r --yes`), gone, sh(`gh repo view`), false},
		{cloudDel, "railway down", sh(`railway down -y`), gone, sh(`railway up --detach`), false},
		{cloudDel, "supabase projects delete", sh(`supabase projects delete abcd`), gone, sh(`supabase db reset`), false},
		{dbReset, "rails db:drop", sh(`bin/rails db:drop`), reset, sh(`rails db:migrate`), false},
		{dbReset, "rake db:drop, rake declared", sh(`rake db:drop`), reset, sh(`rake test`), false},
		{dbReset, "rails db:reset in production", sh(`RAILS_ENV=production bundle exec rails db:reset`), reset, sh(`rails db:migrate`), false},
		{dbReset, "rails db:schema:load", sh(`bundle exec rake db:schema:load`), reset, sh(`rake db:migrate`), false},
		{dbReset, "prisma migrate reset", sh(`npx prisma migrate reset --force`), reset, sh(`npx prisma migrate dev`), false},
		{dbReset, "prisma db push --accept-data-loss", sh(`npx prisma db push --accept-data-loss`), reset, sh(`npx prisma migrate dev`), false},
		{dbReset, "typeorm schema:drop", sh(`npx typeorm schema:drop -d src/ds.ts`), reset, sh(`rails db:migrate`), false},
		{dbReset, "alembic downgrade base", sh(`alembic -c alembic.ini downgrade base`), reset, sh(`alembic upgrade head`), false},
		{dbReset, "flyway clean", sh(`flyway -url=jdbc:postgresql://db/app clean`), reset, sh(`flyway migrate`), false},
		{dbReset, "liquibase dropAll", sh(`liquibase dropAll`), reset, sh(`flyway migrate`), false},
		{dbReset, "mix ecto.reset", sh(`mix ecto.reset`), reset, sh(`mix ecto.migrate`), false},
		{dbReset, "dotnet ef database drop", sh(`dotnet ef database drop -f`), reset, sh(`dotnet ef database update`), false},
		{dbReset, "sqlx database reset", sh(`sqlx database reset -y`), reset, sh(`sqlx migrate run`), false},
		{dbReset, "golang-migrate drop", sh(`migrate -path db/migrations -database "$DB" drop -f`), reset, sh(`sqlx migrate run`), false},
		{dbReset, "knex migrate:rollback --all", sh(`npx knex migrate:rollback --all`), reset, sh(`alembic upgrade head`), false},
		{dbReset, "supabase db reset of the linked project", sh(`supabase db reset --linked`), reset, sh(`supabase db reset`), false},
		{playbook, "a playbook the line wrote", sh(`printf -- '- hosts: localhost\n  tasks: [{shell: id}]\n' > site.yml && ansible-playbook site.yml`), opaque,
			sh(`echo x > roles/web/tasks/main.yml && ansible-playbook -i inventory site.yml`), false},
		{playbook, "a playbook on standard input", sh("ansible-playbook /dev/stdin <<'X'\n- hosts: localhost\n  tasks: [{shell: id}]\nX"), opaque,
			sh(`ansible-playbook --check --diff site.yml`), false},
		{playbook, "a computed playbook", sh(`ansible-playbook -i inventory "$PLAYBOOK"`), opaque, sh(`ansible-playbook -i inventory site.yml deploy.yml`), false},
		{playbook, "an inventory script", sh(`ansible-playbook -i inv.py site.yml`), opaque, sh(`ansible-playbook -i inventory.yml site.yml`), false},
		{playbook, "an inventory directory the line wrote into", sh(`echo x > inventory/x.py && ansible-playbook -i inventory site.yml`), opaque,
			sh(`echo x > notes.txt && ansible-playbook -i inventory site.yml`), false},
		{playbook, "ANSIBLE_INVENTORY", sh(`ANSIBLE_INVENTORY=inv.py ansible-playbook site.yml`), opaque, sh(`ansible-playbook --limit web site.yml`), false},
		{playbook, "a template in extra vars", sh(`ansible-playbook -e 'x={{ lookup("pipe","id") }}' site.yml`), opaque, sh(`ansible-playbook -e env=prod site.yml`), false},
		{playbook, "a module path", sh(`ansible-playbook -M ./lib site.yml`), opaque, sh(`ansible-playbook --tags deploy site.yml`), false},
		{playbook, "a ProxyCommand", sh(`ansible-playbook --ssh-common-args='-o ProxyCommand=id' site.yml`), opaque,
			sh(`ansible-playbook -i inventory --start-at-task deploy site.yml`), false},
		{todo, "GIT_SEQUENCE_EDITOR", sh(`GIT_SEQUENCE_EDITOR='sed -i s/pick/exec\ id/' git rebase -i HEAD~2`), opaque,
			sh(`GIT_SEQUENCE_EDITOR=true git rebase -i --autosquash main`), false},
		{todo, "EDITOR for the todo list", sh(`EDITOR='sed -i 1iexec\ id' git rebase --interactive HEAD~3`), opaque, sh(`GIT_SEQUENCE_EDITOR=: git rebase -i main`), false},
		{todo, "an exported sequence editor", sh(`export GIT_SEQUENCE_EDITOR="sed -i 's/^pick/exec id #/'"; git rebase -i HEAD~2`), opaque,
			sh(`export GIT_SEQUENCE_EDITOR="sed -i 's/^pick/exec id #/'"; git rebase --continue`), false},
		{todo, "-i in a bundle", sh(`GIT_SEQUENCE_EDITOR='sed -i s/pick/exec\ id/' git rebase -ir HEAD~2`), opaque,
			sh(`GIT_SEQUENCE_EDITOR='sed -i s/pick/exec\ id/' git rebase -Xignore-all-space main`), false},
		{todo, "--edit-todo", sh(`GIT_SEQUENCE_EDITOR='sed -i s/pick/exec\ id/' git rebase --edit-todo`), opaque, sh(`git rebase -i HEAD~2`), false},
		{defined, "COMPOSE_FILE of a written file", sh(`echo x > /tmp/c.yml && COMPOSE_FILE=/tmp/c.yml docker compose up`), opaque,
			sh(`export COMPOSE_FILE=compose.yml:compose.prod.yml; docker compose ps`), false},
		{defined, "an exported COMPOSE_FILE", sh(`echo x > /tmp/c.yml && export COMPOSE_FILE=compose.yml:/tmp/c.yml; docker compose up -d`), opaque,
			sh(`echo x > /tmp/c.yml && export COMPOSE_FILE=compose.yml; docker compose up -d`), false},
		{unnamed, "cp of a glob into the build's directory", sh(`cp /tmp/evil/* . && make test`), opaque, sh(`cp docs/*.md site/ && make test`), false},
		{unnamed, "mv of a glob into the build's directory", sh(`mv /tmp/evil/* ./ && make test`), opaque, sh(`mv src/*.go pkg/ && make test`), false},
		{unnamed, "cp -t of a glob", sh(`cp -t . /tmp/evil/* && npm test`), opaque, sh(`cp /tmp/evil/* /tmp/other/ && make test`), false},
		{unnamed, "npm pkg set of a script", sh(`npm pkg set scripts.test='rm -rf ~' && npm test`), opaque, sh(`echo x > src/a.js && npm test`), false},
		{unnamed, "npm pkg set of scripts as JSON", sh(`npm pkg set --json 'scripts={"test":"id"}' && npm test`), opaque, sh(`npm test`), false},
		{unnamed, "npm set-script", sh(`npm set-script test id && npm test`), opaque, sh(`yarn test`), false},
		{unnamed, "pnpm pkg set", sh(`pnpm pkg set scripts.build=id && pnpm build`), opaque, sh(`cargo test`), false},
		{vault, "--vault-password-file of a script", sh(`ansible all -m ping --vault-password-file ./pass.sh`), opaque,
			sh(`ansible all -m ping --vault-password-file ~/ansible/vault.txt`), false},
		{vault, "--vault-pass-file=", sh(`ansible all -m ping --vault-pass-file=pass.py`), opaque, sh(`ansible all -m ping --vault-id dev@prompt`), false},
		{vault, "--vault-id LABEL@script", sh(`ansible-playbook --vault-id dev@./pass.py site.yml`), opaque, sh(`ansible-playbook --vault-id prod@prompt site.yml`), false},
		{vault, "a vault password file the line wrote", sh(`echo id > pass && chmod +x pass && ansible all -m ping --vault-password-file pass`), opaque,
			sh(`ansible-playbook --vault-password-file vault.txt site.yml`), false},
		{vault, "a computed vault password file", sh(`ansible-playbook --vault-password-file "$P" site.yml`), opaque, sh(`ansible-playbook --check site.yml`), false},
	}
}

// database-reset-framework's and hosting-resource-delete's examples.
func init() {
	more := map[string][2][]string{
		"database-reset-framework": {
			{"rails db:drop", "bin/rails db:reset", "rake db:purge", "npx prisma migrate reset", "prisma db push --force-reset",
				"sequelize db:drop", "typeorm schema:drop", "alembic downgrade base", "flyway clean", "liquibase drop-all", "mix ecto.drop",
				"dotnet ef database drop", "diesel database reset", "sqlx database drop", "dbmate drop", "goose sqlite3 x.db reset",
				"migrate -database x down -all", "atlas schema clean -u x", "knex migrate:rollback --all", "supabase db reset --db-url=x"},
			{"rails db:migrate", "rails db:seed", "npx prisma migrate dev", "prisma db push", "alembic upgrade head", "alembic downgrade -1",
				"flyway migrate", "mix ecto.migrate", "dotnet ef database update", "sqlx migrate run", "supabase db reset", "knex migrate:rollback"},
		},
		"hosting-resource-delete": {
			{"vercel rm x --yes", "netlify sites:delete x", "firebase firestore:delete -r /c", "wrangler delete", "linode-cli linodes delete 1",
				"oci os bucket delete --name b", "sst remove", "glab repo delete o/r", "scw instance server delete x", "railway down", "supabase secrets unset K"},
			{"vercel deploy", "netlify deploy", "firebase deploy", "wrangler deploy", "sst deploy", "glab mr list", "railway up", "supabase start"},
		},
	}
	for id, ex := range more {
		e := rulePackExamples[id]
		e.hits = append(append([]string(nil), e.hits...), ex[0]...)
		e.misses = append(append([]string(nil), e.misses...), ex[1]...)
		rulePackExamples[id] = e
	}
}
