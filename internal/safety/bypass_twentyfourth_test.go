package safety

// twentyfourthOrdinaryCatalogue holds the twenty-fourth review's over-refusals: ordinary
// developer commands on the project that asked at Default while their neighbours were admitted.
// npm run test asked where npm test, the same package.json script, was admitted (and run-script,
// pnpm run test, yarn run test, npm t). mvn -q package, mvn clean verify and dotnet build asked
// where mvn test and dotnet test were admitted: a Maven or Gradle command is now recognised by its
// goals, every one a validating one, whatever options come before them. man git, jobs and clear
// asked as unrecognised: they are recognised, with man's -C (a configuration that defines the
// programs man runs) and jobs -x (which runs a command) judged as code. python -m black, ruff
// check|format, isort, flake8 and pylint asked where the programs themselves, and python -m mypy,
// were admitted. Each near miss is admitted at Default with and without
// project commands; each attack is the nearest spelling that stays held.
func twentyfourthOrdinaryCatalogue() []classCase {
	sh := shCall
	unrec, unknownW := asked(RulePrefixAutonomy+"execute-unrecognized"), asked(RuleUnknownWriter)
	opaque, zeroD := asked(RuleOpaqueCode), denied(zero)
	const (
		testScript = "the project's test script by its name is npm test"
		shellTools = "man, jobs and clear print and run nothing the line does not name"
		pyModule   = "a linter or formatter run as python -m is the linter"
		validating = "a validating build with options before its goals, or several validating goals"
	)
	return []classCase{
		{shellTools, "a manual page; man's configuration from /tmp", sh(`man -C /tmp/man.conf git`), opaque, sh(`man git`), false},
		{shellTools, "a section's page; a pager that runs a command", sh(`man -P 'sh -c id' 5 crontab`), opaque, sh(`man 5 crontab`), false},
		{shellTools, "a keyword search; a page read from the key", sh(`man -l ~/.ssh/id_rsa`), zeroD, sh(`man -k socket`), false},
		{shellTools, "the shell's jobs; jobs -x runs a command", sh(`jobs -x sh -c id`), opaque, sh(`jobs -l`), false},
		{shellTools, "clear; then a page", sh(`clear && man ./.env`), zeroD, sh(`clear && man -w git`), false},
		{shellTools, "a local page; troff in unsafe mode runs its requests", sh(`MANROFFOPT=-U man -l /tmp/x.1`), opaque,
			sh(`MANWIDTH=80 man -l docs/toolgate.1`), false},
		{pyModule, "black through python -m; given ~/.bashrc to rewrite", sh(`python -m black ~/.bashrc`), unknownW, sh(`python -m black --check .`), false},
		{pyModule, "ruff through python3 -m; its language server", sh(`python3 -m ruff server`), unrec, sh(`python3 -m ruff check . && python -m ruff format --check src`), true},
		{pyModule, "isort, flake8 and pylint through python -m; pylint's rcfile from /tmp", sh(`python -m pylint --rcfile /tmp/x src`), opaque,
			sh(`python -m isort --check-only . && python -m flake8 src && python -m pylint src`), false},
		{validating, "mvn -q package; a deploy after it", sh(`mvn -q package deploy`), unrec, sh(`mvn -q package`), true},
		{validating, "the everyday clean verify; an install into ~/.m2", sh(`mvn clean install`), unrec, sh(`mvn -B -q -DskipTests clean verify`), true},
		{validating, "a module's tests; a plugin's goal", sh(`mvn -pl core -am dependency:tree`), unrec, sh(`mvn -pl core -am test`), true},
		{validating, "gradle's options before its tasks; a publish after them", sh(`gradle --offline clean build publish`), unrec,
			sh(`gradle --offline clean build`), true},
		{validating, "a subproject's test task; its run task", sh(`gradle :app:run`), unrec, sh(`gradle :app:test --tests 'x.*'`), true},
		{validating, "dotnet build; dotnet run", sh(`dotnet run`), unrec, sh(`dotnet build -c Release`), true},
		{testScript, "npm run test; another script", sh(`npm run test:unit`), unrec, sh(`npm run test`), true},
		{testScript, "npm run-script test; a build script", sh(`npm run-script build`), unrec, sh(`npm run-script test`), true},
		{testScript, "pnpm and yarn run test; yarn's other script", sh(`yarn run lint`), unrec, sh(`pnpm run test && yarn run test`), true},
		{testScript, "npm t; its words still go to the script", sh(`npm t -- --outputFile=/root/.bashrc`), unknownW, sh(`npm t -- --coverage`), false},
		{testScript, "npm run test's words go to the script", sh(`npm run test -- --outputFile=/root/.bashrc`), unknownW,
			sh(`npm run test -- --watch=false`), false},
	}
}

// twentyfourthCatalogue holds the twenty-fourth engine review's rows. A recognised build or test
// tool pointed at another directory's project ran that project's code unseen: cargo test
// --manifest-path /tmp/x/Cargo.toml its build.rs, go test -C /tmp/x its tests, npm test --prefix
// /tmp/x its script, pytest /tmp/x its conftest.py, dotnet test /tmp/x/x.csproj its targets, jest
// --rootDir, vitest --root, ctest --test-dir, tox -c, mvn -f and gradle -p theirs; and so did one run
// after cd into a directory outside the workspace (cd /tmp/x && go test ./...). Maven's and
// Gradle's recognised prefixes admitted whatever goals followed: mvn test deploy published, mvn
// verify exec:exec ran exec.executable, gradle build publish uploaded. uv run --project /tmp/x,
// -p /tmp/py and UV_PROJECT_ENVIRONMENT=/tmp/venv ran the tests in another project's
// environment or interpreter; so did poetry -P and pdm -p; tsc -p /tmp/x wrote where another
// tsconfig said. Given files from elsewhere, prettier and eslint load the configuration beside
// them (prettier.config.js, JavaScript), rspec, deno test and bun test the tests themselves;
// swift test --package-path /tmp/x built and ran its Package.swift. Builds no prefix recognises
// (make -C /tmp/x, cmake -P|-S, ninja -C, just -f) were only unrecognised, which Yolo admits,
// where python /tmp/x.py is opaque at every level. GOCACHE=/tmp/c linked a planted build cache's objects into the tests (go
// trusts an entry by its inputs' hash), and CARGO_SOURCE_*_REPLACE_WITH|DIRECTORY built a
// directory's sources for the locked dependencies, as cargo --config source... did (asked). mvn -l FILE, which writes
// maven's whole output to FILE, wrote ~/.bashrc unseen. pytest -o addopts=WORDS, which pytest
// reads as options of its own as it reads PYTEST_ADDOPTS, was not read at all. shellcheck -x
// follows a script's . and source (and its "# shellcheck source=" directives) and quotes the
// sourced file's lines in its errors: shellcheck -x - <<< '. /root/.ssh/id_rsa' printed the key.
func twentyfourthCatalogue() []classCase {
	sh := shCall
	opaque, unrec := asked(RuleOpaqueCode), asked(RulePrefixAutonomy+"execute-unrecognized")
	noWrite, zeroD, dyn := denied(RulePrefixPathPolicy+"noWrite"), denied(zero), asked(RuleDynamicPath)
	const (
		mvnLog       = "maven's log file is written"
		sourced      = "the files shellcheck -x and -a follow a script's . and source to, and quote"
		addopts      = "pytest -o addopts=WORDS, read as pytest's own options as PYTEST_ADDOPTS is"
		moreGoals    = "a build's goals or tasks beyond the validating ones a recognised prefix starts"
		otherProject = "a recognised build or test tool pointed at another directory's project"
		runnerEnv    = "a Python runner's project, environment or interpreter, tsc's project, outside this one"
		besideFiles  = "a formatter, linter or test runner given files from elsewhere loads the code beside them"
		otherBuild   = "an unrecognised build pointed at another directory's definitions runs them at every level"
		codeSource   = "variables that point a build at compiled or source code outside the project"
		elsewhere    = "a build or test run in a directory outside the workspace"
	)
	return []classCase{
		{moreGoals, "a deploy after the tests", sh(`mvn test deploy`), unrec, sh(`mvn test`), true},
		{moreGoals, "exec:exec after verify runs exec.executable", sh(`mvn verify exec:exec -Dexec.executable=/tmp/x`), unrec,
			sh(`mvn verify -Dmaven.test.failure.ignore=true`), true},
		{moreGoals, "a publish after gradle build", sh(`gradle build publish`), unrec, sh(`gradle build`), true},
		{moreGoals, "goals from MAVEN_ARGS", sh(`MAVEN_ARGS=deploy mvn test`), unrec, sh(`MAVEN_ARGS=-q mvn test`), true},
		{mvnLog, "mvn -l into ~/.bashrc; into the build directory", sh(`mvn test -l /root/.bashrc`), noWrite, sh(`mvn -q test -l target/mvn.log`), false},
		{mvnLog, "--log-file= into a hook", sh(`mvn -q verify --log-file=.git/hooks/pre-commit`), noWrite, sh(`mvn -q verify --log-file=build.log`), false},
		{addopts, "a report into ~/.bashrc; quieter output", sh(`pytest -o 'addopts=--junitxml=/root/.bashrc'`), noWrite,
			sh(`pytest -o addopts='-q --tb=short'`), false},
		{addopts, "another configuration's plugins; a report in the project", sh(`pytest --override-ini='addopts=-c /tmp/x.ini'`), opaque,
			sh(`pytest --override-ini='addopts=--junitxml=build/junit.xml'`), false},
		{addopts, "bundled, a module path from /tmp", sh(`python -m pytest -xo 'addopts=-o pythonpath=/tmp/x'`), opaque,
			sh(`python -m pytest -xo 'addopts=-o pythonpath=src'`), false},
		{sourced, "the key sourced by a here-string; a library", sh(`shellcheck -x - <<< '. /root/.ssh/id_rsa'`), zeroD,
			sh(`shellcheck -x - <<< '. ./lib/common.sh'`), false},
		{sourced, "-a reports the sourced file's lines", sh(`shellcheck -a - <<< 'source ~/.ssh/id_rsa'`), zeroD,
			sh(`shellcheck -a -s bash scripts/deploy.sh`), false},
		{sourced, "a directive names .env", sh(`shellcheck -x - <<< $'# shellcheck source=.env\n. ./config.sh'`), zeroD,
			sh(`shellcheck -x - <<< $'# shellcheck source=lib/x.sh\n. "$DIR/x.sh"'`), false},
		{sourced, "a directive's source path of ~/.ssh", sh(`shellcheck -x - <<< $'# shellcheck source-path=/root/.ssh\n. id_rsa'`), zeroD,
			sh(`shellcheck -x -P lib - <<< '. common.sh'`), false},
		{sourced, "printf's script piped in", sh(`printf '. .env\n' | shellcheck -x -`), zeroD, sh(`echo '. ./lib.sh' | shellcheck -x -`), false},
		{sourced, "a script the line wrote in /tmp", sh(`echo '. ~/.ssh/id_rsa' > /tmp/y.sh && shellcheck -x /tmp/y.sh`), zeroD,
			sh(`shellcheck -x scripts/*.sh`), false},
		{sourced, "a script from /tmp the line does not show", sh(`shellcheck -x /tmp/x.sh`), dyn, sh(`shellcheck --norc /tmp/x.sh`), false},
		{otherProject, "cargo's manifest in /tmp; a crate of the workspace", sh(`cargo test --manifest-path /tmp/x/Cargo.toml`), opaque,
			sh(`cargo test --manifest-path crates/core/Cargo.toml`), false},
		{otherProject, "go -C to /tmp; to a submodule", sh(`go test -C /tmp/x ./...`), opaque, sh(`go test -C ./tools ./...`), false},
		{otherProject, "npm --prefix two levels up; a sibling package", sh(`npm test --prefix ../../x`), opaque, sh(`npm test --prefix ../web`), false},
		{otherProject, "yarn --cwd and pnpm -C", sh(`yarn --cwd /tmp/x test && pnpm -C /tmp/x test`), opaque, sh(`yarn test && pnpm test`), false},
		{otherProject, "pytest of a directory in /tmp; of the tests", sh(`pytest -q /tmp/x`), opaque, sh(`pytest -q tests/ --basetemp /tmp/pt -k login`), false},
		{otherProject, "python -m pytest of a home directory", sh(`python -m pytest ~/x`), opaque, sh(`python -m pytest tests/unit`), false},
		{otherProject, "dotnet test of a project in /tmp; an output there", sh(`dotnet test /tmp/x/x.csproj`), opaque,
			sh(`dotnet test tests/App.Tests.csproj -o /tmp/out /property:Configuration=Release`), false},
		{otherProject, "jest's rootDir; vitest's root", sh(`jest --rootDir /tmp/x`), opaque, sh(`vitest run --root . --dir src`), false},
		{otherProject, "vitest's root in /tmp", sh(`vitest run -r /tmp/x`), opaque, sh(`jest --rootDir .`), false},
		{otherProject, "ctest's directory; the build's", sh(`ctest --test-dir /tmp/x`), opaque, sh(`ctest --test-dir build`), false},
		{otherProject, "tox's config; mvn's pom of a module", sh(`tox -c /tmp/tox.ini`), opaque, sh(`mvn test -f core/pom.xml`), false},
		{otherProject, "mvn's pom and gradle's directory in /tmp", sh(`mvn test -f /tmp/pom.xml || gradle test -p /tmp/x`), opaque,
			sh(`gradle test`), false},
		{runnerEnv, "uv run in another project's environment; with the tests of this one", sh(`uv run --project /tmp/x pytest`), opaque,
			sh(`uv run pytest -q tests`), false},
		{runnerEnv, "uv's interpreter from /tmp; a version", sh(`uv run -p /tmp/py pytest`), opaque, sh(`uv run -p 3.12 pytest`), false},
		{runnerEnv, "uv's environment from /tmp; the project's .venv", sh(`UV_PROJECT_ENVIRONMENT=/tmp/venv uv run pytest`), opaque,
			sh(`UV_PROJECT_ENVIRONMENT=.venv uv run pytest`), false},
		{runnerEnv, "poetry's and pdm's project in /tmp", sh(`poetry -P /tmp/x run pytest || pdm -p /tmp/x run test`), opaque,
			sh(`poetry run pytest && pdm run test`), false},
		{runnerEnv, "tsc of a tsconfig in /tmp; of a build config", sh(`tsc -p /tmp/x`), opaque, sh(`tsc -p tsconfig.build.json`), false},
		{besideFiles, "prettier of a file in /tmp finds its prettier.config.js; a glob of sources", sh(`prettier --check /tmp/x/a.js`), opaque,
			sh(`prettier --check 'src/**/*.{ts,tsx}'`), false},
		{besideFiles, "eslint of a file two levels up; with a report in /tmp", sh(`eslint ../../x/a.js`), opaque,
			sh(`eslint -f json -o /tmp/r.json --max-warnings 0 src`), false},
		{besideFiles, "rspec of specs in /tmp; of the models", sh(`rspec /tmp/x`), opaque, sh(`rspec -r ./spec/support/x.rb spec/models`), false},
		{besideFiles, "deno and bun tests in /tmp", sh(`deno test -A /tmp/x || bun test /tmp/x`), opaque,
			sh(`deno test --allow-read=. tests/ && bun test --timeout 5000 ./tests`), false},
		{besideFiles, "swift test of a package in /tmp", sh(`swift test --package-path /tmp/x`), opaque, sh(`swift test --package-path Packages/Core`), false},
		{otherProject, "unittest of a file in /tmp; of a module", sh(`python -m unittest /tmp/test_x.py`), opaque,
			sh(`python -m unittest tests.test_api -k login`), false},
		{otherProject, "unittest discovery in /tmp; in the tests", sh(`python3 -m unittest discover -s /tmp/x`), opaque,
			sh(`python3 -m unittest discover -s tests -p 'test_*.py'`), false},
		{otherBuild, "make -C of /tmp at Yolo; the declared tests", sh(`make -C /tmp/x`), opaque, sh(`make test`), false},
		{otherBuild, "a CMake script from /tmp; a configure of the project", sh(`cmake -P /tmp/x.cmake`), opaque, sh(`make test`), false},
		{otherBuild, "cmake's source directory and ninja's build directory in /tmp", sh(`cmake -S /tmp/x -B build && ninja -C /tmp/x`), opaque,
			sh(`make lint`), false},
		{otherBuild, "a justfile from /tmp", sh(`just -f /tmp/j test`), opaque, sh(`make test`), false},
		{codeSource, "a build cache in /tmp; the count flag from GOFLAGS", sh(`GOCACHE=/tmp/c go test ./...`), opaque,
			sh(`GOFLAGS=-count=1 go test ./...`), false},
		{codeSource, "the build cache exported first", sh(`export GOCACHE=/tmp/c; go build ./...`), opaque, sh(`export CGO_ENABLED=0; go build ./...`), false},
		{codeSource, "crates.io replaced by a directory; the sparse protocol", sh(`CARGO_SOURCE_CRATES_IO_REPLACE_WITH=v CARGO_SOURCE_V_DIRECTORY=/tmp/v cargo test`),
			opaque, sh(`CARGO_REGISTRIES_CRATES_IO_PROTOCOL=sparse cargo test`), false},
		{elsewhere, "cd to /tmp, then go test; to a package", sh(`cd /tmp/x && go test ./...`), opaque, sh(`cd internal && go test ./...`), false},
		{elsewhere, "cd out of the workspace, then pytest; to a sibling", sh(`cd ../.. && pytest`), opaque, sh(`cd ../web && npm test`), false},
		{elsewhere, "a computed directory; a worktree of this repository", sh(`cd "$D" && cargo test`), opaque,
			sh(`git worktree add /tmp/wt && cd /tmp/wt && go test ./...`), false},
		{elsewhere, "a declared make test in /tmp; in the project", sh(`cd /tmp/x && make test`), opaque, sh(`make test`), false},
	}
}
