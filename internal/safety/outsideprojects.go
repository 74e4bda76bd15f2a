package safety

import (
	"cmp"
	"slices"
	"strings"
)

// A recognised build or test tool pointed at another directory's project runs that project's
// code: cargo test --manifest-path /tmp/x/Cargo.toml its build.rs and tests, go test -C /tmp/x
// ./... its tests, npm test --prefix /tmp/x its package.json's script, pytest /tmp/x its conftest.py,
// mvn test -f /tmp/x its pom's plugins, npx --prefix /tmp/x jest its node_modules/.bin/jest, bun test --cwd /tmp/x its tests, dotnet test|build|pack|restore|msbuild /tmp/x/x.csproj (and msbuild's) its MSBuild targets, jest
// --rootDir and vitest --root its config, uv run --project, poetry -P and pdm -p that project's
// environment and scripts, npm test -w /tmp/x that workspace's script, pixi run --manifest-path
// another pixi.toml's tasks, tsc -p and tsc --build the outputs their tsconfigs name, swift test --package-path its
// Package.swift; and one given files from elsewhere loads what is beside them: prettier and eslint
// the configuration they find from each file's directory up (prettier.config.js,
// eslint.config.js), rspec, deno test and bun test the test files themselves. That code is not the project's, and the engine has not
// seen it: the segment is opaque, as an outsideCodeOptions file from elsewhere makes it. A
// directory below the working directory, or a sibling one level up (a multi-module repository's
// ../web), is the project's (belowProject); so is the definition file's directory.

// outsideProjectTools are the tools whose definition options (defFileOptions, defDirOptions),
// project directory options (projectDirOptions) and test path operands are judged here; compose
// and container builds are judged as host reads (containerbuild.go).
//
//nolint:goconst // program names read best literally, next to their neighbours
var outsideProjectTools = slices.Concat(fileRunners, []string{"cargo", "tox", cmdPytest, "gradle", cmdMvn, cmdNpm, "pnpm", "yarn", "go", "ctest", "jest",
	"vitest", cmdDotnet, cmdMSBuild, "uv", "poetry", "pdm", "tsc", "prettier", "eslint", "rspec", cmdDeno, cmdBun, "swift", cmdNpx,
	// Runners no prefix recognises, given files from elsewhere, run them at Yolo too, as python
	// /tmp/x.py does: the fileRunners, java's source and jar launchers, swift's scripts.
	"java",
	// Builds no prefix recognises: pointed elsewhere they run that code at Yolo too, as python
	// /tmp/x.py does.
	"make", "just", "task", "rake", "ant", "nox", "ninja", "scons", cmdCmake,
	// composer -d runs another directory's composer.json scripts and autoloader; bundle
	// --gemfile (bundle exec's too) evaluates another Gemfile, Ruby code.
	"composer", cmdBundle,
	// pixi run --manifest-path runs the tasks, and the environment, of another pixi.toml; rye run
	// --pyproject the scripts and environment of another pyproject.toml.
	"pixi", "rye",
	// python -m unittest loads the test files and directories it is given.
	"unittest"})

// projectDirOptions are, per tool, options beyond defDirOptions that name the directory whose
// project it builds or tests.
//
//nolint:goconst // option spellings read best literally, next to their neighbours
var projectDirOptions = map[string][][2]string{
	// go -C and cargo -C (nightly's, with -Z unstable-options) change to another directory first
	// and build the module or package found there (its build.rs too); go reads --C as -C, as Go's
	// flag package reads any flag after two dashes.
	"go": {{"-C", "-C"}, {"--C", "--C"}}, "cargo": {{"-C", "-C"}},
	"pnpm":   {{"-C", "--dir"}},
	"ctest":  {{"--test-dir", "--test-dir"}},
	"jest":   camelAndKebab("rootDir", "roots"),
	"vitest": {{"-r", "--root"}, {"--dir", "--dir"}},
	// tsc -p builds the project a tsconfig names, writing where its outDir or outFile says.
	"tsc": {{"-p", "--project"}},
	// make -C and ninja -C run the Makefile or build.ninja of another directory; cmake -P runs a
	// CMake script.
	"make": {{"-C", "--directory"}}, "ninja": {{"-C", "-C"}}, cmdCmake: {{"-P", "-P"}},
	// rake -C changes to another directory first and runs the Rakefile found there.
	"rake":     {{"-C", "--directory"}},
	"unittest": {{"-s", "--start-directory"}, {"-t", "--top-level-directory"}},
	// swift test builds and runs the package whose Package.swift (Swift code) --package-path names.
	"swift": {{"--package-path", "--package-path"}},
	// dotnet run --project builds and runs another directory's project.
	cmdDotnet: {{"", "--project"}},
	// npx runs a bin from the node_modules/.bin of the directory its --prefix (npm's -C) names, as
	// npm exec --prefix does; bun runs its command (bun test's tests and bunfig.toml's preloads)
	// in the directory --cwd names. (npm_config_prefix from the environment names only where
	// global packages go: npm takes the local prefix from the command line alone.)
	cmdBun: {{"", "--cwd"}},
	// npm -w|--workspace runs the script of the workspace package a name or directory names: a
	// directory elsewhere runs that directory's package.json's script (npm_config_workspace from
	// the environment is the same setting: npmWorkspaceFromEnv).
	cmdNpm: {{"-w", "--workspace"}},
	// npx -w (npm exec's) runs the bin in that workspace's directory, from its node_modules/.bin.
	cmdNpx: {{"-C", "--prefix"}, {"-w", "--workspace"}},
	// deno task --cwd runs the task's commands in another directory (deno test there tests its files).
	cmdDeno: {{"", "--cwd"}},
	// pytest loads the conftest.py files of every directory from a test path up to --confcutdir,
	// which defaults to the --rootdir when no configuration file is found: either one above the
	// project (--rootdir /, --confcutdir ../..) loads conftest.py files planted there.
	cmdPytest: {{"", "--rootdir"}, {"", "--confcutdir"}},
}

// outsideProject returns the option or operand that points a recognised build or test tool at a
// project outside this one, or "" when there is none.
func outsideProject(s *segment) string {
	if !slices.Contains(outsideProjectTools, s.name) {
		return ""
	}
	for _, v := range namedProjects(s) {
		if v.dynamic || !inThisProject(v.s) {
			return "it builds or tests the project of " + v.s + ", outside this one"
		}
	}
	for _, v := range testPathOperands(s) {
		// A glob stays the project's when it is below it (prettier --check 'src/**/*.ts').
		if v.dynamic || strings.ContainsAny(v.s, "$`~") || strings.Contains(v.s, "://") || !belowProject(v.s) {
			return "it loads the tests, or the configuration beside the files, of " + v.s + ", outside this project"
		}
	}
	return ""
}

// namedProjects are the projects, definition files and directories a recognised build or test
// tool's options (and npm's workspace setting) name.
func namedProjects(s *segment) []word {
	var named []word
	named = append(named, definitionFiles(s)...)
	for _, opts := range [][][2]string{defDirOptions[s.name], projectDirOptions[s.name]} {
		for _, o := range opts {
			for v := range optionValues(s, cmp.Or(o[0], o[1]), o[1]) {
				named = append(named, v)
			}
		}
	}
	return append(named, npmWorkspaceFromEnv(s)...)
}

// inThisProject says whether a path a build or test tool is pointed at stays in the project:
// relative, below the working directory or one level above it (belowProject), no home directory,
// URL or glob the engine would have to expand.
func inThisProject(p string) bool {
	return !strings.ContainsAny(p, "$`~\\\"'*?[") && !strings.Contains(p, "://") && belowProject(p)
}

// testPathOperands are the operands that name the tests a tool collects and runs: pytest's (and
// python -m pytest's) paths, dotnet test's and build's project or solution.
func testPathOperands(s *segment) []word {
	switch s.name {
	case cmdPytest:
		return runnerPositionals(s.words[1:], pytestValued, pytestTakesShortValue)
	case "unittest":
		return runnerPositionals(s.words[1:], strings.Fields("-s --start-directory -t --top-level-directory -p --pattern -k"), nil)
	case "go":
		return goPathOperands(s)
	case "tsc":
		// tsc --build builds the projects its operands name (a tsconfig or its directory), as -p
		// builds one.
		if s.hasExactFlag("-b") || s.hasFlag("--build") {
			return runnerPositionals(s.words[1:], nil, nil)
		}
	case "prettier", "eslint", "rspec":
		return runnerPositionals(s.words[1:], linterValued[s.name], nil)
	case cmdDeno, cmdBun:
		ops := runnerPositionals(s.words[1:], linterValued[s.name], nil)
		if len(ops) > 0 && ops[0].s == subTest {
			return ops[1:]
		}
	case cmdMSBuild:
		return msbuildOperands(s)
	case cmdDotnet:
		ops := msbuildOperands(s)
		switch {
		case len(ops) > 1 && dotnetProjectVerbs[ops[0].s]:
			return ops[1:]
		case len(ops) > 0 && strings.HasSuffix(strings.ToLower(ops[0].s), ".dll"):
			return ops[:1] // dotnet x.dll runs the assembly
		}
	case "java", "swift":
		return launchedFiles(s)
	default:
		if slices.Contains(fileRunners, s.name) {
			// Test runners and script runners no prefix recognises load the files they are given.
			return runnerPositionals(s.words[1:], fileRunnerValued, nil)
		}
	}
	return nil
}

// dotnetProjectVerbs are dotnet's subcommands that evaluate and build (or restore, pack, clean,
// format) the project or solution their operand names, running its MSBuild targets, tasks and
// analyzers: one from elsewhere runs that code.
var dotnetProjectVerbs = wordSet("test build msbuild pack publish restore clean format vstest")

// msbuildOperands are a dotnet or msbuild command line's operands that are no switch: MSBuild's
// /property:X=Y and /restore are switches, not paths.
func msbuildOperands(s *segment) []word {
	return slices.DeleteFunc(runnerPositionals(s.words[1:], dotnetValued, nil), func(w word) bool {
		_, _, sw := dotnetSwitch(w.s)
		return sw || slices.Contains(msbuildBareSwitches, strings.ToLower(w.s))
	})
}

// fileRunners are the test and script runners no prefix recognises whose operands are the files
// they load.
var fileRunners = []string{"mocha", "jasmine", "ava", "tap", "bats", "phpunit", "kotlin", "kotlinc"}

// goPathOperands returns go test's and go run's packages and .go files: go builds and runs the
// .go files it is given wherever they are (go test /tmp/x/x_test.go); a directory or package
// outside the module is refused, but read as the same. go run's words after its package or files
// are its program's, go test's after -args the test binary's (forwardedargs.go).
func goPathOperands(s *segment) []word {
	if len(s.operands) == 0 || s.operands[0].s != subTest && s.operands[0].s != subRun {
		return nil
	}
	words := s.words[2:]
	if i := slices.IndexFunc(words, func(w word) bool { return w.s == "-args" || w.s == "--args" }); i >= 0 {
		words = words[:i]
	}
	out := runnerPositionals(words, goValued, nil)
	if len(out) > 0 && s.operands[0].s == subRun {
		return out[:goRunPackage(out)]
	}
	return out
}

// launchedFiles returns what java and swift run as a file: java X.java a source file, java -jar a
// jar, -javaagent: and -agentpath: a JVM agent; swift x.swift a script.
func launchedFiles(s *segment) []word {
	var out []word
	for v := range optionValues(s, "-jar", "-jar") {
		out = append(out, v)
	}
	for _, w := range s.words[1:] {
		for _, pre := range []string{"-javaagent:", "-agentpath:"} {
			if v, ok := strings.CutPrefix(w.s, pre); ok {
				out = append(out, w.with(strings.SplitN(v, "=", 2)[0]))
			}
		}
	}
	ops := runnerPositionals(s.words[1:], javaValued, nil)
	if len(ops) > 0 && (strings.HasSuffix(ops[0].s, ".java") || strings.HasSuffix(ops[0].s, ".swift")) {
		out = append(out, ops[0])
	}
	return out
}

// fileRunnerValued are the options of the test and script runners testPathOperands reads whose
// value may be the next word.
var fileRunnerValued = strings.Fields(`-r --require -R --reporter -O --reporter-option -u --ui -t --timeout -g --grep
	-f --fgrep --config --package --ignore --extension -s --slow --retries -j --jobs --file --spec --filter --match -m
	--concurrency -c --tap --node-arg --helper --formatter --output -o -F --configuration --bootstrap --testsuite
	--group --exclude-group --coverage-html --coverage-clover --log-junit -cp -classpath`)

// javaValued are java's options whose value is the next word, before its main class or file.
var javaValued = strings.Fields(`-cp -classpath --class-path -p --module-path --upgrade-module-path --add-modules -m
	--module --enable-native-access -jar --source -d --describe-module`)

// runnerPositionals returns the words that are no option and no option's value: the value of a long
// option in valued, or of a short option shortValued says takes one, is the next word unless it
// is joined (--rootdir=x, -kfoo).
func runnerPositionals(words []word, valued []string, shortValued func(string) bool) []word {
	var out []word
	for i := 0; i < len(words); i++ {
		w := words[i].s
		switch {
		case !strings.HasPrefix(w, "-") || w == "-":
			out = append(out, words[i])
		case slices.Contains(valued, w), shortValued != nil && shortValued(w):
			i++
		}
	}
	return out
}

// pytestValued are pytest's (and its common plugins') long options whose value may be the next
// word.
var pytestValued = strings.Fields(`--basetemp --junitxml --junit-xml --junit-prefix --log-file --log-file-level
	--log-file-format --log-file-date-format --log-level --log-format --log-date-format --log-cli-level --log-cli-format
	--log-cli-date-format --result-log --report-log --html --rootdir --confcutdir --deselect --ignore --ignore-glob --cov
	--cov-report --cov-config --cov-fail-under --cov-context --durations --durations-min --maxfail --tb --import-mode
	--show-capture --capture --color --code-highlight --pastebin --override-ini --config-file --inifile --timeout --reruns
	--dist --numprocesses --maxprocesses --randomly-seed --json-report-file --asyncio-mode --doctest-glob --verbosity
	--pythonwarnings --cache-dir --junit-family --log-auto-indent --deselect --benchmark-json --benchmark-save`)

// linterValued are, per formatter, linter or test runner, its options whose value may be the next
// word, so it is not taken for a file it checks.
var linterValued = map[string][]string{
	"prettier": strings.Fields(`--config --plugin --parser --ignore-path --cache-location --cache-strategy --log-level
		--end-of-line --print-width --tab-width --trailing-comma --arrow-parens --prose-wrap --quote-props
		--html-whitespace-sensitivity --embedded-language-formatting --object-wrap --experimental-operator-position
		--stdin-filepath --config-precedence --cursor-offset --range-start --range-end`),
	"eslint": strings.Fields(`-c --config -f --format -o --output-file --ext --rule --plugin --parser --parser-options
		--global --env --ignore-path --ignore-pattern --max-warnings --cache-location --cache-strategy
		--resolve-plugins-relative-to --rulesdir --stdin-filename --report-unused-disable-directives-severity --flag
		--concurrency --fix-type`),
	"rspec": strings.Fields(`-r --require -I -O --options -e --example -t --tag -f --format -o --out --seed --order -P
		--pattern --exclude-pattern --default-path -E --example-matches`),
	cmdDeno: strings.Fields(`-c --config --import-map --filter --reporter --coverage --junit-path --lock --cert
		--location --seed --v8-flags --env-file --ext --inspect-wait`),
	cmdBun: strings.Fields(`-r --preload --timeout --rerun-each -t --test-name-pattern --coverage-dir --coverage-reporter
		--reporter --reporter-outfile -c --config --env-file --cwd --max-concurrency`),
}

// goValued are go's build and test flags whose value may be the next word, in both spellings
// Go's flag package takes: those valueOptions reads go's operands past, and the rest.
var goValued = func() []string {
	flags := slices.Concat(valueOptions["go"], strings.Fields(`-o -outputdir -cpuprofile -memprofile -blockprofile
		-mutexprofile -trace -coverprofile -exec -toolexec -vettool -overlay -modfile -mod -pkgdir -vet -fuzz -fuzztime
		-fuzzminimizetime -list -cpu -pgo -memprofilerate -blockprofilerate -mutexprofilefraction -installsuffix
		-buildmode -compiler -gccgoflags`))
	out := make([]string, 0, 2*len(flags))
	for _, f := range flags {
		out = append(out, f, "-"+f)
	}
	return out
}()

// goRunPackage returns how many of go run's positionals are its package or files: the first, or
// every leading .go file.
func goRunPackage(ops []word) int {
	n := 0
	for n < len(ops) && strings.HasSuffix(ops[n].s, ".go") {
		n++
	}
	return max(n, 1)
}

// msbuildBareSwitches are MSBuild's switches without a value that dotnet passes on, spelt with
// "/" as a path may start.
var msbuildBareSwitches = strings.Fields("/m /restore /nologo /bl /tl /nr /r /noautorsp /noconlog /detailedsummary /ds")

// dotnetValued are dotnet test's and build's options whose value may be the next word.
var dotnetValued = strings.Fields(`-o --output -c --configuration -f --framework -r --runtime --filter -l --logger -s
	--settings -a --test-adapter-path -v --verbosity --results-directory --collect -d --diag --arch --os --source
	--version-suffix --blame-hang-timeout --blame-crash-dump-type --blame-hang-dump-type --environment -e --property -p
	--packages --configfile --tl --artifacts-path`)

// envFileOptions are, per runner, its options whose value is an environment file it loads into
// the command it runs, beyond the .env loaders' (dotenvFileOptions, dotenv-cli's -e). The file's
// variables are code as a command line's assignments are: NODE_OPTIONS=--require /tmp/x.js,
// BUN_OPTIONS, PYTHONSTARTUP, LD_PRELOAD. The project's own file (.env.test, config/ci.env) is the
// project's, as its package.json is; one from elsewhere (/tmp/x, ~/x, ../../x, computed) holds
// variables the engine has not seen, so the segment is opaque.
var envFileOptions = map[string][][2]string{
	// deno's --env is the older spelling of its --env-file.
	cmdBun: {{"", optEnvFileLong}}, cmdDeno: {{"", optEnvFileLong}, {"", optEnv}}, "uv": {{"", optEnvFileLong}}, "devbox": {{"", optEnvFileLong}},
	cmdNode: {{"", optEnvFileLong}, {"", optEnvFileIfExists}}, "tsx": {{"", optEnvFileLong}, {"", optEnvFileIfExists}},
}

// envLoadingVars name an environment file a program loads into its own or its command's
// environment, as envFileOptions do (loadedFileVars records them as reads too).
var envLoadingVars = wordSet("UV_ENV_FILE PIPENV_DOTENV_LOCATION DOTENV_CONFIG_PATH")

// outsideEnvFile returns why a segment loads an environment file from outside the project
// (envFileOptions, the .env loaders' files, envLoadingVars), or "".
func outsideEnvFile(s *segment) string {
	files := dotenvLoadedFiles(s)
	for _, o := range envFileOptions[s.name] {
		for v := range optionValues(s, cmp.Or(o[0], o[1]), o[1]) {
			files = append(files, v)
		}
	}
	for _, e := range s.env {
		if name, val, _ := strings.Cut(e, "="); envLoadingVars[name] && val != "" {
			files = append(files, word{s: val, dynamic: strings.ContainsAny(val, "$`")})
		}
	}
	for _, f := range files {
		// uv reads --env-file and UV_ENV_FILE as a list separated by spaces: each file counts.
		for part := range strings.FieldsSeq(f.s) {
			if f.dynamic || !inThisProject(part) {
				return "it loads the environment file " + part + ", outside this project, whose variables (NODE_OPTIONS, LD_PRELOAD) can load code"
			}
		}
	}
	return ""
}

// npmWorkspaceFromEnv is npm's and npx's workspace setting from the environment
// (npm_config_workspace, the setting -w gives: projectDirOptions), which outsideProject judges
// as it judges -w's value.
func npmWorkspaceFromEnv(s *segment) []word {
	if s.name != cmdNpm && s.name != cmdNpx {
		return nil
	}
	var named []word
	for _, e := range s.env {
		if name, val, _ := strings.Cut(e, "="); npmWorkspaceVar(name) && val != "" {
			named = append(named, word{s: val})
		}
	}
	return named
}

// npmWorkspaceVar says whether a variable is npm's workspace setting (npm_config_workspace, in
// any case).
func npmWorkspaceVar(name string) bool {
	k, ok := npmConfigSetting(name)
	return ok && k == npmWorkspace
}
