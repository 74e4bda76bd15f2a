package safety

// twentyfirstCatalogue holds the twenty-first engine review's rows. Recognised programs wrote
// where an option or operand said and the engine did not read it: git merge-file writes its first
// file (git merge-file .git/hooks/pre-commit x y), git mailinfo its two (a mail's message and
// patch: any text), git interpret-trailers --in-place its files, git mailsplit, bugreport and
// diagnose their -o directory, script its typescript and its -O/-I/-B/-T logs
// (script -qc 'make test' ~/.bashrc), go test's profiles spelt with the test. prefix that go test
// and the test binary take (-test.coverprofile=~/.bashrc, also after -args), staticcheck's,
// gofmt's and golangci-lint's own profiles and traces, ctest's -O and --output-junit and tox's
// --result-json, pytest's -o log_file=FILE (and -o given attached, -ocache_dir=DIR) and --debug
// FILE, GNU sed -i's backup when its suffix holds "*" (the suffix is then the whole path:
// sed -i'.git/hooks/*' s/x/x/ pre-commit), node's profile and report names joined to their
// directories; vitest deletes its --coverage.reportsDirectory before writing it (=.git, =~). All
// were admitted at Default and Yolo. git's --pathspec-from-file named unseen files to rm or add.
// Code from outside the project ran unseen: jest's and vitest's configuration and the modules
// their options name, ctest -S/-SP and --build-and-test --test-command, tox --installpkg, go
// -modfile (its replace directives), terraform -chdir and tflint --chdir (the providers and
// plugins there), gradle's -Dgradle.user.home and maven's -Dmaven.repo.local and
// -Dmaven.multiModuleProjectDirectory, MAVEN_ARGS (mvn's options from the environment) and such
// properties in GRADLE_OPTS or MAVEN_OPTS, where -g and -s asked. Variables that stand for an
// output option wrote unseen: COVERAGE_FILE=.git/hooks/pre-commit pytest --cov,
// npm_config_cache=~/.ssh npm ci, CARGO_TARGET_DIR, MYPY_CACHE_DIR, RUFF_CACHE_DIR. kubectl wait and rollout history
// -o yaml printed pods' env as kubectl get -o yaml (asked) does. And an over-refusal: node --test
// of the project's own test files was asked as a script file while bare node --test, which runs
// the same files, was admitted.
func twentyfirstCatalogue() []classCase {
	sh := shCall
	noWrite, opaque, dyn := denied(RulePrefixPathPolicy+"noWrite"), asked(RuleOpaqueCode), asked(RuleDynamicPath)
	envPrint := asked(dc + "print-environment-service")
	const (
		mergeFile  = "git's file tools write their operands and output directories"
		typescript = "script's typescript and log files"
		pathspecs  = "git's pathspecs read from a file"
		jsRunner   = "a JavaScript test runner's code from outside the project"
		pytestIni  = "pytest's settings and debug log that name a written file"
		goTestDot  = "go test's flags spelt with the test. prefix, also after -args"
		driver     = "ctest's and tox's reports, scripts and packages"
		modfile    = "go -modfile names a go.mod from outside, whose replacements run other code"
		kubePrint  = "kubectl's other verbs that print the objects they act on print their env"
		nodeTests  = "node --test of the project's test files runs them as bare node --test does (an over-refusal)"
		jvmHomes   = "maven's and gradle's code from outside in their other spellings: a property, MAVEN_ARGS, JVM options"
		sedBackup  = "sed -i's backup suffix with * names the backup's path"
		reportsDir = "vitest deletes its coverage reports directory before writing it"
		goProfile  = "Go linters' and formatters' own profiles and traces"
		tfChdir    = "terraform's and tflint's directory from outside runs its providers and plugins"
		nodeDiag   = "node's profiles and reports, their names joined to their directories"
		envWrites  = "variables that stand for a recognised program's output option"
	)
	return []classCase{
		{mergeFile, "into a hook", sh(`git merge-file .git/hooks/pre-commit base.sh theirs.sh`), noWrite,
			sh(`git merge-file -p .git/hooks/pre-commit base.sh theirs.sh`), false},
		{mergeFile, "into ~/.bashrc, its labels given apart", sh(`git merge-file -L a -L b -L c ~/.bashrc x y`), noWrite,
			sh(`git merge-file src/a.go base.go other.go`), false},
		{mergeFile, "quiet, the stdout option bundled elsewhere", sh(`git merge-file -q --diff3 .git/hooks/pre-push x y`), noWrite,
			sh(`git merge-file --stdout .git/hooks/pre-push x y`), false},
		{mergeFile, "mailinfo writes a mail's message into a hook", sh(`git mailinfo .git/hooks/pre-commit patch < x.mbox`), noWrite,
			sh(`git mailinfo msg patch < x.mbox`), false},
		{mergeFile, "interpret-trailers --in-place", sh(`git interpret-trailers --in-place --trailer 'x=y' ~/.bashrc`), noWrite,
			sh(`git interpret-trailers --trailer 'Signed-off-by: a' ~/.bashrc`), false},
		{mergeFile, "mailsplit into the hooks", sh(`git mailsplit -o.git/hooks x.mbox`), noWrite, sh(`git mailsplit -obuild/mail x.mbox`), false},
		{mergeFile, "bugreport's directory", sh(`git bugreport -o .git/hooks`), noWrite, sh(`git bugreport -o build`), false},
		{typescript, "the typescript after -c", sh(`script -qc 'make test' /root/.bashrc`), noWrite, sh(`script -qc 'make test' /dev/null`), false},
		{typescript, "the typescript after --command", sh(`script --command ls .git/hooks/pre-commit`), noWrite, sh(`script --command ls build/session.log`), false},
		{typescript, "a second -c after the file replaces the first", sh(`script -c ls /dev/null -c 'cat .env'`), opaque,
			sh(`script -c 'go test ./...' build/test.log`), false},
		{typescript, "fed: without -c it runs the shell", sh(`echo 'cat .env' | script -q /dev/null`), denied(dc + "pipe-into-shell"),
			sh(`echo done | tee build/x.log`), false},
		{typescript, "an output log", sh(`script -O /root/.bashrc -c ls`), noWrite, sh(`script -O build/out.log -c ls`), false},
		{typescript, "a timing log, the long option with =", sh(`script --log-timing=.git/hooks/pre-commit -c ls`), noWrite,
			sh(`script --log-timing=build/t.log -qc ls /dev/null`), false},
		{pathspecs, "git rm deletes what a list names", sh(`git rm --pathspec-from-file=list`), dyn, sh(`git rm -r --cached build`), false},
		{pathspecs, "git add of a list written on the line", sh(`printf '.e%s\n' nv > l; git add --pathspec-from-file l`), dyn,
			sh(`printf 'a.go\n' > l; git add a.go`), false},
		{pathspecs, "from standard input", sh(`git rm --pathspec-from-file=- --pathspec-file-nul < list`), dyn, sh(`git rm -q old.txt`), false},
		{pathspecs, "a commit of a list", sh(`git commit -m x --pathspec-from-file=list`), dyn, sh(`git commit -m x -- a.go`), false},
		{jsRunner, "jest's configuration", sh(`jest -c /tmp/x.js`), opaque, sh(`jest -c jest.config.js`), false},
		{jsRunner, "jest's global setup through npx", sh(`npx jest --globalSetup /tmp/x.js`), opaque, sh(`npx jest --setupFiles ./test/setup.js`), false},
		{jsRunner, "jest's reporter, kebab-case", sh(`jest --test-results-processor=/tmp/x.js`), opaque, sh(`jest --reporters=default --reporters=jest-junit`), false},
		{jsRunner, "vitest's configuration", sh(`vitest run --config /tmp/x.ts`), opaque, sh(`vitest run --config vitest.config.ts`), false},
		{jsRunner, "vitest's reporter module", sh(`vitest run --reporter=/tmp/r.js`), opaque, sh(`vitest run --reporter=verbose`), false},
		{pytestIni, "log_file into ~/.bashrc", sh(`pytest -o log_file=/root/.bashrc`), noWrite, sh(`pytest -o log_file=logs/test.log`), false},
		{pytestIni, "log_file into a hook, -o attached", sh(`python -m pytest -olog_file=.git/hooks/pre-commit`), noWrite,
			sh(`python -m pytest -o log_cli=true`), false},
		{pytestIni, "cache_dir attached", sh(`pytest -ocache_dir=.git/hooks`), noWrite, sh(`pytest -o cache_dir=.cache/pytest`), false},
		{pytestIni, "--override-ini with =", sh(`pytest --override-ini=log_file=/root/.bashrc`), noWrite, sh(`pytest --override-ini=log_level=DEBUG`), false},
		{pytestIni, "--debug's file", sh(`pytest --debug=/root/.bashrc`), noWrite, sh(`pytest --debug=build/pytestdebug.log`), false},
		{pytestIni, "--debug's file apart", sh(`pytest --debug /root/.bashrc`), noWrite, sh(`pytest --debug -x tests`), false},
		{pytestIni, "log_file from PYTEST_ADDOPTS", sh(`PYTEST_ADDOPTS='-o log_file=/root/.bashrc' pytest`), noWrite,
			sh(`PYTEST_ADDOPTS='-o log_cli=true' pytest`), false},
		{goTestDot, "a coverage profile into ~/.bashrc", sh(`go test -test.coverprofile=/root/.bashrc ./...`), noWrite,
			sh(`go test -coverprofile=c.out ./...`), false},
		{goTestDot, "a trace into a hook, apart", sh(`go test -test.trace .git/hooks/pre-commit ./x`), noWrite, sh(`go test -trace trace.out ./x`), false},
		{goTestDot, "after -args, to the test binary", sh(`go test ./... -args -test.cpuprofile=.git/hooks/pre-commit`), noWrite,
			sh(`go test ./... -args -update`), false},
		{goTestDot, "below an output directory", sh(`go test -test.outputdir=/etc -test.memprofile=cron.d/x ./x`), noWrite,
			sh(`go test -outputdir=build -memprofile=mem.out ./x`), false},
		{goTestDot, "the binary's log of opened files", sh(`go test -json ./... -args -test.testlogfile=/root/.bashrc`), noWrite,
			sh(`go test -json ./... -args -test.v`), false},
		{driver, "ctest's log into ~/.bashrc", sh(`ctest -O /root/.bashrc`), noWrite, sh(`ctest -O build/ctest.log`), false},
		{driver, "ctest's JUnit report into a hook", sh(`ctest --output-junit .git/hooks/pre-commit`), noWrite,
			sh(`ctest -j4 --output-junit build/junit.xml`), false},
		{driver, "ctest's dashboard script from /tmp", sh(`ctest -S /tmp/x.cmake`), opaque, sh(`ctest -S ci/dashboard.cmake`), false},
		{driver, "ctest's dashboard script, -SP", sh(`ctest -SP /tmp/x.cmake`), opaque, sh(`ctest -R unit --output-on-failure`), false},
		{driver, "ctest --build-and-test runs its --test-command", sh(`ctest --build-and-test . b --build-generator Ninja --test-command ./x`), opaque,
			sh(`ctest --test-dir build`), false},
		{driver, "tox's JSON report into a hook", sh(`tox -e py --result-json=.git/hooks/pre-commit`), noWrite,
			sh(`tox -e py --result-json build/tox.json`), false},
		{driver, "tox installs a package from /tmp", sh(`tox --installpkg /tmp/x.tar.gz`), opaque, sh(`tox --installpkg dist/x-1.0-py3-none-any.whl`), false},
		{modfile, "go test", sh(`go test -modfile=/tmp/x.mod ./...`), opaque, sh(`go test -modfile=go.test.mod ./...`), false},
		{modfile, "apart, two dashes", sh(`go vet --modfile /tmp/x.mod ./...`), opaque, sh(`go vet ./...`), false},
		{modfile, "from GOFLAGS", sh(`GOFLAGS=-modfile=/tmp/x.mod go test ./...`), opaque, sh(`GOFLAGS=-mod=mod go test ./...`), false},
		{kubePrint, "wait prints the pod it waited for", sh(`kubectl wait --for=condition=Ready pod/web-0 -o yaml`), envPrint,
			sh(`kubectl wait --for=condition=Ready pod/web-0 --timeout=60s`), false},
		{kubePrint, "wait on a deployment, as JSON", sh(`kubectl wait --for=condition=Available deploy/web --output=json`), envPrint,
			sh(`kubectl wait --for=condition=Available deploy/web -o name`), false},
		{kubePrint, "a revision's pod template", sh(`kubectl rollout history deploy/web --revision=2 -o yaml`), envPrint,
			sh(`kubectl rollout history deploy/web --revision=2`), false},
		{nodeTests, "a file from /tmp; a test file", sh(`node --test /tmp/x.js`), opaque, sh(`node --test test/a.test.js`), false},
		{nodeTests, "a file above; a directory", sh(`node --test ../x.js`), opaque, sh(`node --test test/`), false},
		{nodeTests, "a computed file; a glob with a reporter", sh(`node --test "$F"`), opaque,
			sh(`node --test --test-reporter=spec 'test/**/*.test.js'`), false},
		{nodeTests, "inline code beside; tests below src", sh(`node --test --eval 'x' test/`), opaque, sh(`node --test src/lib/parse.test.mjs`), false},
		{jvmHomes, "gradle's user home as a property (its init.d scripts)", sh(`gradle test -Dgradle.user.home=/tmp/x`), opaque,
			sh(`gradle test -Dorg.gradle.parallel=true`), false},
		{jvmHomes, "maven's local repository (the jars of its plugins)", sh(`mvn test -Dmaven.repo.local=/tmp/repo`), opaque,
			sh(`mvn test -Dmaven.repo.local=.m2/repository`), false},
		{jvmHomes, "maven's .mvn directory from elsewhere", sh(`mvn -Dmaven.multiModuleProjectDirectory=/tmp/x test`), opaque,
			sh(`mvn test -Dtest=FooTest`), false},
		{jvmHomes, "MAVEN_ARGS' settings file", sh(`MAVEN_ARGS='-s /tmp/s.xml' mvn test`), opaque, sh(`MAVEN_ARGS='-B -ntp' mvn test`), false},
		{jvmHomes, "MAVEN_ARGS exported, an extension classpath", sh(`export MAVEN_ARGS=-Dmaven.ext.class.path=/tmp/x.jar; mvn test`), opaque,
			sh(`export MAVEN_ARGS=-q; mvn test`), false},
		{jvmHomes, "GRADLE_OPTS' property", sh(`GRADLE_OPTS='-Dgradle.user.home=/tmp/x' gradle test`), opaque,
			sh(`GRADLE_OPTS=-Xmx2g gradle test`), false},
		{jvmHomes, "MAVEN_OPTS' local repository", sh(`MAVEN_OPTS=-Dmaven.repo.local=/tmp/r mvn test`), opaque,
			sh(`MAVEN_OPTS=-Dmaven.repo.local=.m2/repository mvn test`), false},
		{sedBackup, "a backup into the hooks", sh(`sed -i'.git/hooks/*' 's/a/a/' pre-commit`), noWrite, sh(`sed -i.bak 's/a/b/' src/a.go`), false},
		{sedBackup, "--in-place= abbreviated, into ~/.bashrc", sh(`sed --in-pl='/root/.*' 's/^//' bashrc`), noWrite,
			sh(`sed -i'bak/*' 's/a/b/' src/a.go`), false},
		{sedBackup, "bundled after -n", sh(`sed -ni'.git/hooks/*' p pre-commit`), noWrite, sh(`sed -n -i 's/a/b/p' src/a.go`), false},
		{sedBackup, "a computed suffix", sh(`sed -i"$S" 's/a/b/' src/a.go`), asked(RuleDynamicWriteTarget), sh(`sed -ie 's/a/b/' src/a.go`), false},
		{reportsDir, "the project's .git", sh(`vitest run --coverage --coverage.reportsDirectory=.git`), denied(RulePrefixPathPolicy + "noDelete"),
			sh(`vitest run --coverage --coverage.reportsDirectory=build/coverage`), false},
		{reportsDir, "the home directory, apart", sh(`npx vitest run --coverage --coverage.reportsDirectory ~`), denied(zero),
			sh(`npx vitest run --coverage`), false},
		{reportsDir, "the project, kebab-case", sh(`vitest run --coverage --coverage.reports-directory=.`), denied(RulePrefixPathPolicy + "noDelete"),
			sh(`vitest run --coverage --coverage.reports-directory=coverage`), false},
		{reportsDir, "the workspace; other coverage settings name no directory", sh(`vitest --coverage --coverage.reportsDirectory=/workspace`),
			denied(RulePrefixPathPolicy + "noDelete"), sh(`vitest run --coverage.provider=v8 --coverage.include='src/**'`), false},
		{goProfile, "staticcheck's CPU profile into ~/.bashrc", sh(`staticcheck -debug.cpuprofile=/root/.bashrc ./...`), noWrite,
			sh(`staticcheck -checks all,-ST1000 ./...`), false},
		{goProfile, "staticcheck's trace into a hook, two dashes, apart", sh(`staticcheck --debug.trace .git/hooks/pre-commit ./...`), noWrite,
			sh(`staticcheck -debug.cpuprofile=cpu.out ./...`), false},
		{goProfile, "gofmt's CPU profile", sh(`gofmt -cpuprofile /root/.bashrc -l .`), noWrite, sh(`gofmt -l -w .`), false},
		{goProfile, "golangci-lint's memory profile", sh(`golangci-lint run --mem-profile-path=.git/hooks/pre-commit`), noWrite,
			sh(`golangci-lint run --cpu-profile-path build/cpu.out`), false},
		{goProfile, "golangci-lint's trace", sh(`golangci-lint run --trace-path /root/.bashrc ./...`), noWrite, sh(`golangci-lint run ./...`), false},
		{tfChdir, "terraform validate in /tmp", sh(`terraform -chdir=/tmp/x validate`), opaque, sh(`terraform -chdir=infra validate`), false},
		{tfChdir, "tofu", sh(`tofu -chdir=/tmp/x validate`), opaque, sh(`terraform validate -no-color`), false},
		{tfChdir, "tflint's plugins", sh(`tflint --chdir=/tmp/x`), opaque, sh(`tflint --chdir=modules/vpc`), false},
		{nodeDiag, "a CPU profile named .bashrc in /root", sh(`node --test --cpu-prof --cpu-prof-dir=/root --cpu-prof-name=.bashrc`), noWrite,
			sh(`node --test --cpu-prof --cpu-prof-dir=build/prof --cpu-prof-name=test.cpuprofile`), false},
		{nodeDiag, "a heap profile climbing from the working directory, apart", sh(`node --test --heap-prof --heap-prof-name ../../root/.bashrc`), noWrite,
			sh(`node --test --heap-prof --heap-prof-name test.heapprofile`), false},
		{nodeDiag, "a report below the diagnostic directory", sh(`node --test --report-on-fatalerror --diagnostic-dir=.git/hooks --report-filename=pre-commit`),
			noWrite, sh(`node --test --diagnostic-dir=build --cpu-prof`), false},
		{envWrites, "coverage's data file into a hook", sh(`COVERAGE_FILE=.git/hooks/pre-commit coverage run -m pytest`), noWrite,
			sh(`COVERAGE_FILE=.coverage.ci pytest --cov=src`), false},
		{envWrites, "exported, into ~/.bashrc", sh(`export COVERAGE_FILE=/root/.bashrc; pytest --cov`), noWrite, sh(`pytest --cov=src`), false},
		{envWrites, "npm's cache below ~/.ssh", sh(`npm_config_cache=/root/.ssh npm ci`), denied(zero), sh(`npm_config_cache=.npm npm ci`), false},
		{envWrites, "npm's logs into the hooks, upper case", sh(`NPM_CONFIG_LOGS_DIR=.git/hooks npm ci`), noWrite, sh(`npm_config_logs_dir=logs npm ci`), false},
		{envWrites, "cargo's target directory", sh(`CARGO_TARGET_DIR=.git/hooks cargo test`), noWrite, sh(`CARGO_TARGET_DIR=build/target cargo test`), false},
		{envWrites, "mypy's and ruff's caches", sh(`MYPY_CACHE_DIR=/root/.ssh mypy src`), denied(zero), sh(`RUFF_CACHE_DIR=.cache/ruff ruff check .`), false},
	}
}
