package safety

// twentysecondCatalogue holds the twenty-second engine review's rows. Recognised programs wrote
// where an option said in a spelling the engine did not read: rsync's own files (its log, whose
// lines name the files it copied, --log-file=~/.bashrc; its batch and the FILE.sh beside it; the
// directory its backups go to, --backup-dir=.git/hooks -b, where a replaced file lands under its
// own name; its temporary and partial directories), pytest's -o bundled after its flags
// (-xolog_file=~/.bashrc), dotnet's values after a colon and MSBuild's switches
// (--results-directory:/root/.ssh, -bl:.git/hooks/pre-commit, "-flp:logfile=~/.bashrc"), jest's
// and vitest's output options in kebab-case (--output-file), tsc's long options with one dash
// (-outDir) and its --generateCpuProfile. The words a recognised runner hands to code the engine
// does not know (npm test -- ARGS to the project's test script, go test -args, cargo test -- and
// tox -- to the test binary) were read as reads of a known program, so a noWrite path among them
// (npm test -- --outputFile=~/.bashrc) was admitted: they are now an unrecognised program's. Code
// from outside the project ran unseen: MSBuild's logger assemblies and imported targets (-logger:
// C,/tmp/x.dll, -p:CustomBeforeMicrosoftCommonTargets=/tmp/x.targets), go mod edit -replace by a
// directory outside the project (every later build compiles it), jest's --transform and
// --moduleNameMapper JSON. All were admitted at Default and Yolo. And an over-refusal: less and
// more, pagers that print a project file, were unrecognised (less -R build.log asked at Default)
// and asked as unknown writers of README.md at every level, while git log, which pages through
// less, was admitted; they are recognised readers now, their writes (-o, LESS's options) and the
// lesskey and tags files that make them run or open other things judged.
func twentysecondCatalogue() []classCase {
	sh := shCall
	noWrite, opaque, unknownWriter := denied(RulePrefixPathPolicy+"noWrite"), asked(RuleOpaqueCode), asked(RuleUnknownWriter)
	const (
		rsyncFiles = "rsync's own files: its log, its batch, its backup and temporary directories"
		pytestOpt  = "pytest's -o bundled after its flags"
		pagers     = "pagers that print a project file are recognised readers (an over-refusal)"
		forwarded  = "words a recognised runner hands to the project's script or test binary, which the engine does not know"
		jsSpelling = "JavaScript tools' output options in the other spellings their parsers take: kebab-case, tsc's one dash"
		goReplace  = "go.mod's replacement by a directory outside the project: later builds run its code"
		jestJSON   = "jest's transforms and module mappings given as JSON name modules from outside"
		dotnet     = "dotnet's values after a colon and MSBuild's switches: files written, loggers and imports from outside"
	)
	return []classCase{
		{rsyncFiles, "its log into ~/.bashrc", sh(`rsync -a --log-file=/root/.bashrc src/ /tmp/x`), noWrite,
			sh(`rsync -a --log-file=build/rsync.log src/ /tmp/x`), false},
		{rsyncFiles, "its log, abbreviated and apart", sh(`rsync -a --log-fi .git/hooks/pre-commit src/ /tmp/x`), noWrite,
			sh(`rsync -a --log-file-format=%n src/ /tmp/x`), false},
		{rsyncFiles, "its batch file into a hook", sh(`rsync -a --write-batch=.git/hooks/pre-commit src/ /tmp/x`), noWrite,
			sh(`rsync -a --write-batch=build/batch src/ /tmp/x`), false},
		{rsyncFiles, "only the batch file", sh(`rsync -a --only-write-batch=/root/.bashrc src/ /tmp/x`), noWrite,
			sh(`rsync -a --only-write-batch build/b src/ /tmp/x`), false},
		{rsyncFiles, "its backups into the hooks", sh(`rsync -ab --backup-dir=.git/hooks hooks/ /tmp/x/`), noWrite,
			sh(`rsync -ab --backup-dir=build/old hooks/ /tmp/x/`), false},
		{rsyncFiles, "its temporary directory, short", sh(`rsync -a -T .git/hooks src/ /tmp/x`), noWrite,
			sh(`rsync -a -T /tmp/rs src/ /tmp/x`), false},
		{pytestOpt, "-o bundled, its value attached", sh(`pytest -xolog_file=/root/.bashrc`), noWrite,
			sh(`pytest -xolog_file=logs/test.log`), false},
		{pytestOpt, "-o bundled, its value apart", sh(`python -m pytest -vxo log_file=.git/hooks/pre-commit`), noWrite,
			sh(`python -m pytest -vxo log_cli=true`), false},
		{pytestOpt, "a cache directory after -q", sh(`pytest -qocache_dir=.git/hooks`), noWrite, sh(`pytest -rxo cache_dir=.git/hooks`), false},
		{pagers, "less -o in LESS", sh(`LESS='-o .git/hooks/pre-commit' less README.md`), noWrite, sh(`less README.md`), false},
		{pagers, "less's lesskey file (its #env sets LESSOPEN)", sh(`less -k /tmp/keys build.log`), opaque, sh(`less -R build.log`), false},
		{pagers, "less's lesskey source, abbreviated", sh(`less --lesskey-s=/tmp/k build.log`), opaque, sh(`cat README.md | less`), false},
		{dotnet, "test results into ~/.ssh, after a colon", sh(`dotnet test --results-directory:/root/.ssh`), denied(zero),
			sh(`dotnet test --results-directory:build/results`), false},
		{dotnet, "the build output into the hooks, -o:", sh(`dotnet test -o:.git/hooks`), noWrite, sh(`dotnet test -o:build/out`), false},
		{dotnet, "the diagnostic log, --diag:", sh(`dotnet test --diag:/root/.bashrc`), noWrite, sh(`dotnet test --diag:build/diag.log`), false},
		{dotnet, "MSBuild's binary log into a hook", sh(`dotnet test -bl:.git/hooks/pre-commit`), noWrite, sh(`dotnet test -bl:build/test.binlog`), false},
		{dotnet, "the binary log, slash, LogFile=", sh(`dotnet test /binaryLogger:LogFile=.git/hooks/pre-push`), noWrite, sh(`dotnet test -bl`), false},
		{dotnet, "a file logger's text log into ~/.bashrc", sh(`dotnet test "-flp:logfile=/root/.bashrc;verbosity=diag"`), noWrite,
			sh(`dotnet test "-flp:logfile=build/msbuild.log;verbosity=diag"`), false},
		{dotnet, "a numbered file logger", sh(`dotnet test -flp2:LogFile=.git/hooks/pre-commit`), noWrite,
			sh(`dotnet test -flp2:Verbosity=quiet`), false},
		{dotnet, "MSBuild loads a logger assembly", sh(`dotnet test -logger:XmlLogger,/tmp/x.dll`), opaque, sh(`dotnet test --logger:trx`), false},
		{dotnet, "a distributed logger, /dl:", sh(`dotnet test "/dl:A,/tmp/a.dll*B,/tmp/b.dll"`), opaque, sh(`dotnet test --logger "console;verbosity=detailed"`), false},
		{dotnet, "MSBuild imports targets before the common ones", sh(`dotnet test -p:CustomBeforeMicrosoftCommonTargets=/tmp/x.targets`), opaque,
			sh(`dotnet test -p:CollectCoverage=true`), false},
		{dotnet, "the C# compiler from elsewhere, /property:", sh(`dotnet test /property:CscToolPath=/tmp/x`), opaque,
			sh(`dotnet test /property:Configuration=Release`), false},
		{dotnet, "Directory.Build.targets from elsewhere, among others", sh(`dotnet test "-p:A=1;DirectoryBuildTargetsPath=/tmp/x.targets"`), opaque,
			sh(`dotnet test "-p:A=1;DirectoryBuildTargetsPath=build/ci.targets"`), false},
		{forwarded, "npm test's script is given a file to write", sh(`npm test -- --outputFile=/root/.bashrc`), unknownWriter,
			sh(`npm test -- --outputFile=build/results.json`), false},
		{forwarded, "yarn test forwards without --", sh(`yarn test --outputFile .git/hooks/pre-commit`), unknownWriter,
			sh(`yarn test --coverage src/a.test.js`), false},
		{forwarded, "pnpm test, a short option", sh(`pnpm test -- -o /root/.bashrc`), unknownWriter, sh(`pnpm test -- -o build/out.txt`), false},
		{forwarded, "a custom test harness's output, cargo test --", sh(`cargo test --test golden -- -o .git/hooks/pre-commit`), unknownWriter,
			sh(`cargo test -- --nocapture --test-threads 1`), false},
		{forwarded, "go test -args", sh(`go test ./... -args -golden /root/.bashrc`), unknownWriter, sh(`go test ./... -args -golden testdata/x.golden`), false},
		{forwarded, "tox's positional arguments", sh(`tox -e py -- --junitxml /root/.bashrc`), unknownWriter, sh(`tox -e py -- -x tests`), false},
		{jsSpelling, "jest's results file, kebab-case", sh(`jest --json --output-file=/root/.bashrc`), noWrite,
			sh(`jest --json --output-file=build/results.json`), false},
		{jsSpelling, "jest's coverage directory, kebab-case, apart", sh(`npx jest --coverage --coverage-directory .git/hooks`), noWrite,
			sh(`npx jest --coverage --coverage-directory coverage`), false},
		{jsSpelling, "vitest's results file for one reporter", sh(`vitest run --reporter=junit --output-file.junit=.git/hooks/pre-commit`), noWrite,
			sh(`vitest run --reporter=junit --output-file.junit=build/junit.xml`), false},
		{jsSpelling, "tsc's output directory with one dash", sh(`tsc -outDir .git/hooks`), noWrite, sh(`tsc -outDir dist`), false},
		{jsSpelling, "tsc's build info with one dash", sh(`tsc -tsBuildInfoFile /root/.bashrc`), noWrite, sh(`tsc -p tsconfig.json`), false},
		{jsSpelling, "tsc's CPU profile", sh(`tsc --generateCpuProfile /root/.bashrc`), noWrite,
			sh(`tsc --generateCpuProfile build/tsc.cpuprofile`), false},
		{goReplace, "a directory in /tmp, then the tests", sh(`go mod edit -replace example.com/x=/tmp/x && go test ./...`), opaque,
			sh(`go mod edit -replace example.com/x=./third_party/x && go test ./...`), false},
		{goReplace, "above the project, attached", sh(`go mod edit -replace=example.com/x=../../tmp/x`), opaque,
			sh(`go mod edit -replace=example.com/x=../x`), false},
		{goReplace, "a version replaced, two dashes", sh(`go mod edit --replace example.com/x@v1.0.0=/opt/x`), opaque,
			sh(`go mod edit -go=1.22`), false},
		{jestJSON, "a transform from /tmp", sh(`jest --transform '{"^.+\\.js$":"/tmp/x.js"}'`), opaque,
			sh(`jest --transform '{"^.+\\.ts$":"ts-jest"}'`), false},
		{jestJSON, "a transform with its options, kebab-case", sh(`npx jest --transform='{"x":["../../tmp/t.js",{}]}'`), opaque,
			sh(`npx jest --transform='{"x":["<rootDir>/tools/t.js",{}]}'`), false},
		{jestJSON, "a module mapped to a file in /root", sh(`jest --moduleNameMapper '{"^db$":"/root/x.js"}'`), opaque,
			sh(`jest --module-name-mapper '{"^@/(.*)$":"<rootDir>/src/$1"}'`), false},
		{pagers, "less opens what a tags file names", sh(`less -T /tmp/tags -t main`), opaque, sh(`more README.md`), false},
		{pagers, "less -k exported in LESS", sh(`export LESS='-R -k /tmp/keys'; less app.log`), opaque, sh(`export LESS=-R; less app.log`), false},
		{pagers, "less's log file bundled", sh(`less -Ro/root/.bashrc app.log`), noWrite, sh(`less -N +G app.log`), false},
	}
}
