package safety

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
)

// hasFlag reports whether the segment has flag f, as getopt_long would read the command: a long
// option abbreviated to a prefix ("--har", "--force-w", "--forc") stands for every long option it
// abbreviates. An abbreviation the program finds ambiguous makes it fail without acting, so
// reading it as each candidate can only refuse a command that would not have run.
func (s *segment) hasFlag(f string) bool {
	if slices.Contains(s.flags, f) {
		return true
	}
	if len(f) < 4 || !strings.HasPrefix(f, "--") {
		return false
	}
	for _, g := range s.flags {
		if len(g) > 2 && len(g) < len(f) && strings.HasPrefix(g, "--") && strings.HasPrefix(f, g) && !slices.Contains(exactLongOptions[s.name], g) {
			return true
		}
	}
	return false
}

// exactLongOptions are real options that are also prefixes of a longer one the engine looks for;
// getopt_long takes an exact match as itself, not as an abbreviation (tar --checkpoint is not
// --checkpoint-action, curl --cookie not --cookie-jar, git send-email --to not --to-cmd).
//
//nolint:goconst // option spellings and program names in this table read best literally, next to their neighbours
var exactLongOptions = map[string][]string{"tar": {"--checkpoint"}, cmdCurl: {"--cookie", "--output", "--netrc"},
	"gpg": {"--export", "--decrypt"}, "gpg2": {"--export", "--decrypt"}, cmdGit: {"--batch", "--to", "--cc"},
	// compose's --profile NAME is not an abbreviation of config --profiles.
	cmdDocker: {"--profile"}, cmdPodman: {"--profile"}, cmdNerdctl: {"--profile"}, cmdDockerCompose: {"--profile"}, cmdPodmanCompose: {"--profile"},
	// grep's --binary (no value) is not --binary-files.
	"grep": {"--binary"}, "egrep": {"--binary"}, "fgrep": {"--binary"},
	// rg --file PATTERNFILE and --type TYPE search as any rg does; they are not --files or
	// --type-list, which only list names (rg takes no abbreviations at all). impala-shell's
	// --query SQL is not --query_file.
	"rg": {"--file", "--type"}, cmdImpala: {"--query"}}

// expandLong returns the one option of opts that name abbreviates (or equals), or name itself
// when it abbreviates none or several.
func expandLong(name string, opts ...string) string {
	found := ""
	for _, o := range opts {
		switch {
		case o == "":
		case o == name:
			return o
		case strings.HasPrefix(o, name):
			if found != "" && found != o {
				return name
			}
			found = o
		}
	}
	if found == "" {
		return name
	}
	return found
}

// hasExactFlag reports whether the segment has flag f spelled out: an exception must never be
// granted on an abbreviation.
func (s *segment) hasExactFlag(f string) bool { return slices.Contains(s.flags, f) }

// codeOptions are, per recognised program, the options that make it run code the caller chooses
// or send its output where the caller chooses: with any of them the engine cannot see what the
// command does, so the segment is opaque.
//
//nolint:goconst // option spellings and program names in this table read best literally, next to their neighbours
var codeOptions = map[string][]string{
	"make": {"--eval", "-E", "-f", "--file", "--makefile", "--include-dir", "-I"},
	// just --command runs any command line, --shell the program its recipes run in.
	"just":  {"-c", optCommand, optShell},
	"go":    {"-exec", "-toolexec", "-vettool", "-overlay"},
	"tar":   {"-I", "--use-compress-program", "--to-command", "--checkpoint-action", "--info-script", "--new-volume-script", "-F", "--rsh-command", "--rmt-command"},
	"zip":   {"-TT", "--unzip-command"},
	"sort":  {"--compress-program"},
	"split": {"--filter"},
	// ctest --build-and-test configures, builds and tests the source tree it names, then runs
	// --test-command's command line.
	"ctest": {"--build-and-test", "--test-command"},
	// rg runs --hostname-bin's program for a hyperlink's host; ag pipes its output to --pager's.
	"rg": {"--pre", "--hostname-bin"}, "ag": {"--pager"},
	// npx's --shell is npm's --script-shell, which runs npx -c's script and npm's scripts; npm's
	// own --shell is the shell npm explore and a bare npm exec start.
	"npm":   npmShellOptions,
	cmdNpx:  npmShellOptions,
	cmdPnpx: npmShellOptions,
	"pnpm":  {optScriptShell, "--node-options"}, // the NODE_OPTIONS of its scripts, as npm's
	"yarn":  {optScriptShell},
	// concurrently -P fills its commands' placeholders ({1}, {@}) with the words after "--".
	"concurrently": {"-P", "--passthrough-arguments"},
	"cargo":        {"--config", "-Z"},
	// --run: a package.json script; --experimental-config-file: a JSON file whose nodeOptions
	// (--import, --require) load modules from anywhere, as those options do.
	"node": {"--require", "-r", "--import", "--loader", "--experimental-loader", "--run", "--experimental-config-file"},
	// tox -x|--override KEY=VALUE sets any of its configuration: testenv.commands runs a command
	// line, install_command, base_python and setenv (LD_PRELOAD) name programs and code.
	"tox":   {"-x", "--override"},
	"rsync": {"-e", "--rsh", "--rsync-path"},
	"helm":  {"--post-renderer", "--kubeconfig"},
	// A kubeconfig the caller names can run any program as an exec credential plugin, and a
	// kuberc can set default options (an alias to get secrets -o yaml): credentials and code the
	// engine cannot see.
	cmdKubectl: {"--kubeconfig", "--kuberc"},
	cmdOC:      {"--kubeconfig", "--kuberc"},
	// send-email runs --to-cmd, --cc-cmd and --header-cmd for each patch, as it runs --sendmail-cmd.
	"git": {"--exec-path", "--upload-pack", "--receive-pack", "--exec", "--extcmd", "--open-files-in-pager", "--sendmail-cmd", "--smtp-server",
		"--to-cmd", "--cc-cmd", "--header-cmd"},
	// A config file of curl's or wget's options can name any URL (file:///etc/shadow), upload any
	// file and write any output; wget -e runs one such command. curl's --engine loads an OpenSSL
	// engine, a shared library its name (or path) finds.
	cmdCurl: {"-K", "--config", "--engine"},
	cmdWget: {"-e", optExecute, "--config", "--use-askpass"}, // --use-askpass runs a program for the password
	// fd runs a command on every file it finds (hidden ones with -H: .env among them).
	cmdFd: {"-x", "--exec", "-X", "--exec-batch"}, cmdFdfind: {"-x", "--exec", "-X", "--exec-batch"},
	// A jq program file; a module search path.
	"jq": {"-f", "--from-file", "-L"},
	// yq -s writes a file for each document, named by an expression.
	"yq": {"-s", "--split-exp", "--from-file"},
	// Editors, pagers and man run commands their options name (vim -c '!id', man -P id).
	"vim": vimCodeOptions, "vi": vimCodeOptions, "nvim": vimCodeOptions, cmdView: vimCodeOptions, "vimdiff": vimCodeOptions,
	"gvim": vimCodeOptions, "ex": vimCodeOptions, "rvim": vimCodeOptions,
	// man's configuration file -C names can DEFINE the pager, troff and filters it runs.
	"man": {"-P", "--pager", "-H", "--html", "-C", "--config-file"},
	// jobs -x CMD runs CMD with the job specifications among its words replaced.
	"jobs":     {"-x"},
	"emacs":    {"--eval", "-l", "--load", "-f", "--funcall", "--script"},
	cmdSqlite3: {"-cmd", "-init"},
	// Database clients' script files, SQL the engine cannot read, as a shell's script file is
	// (psql -f is dbClientCode's); redis-cli --eval runs a Lua script on the server.
	cmdDuckdb: {"-f", "-init"}, "snowsql": {"-f", "--filename"}, "trino": {"-f", "--file"}, "presto": {"-f", "--file"},
	"cqlsh": {"-f", "--file"}, "clickhouse-client": {"--queries-file"}, "clickhouse": {"--queries-file"},
	"cockroach": {"-f", "--file"}, "usql": {"-f", "--file"}, "sqlcmd": {"-i", "--input-file"}, "spark-sql": {"-f", "-i"},
	"hive": {"-f", "-i"}, "beeline": {"-f", "-i", "--init"}, cmdImpala: {"-f", "--query_file"}, "vsql": {"-f", "--file"},
	"redis-cli": {"--eval"}, "valkey-cli": {"--eval"},
	// Python code pylint runs before it starts, eslint's config inspector (npx fetches and runs
	// it), Ruby code rake runs, a Nix expression (which can read any file) given on the command line.
	"pylint": {"--init-hook"}, "eslint": {"--inspect-config"}, "rake": {"-e", optExecute, "-E", "--execute-continue", "-p", "--execute-print"},
	// less's lesskey file, source or text: its #env section sets LESSOPEN, a command less runs
	// on each file. A tag (-t, and -T's tags file) opens the file a tags file names, which the
	// engine does not read.
	"less": {"-k", "--lesskey-file", "--lesskey-src", "--lesskey-content", "-t", "--tag", "-T", "--tag-file"},
	"nix":  {"--expr"}, "nix-instantiate": {"-E", "--expr"}, "nix-build": {"-E", "--expr"},
}

// optExecute is the option of wget's, rake's and database clients' that runs what it is given.
const optExecute = "--execute"

// vimCodeOptions run Ex commands (which run shell commands: "!id") or read a script or vimrc.
// -s reads keystrokes from a file (":!id" among them), or in Ex mode (-e, -E, -es) is silent Ex
// mode, which reads its commands from standard input, as -e and -E do.
var vimCodeOptions = []string{"-c", "--cmd", "-S", "-u", "-U", "-s", "-e", "-E"}

// plusCommands are the programs for which an operand "+CMD" is a command run at start-up (vim
// +'!id', less +'!id'); "+N" (a line number) is not.
var plusCommands = map[string]bool{"vim": true, "vi": true, "nvim": true, cmdView: true, "vimdiff": true, "gvim": true,
	"ex": true, "rvim": true, "less": true, "more": true, "most": true}

// plusCommand returns the "+CMD" start-up command of vim or less that does more than move.
func plusCommand(s *segment) string {
	if !plusCommands[s.name] {
		return ""
	}
	for _, w := range s.operands {
		if len(w.s) > 1 && w.s[0] == '+' && !plainPlusCommand(w.s[1:]) {
			return "the start-up command " + w.s
		}
	}
	return ""
}

// plainPlusCommand reports whether a "+CMD" start-up command only moves: a line number, less's
// G, g and F, or a search (/pattern, ?pattern) with no "!" or "|" in it, which could run a shell
// command or end the search and start another command.
func plainPlusCommand(c string) bool {
	switch {
	case strings.Trim(c, "0123456789") == "", c == "G", c == "g", c == "F":
		return true
	case c[0] == '/' || c[0] == '?':
		return !strings.ContainsAny(c, "!|")
	}
	return false
}

// gitSubCodeOptions are, per git subcommand, its own options that run a command: rebase -x,
// difftool -x, grep -O, clone -u, instaweb's -d (--httpd, the server's command line); and init's and clone's --template, whose directory's hooks the
// new repository runs (clone runs post-checkout at once). commit --template is a message, not code.
//
//nolint:goconst // option spellings and program names in this table read best literally, next to their neighbours
var gitSubCodeOptions = map[string][]string{"rebase": {"-x"}, "difftool": {"-x"}, "grep": {"-O"},
	"clone": {"-u", "--template"}, "init": {"--template"}, "ls-remote": {"-u"}, "instaweb": {"-d", "--httpd"}}

// codeEnvVars make the program that sees them run code the caller chooses: a search path for
// programs or modules, a compiler or wrapper, git's exec path or configuration.
var codeEnvVars = map[string]bool{
	"PATH": true, "PYTHONPATH": true, "PYTHONHOME": true, "PERL5LIB": true, "PERLLIB": true, "RUBYLIB": true,
	"NODE_PATH": true, "MAKEFILES": true, "RSYNC_RSH": true, "GIT_EXEC_PATH": true, "GIT_CONFIG_PARAMETERS": true,
	"GIT_CONFIG_COUNT": true, "GIT_CONFIG_GLOBAL": true, "GIT_CONFIG_SYSTEM": true, "GIT_CONFIG": true,
	"GIT_TEMPLATE_DIR": true, "RUSTC_WRAPPER": true, "RUSTC": true, "CARGO_BUILD_RUSTC_WRAPPER": true,
	"CC": true, "CXX": true, "LD": true, "GOTOOLCHAIN": true, "GOENV": true, "GOROOT": true,
	"RUSTC_WORKSPACE_WRAPPER": true, "RUSTDOC": true, "CARGO_BUILD_RUSTC": true, "CARGO_BUILD_RUSTDOC": true,
	"CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER": true, "CURL_HOME": true, "WGETRC": true, "CARGO_HOME": true, "RUSTUP_HOME": true, "ZDOTDIR": true, "TF_CLI_ARGS": true, "TF_CLI_CONFIG_FILE": true,
	"KUBECTL_EXTERNAL_DIFF": true,
	// Where rustup downloads toolchains from: rustup run --install, and a proxy's automatic install
	// of a missing toolchain, run the cargo and rustc such a server gives.
	"RUSTUP_DIST_SERVER": true, "RUSTUP_DIST_ROOT": true, "RUSTUP_UPDATE_ROOT": true,
	// The browser cargo doc --open runs (cargo's doc.browser), as BROWSER is.
	"CARGO_DOC_BROWSER": true,
	// Options man gives troff: -U (unsafe mode) lets a page's .sy and .pso requests run commands,
	// so a page planted outside the project (man -l /tmp/x.1, MANPATH=/tmp/m) runs its code.
	"MANROFFOPT": true,
	// A file every non-interactive bash sources first, and one an interactive sh sources, whose
	// code the engine cannot see.
	"BASH_ENV": true, "ENV": true,
	// The security key library OpenSSH's tools load (as ssh-keygen -w does), and OpenSSL's
	// configuration (whose engine and provider sections load shared libraries into curl, git,
	// openssl, python...) and where it finds engines and providers.
	"SSH_SK_PROVIDER": true, "OPENSSL_CONF": true, "OPENSSL_ENGINES": true, "OPENSSL_MODULES": true,
	// Where programs read their configuration, which can name code to run (git's core.fsmonitor in
	// $XDG_CONFIG_HOME/git/config).
	"XDG_CONFIG_HOME": true,
	// Credential configuration the caller points at: a kubeconfig's exec plugin and an AWS
	// profile's credential_process run any program, and either names credentials the engine has
	// not seen (the zero-access .kube/ and .aws/ are the ones it guards).
	envKubeconfig: true, "KUBERC": true, "AWS_CONFIG_FILE": true, "AWS_SHARED_CREDENTIALS_FILE": true,
	// psql's start-up file and mysql's option-file directory, which can run shell commands (\!,
	// pager=).
	"PSQLRC": true, "MYSQL_HOME": true,
	// Where a program finds code or configuration it obeys: python's user site (its .pth files run
	// at every start), ruby's gems, docker's configuration (credential helpers, CLI plugins, which
	// docker build runs as buildx), less's lesskey (its #env sets LESSOPEN), yarn's rc file and
	// yarnPath. Set in a shell that outlives the call, they reach every later command too.
	"PYTHONUSERBASE": true, "GEM_HOME": true, "GEM_PATH": true, "DOCKER_CONFIG": true, "LESSKEYIN": true,
	"LESSKEY": true, "LESSKEY_CONTENT": true, "YARN_RC_FILENAME": true, "YARN_YARN_PATH": true,
	// Python's -i: once its program ends, every later python reads code from standard input.
	"PYTHONINSPECT": true,
	// .NET's host adds the assemblies the deps.json files it names list, from where they say.
	"DOTNET_ADDITIONAL_DEPS": true,
	// Where a JVM build finds its java (JAVA_HOME=/tmp/x mvn test runs /tmp/x/bin/java), gradle its
	// init scripts, bundler its Gemfile (ruby code), mercurial its configuration (hooks, aliases
	// that run commands), ex and vim their start-up commands, ripgrep its arguments (--pre runs a
	// program on every file).
	"JAVA_HOME": true, "GRADLE_USER_HOME": true, "BUNDLE_GEMFILE": true, "HGRCPATH": true, "EXINIT": true,
	"VIMINIT": true, "RIPGREP_CONFIG_PATH": true,
	// Where the Maven wrapper downloads Maven and its jar from instead of the project's
	// .mvn/wrapper/maven-wrapper.properties, and where it keeps (and finds, unverified) the
	// distributions it downloaded, as GRADLE_USER_HOME's wrapper/dists are gradlew's.
	"MVNW_REPOURL": true, "MAVEN_USER_HOME": true,
	// Bash's tables of where each command name's program is and of aliases: an assignment to an
	// element (BASH_CMDS[ls]=/tmp/x) makes the name run another program, as hash -p does.
	"BASH_CMDS": true, "BASH_ALIASES": true,
	// Read-only clients' plugins, interpreters and configuration (which names more of them): gh's
	// and glab's config (pager, browser, editor), helm's plugins (downloaders),
	// terraform's data directory (its providers, which validate runs), tflint's plugins and config,
	// gcloud's python, az's extensions, pip's config and interpreter, rspec's options (--require),
	// mix's project file, coverage's rcfile (plugins).
	"GH_CONFIG_DIR": true, "GLAB_CONFIG_DIR": true, "HELM_PLUGINS": true, "TF_DATA_DIR": true,
	"TFLINT_PLUGIN_DIR": true, "TFLINT_CONFIG_FILE": true, "CLOUDSDK_PYTHON": true, "AZURE_EXTENSION_DIR": true,
	"AZURE_CONFIG_DIR": true, "PIP_CONFIG_FILE": true, "PIP_PYTHON": true, "SPEC_OPTS": true, "MIX_EXS": true,
	"COVERAGE_RCFILE": true,
}

// npmShellOptions are npm's, npx's and pnpx's options that name the shell or node options of what
// they run.
// optScriptShell is npm's, pnpm's and yarn's option naming the shell their scripts run in.
const optScriptShell = "--script-shell"

var npmShellOptions = []string{optScriptShell, "--node-options", optShell}

// optShell is the option that names the shell a program starts (npm's, just's).
const optShell = "--shell"

// npmCodeSettings are npm's settings that name a program or code it runs: the shell of its
// scripts and the NODE_OPTIONS they get, its shell, editor, browser, git and node-gyp, npm
// init's module, npm exec's and npx's script (call: npm_config_call='rm -rf ~' npx runs it), and
// another npmrc (which can set any of them).
//
//nolint:goconst // setting names read best literally, next to their neighbours
var npmCodeSettings = map[string]bool{"script-shell": true, "node-options": true, "shell": true, "editor": true,
	"browser": true, "git": true, "node-gyp": true, "init-module": true, "call": true, npmUserconfig: true, npmGlobalconfig: true,
	// pnpm's: the pnpmfile's hooks run as it resolves and installs (its --pnpmfile option is
	// judged by where the file is: outsideCodeOptions).
	"pnpmfile": true, "global-pnpmfile": true}

// npmConfigSetting returns the npm setting an environment variable sets: npm reads
// npm_config_NAME in any case, with its underscores as dashes (NPM_CONFIG_NODE_OPTIONS is
// node-options).
func npmConfigSetting(name string) (string, bool) {
	for _, prefix := range []string{"npm_config_", "pnpm_config_"} { // pnpm reads both
		if len(name) > len(prefix) && strings.EqualFold(name[:len(prefix)], prefix) {
			return strings.ReplaceAll(strings.ToLower(name[len(prefix):]), "_", "-"), true
		}
	}
	return "", false
}

// expansionEnvVars change what the shell makes of the words after them: HOME is what ~ and a bare
// cd name (and where programs read their configuration), CDPATH where cd goes, IFS how words
// split (a non-blank one: "IFS=_; cat $f" splits ".env_x"), GLOBIGNORE that * matches dotfiles,
// PWD what ~+ is (PWD=/etc; cat ~+/shadow reads /etc/shadow; the engine takes ~+ for the working
// directory).
var expansionEnvVars = map[string]bool{"HOME": true, "CDPATH": true, envIFS: true, envGlobIgnore: true, envPWD: true}

// The variables that change only what the shell itself expands.
const (
	envIFS        = "IFS"
	envGlobIgnore = "GLOBIGNORE"
	envPWD        = "PWD"
)

// codeFlagEnvVars carry options for a compiler, linker or JVM: a value holding one of the
// spellings listed loads or runs code the caller chooses (a JVM agent, a compiler plugin or
// wrapper, another linker, an options file), or is computed ("$"). Other values ("-Xmx2g",
// "-D warnings", "-O2") are admitted.
var codeFlagEnvVars = func() map[string][]string {
	jvm := []string{"agent", "-XX:On", "-XX:+On", "@", "$"}
	cc := []string{"plugin", "wrapper", "-B", "specs", "fuse-ld", "--ld-path", "-load", "@", "$"}
	rust := []string{"link", "-Z", "backend", "plugin", "@", "$"}
	m := map[string][]string{
		"CFLAGS": cc, "CXXFLAGS": cc, "CPPFLAGS": cc, "LDFLAGS": cc, "CGO_CFLAGS": cc, "CGO_CXXFLAGS": cc,
		"CGO_CPPFLAGS": cc, "CGO_FFLAGS": cc, "CGO_LDFLAGS": cc,
		"RUSTFLAGS": rust, "RUSTDOCFLAGS": rust, "CARGO_ENCODED_RUSTFLAGS": rust, "CARGO_ENCODED_RUSTDOCFLAGS": rust,
		"CARGO_BUILD_RUSTFLAGS": rust, "CARGO_BUILD_RUSTDOCFLAGS": rust,
		// A toolchain named by path (not by channel, "nightly") is that directory's cargo and rustc.
		"RUSTUP_TOOLCHAIN": {"/", "$"},
		// So is uv's interpreter given as a path (not a version, "3.12").
		"UV_PYTHON": {"/", "$"},
		// uv's project, and the environment it runs in (its interpreter and installed packages).
		"UV_PROJECT": {"/", "$"}, "UV_PROJECT_ENVIRONMENT": {"/", "$"},
		// pdm's -p|--project and the manifest pixi takes as --manifest-path's, from the environment.
		"PDM_PROJECT": {"/", "$"}, "PIXI_PROJECT_MANIFEST": {"/", "$"},
		// pylint's configuration file (its init-hook is code, as --rcfile's is), and tox's -c and
		// --root from the environment (tox 4 reads each option from TOX_ and its name).
		"PYLINTRC": {"/", "$"}, "TOX_CONFIG_FILE": {"/", "$"}, "TOX_ROOT_DIR": {"/", "$"},
	}
	for _, v := range jvmOptionVars {
		m[v] = jvm
	}
	return m
}()

// cargoCommandVar says whether a variable is cargo configuration (every key has one, CARGO_ and
// the key's path) that names what cargo runs: CARGO_TARGET_<TRIPLE>_RUNNER (cargo test's
// binaries run under it) and _LINKER (which links them), but not CARGO_TARGET_DIR; an alias (CARGO_ALIAS_T='test --config
// build.rustc="/tmp/x"' makes cargo t run that, as cargo --config does), unstable flags (as -Z:
// CARGO_UNSTABLE_BUILD_STD), or a credential provider, a program cargo runs for a registry's token
// (CARGO_REGISTRY_CREDENTIAL_PROVIDER, CARGO_REGISTRIES_X_CREDENTIAL_PROVIDER,
// CARGO_CREDENTIAL_ALIAS_X, CARGO_REGISTRY_GLOBAL_CREDENTIAL_PROVIDERS).
func cargoCommandVar(name string) bool {
	return strings.HasPrefix(name, "CARGO_TARGET_") && name != envCargoTargetDir || strings.HasPrefix(name, "CARGO_ALIAS_") || strings.HasPrefix(name, "CARGO_UNSTABLE_") ||
		strings.HasPrefix(name, "CARGO_") && strings.Contains(name, "CREDENTIAL")
}

// jvmOptionVars carry options for a JVM (the launcher's of maven and gradle among them).
var jvmOptionVars = []string{"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "JAVA_OPTS", "MAVEN_OPTS", "GRADLE_OPTS", "SBT_OPTS"}

// flagEnvVars carry options for one program: their words count as that program's flags.
var flagEnvVars = map[string]string{"GOFLAGS": "go", "MAKEFLAGS": "make", "MFLAGS": "make", "TAR_OPTIONS": "tar", "ZIPOPT": "zip",
	"UNZIP": cmdUnzip, "UNZIPOPT": cmdUnzip, "XZ_DEFAULTS": "xz", "XZ_OPT": "xz", "MANOPT": "man", "PYTEST_ADDOPTS": cmdPytest, "LESS": "less",
	"MAVEN_ARGS": cmdMvn}

// cmdMvn is maven's command.
const cmdMvn = "mvn"

// buildEnvReason reports why a variable makes a build tool, compiler, JVM, npm or git's transport run
// code the caller chooses, or "" when it does not.
func buildEnvReason(name, val string) string {
	if strings.HasPrefix(name, "CARGO_SOURCE_") {
		// Source replacement (CARGO_SOURCE_CRATES_IO_REPLACE_WITH, CARGO_SOURCE_X_DIRECTORY):
		// a directory or local registry's packages are trusted by their own checksum file, so
		// cargo builds what that directory holds in place of the locked dependency, as cargo
		// --config 'source.crates-io.replace-with=...' does.
		return "setting " + name + " replaces where cargo takes the dependencies' source from"
	}
	if (name == envCargoTargetDir || name == "CARGO_BUILD_TARGET_DIR") && val != "" && !entriesBelow(val, ",") {
		// cargo reuses what a target directory holds when its fingerprints match: compiled
		// dependencies and build scripts' outputs planted there are linked into the tests, as a
		// GOCACHE's objects are (cargo --target-dir, outsideCodeOptions).
		return "setting " + name + " to " + val + " makes cargo reuse the compiled code it finds there, outside the project"
	}
	if why := elsewhereEnvReason(name, val); why != "" {
		return why
	}
	if cargoCommandVar(name) {
		return "setting " + name + " names a program, flags or an alias cargo runs its builds with"
	}
	for _, n := range codeFlagEnvVars[name] {
		if strings.Contains(val, n) {
			return "setting " + name + " to " + val + " gives a compiler, linker, JVM or build tool an option that loads or runs code the caller chooses (" + n + ")"
		}
	}
	if slices.Contains(jvmOptionVars, name) {
		// A system property maven or gradle reads as an option (GRADLE_OPTS=-Dgradle.user.home=DIR is -g DIR).
		for f := range strings.FieldsSeq(val) {
			if p, ok := strings.CutPrefix(f, "-D"); ok && jvmCodeProperty(p) {
				return "setting " + name + " to " + val + " gives maven or gradle a property naming code from outside the project (" + f + ")"
			}
		}
	}
	if k, ok := npmConfigSetting(name); ok && npmCodeSettings[k] {
		return "setting " + name + " gives npm its " + k + " setting, which names code it runs"
	}
	if strings.HasPrefix(name, "CONCURRENTLY_") {
		// concurrently reads each of its options from CONCURRENTLY_NAME: --teardown runs a shell
		// line, --passthrough-arguments fills its commands' placeholders.
		return "setting " + name + " gives concurrently an option, some of which run commands"
	}
	if name == envGitAllowProto && slices.Contains(strings.Split(strings.ToLower(val), ":"), "ext") {
		// git's ext:: transport runs the command its URL names ("ext::sh -c id").
		return "setting " + name + " to allow the ext transport makes git run the command a URL names"
	}
	return goModuleSourceReason(name, val)
}

// elsewhereEnvReason reports why a variable points a build tool at code outside the project that
// it imports or reuses (MSBuild's properties, tox's work directory), or "" when it does not.
func elsewhereEnvReason(name, val string) string {
	if msbuildCodeVar(name, val) {
		return "setting " + name + " to " + val + " gives dotnet's MSBuild a property naming targets, props, a tool or packages outside the project, which it imports or runs"
	}
	if name == "DENO_DIR" && val != "" && !entriesBelow(val, ",") {
		// deno runs the remote modules and npm packages its cache holds without fetching them
		// again (and, with no lockfile, without checking them): one outside the project may hold
		// planted ones, as GOMODCACHE's source may.
		return "setting " + name + " to " + val + " makes deno run the cached modules it finds there, outside the project"
	}
	if name == "TOX_WORK_DIR" && val != "" && !entriesBelow(val, ",") {
		// tox's --workdir from the environment: the environments it reuses (outsideCodeOptions).
		return "setting " + name + " to " + val + " makes tox reuse the environments it finds there, outside the project"
	}
	if elsewhereCodeDirVars[name] && val != "" && !entriesBelow(val, ":") {
		return "setting " + name + " to " + val + " makes bundler or mix load the code it finds there, outside the project"
	}
	if pythonEnvironmentVars[name] && val != "" && !entriesBelow(val, ":") {
		return "setting " + name + " to " + val + " makes poetry, pipenv or uv run the programs of an environment, or the scripts of a Pipfile, outside the project"
	}
	return ""
}

// elsewhereCodeDirVars name where a build tool finds code it loads as the project's, or reuses
// compiled: bundler's installed gems (BUNDLE_PATH; bundle exec loads them) and its settings
// directory (BUNDLE_APP_CONFIG, whose config sets BUNDLE_PATH and more); mix's archives (every
// mix run loads the .ez files of MIX_HOME's archives and MIX_ARCHIVES), its project file
// (MIX_EXS, Elixir code), its dependencies' sources (MIX_DEPS_PATH, compiled from there) and its
// compiled build (MIX_BUILD_PATH, MIX_BUILD_ROOT, reused as cargo reuses a target directory).
// A value below the project (BUNDLE_PATH=vendor/bundle) is the project's.
var elsewhereCodeDirVars = wordSet("BUNDLE_PATH BUNDLE_APP_CONFIG MIX_HOME MIX_ARCHIVES MIX_EXS MIX_DEPS_PATH MIX_BUILD_PATH MIX_BUILD_ROOT")

// pythonEnvironmentVars name the environment a Python project manager runs its commands in, or
// where it finds it: an active VIRTUAL_ENV (poetry and pipenv use it, uv run --active), pipenv's
// PIPENV_PIPFILE (its [scripts] and the environment kept for it) and WORKON_HOME, poetry's
// POETRY_VIRTUALENVS_PATH. One outside the project runs the interpreter and programs planted
// there, as UV_PROJECT_ENVIRONMENT does.
var pythonEnvironmentVars = wordSet("VIRTUAL_ENV PIPENV_PIPFILE WORKON_HOME POETRY_VIRTUALENVS_PATH")

// searchesCode reports whether the variable names code or options programs take up (codeEnvVars,
// codeEnvFamily), a module search path below the working directory aside.
func searchesCode(name, val string) bool {
	return codeEnvVars[name] && !searchPathBelow(name, val) || codeEnvFamily(name)
}

// moduleSearchPathVars are the module search paths whose entries, relative ones, only add the
// project's own code: PYTHONPATH=src pytest imports what pytest run there imports anyway.
var moduleSearchPathVars = map[string]bool{"PYTHONPATH": true, "NODE_PATH": true}

// searchPathBelow reports whether val, a moduleSearchPathVars value, names only directories below
// the working directory: each entry relative, literal, with no "..", "~" or "$" (an empty entry is
// the working directory itself). PYTHONPATH=/tmp, PYTHONPATH=../x and computed values are not.
func searchPathBelow(name, val string) bool {
	return moduleSearchPathVars[name] && entriesBelow(val, ":")
}

// codeEnvFamily says whether a variable is of a family that names code or options by its prefix:
// terraform's TF_CLI_ARGS*, ansible's paths and programs (ansibleCodeVar), and git's
// GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n, settings (core.pager, remote.pushDefault) git takes
// whenever GIT_CONFIG_COUNT is set, which the agent's environment may already do.
func codeEnvFamily(name string) bool {
	return strings.HasPrefix(name, "TF_CLI_ARGS") || ansibleCodeVar(name) ||
		strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_")
}

// codeEnvFailure reports why an environment assignment makes programs run caller-chosen code, or
// "" when it does not.
func codeEnvReason(name, val string) string {
	if searchesCode(name, val) {
		return "setting " + name + " makes programs run code or options the engine cannot see"
	}
	if why := buildEnvReason(name, val); why != "" {
		return why
	}
	if expansionEnvVars[name] && (name != envIFS || strings.Trim(val, " \t\n") != "") {
		return "setting " + name + " changes what the shell expands (~ and cd, word splitting, globs) in ways the engine does not follow"
	}
	if prog, ok := flagEnvVars[name]; ok {
		s := segment{name: prog}
		for f := range strings.FieldsSeq(val) {
			if len(f) > 1 && f[0] == '-' {
				n, _, _ := strings.Cut(f, "=")
				s.flags = append(s.flags, n)
				if goFlagPrograms[prog] && len(n) > 3 && n[1] == '-' {
					s.flags = append(s.flags, n[1:]) // GOFLAGS=--toolexec=x is -toolexec
				}
			} else if prog == "make" && isAssignment(f) {
				return "setting " + name + " passes make a variable assignment, which can change what its recipes run"
			}
		}
		for _, o := range codeOptions[prog] {
			if s.hasFlag(o) {
				return "setting " + name + " gives " + prog + " the option " + o + ", which runs code the caller chooses"
			}
		}
		if prog == "go" && namesGoOutput(&s) {
			return "setting " + name + " gives go the option -o, which writes where the engine does not follow"
		}
	}
	return ""
}

// codeOption returns the option (or argument) of a recognised program that runs caller-chosen
// code, or "" when there is none.
func codeOption(s *segment) string {
	for _, o := range codeOptions[s.name] {
		if s.hasFlag(o) {
			return o
		}
	}
	if why := plusCommand(s); why != "" {
		return why
	}
	switch s.name {
	case "make":
		return cmp.Or(makeAssignment(s), outsideCode(s)) // a variable's program, another directory's Makefile
	case cmdGit:
		return gitCode(s)
	case "jq", "gojq", "jaq":
		return jqModules(s)
	case "yq", "xq", "tomlq":
		return yqCode(s)
	case "go":
		if why := goLinker(s); why != "" {
			return why
		}
		if why := goEnvWrite(s); why != "" {
			return why
		}
	case cmdSed:
		return sedCode(s)
	case cmdSqlite3, cmdDuckdb:
		if why := sqlFilesCode(s); why != "" {
			return why
		}
		return sqliteCode(s)
	case cmdPsql, cmdMysql, cmdMariadb, cmdMongo, cmdMongosh:
		return dbClientCode(s)
	case cmdPodman:
		if kubePlay(s) {
			return "kube play's YAML (its pods' hostPath volumes and commands)"
		}
	case cmdAwk, cmdGawk, "mawk", "nawk":
		return awkCode(s)
	case cmdNode:
		if why := nodeTestModule(s); why != "" {
			return why
		}
	}
	return outsideCode(s)
}

// makeAssignment returns a make command's variable assignment: a variable can hold a recipe's
// program (make CC=./x), which the engine cannot see.
func makeAssignment(s *segment) string {
	for _, w := range s.operands {
		if isAssignment(w.s) || w.dynamic {
			return "the variable assignment " + w.s
		}
	}
	return ""
}

// goLinker returns go's -ldflags when they name the external linker (-extld PROG), or give it
// an option that loads or runs code (-extldflags with a plugin, -B, -fuse-ld: codeFlagEnvVars'
// list for the linker's flags): go build and test run that program.
func goLinker(s *segment) string {
	for _, spelling := range [2]string{"-ldflags", "--ldflags"} {
		for v := range optionValues(s, spelling, spelling) {
			if extld.MatchString(v.s) {
				return "-ldflags naming the external linker (-extld)"
			}
			if _, flags, ok := strings.Cut(v.s, "-extldflags"); ok {
				if why := buildEnvReason("CGO_LDFLAGS", flags); why != "" {
					return "-ldflags giving the external linker an option that loads or runs code (-extldflags)"
				}
			}
		}
	}
	return ""
}

// extld matches the go linker's -extld option (not -extldflags) in a -ldflags value.
var extld = regexp.MustCompile(`-extld([= ]|$)`)

// goEnvWrite returns go env -w|-u, which changes the go command's settings for later calls.
func goEnvWrite(s *segment) string {
	if len(s.operands) > 0 && s.operands[0].s == cmdEnv && (s.hasFlag("-w") || s.hasFlag("-u")) {
		return "env -w (it changes the go command's settings for later calls)"
	}
	return ""
}

// gitCode returns the git subcommand option that runs a command (rebase -x, init --template),
// bisect run, or a -c setting computed at run time.
func gitCode(s *segment) string {
	if len(s.operands) == 0 {
		return ""
	}
	sub := s.operands[0].s
	for _, o := range gitSubCodeOptions[sub] {
		if s.hasFlag(o) {
			return o
		}
	}
	if sub == "bisect" && len(s.operands) > 1 && s.operands[1].s == "run" {
		return "bisect run"
	}
	if gitComputedSetting(s) {
		return "a -c setting computed at run time (core.pager, alias.*, core.fsmonitor run commands)"
	}
	return rebaseTodoEdited(s)
}

// git's global options that name its repository and work tree, and the work tree's variable.
const (
	gitDirOption      = "--git-dir"
	gitWorkTreeOption = "--work-tree"
	envGitWorkTree    = "GIT_WORK_TREE"
	envGitDir         = "GIT_DIR"
	envGitCommonDir   = "GIT_COMMON_DIR"
	envGitAllowProto  = "GIT_ALLOW_PROTOCOL"
)

// sedExpression is sed's long option for a script.
const sedExpression = "--expression"

// sedScripts returns a sed command's scripts as GNU sed reads its options: every -e value (in
// a bundle such as -ne or -nEe, as the rest of the bundle or the next word; --expression and its
// abbreviations, with "=" or the next word), or the first operand when no -e or -f gave one. It
// reports whether a -f script file (whose content the engine cannot see) was given.
func sedScripts(s *segment) ([]word, bool) {
	opts, operands := getopt(s.words, sedOptions)
	var out []word
	file := false
	for _, o := range opts {
		switch o.opt {
		case "-e", sedExpression:
			out = append(out, o.val)
		case "-f", "--file":
			file = true
		}
	}
	if len(out) == 0 && !file && len(operands) > 0 {
		out = operands[:1]
	}
	return out, file
}

// sedCode reports a sed script that runs commands (e, s///e) or writes files (w, W, s///w), or a
// script the engine cannot read (-f FILE, a computed script).
func sedCode(s *segment) string {
	scripts, file := sedScripts(s)
	if file || s.hasFlag("-f") || s.hasFlag("--file") {
		return "-f (a script file)"
	}
	for _, w := range scripts {
		if w.dynamic {
			return "a script computed at run time"
		}
		if c := sedScriptCode(w.s); c != "" {
			return c
		}
	}
	return ""
}

// sedScriptCode walks a sed script command by command and returns the first that executes or
// writes ("" when there is none). Addresses, labels and text arguments are skipped.
func sedScriptCode(script string) string {
	for i := 0; i < len(script); {
		var skipped bool
		if i, skipped = skipSedAddress(script, i); skipped || i >= len(script) {
			continue
		}
		c := script[i]
		var why string
		if why, i = sedCommand(script, c, i+1); why != "" {
			return why
		}
	}
	return ""
}

// skipSedAddress skips separators and an address (line numbers, $, /regex/, \cREGEXc, ranges,
// steps, !) from i; it reports whether it skipped a regex address, after which more may follow.
func skipSedAddress(script string, i int) (int, bool) {
	for i < len(script) && strings.IndexByte(" \t\n;{}!,~0123456789$+", script[i]) >= 0 {
		i++
	}
	if i < len(script) && (script[i] == '/' || script[i] == '\\') {
		d := script[i]
		if d == '\\' && i+1 < len(script) {
			i++
			d = script[i]
		}
		return skipDelimited(script, i+1, d), true
	}
	return i, false
}

// sedCommand reads the arguments of sed command c, starting at i; it returns why the command runs
// code or touches files ("" when it does not) and the index after it.
func sedCommand(script string, c byte, i int) (string, int) {
	n := len(script)
	switch c {
	case 'e':
		return "the e command (it runs a shell command)", i
	case 'w', 'W':
		return "the " + string(c) + " command (it writes a file)", i
	case 'r', 'R':
		return "the " + string(c) + " command (it reads a file the engine does not check)", i
	case 's':
		return sedSubstitute(script, i)
	case 'y':
		if i < n {
			d := script[i]
			i = skipDelimited(script, skipDelimited(script, i+1, d), d)
		}
	case 'a', 'i', 'c', ':', 'b', 't', 'T', 'q', 'Q', 'l', 'L':
		// Text runs to the end of the line (a, i, c), a label or count to the end of the command.
		text := c == 'a' || c == 'i' || c == 'c'
		for i < n && script[i] != '\n' && (text || script[i] != ';') {
			i++
		}
	}
	return "", i
}

// sedSubstitute reads an s command's pattern, replacement and flags from i: the e flag runs the
// result as a command, w writes a file.
func sedSubstitute(script string, i int) (string, int) {
	n := len(script)
	if i >= n {
		return "", i
	}
	d := script[i]
	i = skipDelimited(script, skipDelimited(script, i+1, d), d)
	for ; i < n && script[i] != ';' && script[i] != '\n' && script[i] != '}'; i++ {
		switch script[i] {
		case 'e':
			return "the s///e flag (it runs the result as a shell command)", i
		case 'w':
			return "the s///w flag (it writes a file)", i
		}
	}
	return "", i
}

// skipDelimited returns the index after the next unescaped delimiter d at or after i.
func skipDelimited(s string, i int, d byte) int {
	for i < len(s) {
		switch s[i] {
		case '\\':
			i += 2
			continue
		case d:
			return i + 1
		}
		i++
	}
	return len(s)
}

// awkFileOptions name an awk program file, an include file, a library or an exec file.
var awkFileOptions = []string{"-f", "--file", "-i", "--include", "-l", "--load", "-E", "--exec"}

// awkWriteOptions make gawk write a profile, a variable dump or a pretty-printed program, or
// read debugger commands.
//
//nolint:goconst // option spellings in this table read best literally, next to their neighbours
var awkWriteOptions = []string{"-o", "--pretty-print", "-p", "--profile", "-d", "--dump-variables", "-D", "--debug"}

// awkCode reports an awk program that can run commands, write files or read the environment, or
// one the engine cannot read (-f FILE, a library, a computed program). A plain filter such as
// '{print $1}' only reads its operands, which the path policy checks. Options are read as gawk
// reads them: bundled (-ve, -fe), abbreviated (--sou=) and the value after "=" or in the next word.
func awkCode(s *segment) string {
	for _, o := range awkFileOptions {
		if s.hasFlag(o) {
			return o + " (a program file or library)"
		}
	}
	opts, operands := getopt(s.words, awkOptions)
	var progs []word
	for _, o := range opts {
		switch {
		case slices.Contains(awkFileOptions, o.opt):
			return o.opt + " (a program file or library)"
		case slices.Contains(awkWriteOptions, o.opt):
			return o.opt + " (it writes a file or reads commands)"
		case o.opt == "-e" || o.opt == optSource:
			progs = append(progs, o.val)
		}
	}
	if len(progs) == 0 && len(operands) > 0 {
		progs = operands[:1]
	}
	texts := make([]string, 0, len(progs))
	for _, prog := range progs {
		if prog.dynamic {
			return "a program computed at run time"
		}
		for _, k := range []string{"system", "getline", "ENVIRON", "PROCINFO", "@", "close", "fflush", "ARGV", "ARGC"} {
			if strings.Contains(prog.s, k) {
				return "a program using " + k
			}
		}
		texts = append(texts, prog.s)
	}
	// gawk runs its -e programs as one text: a print in one may be redirected in the next.
	if k := awkRedirection(strings.Join(texts, "\n")); k != "" {
		return "a program using " + k
	}
	return ""
}

// awkRedirection returns the ">" or "|" that may redirect a print or printf of an awk program, or "".
// Only a print or printf writes to a file or a command ("|" into getline is a read, judged as
// getline); before the program's first "print" (a substring, so printf and sprintf too) a ">" is
// a comparison (NR>1, $3 > 100, if (n >= 5)) and a "|" half of a logical or. From there on every
// one counts: telling a redirection from a comparison inside parentheses would take regular
// expression literals, whose parentheses need not balance. A line continued inside the program
// (backslash, newline) could split the keyword, so then every one counts.
func awkRedirection(prog string) string {
	rest := prog
	if !strings.Contains(prog, "\\\n") {
		i := strings.Index(prog, "print")
		if i < 0 {
			return ""
		}
		rest = prog[i:]
	}
	for _, k := range []string{"|", ">"} {
		if strings.Contains(rest, k) {
			return k
		}
	}
	return ""
}

// processSelection are pgrep's and pkill's options that take a value: all but -d (pgrep's) and
// --signal, -q (pkill's) select processes.
//
//nolint:goconst // option spellings read best literally, next to their neighbours
var processSelection = []string{"-u", "--euid", "-U", "--uid", "-G", "--group", "-g", "--pgroup", "-P", "--parent", "-s", "--session",
	"-t", "--terminal", "--ns", "--nslist", "--cgroup", "-O", "--older", "-F", "--pidfile"}

// valueOptions are, per program, options whose value is the next word: it is neither an operand
// nor a subcommand, so "kubectl --context prod delete" has the subcommand delete. Path-valued
// options are also in argSpecs' valueOps, which checks their value as a path.
//
//nolint:goconst // option spellings and program names in this table read best literally, next to their neighbours
var valueOptions = map[string][]string{
	cmdKubectl: kubectlValueOptions,
	cmdOC:      kubectlValueOptions,
	"helm":     {"--kube-context", "-n", "--namespace", "--kubeconfig", "--kube-apiserver", "--kube-token", "--kube-as-user", "--registry-config", "--repository-config", "--repository-cache"},
	"docker":   {"-H", "--host", "--context", "-c", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"},
	"podman": {"--connection", "-c", "--url", "--root", "--runroot", "--log-level", "--identity", "--storage-driver", "--storage-opt",
		"--cgroup-manager", "--events-backend", "--cni-config-dir", "--conmon", "--hooks-dir", "--imagestore", "--network-cmd-path",
		"--network-config-dir", "--module", "--runtime", "--runtime-flag", "--ssh", "--tmpdir", "--volumepath", "--registries-conf", "--out"},
	"nerdctl": {"-n", "--namespace", "-a", "--address", "-H", "--host", "--snapshotter", "--storage-driver", "--cni-path",
		"--cni-netconfpath", "--data-root", "--cgroup-manager", "--host-gateway-ip", "--hosts-dir", "--bridge-ip", "--global-dns",
		"--global-dns-opts", "--global-dns-search"},
	"terraform": {"-chdir"},
	"pulumi":    {"-C", "--cwd", "--color", "--tracing", "--profiling", "--memprofilerate", "-v"},
	"tar":       {"-f", "--file", "-C", "--directory", "-T", "--files-from", "-X", "--exclude-from", "--exclude", "-b", "--blocking-factor", "-H", "--format", "-V", "--label"},
	"make":      {"-C", "--directory", "-f", "--file", "--makefile", "-I", "--include-dir", "-o", "--old-file", "-W", "--what-if", "--assume-new"},
	"go":        {"-C", "-run", "-bench", "-count", "-timeout", "-tags", "-p", "-ldflags", "-gcflags", "-asmflags", "-covermode", "-coverpkg", "-benchtime", "-parallel", "-skip", "-shuffle"},
	"npm":       {"--prefix", "-w", "--workspace"},
	// bun's working directory, before its subcommand or after run, is no script file.
	cmdBun:      {"--cwd"},
	"systemctl": {"-H", "--host", "-M", "--machine"},
	"aws":       {"--profile", "--region", optEndpointURL, "--output"},
	"gcloud":    {"--project", "--account", "--configuration", "--region", "--zone"},
	"az":        {"--subscription", "-g", "--resource-group"},
	"awk":       {"-F", "-v", "--field-separator", "--assign"},
	"sed":       {"-e", "--expression", "-f", "--file", "-l", "--line-length"},
	"gawk":      {"-F", "-v", "--field-separator", "--assign"},
	// kill's signal, and what selects pkill's and killall's processes, are not their patterns.
	"kill":    {"-s", "-n"},
	"pkill":   append(slices.Clip(processSelection), "--signal", "-q", "--queue"),
	"pgrep":   append(slices.Clip(processSelection), "-d", "--delimiter"), // lists what pkill would signal (killfeeds.go)
	"killall": {"-u", optUser, "-o", "--older-than", "-y", "--younger-than", "-s", "--signal", "-n", "--ns", "-Z", "--context"},
	"fuser":   {"-n", "--namespace"},
	// Compose's global options, before its subcommand (docker-compose -f dev.yml down -v).
	"docker-compose": composeValueOptions,
	"podman-compose": composeValueOptions,
}

// composeValueOptions are compose's global options that take a value.
var composeValueOptions = []string{"-f", "--file", "-p", "--project-name", "--profile", optEnvFile, optProjectDir, "--ansi", "--progress", "--parallel"}

// gitValueOptions are, per git subcommand, options whose value is the next word (a message, an
// author), so it is not taken for a path.
//
//nolint:goconst // option spellings and program names in this table read best literally, next to their neighbours
var gitValueOptions = map[string][]string{
	"commit": {"-m", "--message", "--author", "--date", "-C", "--reuse-message", "-c", "--reedit-message", "--fixup", "--squash", "--trailer"},
	"tag":    {"-m", "--message", "-u", "--local-user"},
	"merge":  {"-m", "--message", "-s", "--strategy", "-X", "--strategy-option"},
	"stash":  {"-m", "--message"},
	"notes":  {"-m", "--message"},
	// update-ref's reason is no ref or value (gitMovesRef counts its operands).
	"update-ref": {"-m"},
	gitLog:       {"-n", "--max-count", "--author", "--grep", "--since", "--until", "--format", "--pretty"},
	// grep's pattern and context sizes; -f's file stays an operand, read as a path.
	"grep": {"-e", "-A", "--after-context", "-B", "--before-context", "-C", "--context", "-m", "--max-count", "--max-depth", "--threads"},
	// git push -o ci.skip prod: ci.skip is -o's, prod the remote a project rule names. --repo
	// is left out: its value apart is read as the remote operand it stands for (gitPushRepos).
	subPush: {"-o", "--push-option", "--receive-pack", "--exec", "--recurse-submodules"},
}

// envOptions are environment variables that stand for a program's global option: a rule written
// for "kubectl --kubeconfig ..." also sees "KUBECONFIG=... kubectl ...".
var envOptions = map[string]map[string]string{
	"kubectl":   {envKubeconfig: "--kubeconfig"},
	"helm":      helmEnvOptions,
	"docker":    {"DOCKER_HOST": "--host", "DOCKER_CONTEXT": "--context", "DOCKER_CONFIG": "--config"},
	"git":       {envGitDir: gitDirOption, envGitWorkTree: gitWorkTreeOption},
	"aws":       awsEnvOptions,
	"terraform": {"TF_WORKSPACE": "-workspace"},
	// npm reads its configuration from npm_config_* in any case: a global install spelt there.
	"npm":  npmGlobalEnv,
	"pnpm": npmGlobalEnv,
	// gh's and glab's host: their token goes to the host the variable names.
	"gh": {"GH_HOST": optHostname}, cmdGlab: {"GITLAB_HOST": optHostname, "GL_HOST": optHostname, "GITLAB_URI": optHostname},
}

// helmEnvOptions are helm's variables for its global options: the API server, token, identity and
// CA its kubeconfig's credentials go with.
var helmEnvOptions = map[string]string{envKubeconfig: "--kubeconfig", "HELM_KUBECONTEXT": "--kube-context",
	"HELM_NAMESPACE": "--namespace", "HELM_KUBEAPISERVER": "--kube-apiserver", "HELM_KUBETOKEN": "--kube-token",
	"HELM_KUBEASUSER": "--kube-as-user", "HELM_KUBEASGROUPS": "--kube-as-group", "HELM_KUBECAFILE": "--kube-ca-file",
	"HELM_KUBEINSECURE_SKIP_TLS_VERIFY": "--kube-insecure-skip-tls-verify", "HELM_KUBETLS_SERVER_NAME": "--kube-tls-server-name"}

// awsEnvOptions are aws' variables for its profile, region, endpoint and CA bundle.
var awsEnvOptions = map[string]string{"AWS_PROFILE": "--profile", "AWS_REGION": "--region", "AWS_DEFAULT_REGION": "--region",
	"AWS_ENDPOINT_URL": optEndpointURL, "AWS_ENDPOINT_URL_STS": optEndpointURL, "AWS_CA_BUNDLE": "--ca-bundle"}

// npmGlobalEnv are the variables that make npm's and pnpm's install global (location=global).
var npmGlobalEnv = map[string]string{"npm_config_global": optGlobal, "NPM_CONFIG_GLOBAL": optGlobal,
	"npm_config_location": optGlobal, "NPM_CONFIG_LOCATION": optGlobal}

// optGlobal is npm's option for a global install.
const optGlobal = "--global"

// envFlags adds the options a segment's environment gives its program: the global options that
// environment variables stand for, and the words of GOFLAGS-style variables.
func envFlags(s *segment) {
	for _, kv := range s.env {
		name, val, _ := strings.Cut(kv, "=")
		if f, ok := envOptions[s.name][name]; ok {
			s.flags = append(s.flags, f)
		}
		if flagEnvVars[name] == s.name {
			for f := range strings.FieldsSeq(val) {
				if n, _, _ := strings.Cut(f, "="); len(n) > 1 && n[0] == '-' {
					s.flags = append(s.flags, n)
					if s.name == cmdUnzip && n[1] != '-' {
						// UNZIP=-o: is the bundle -o:, letter by letter as on the command line.
						for _, c := range n[1:] {
							s.flags = append(s.flags, "-"+string(c))
						}
					}
				}
			}
		}
	}
}

// getoptSpec describes a program's options as getopt_long reads them: short options that take a
// value (the rest of the bundle or the next word), short options whose value is optional (only
// the rest of the bundle), and long options, each marked "=" (value required) or "?" (value
// optional, only after "=") or "" (no value).
type getoptSpec struct {
	shortValue, shortOptional string
	long                      map[string]string
}

// getoptArg is one option as getopt_long returns it: the short letter ("-e") or the expanded
// long name ("--expression"), and its value when it took one.
type getoptArg struct {
	opt   string
	val   word
	isVal bool
}

// getopt reads argv (words[0] is the command) the way getopt_long would: bundles are split, a
// short option that takes a value takes the rest of the bundle or the next word, a long option
// is expanded from its abbreviation and takes its value after "=" or from the next word. It
// returns the options in order and the operands (GNU permutes, so operands may sit between options).
func getopt(words []word, spec getoptSpec) ([]getoptArg, []word) {
	var opts []getoptArg
	var operands []word
	longNames := make([]string, 0, len(spec.long))
	for n := range spec.long {
		longNames = append(longNames, n)
	}
	slices.Sort(longNames)
	for i := 1; i < len(words); i++ {
		w := words[i]
		v := w.s
		switch {
		case v == "--":
			return opts, append(operands, words[i+1:]...)
		case strings.HasPrefix(v, "--"):
			name, val, hasVal := strings.Cut(v, "=")
			name = expandLong(name, longNames...)
			a := getoptArg{opt: name}
			switch spec.long[name] {
			case "=":
				if hasVal {
					a.val, a.isVal = w.with(val), true
				} else if i+1 < len(words) {
					i++
					a.val, a.isVal = words[i], true
				}
			case "?":
				if hasVal {
					a.val, a.isVal = w.with(val), true
				}
			}
			opts = append(opts, a)
		case len(v) > 1 && v[0] == '-':
			for j := 1; j < len(v); j++ {
				c := v[j]
				a := getoptArg{opt: "-" + string(c)}
				switch {
				case strings.IndexByte(spec.shortValue, c) >= 0:
					if j+1 < len(v) {
						a.val, a.isVal = w.with(v[j+1:]), true
					} else if i+1 < len(words) {
						i++
						a.val, a.isVal = words[i], true
					}
					j = len(v)
				case strings.IndexByte(spec.shortOptional, c) >= 0:
					if j+1 < len(v) {
						a.val, a.isVal = w.with(v[j+1:]), true
					}
					j = len(v)
				}
				opts = append(opts, a)
			}
		default:
			operands = append(operands, w)
		}
	}
	return opts, operands
}

// sedOptions is GNU sed's option table.
var sedOptions = getoptSpec{shortValue: "efl", shortOptional: "i", long: map[string]string{
	sedExpression: "=", "--file": "=", "--line-length": "=", "--in-place": "?", "--quiet": "", "--silent": "",
	"--debug": "", "--follow-symlinks": "", "--null-data": "", "--zero-terminated": "", "--posix": "",
	"--regexp-extended": "", "--separate": "", "--sandbox": "", "--unbuffered": "", "--binary": "",
	"--help": "", "--version": "",
}}

// awkOptions is gawk's option table (a superset of mawk's and the one-true-awk's).
var awkOptions = getoptSpec{shortValue: "fFvEeil", shortOptional: "dDLpo", long: map[string]string{
	"--assign": "=", "--field-separator": "=", "--file": "=", "--exec": "=", "--source": "=", "--include": "=",
	"--load": "=", "--dump-variables": "?", "--debug": "?", "--lint": "?", "--pretty-print": "?", "--profile": "?",
	"--bignum": "", "--characters-as-bytes": "", "--copyright": "", "--gen-pot": "", "--help": "", "--no-optimize": "",
	"--non-decimal-data": "", "--optimize": "", "--posix": "", "--re-interval": "", "--sandbox": "", "--traditional": "",
	"--use-lc-numeric": "", "--version": "", "--csv": "", "--trace": "", "--persist": "?",
}}

// subcommandPrograms are programs whose first operand selects what they do: a rule written for
// "kubectl get secrets" or "git push" cannot judge "kubectl $V secrets" or "git p*sh".
var subcommandPrograms = map[string]bool{"git": true, "kubectl": true, "oc": true, "helm": true, "docker": true,
	"podman": true, "nerdctl": true, "terraform": true, "tofu": true, "go": true, "npm": true, "pnpm": true,
	"yarn": true, "cargo": true, "systemctl": true, "aws": true, "gcloud": true, "az": true, "gh": true,
	"vault": true, "op": true, "kustomize": true, "apt": true, "apt-get": true, "pip": true, "pip3": true}

// unresolvedWord returns why a word whose text is only known at run time stands where the
// program, its subcommand or an option goes, or "": a glob in the command name ("/bin/c?t") or in
// an option ("-[r]f"), whose match depends on the files there; a glob or a computed word as the
// subcommand of a program that has them ("kubectl g*t secrets", "kubectl $V secrets"). A
// computed option elsewhere counts as any flag for the rules (unknownFlags).
func unresolvedWord(s *segment) string {
	if s.words[0].glob {
		return "the command name " + s.words[0].s + " is a glob"
	}
	for _, w := range s.words[1:] {
		if w.s == "--" && !w.dynamic {
			break
		}
		if w.glob && strings.HasPrefix(w.s, "-") && !globbedValue(w.s) {
			return "the option " + w.s + " is a glob"
		}
	}
	if subcommandPrograms[s.name] && len(s.operands) > 0 && (s.operands[0].glob || s.operands[0].dynamic) {
		return "the subcommand " + s.operands[0].s + " of " + s.name + " is a glob or computed at run time"
	}
	if kv := computedPushTarget(s); kv != "" {
		return "git push's target is computed at run time (" + kv + ")"
	}
	return ""
}

// globbedValue reports whether a long option word's glob lies only in its value
// (--include=*.ts): whatever files it matches, every word it becomes is the same option, and the
// value is judged as the glob it is.
func globbedValue(w string) bool {
	i := strings.IndexByte(w, '=')
	return strings.HasPrefix(w, "--") && i > 2 && !hasGlobMeta(w[:i])
}

// envKubeconfig names the kubeconfig kubectl and helm read: --kubeconfig to a rule, code to run
// to the engine (codeEnvVars).
const envKubeconfig = "KUBECONFIG"
