package safety

// twentyseventhCatalogue holds the twenty-seventh engine review's rows. Package managers printed
// the credentials they keep in their configuration, as git config --list printed
// http.extraHeader before print-credentials-git-config read it: bundle config (no arguments, list,
// get of a host's key, the older bundle config HOST) and bundle env; poetry config --list and a
// read of http-basic.*, pypi-token.* or a repository; pip config list|debug, get of an index URL
// (https://user:token@host/simple) and any read of pip.conf; composer config --list and a read of
// an auth key, composer global's too; gem sources's list and gem environment's report; yarn 1's
// config list, which prints .npmrc's _authToken; gradle properties and maven's
// help:effective-settings -DshowPasswords, which print the zeroAccess gradle.properties' and
// settings.xml's passwords. Each was only unrecognised, admitted at Yolo (composer's, a declared
// project command here, at Default too; cat pip.conf at every level). Registries' credential
// stores the default policy did not name (pnpm's auth.ini and rc, dart pub's, anaconda-client's,
// JFrog CLI's, leiningen's, helm registry login's, sbt-sonatype's, Hex's) were readable. pytest
// --rootdir and --confcutdir above the project loaded the conftest.py files planted there;
// rake -C, composer -d and bundle exec --gemfile ran another directory's definitions, and
// VIRTUAL_ENV, PIPENV_PIPFILE, WORKON_HOME and POETRY_VIRTUALENVS_PATH another environment's
// programs, admitted at Default; pnpm --node-options, yarn 1's --use-yarnrc and deno task --cwd
// from elsewhere were only unrecognised.
func twentyseventhCatalogue() []classCase {
	sh := shCall
	pkgCfg, opaque, zeroD := asked(dc+"print-credentials-package-config"), asked(RuleOpaqueCode), denied(zero)
	const (
		stores     = "registries' and package tools' credential stores the default policy did not name"
		pkgConfig  = "a package manager's configuration holds a registry's credentials"
		pytestDirs = "pytest's rootdir and confcutdir outside the project load the conftest.py files there"
		otherDefs  = "a build tool's option or variable naming another directory's definitions or environment"
	)
	return []classCase{
		{pkgConfig, "bundle config lists every setting; bundle exec", sh(`bundle config`), pkgCfg, sh(`bundle exec rspec`), false},
		{pkgConfig, "bundle config list through command; pip's list of packages", sh(`command bundle config list`), pkgCfg, sh(`pip list`), false},
		{pkgConfig, "a host's key by get; the lockfile", sh(`bundle config get BUNDLE_GEMS__CONTRIBSYS__COM`), pkgCfg, sh(`cat Gemfile.lock`), false},
		{pkgConfig, "the older get by the host's name, abbreviated; through env", sh(`env BUNDLE_APP_CONFIG=.b bundle conf gems.contribsys.com`), pkgCfg,
			sh(`bundle exec rake test`), false},
		{pkgConfig, "a computed key; a global option first", sh(`bundle --verbose config get "$K"`), pkgCfg, sh(`pip list --outdated`), false},
		{pkgConfig, "poetry's whole list; pip show", sh(`poetry config --list`), pkgCfg, sh(`pip show requests`), false},
		{pkgConfig, "hatch's configuration with its secrets unscrubbed; pip list", sh(`hatch config show --all`), pkgCfg, sh(`pip list`), false},
		{pkgConfig, "hatch -a after a global option; pip freeze", sh(`hatch --data-dir d config show -a`), pkgCfg, sh(`pip freeze`), false},
		{pkgConfig, "a repository's password, another directory's poetry", sh(`poetry -C sub config http-basic.private`), pkgCfg, sh(`pip freeze`), false},
		{pkgConfig, "a PyPI token; a repository's URL", sh(`exec poetry config pypi-token.pypi`), pkgCfg, sh(`pip list`), false},
		{pkgConfig, "pip's list; python -m pip list", sh(`pip config list`), pkgCfg, sh(`python -m pip list`), false},
		{pkgConfig, "the index URL by python -m pip; its list of packages", sh(`python3 -m pip config get global.index-url`), pkgCfg, sh(`python3 -m pip list`), false},
		{pkgConfig, "an extra index after a global option; debug", sh(`pip3 --isolated config get install.extra-index-url`), pkgCfg, sh(`pip freeze`), false},
		{pkgConfig, "pip config debug prints every file's values", sh(`pip config debug`), pkgCfg, sh(`pip list`), false},
		{pkgConfig, "composer's list; a named ordinary key", sh(`composer config --list`), pkgCfg, sh(`composer config name`), false},
		{pkgConfig, "-l in another directory; an install", sh(`composer -d sub config -l`), pkgCfg, sh(`composer install`), false},
		{pkgConfig, "the home's http-basic, abbreviated; setting it", sh(`composer confi -g http-basic.repo.example.com`), pkgCfg,
			sh(`composer config -g http-basic.repo.example.com alice s3cret`), false},
		{pkgConfig, "auth.json's github token; removing one", sh(`composer config --auth github-oauth.github.com`), pkgCfg,
			sh(`composer config --unset github-oauth.github.com`), false},
		{pkgConfig, "gem's sources; yarn test", sh(`gem sources`), pkgCfg, sh(`yarn test`), false},
		{pkgConfig, "gem sources -l, abbreviated; yarn's tests", sh(`gem sou -l`), pkgCfg, sh(`yarn test --ci`), false},
		{pkgConfig, "gem env prints the sources too; its directory alone", sh(`gem env`), pkgCfg, sh(`bundle exec rspec`), false},
		{pkgConfig, "gem environment's remote sources", sh(`gem environment remotesources`), pkgCfg, sh(`pip list`), false},
		{pkgConfig, "bundle env prints bundler's settings", sh(`bundle env`), pkgCfg, sh(`bundle exec rake test`), false},
		{pkgConfig, "composer's global list; a global install's names", sh(`composer global config --list`), pkgCfg, sh(`composer global show`), false},
		{pkgConfig, "gradle properties prints gradle.properties' passwords; gradle test", sh(`gradle properties`), pkgCfg, sh(`gradle test`), false},
		{pkgConfig, "a project's, through the wrapper; a build", sh(`./gradlew -q :app:properties`), pkgCfg, sh(`./gradlew build`), false},
		{pkgConfig, "abbreviated as gradle takes it; the projects", sh(`gradle prop --offline`), pkgCfg, sh(`gradle projects`), false},
		{pkgConfig, "maven's settings with their passwords; a package", sh(`mvn help:effective-settings -DshowPasswords=true`), pkgCfg,
			sh(`mvn -q package`), false},
		{pkgConfig, "the plugin's coordinates, the property apart", sh(`mvn -D showPasswords org.apache.maven.plugins:maven-help-plugin:3.4.0:effective-settings`),
			pkgCfg, sh(`./mvnw -B verify`), false},
		{pkgConfig, "a server's password evaluated; a test", sh(`mvn -q help:evaluate -Dexpression=settings.servers -DforceStdout`), pkgCfg,
			sh(`mvn test`), false},
		{pkgConfig, "yarn 1's list prints .npmrc's token; yarn test", sh(`yarn config list`), pkgCfg, sh(`yarn test`), false},
		{stores, "pnpm 11's login token; its configuration", sh(`cat ~/.config/pnpm/auth.ini`), zeroD, sh(`cat ~/.config/pnpm/config.yaml`), false},
		{stores, "pnpm's on macOS; the project's workspace file", sh(`cat ~/Library/Preferences/pnpm/auth.ini`), zeroD, sh(`cat pnpm-workspace.yaml`), false},
		{stores, "pnpm's global rc, set with a token", sh(`grep authToken ~/.config/pnpm/rc`), zeroD, sh(`grep -r authToken src/`), false},
		{stores, "dart pub's credentials and tokens; the project's pubspec", sh(`cat ~/.config/dart/pub-credentials.json ~/.config/dart/pub-tokens.json`), zeroD,
			sh(`cat pubspec.yaml`), false},
		{stores, "anaconda-client's tokens; conda's environment file", sh(`cat ~/.config/binstar/api.anaconda.org.token`), zeroD, sh(`cat environment.yml`), false},
		{stores, "JFrog CLI's servers; its plugins' list", sh(`cat ~/.jfrog/jfrog-cli.conf.v6`), zeroD, sh(`ls ~/.jfrog/plugins`), false},
		{stores, "leiningen's plaintext credentials; its profiles", sh(`cat ~/.lein/credentials.clj`), zeroD, sh(`cat ~/.lein/profiles.clj`), false},
		{stores, "helm registry login's; helm's plugins", sh(`cat ~/.config/helm/registry/config.json`), zeroD, sh(`ls ~/.local/share/helm/plugins`), false},
		{stores, "sbt-sonatype's credentials; the build", sh(`cat ~/.sbt/sonatype_credentials`), zeroD, sh(`cat build.sbt`), false},
		{stores, "Hex's keys; the mix project", sh(`cat ~/.hex/hex.config`), zeroD, sh(`cat mix.exs`), false},
		{pkgConfig, "cat of pip's user configuration, as pip config list prints it; the requirements", sh(`cat ~/.config/pip/pip.conf`), pkgCfg,
			sh(`cat requirements.txt`), false},
		{pkgConfig, "the older location and the system's; a project's pip.conf for its image", sh(`grep index-url ~/.pip/pip.conf /etc/pip.conf`), pkgCfg,
			sh(`cat docker/pip.conf`), false},
		{pkgConfig, "a virtual environment's; its pyvenv.cfg", sh(`cat .venv/pip.conf`), pkgCfg, sh(`cat .venv/pyvenv.cfg`), false},
		{pkgConfig, "the user's by a glob; the project's setup.cfg", sh(`cat ~/.config/pip/pip.con?`), pkgCfg, sh(`cat setup.cfg`), false},
		{pkgConfig, "a read tool's path; macOS's", readCall("/root/Library/Application Support/pip/pip.conf"), pkgCfg, readCall("/workspace/app/setup.cfg"), false},
		{otherDefs, "rake -C runs /tmp's Rakefile; a directory of the project", sh(`rake -C /tmp/x test`), opaque, sh(`rake -C lib test`), false},
		{otherDefs, "rake --directory= two levels up; the project's", sh(`rake --directory=../../x test`), opaque, sh(`rake test`), false},
		{otherDefs, "composer -d runs /tmp's scripts; a package's", sh(`composer -d /tmp/x test`), opaque, sh(`composer -d packages/x test`), false},
		{otherDefs, "composer --working-dir= in the home; a sibling", sh(`composer --working-dir=~/x run-script test`), opaque,
			sh(`composer --working-dir=../web run-script test`), false},
		{otherDefs, "bundle exec with a Gemfile from /tmp; the project's other Gemfile", sh(`bundle exec --gemfile /tmp/Gemfile rspec`), opaque,
			sh(`bundle exec --gemfile=gemfiles/rails7.gemfile rspec`), false},
		{otherDefs, "poetry run in /tmp's environment; the project's", sh(`VIRTUAL_ENV=/tmp/venv poetry run pytest`), opaque,
			sh(`VIRTUAL_ENV=.venv poetry run pytest`), false},
		{otherDefs, "exported for pipenv; pipenv's own", sh(`export VIRTUAL_ENV=/tmp/venv; pipenv run pytest`), opaque, sh(`pipenv run pytest`), false},
		{otherDefs, "pipenv's Pipfile from /tmp; the project's", sh(`PIPENV_PIPFILE=/tmp/x/Pipfile pipenv run pytest`), opaque,
			sh(`PIPENV_PIPFILE=Pipfile pipenv run pytest`), false},
		{otherDefs, "poetry's environments from /tmp; uv run", sh(`POETRY_VIRTUALENVS_PATH=/tmp/v poetry run pytest`), opaque, sh(`uv run pytest`), false},
		{otherDefs, "pipenv's environments from /tmp through env; poetry's", sh(`env WORKON_HOME=/tmp/v pipenv run pytest`), opaque, sh(`poetry run pytest`), false},
		{otherDefs, "yarn 1's --use-yarnrc from /tmp (its yarn-path runs); yarn test", sh(`yarn --use-yarnrc /tmp/yarnrc test`), opaque, sh(`yarn test`), false},
		{otherDefs, "pnpm's node-options, as npm's; pnpm test", sh(`pnpm --node-options='--require /tmp/x.js' test`), opaque, sh(`pnpm test`), false},
		{otherDefs, "through env, spelt apart; pnpm's own recursive test", sh(`env pnpm --node-options '--import /tmp/x.mjs' test`), opaque, sh(`pnpm -r test`), false},
		{otherDefs, "deno task run in /tmp; deno test", sh(`deno task --cwd /tmp/x test`), opaque, sh(`deno test`), false},
		{otherDefs, "deno task in a package of the project is deno task's", sh(`deno task --cwd packages/api test`), asked(RulePrefixAutonomy + "execute-unrecognized"),
			sh(`deno test`), true},
		{pytestDirs, "rootdir in /tmp; the tests directory", sh(`pytest --rootdir /tmp/x`), opaque, sh(`pytest --rootdir tests`), false},
		{pytestDirs, "rootdir= in the home; the working directory", sh(`pytest --rootdir=~/x`), opaque, sh(`pytest --rootdir=.`), false},
		{pytestDirs, "python -m pytest two levels up; a sibling", sh(`python -m pytest --rootdir ../../x`), opaque,
			sh(`python -m pytest --rootdir ../x`), false},
		{pytestDirs, "confcutdir at the root; at the tests", sh(`pytest --confcutdir / tests`), opaque, sh(`pytest --confcutdir tests tests`), false},
		{pytestDirs, "confcutdir= two levels up through env", sh(`env python3 -m pytest --confcutdir=../.. tests`), opaque,
			sh(`python3 -m pytest --confcutdir=.. tests`), false},
		{pytestDirs, "from PYTEST_ADDOPTS; quiet from it", sh(`PYTEST_ADDOPTS='--rootdir /tmp/x' pytest`), opaque, sh(`PYTEST_ADDOPTS=-q pytest`), false},
		{pytestDirs, "from -o addopts; the project's", sh(`command pytest -o 'addopts=--confcutdir /'`), opaque,
			sh(`pytest -o 'addopts=--confcutdir tests'`), false},
		{pytestDirs, "py.test, pytest's older name, the same; its tests", sh(`py.test --rootdir /tmp/x`), opaque, sh(`py.test tests`), false},
		{pytestDirs, "py.test's -c from /tmp; from the project", sh(`py.test -c /tmp/x/pytest.ini`), opaque, sh(`py.test -c setup.cfg`), false},
	}
}

// twentyseventhOrdinaryCatalogue holds the twenty-seventh review's over-refusals: bun's --cwd
// before its subcommand took the directory for a script file, so bun --cwd packages/api test, a
// package of this project, was opaque at every level where bun test --cwd packages/api and npm
// --prefix packages/api test were admitted, and bun --cwd=packages/api test was unrecognised.
func twentyseventhOrdinaryCatalogue() []classCase {
	sh := shCall
	opaque, unrec := asked(RuleOpaqueCode), asked(RulePrefixAutonomy+"execute-unrecognized")
	const bunCwd = "bun's --cwd before its subcommand names a directory, not a script"
	return []classCase{
		{bunCwd, "a package's tests; /tmp's", sh(`bun --cwd /tmp/x test`), opaque, sh(`bun --cwd packages/api test`), false},
		{bunCwd, "--cwd= in a package; two levels up", sh(`bun --cwd=../../x test`), opaque, sh(`bun --cwd=packages/api test`), false},
		{bunCwd, "a sibling's through env; computed", sh(`env bun --cwd "$D" test --bail`), opaque, sh(`env bun --cwd ../web test --bail`), false},
		{bunCwd, "a file run in a package; the lockfile's install there", sh(`bun --cwd packages/api x.ts`), opaque,
			sh(`bun --cwd packages/api install --frozen-lockfile`), false},
		{bunCwd, "a script by name in a package is bun run's", sh(`bun --cwd packages/api run build`), unrec, sh(`bun --cwd packages/api test`), true},
		{bunCwd, "after run: a file from /tmp; a script by name", sh(`bun run --cwd packages/api /tmp/x.ts`), opaque, sh(`bun test --cwd packages/api`), false},
		{bunCwd, "after run, a script by name", sh(`bun run --cwd packages/api build`), unrec, sh(`bun --cwd ./packages/api test`), true},
	}
}
