package safety

import (
	"cmp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Runners run the command given as their arguments, as the wrappers do, but after a subcommand
// (uv run, poetry run, npm exec, pnpm exec, bundle exec, conda run, direnv exec DIR, mise exec
// ... --, nix shell ... -c, perf record) or after an option (xterm -e): "uv run rm -rf /" is
// rm -rf /. The wrapped command is analysed as a segment of its own, so the rules and the path
// policy see it; a runner's own value-taking options are listed so their values are not taken
// for the command.

// optPython is the long option (without "--") that chooses the Python of uv run and pipenv.
const optPython = "python"

// optName is the long option (without "--") that names the environment or container of conda
// run and distrobox enter.
const optName = "name"

// cmdNpm is npm, whose explore runs its command in a package's directory.
const cmdNpm = "npm"

// optExclude is the long option (without "--") by which nx exec and yarn workspaces foreach leave
// projects out.
const optExclude = "exclude"

// cmdNpx and cmdPnpx are npm's and pnpm's runners of a package's bin.
const (
	cmdNpx  = "npx"
	cmdPnpx = "pnpx"
)

// cmdAfterDashes marks a runner whose command follows "--" (mise exec TOOL@VERSION -- CMD).
const cmdAfterDashes = "--"

// cmdMinikube is minikube, a runner of ssh's script and of its cluster's kubectl.
const cmdMinikube = "minikube"

// runnerWrappers are runners known by their name alone.
//
//nolint:goconst // option spellings in this table read best literally, next to their neighbours
var runnerWrappers = map[string]wrapSpec{
	// npx PKG ARGS runs PKG's bin; -c runs a shell command; -p names the package.
	cmdNpx:  npxSpec,
	cmdPnpx: npxSpec,
	cmdBunx: bunxSpec,
	"systemd-run": {argOpts: "upEHMC", longArgs: []string{"unit", "property", "description", "slice", "setenv", "host",
		"machine", "uid", "gid", "nice", "working-directory", "service-type", "on-active", "on-boot", "on-startup",
		"on-unit-active", "on-unit-inactive", "on-calendar", "on-timezone-change", "on-clock-change", "timer-property",
		"path-property", "socket-property", "background", "expand-environment", "capsule"}, longChdir: "working-directory"},
	"run0": {argOpts: "ugD", longArgs: []string{"user", "group", "nice", "chdir", "setenv", "unit", "property", "description",
		"slice", "background", "machine"}, chdir: 'D', longChdir: "chdir"},
	"chpst":    {argOpts: "ugUebenlLamdofcpr", readOpts: "e"},
	"fakeroot": {argOpts: "isb", longArgs: []string{"lib", "faked"}, readOpts: "i", writeOpts: "s"},
	"valgrind": {longArgs: []string{"log-file", "xml-file"}, longWrite: []string{"log-file", "xml-file"}},
	"xvfb-run": {argOpts: "nsfpew", longArgs: []string{"server-num", "server-args", "auth-file", "xauth-protocol", "error-file", "wait"},
		writeOpts: "fe", longWrite: []string{"auth-file", "error-file"}},
	"ssh-agent": {argOpts: "aEOPt", writeOpts: "a"},
	"rlwrap": {argOpts: "bCDefFgHlOPqsStwz", optArgOpts: "ap", longArgs: []string{"break-chars", "command-name", "history-no-dupes",
		"extra-char-after-completion", "file", "history-format", "forget-matching", "history-filename", "logfile",
		"one-shot", "only-cook", "pass-sigint-as-sigterm", "set-term-name", "polling", "histsize", "substitute-prompt",
		"wait-before-prompt", "filter", "prompt-colour", "pre-given"}, writeOpts: "lH", longWrite: []string{"logfile", "history-filename"}},
	"dtach":           {argOpts: "nNcAer", writeOpts: "nNcA"},
	"distrobox-enter": distroboxEnter,
	"lima":            {shellIfNone: true},
	"orb":             orbRun,
	// wsl runs its command line in a Linux distribution that mounts the Windows drives.
	"wsl":     wslSpec,
	"wsl.exe": wslSpec,
	// flatpak-spawn runs its command in a new sandbox of the app or, with --host, on the host.
	"flatpak-spawn": {longArgs: []string{"forward-fd", "env", "unset-env", "app-path", "usr-path", "sandbox-expose", "sandbox-expose-ro",
		"sandbox-expose-path", "sandbox-expose-path-ro", "sandbox-flag", "directory"}, longChdir: "directory"},
	"proot": {argOpts: "rbmwkq", longArgs: []string{"rootfs", "bind", "mount", "cwd", "kernel-release", "qemu", "verbose"},
		chdir: 'w', longChdir: "cwd"},
	// The JavaScript projects' own runners of commands: cross-env sets variables for its command
	// (cross-env-shell runs its words as a shell line), concurrently runs each operand as a shell
	// line, nodemon -x|--exec and chokidar -c|--command a shell line when files change, onchange
	// the command after "--", watchexec its words as a shell line.
	// envchain NAMESPACE CMD and summon CMD run CMD with the secrets of a keychain or a provider.
	"envchain":        {skip: 1},
	"summon":          {argOpts: "pfD", longArgs: []string{"provider", "environment", "yaml"}},
	"cross-env":       {assigns: true},
	"cross-env-shell": {assigns: true, joinScript: true},
	"concurrently": {argOpts: "ncpltsm", longArgs: []string{"names", "name-separator", "prefix-colors", "prefix", "prefix-length",
		"timestamp-format", "success", "restart-tries", "restart-after", "max-processes", "kill-signal", "default-input-target",
		"teardown"}, eachScript: true, longScripts: []string{"teardown"}, shortcuts: true},
	// nodemon SCRIPT runs node SCRIPT (or its execMap's program for the extension: opaque alike),
	// and -x CMD SCRIPT runs the shell line "CMD SCRIPT"; -V and -C take no value.
	"nodemon": {argOpts: "weidsP", script: 'x', longArgs: []string{"watch", "ext", "ignore", "delay", "signal", "config", "exec", "cwd",
		"polling-interval"}, longScript: "exec", longChdir: "cwd", program: "node", scriptArgs: true},
	"chokidar": {argOpts: "dti", script: 'c', longArgs: []string{"debounce", "throttle", "ignore", "poll-interval",
		"poll-interval-binary", longOptCommand}, longScript: longOptCommand, cmdAfter: []string{"--"}},
	"onchange": {argOpts: "edjfo", longArgs: []string{optExclude, "delay", "jobs", "filter", "outpath", "kill-signal", "cwd"},
		cmdAfter: []string{cmdAfterDashes}, longChdir: "cwd"},
	// watchexec's -p|--postpone, -I and --timings take no value, -o|--on-busy-update, -j
	// (--filter-prog), -F (--watch-file) and --fs-events one, --poll one after "=" only.
	"watchexec": {argOpts: "wefidsEWojF", longArgs: []string{"watch", "exts", "filter", "ignore", "ignore-file", "debounce", "delay-run",
		"signal", "stop-signal", "stop-timeout", "env", "shell", "project-origin", "workdir", "on-busy-update", "emit-events-to",
		"filter-file", "filter-prog", "poll", "color", "wrap-process", "fs-events", "watch-file", "watch-non-recursive", "map-signal"},
		// --log-file=FILE writes its log there, judged as a write of FILE is (> FILE); apart, or
		// without a value, it is opaque (runnerOptionsUnread).
		longOpt: []string{"poll", "log-file"}, longWrite: []string{"log-file"}, longChdir: "workdir", joinScript: true},
}

// subcommandRunners are runners whose command follows a subcommand, by program and subcommand.
//
//nolint:goconst // option spellings in this table read best literally, next to their neighbours
var subcommandRunners = map[string]map[string]wrapSpec{
	"uv": {subRun: {argOpts: "pfPCi", pyScript: true, longArgs: []string{optPython, "with", "with-requirements", "with-editable", "project",
		"directory", "env-file", "extra", "group", "only-group", "no-group", "package", "index", "default-index",
		"index-url", "extra-index-url", "find-links", "config-file", "cache-dir", "no-extra", "refresh-package",
		"reinstall-package", "upgrade-package", "no-binary-package", "no-build-package", "prerelease", "resolution",
		"config-setting", "fork-strategy", "no-build-isolation-package", "exclude-newer-package",
		"index-strategy", "keyring-provider", "link-mode", "python-platform", "exclude-newer", "color", "allow-insecure-host"},
		longChdir: "directory", longRead: "env-file", fetch: &fetchSpec{"package-fetch-run-uv", "fi",
			[]string{"with", "with-requirements", "with-editable", "index", "default-index", "index-url", "extra-index-url", "find-links",
				"config-file"}}}},
	"poetry": {subRun: {argOpts: "PC", longArgs: []string{"project", "directory"}, chdir: 'C', longChdir: "directory"}},
	"pipenv": {subRun: {}},
	"pdm":    {subRun: {argOpts: "pL", longArgs: []string{"project", "venv", "lockfile"}}},
	// hatch env run ARGS is hatch run ARGS (hatch env's other verbs run nothing).
	// hatch run, pixi run and devbox run run their words as one shell line (a task's name, or a
	// command: pixi run 'rm -rf ~' is rm -rf ~ in deno_task_shell).
	"hatch": {subRun: {envPrefix: true, joinScript: true}, "env": {again: true}},
	"rye":   {subRun: {longArgs: []string{"pyproject"}}},
	// coverage run runs a Python program under measurement: -m's module, as python -m does, or
	// else its first operand as a Python file, whatever its name. Its options are listed (optparse
	// takes abbreviations), so one it does not list, which may take the word read as the program,
	// makes it opaque.
	cmdCoverage: {subRun: {pyAlways: true, strict: true, shortFlags: "aLmph",
		longArgs: []string{"concurrency", "context", "data-file", subDebug, "include", "omit", "rcfile", "source", "save-signal"},
		flags:    []string{"append", "branch", "module", "parallel-mode", "pylib", "timid", subHelp}}},
	// npm explore PKG [-- CMD]: the words after PKG, joined, are a script for npm's shell, run in
	// node_modules/PKG (or that shell alone, reading what it is fed).
	"npm": {"exec": npmExec, "x": npmExec, "explore": {skip: 1, joinScript: true, shellIfNone: true}},
	// pnpm recursive|multi|m CMD is pnpm -r CMD. pnpm exec (and pnpm NAME, run as it when no
	// script has the name) reads only the options listed: another one, whose value could be the
	// word taken for the command (pnpm --test-pattern x rimraf ~), makes it opaque.
	"pnpm": {"exec": pnpmExec, "dlx": {longArgs: []string{"package", "allow-build"}},
		"recursive": {again: true}, "multi": {again: true}, "m": {again: true}},
	// bun x is bunx, with its rule (runnerPackage).
	cmdBun: {"x": bunX},
	// yarn exec runs its words as a script of Yarn's shell: yarn exec 'tsc && babel src'.
	"yarn": {"exec": {joinScript: true}, "dlx": {argOpts: "p", longArgs: []string{"package"}}, "node": toolSub,
		// yarn workspace NAME CMD and yarn workspaces foreach CMD run the yarn command CMD.
		"workspace":  {skip: 1, again: true},
		"workspaces": {skip: 1, again: true, argOpts: "j", longArgs: []string{"from", "include", optExclude, "jobs"}}},
	cmdBundle: {"exec": {longArgs: []string{"gemfile"}}},
	"bundler": {"exec": {longArgs: []string{"gemfile"}}},
	// Version managers run the command with the version the directory (or the operand) selects.
	"rbenv":  {"exec": {}},
	"pyenv":  {"exec": {}},
	"nodenv": {"exec": {}},
	"goenv":  {"exec": {}},
	"jenv":   {"exec": {}},
	"plenv":  {"exec": {}},
	"phpenv": {"exec": {}},
	"fnm":    {"exec": {longArgs: []string{"using"}}},
	"volta":  {subRun: {longArgs: []string{"node", "npm", "pnpm", "yarn", "env"}}},
	"nvm":    {"exec": {versioned: true}},
	// rustup run [--install] TOOLCHAIN CMD runs CMD with that toolchain's cargo and rustc first on
	// its PATH.
	"rustup": {subRun: {skip: 1}},
	// Development containers and toolboxes run the command in a container that shares the host's
	// home and the project (devcontainer exec in the workspace folder's container, distrobox's and
	// toolbox's in the user's home and directory), with the user's environment: a host command.
	"devcontainer": {"exec": {longArgs: []string{"user-data-folder", "docker-path", "docker-compose-path", "container-data-folder",
		"container-system-data-folder", "workspace-folder", "container-id", "id-label", "config", "override-config", "log-level",
		"log-format", "terminal-rows", "terminal-columns", "default-user-env-probe", "remote-env"}, longChdir: "workspace-folder"}},
	"distrobox": {"enter": distroboxEnter},
	// Local virtual machines run the command in a machine that mounts the user's home (lima's in
	// the same directory as here), with what the agent can read there: vagrant ssh -c is a
	// script, minikube ssh's words joined are one; with none, the login shell reads what it is fed.
	"vagrant": {"ssh": {skip: 1, script: 'c', longScript: longOptCommand, shellIfNone: true}},
	cmdMinikube: {"ssh": {argOpts: "np", longArgs: []string{"node", "profile"}, joinScript: true, shellIfNone: true},
		// minikube kubectl [--] ARGS runs the cluster's kubectl with ARGS.
		cmdKubectl: {program: cmdKubectl}},
	"colima":    {"ssh": {argOpts: "p", longArgs: []string{"profile"}, shellIfNone: true}},
	"limactl":   {"shell": {skip: 1, longArgs: []string{"workdir", "shell"}, longChdir: "workdir", shellIfNone: true}},
	"multipass": {"exec": {skip: 1, argOpts: "d", longArgs: []string{"working-directory"}}},
	"orbctl":    {subRun: orbRun},
	// buildah run runs the command in a build's working container, as docker exec does, and
	// crictl exec in a Kubernetes node's; lxc and incus exec in a system container.
	"buildah": {subRun: {skip: 1, argOpts: "ev", longArgs: []string{"cap-add", "cap-drop", "cgroupns", "contextdir", mountDevice, "env",
		"hostname", "ipc", "isolation", "mount", "network", "net", "pid", "runtime", "runtime-flag", "user", "uts", "volume", "workingdir"}}},
	"crictl":     {"exec": {skip: 1, longArgs: []string{"timeout"}}},
	"lxc":        {"exec": lxcExec},
	"incus":      {"exec": lxcExec},
	"toolbox":    {subRun: {argOpts: "cdr", longArgs: []string{subContainer, "distro", "release", "preserve-fds"}}},
	"conda":      {subRun: condaRun},
	"mamba":      {subRun: condaRun},
	"micromamba": {subRun: condaRun},
	cmdDirenv:    {"exec": {skip: 1}},
	"mise":       {"exec": miseExec, "x": miseExec},
	"rtx":        {"exec": miseExec, "x": miseExec},
	"asdf":       {"exec": {}},
	"nix":        {"shell": nixCommand, "develop": nixCommand},
	"perf":       {"record": perfRecord, "stat": perfSpec, "trace": perfSpec},
	// microk8s, k3s and k0s run the tool their subcommand names: microk8s kubectl delete ns x is
	// kubectl's.
	"microk8s": {cmdKubectl: toolSub, cmdHelm: toolSub, "helm3": toolSub, "ctr": toolSub},
	"k3s":      {cmdKubectl: toolSub, "crictl": toolSub, "ctr": toolSub},
	"k0s":      {cmdKubectl: toolSub, "ctr": toolSub},
	"tox": {"exec": {argOpts: "ecx", longArgs: []string{"conf", "root", "workdir", "override", "colored", "installpkg", "hashseed",
		"discover", "result-json", "runner", "skip-env", "exit-and-dump-after"}, cmdAfter: []string{cmdAfterDashes}}},
	// lerna exec and nx exec run their words joined as one shell line (shell: true).
	"lerna":  {"exec": {longArgs: []string{"scope", "ignore", "concurrency", "since", "loglevel", "profile-location"}, joinScript: true}},
	"nx":     {"exec": {longArgs: []string{"projects", optExclude}, joinScript: true}},
	"pixi":   {subRun: {argOpts: "em", longArgs: []string{"environment", "manifest-path", "color", "concurrent-downloads", "concurrent-solves", "auth-file", "pypi-keyring-provider"}, joinScript: true}},
	"devbox": {subRun: {argOpts: "ce", longArgs: []string{"config", "env", "env-file", "environment"}, longRead: "env-file", joinScript: true}},
	// teller run [--shell] -- CMD runs CMD with the secrets its providers load.
	"teller":   {subRun: {argOpts: "c", longArgs: []string{"config"}, cmdAfter: []string{cmdAfterDashes}}},
	"corepack": corepackRuns,
	// Secret managers and .env loaders run a command with the secrets (or the .env) they load in
	// its environment: doppler run -- env prints them all, as op run does.
	"doppler": {subRun: {argOpts: "pc", longArgs: []string{"project", "config", "token", "fallback", "mount", "mount-format", "mount-template",
		"mount-max-reads", "name-transformer", "only-secrets", "scope", "configuration", "api-host", "dashboard-host", "config-dir",
		"fallback-passphrase", "passphrase"}, longScript: longOptCommand}},
	cmdInfisical: {subRun: {longArgs: []string{"env", "path", "projectId", "token", "domain", "tags", "watch-interval", "project-config-dir"},
		longScript: longOptCommand}},
	"chamber":   {subExec: {cmdAfter: []string{cmdAfterDashes}}},
	"aws-vault": {subExec: {skip: 1, argOpts: "dt", longArgs: []string{"duration", "mfa-token", "region", "prompt", "backend"}, shellIfNone: true}},
	cmdDotenv:   {subRun: {}},
	cmdDotenvx: {subRun: {argOpts: "fe", longArgs: []string{"env-file", "env", "env-keys-file", "env-vault-file", "convention"},
		cmdAfter: []string{cmdAfterDashes}, dashesOpt: true}},
	"foreman": {subRun: {argOpts: "efd", longArgs: []string{"env", "procfile", "root"}}},
	cmdHoncho: {subRun: {}},
	"railway": {subRun: {argOpts: "se", longArgs: []string{"service", "environment"}}},
	// heroku run runs its command on a dyno, with the app's config vars in its environment.
	"heroku": {"local:run": {argOpts: "ep", longArgs: []string{"env", "port"}}, subRun: herokuRun, "run:detached": herokuRun},
}

// herokuRun is heroku run's (and run:detached's) spec: the options that take a value, and its
// words joined are the script the dyno's shell runs (heroku run 'env | grep DB').
//
//nolint:goconst // option spellings read best literally
var herokuRun = wrapSpec{argOpts: "arse", longArgs: []string{"app", "remote", "size", "env", "type"}, joinScript: true}

// distroboxEnter is distrobox enter's spec: its command follows -e, --exec or "--" (a word
// before it names the container); with none it runs the user's login shell, which reads what it
// is fed.
//
//nolint:goconst // option spellings read best literally
var distroboxEnter = wrapSpec{argOpts: "na", longArgs: []string{optName, "additional-flags"}, cmdAfter: []string{cmdAfterDashes, "-e", "--exec"},
	shellIfNone: true}

// lxcExec is lxc's and incus's exec: the instance, then the command (after "--", as a rule).
var lxcExec = wrapSpec{skip: 1, longArgs: []string{"env", "cwd", "user", "group", "mode"}}

// orbRun is OrbStack's (orb CMD, orbctl run CMD) spec: -m names the machine, -w the directory.
var orbRun = wrapSpec{argOpts: "muw", longArgs: []string{"machine", "user", "workdir"}}

// wslSpec is wsl's: -d names the distribution, -u the user, --cd the directory; -e runs the
// command without a shell.
var wslSpec = wrapSpec{argOpts: "du", longArgs: []string{"distribution", "user", "cd", "shell-type"}, longChdir: "cd"}

// corepackRuns are the package managers corepack runs, named as its first operand with or
// without a version ("corepack pnpm exec CMD" and "corepack pnpm@9.1.0 exec CMD" are pnpm exec
// CMD): the operand is the program, not a subcommand before it.
var corepackRuns = map[string]wrapSpec{"npm": corepackRun, cmdNpx: corepackRun, "pnpm": corepackRun, cmdPnpx: corepackRun,
	"yarn": corepackRun, "yarnpkg": corepackRun}

// corepackRun is the spec of each: the operand, without its version, is the program run.
var corepackRun = wrapSpec{skip: -1, atVersion: true}

//nolint:goconst // option spellings in these specs read best literally, next to their neighbours
var (
	npxSpec    = wrapSpec{argOpts: "pcwC", longArgs: append([]string{"package", "call"}, npmConfig...), script: 'c', longScript: "call", fetch: &fetchSpec{"package-fetch-run", "py", npmFetch}, dashLong: true}
	bunxSpec   = wrapSpec{argOpts: "p", longArgs: []string{"package"}}
	bunX       = wrapSpec{argOpts: "p", longArgs: []string{"package"}, fetch: &fetchSpec{rule: fetchRule}}
	npmExec    = wrapSpec{argOpts: "pcC", longArgs: []string{"package", "call"}, script: 'c', longScript: "call", fetch: &fetchSpec{"package-fetch-run-exec", "py", npmFetch}, dashLong: true}
	condaRun   = wrapSpec{argOpts: "np", longArgs: []string{optName, "prefix", "cwd"}, longChdir: "cwd"}
	miseExec   = wrapSpec{argOpts: "cCj", longArgs: []string{longOptCommand, "cd", "jobs"}, script: 'c', longScript: longOptCommand, cmdAfter: []string{cmdAfterDashes}, chdir: 'C', longChdir: "cd"}
	nixCommand = wrapSpec{cmdAfter: []string{"-c", "--command"}}
	// toolSub is a subcommand that is itself the program run: runnerSpec's skip of it is undone.
	toolSub  = wrapSpec{skip: -1}
	perfSpec = wrapSpec{argOpts: "eoCptGFmcIrxj", longArgs: []string{"event", "output", "cpu", "pid", "tid", "cgroup", "freq",
		"mmap-pages", "call-graph", "repeat", "delay", "field-separator", "post", "pre", "interval-print"},
		writeOpts: "o", longWrite: []string{"output"}}
	// perf record's -I and --intr-regs, --user-regs take their registers attached only; -g is a flag.
	perfRecord = wrapSpec{argOpts: "eoCptGFmcrj", optArgOpts: "I", longArgs: perfSpec.longArgs, longOpt: []string{"intr-regs", "user-regs"},
		writeOpts: "o", longWrite: []string{"output"}}
)

// pnpmExec is pnpm exec's spec (pnpm's global options are added to it): -c|--shell-mode make
// its words one shell line; only the options it lists are read (strict).
//
//nolint:goconst // option spellings read best literally
var pnpmExec = wrapSpec{shellFlags: []string{"-c", "--shell-mode"}, strict: true, shortFlags: "rcswh",
	longArgs: []string{"resume-from", "test-pattern", "changed-files-ignore-pattern", "filter-prod", "reporter-hide-prefix"},
	flags: []string{"recursive", "shell-mode", "silent", "parallel", "stream", "workspace-root", "if-present", "aggregate-output",
		"no-bail", "bail", "sort", "no-sort", "reverse", "include-workspace-root", "use-stderr", "color", "no-color",
		"report-summary", "fail-if-no-match", "offline", "prefer-offline", subHelp}}

// runnerGlobals are the options a subcommand runner reads before its subcommand (and, for
// most, after it) that take a value, and those that name the directory the command runs in:
// "uv --directory / run rm -rf build" deletes /build. They are added to each of the runner's
// subcommand specs and to valueOptions, so its subcommand is found after them and its command
// after that. npm's --prefix names where its bins are found, not where the command runs.
//
//nolint:goconst // option spellings in this table read best literally, next to their neighbours
var runnerGlobals = map[string]wrapSpec{
	"uv": {longArgs: []string{"directory", "project", "config-file", "cache-dir", "color", "python-preference",
		"python-fetch", "allow-insecure-host"}, longChdir: "directory"},
	"poetry": {argOpts: "PC", longArgs: []string{"project", "directory"}, chdir: 'C', longChdir: "directory"},
	"pdm":    {argOpts: "pc", longArgs: []string{"project", "config"}},
	"hatch":  {argOpts: "ep", longArgs: []string{"env", "project", "color", "data-dir", "cache-dir", "config"}},
	"pipenv": {longArgs: []string{optPython, "pypi-mirror"}},
	"npm":    {argOpts: "wC", longArgs: npmConfig}, // -C is --prefix
	"pnpm": {argOpts: "CF", longArgs: []string{"dir", "filter", "workspace-concurrency", "reporter", "loglevel"},
		chdir: 'C', longChdir: "dir"},
	"yarn":    {longArgs: []string{"cwd", "modules-folder", "cache-folder", "mutex", "network-timeout", "registry"}, longChdir: "cwd"},
	cmdBundle: {argOpts: "r", longArgs: []string{"retry"}},
	"bundler": {argOpts: "r", longArgs: []string{"retry"}},
	// minikube's profile names the cluster its subcommand (ssh, kubectl) talks to.
	cmdMinikube: {argOpts: "p", longArgs: []string{"profile"}},
	"fnm":       {longArgs: []string{"node-dist-mirror", "fnm-dir", "log-level", "arch", "version-file-strategy", "resolve-engines"}},
	"toolbox":   {longArgs: []string{"log-level"}},
	"mise":      miseGlobals,
	"rtx":       miseGlobals,
	cmdDotenv:   {argOpts: "fqe", longArgs: []string{"file", "quote", "export"}},
	cmdHoncho:   {argOpts: "efd", longArgs: []string{"env", "procfile", "app-root"}},
	"nix": {argOpts: "Ijf", longArgs: []string{"extra-experimental-features", "experimental-features", "option", "store",
		"eval-store", "log-format", "max-jobs", "cores", "builders", "substituters", "extra-substituters", "trusted-public-keys", //nolint:misspell // nix's spelling
		"extra-trusted-public-keys", "access-tokens", "include", "system", "extra-platforms", "inputs-from", "file", "expr"}},
}

// fetchSpec names a runner's options by which it fetches packages from where the caller chooses
// (another index or registry, a directory of links, requirements besides the project's, a
// configuration file that can name an index or registry) and runs
// them: "uv run --index URL pytest" may run a pytest from that index. rule is the damage-control
// rule that asks for it, at every level.
type fetchSpec struct {
	rule  string
	short string
	long  []string
}

// npmRegistry names the registry npm exec and npx fetch a missing package from, or the
// configuration file that can.
var npmRegistry = []string{"registry", "userconfig", "globalconfig"}

// npmFetch are npx's and npm exec's fetch options: the registry's, and --package (-p) and --yes
// (-y), which the pack's rules name, in every spelling the runner's reading takes (npx -package
// evil jest, --p=evil, --pack evil: nopt's -NAME, --X and abbreviations) so the fetch is seen
// whichever is used.
var npmFetch = append([]string{"package", optYes}, npmRegistry...)

// optYes is npx's and npm exec's --yes (without "--"), which fetches without asking.
const optYes = "yes"

// fetchEnvVars are the variables that stand for a runner's fetch options, upper case, and the rule
// that asks for setting them: exported or set for a command, the runners that see them fetch from
// there (uv reads UV_INDEX_URL, npm and npx npm_config_registry in any case; npm_config_package
// names the packages npx and npm exec fetch and run, npm_config_yes=true then fetches unasked).
var fetchEnvVars = map[string]string{"UV_INDEX": "package-fetch-run-uv", "UV_DEFAULT_INDEX": "package-fetch-run-uv",
	"UV_INDEX_URL": "package-fetch-run-uv", "UV_EXTRA_INDEX_URL": "package-fetch-run-uv", "UV_FIND_LINKS": "package-fetch-run-uv",
	"UV_CONFIG_FILE": "package-fetch-run-uv", "NPM_CONFIG_REGISTRY": "package-fetch-run", "NPM_CONFIG_USERCONFIG": "package-fetch-run",
	"NPM_CONFIG_GLOBALCONFIG": "package-fetch-run", "NPM_CONFIG_PACKAGE": "package-fetch-run", "YARN_REGISTRY": fetchRule, "YARN_NPM_REGISTRY_SERVER": fetchRule,
	"BUN_CONFIG_REGISTRY": fetchRule}

// runnerFetch asks for a runner given one of its fetch options.
func (a *analyzer) runnerFetch(idx int, f *fetchSpec, given bool) {
	if f != nil && given {
		a.find(false, RulePrefixDamageControl+f.rule, "command %q fetches packages from where its options say and runs them: code that is not a project dependency; it needs human approval", truncate(a.out.segments[idx].text, 120))
	}
}

// miseGlobals are mise's global options that take a value (rtx was its name).
var miseGlobals = wrapSpec{argOpts: "CEj", longArgs: []string{"cd", "env", "jobs", "log-level"}, chdir: 'C', longChdir: "cd"}

// npmConfig are npm's configuration options that take a value, read by npm and npx alike (npm's
// parser takes an option it does not know for a flag).
var npmConfig = []string{"prefix", "workspace", "loglevel", "registry", "userconfig", "globalconfig", "cache", "include", "omit", "tag",
	"script-shell", "node-options", "shell"}

func init() {
	for prog, g := range runnerGlobals {
		for sub, spec := range subcommandRunners[prog] {
			spec.argOpts += g.argOpts
			spec.longArgs = append(slices.Clip(spec.longArgs), g.longArgs...)
			spec.chdir = cmp.Or(spec.chdir, g.chdir)
			spec.longChdir = cmp.Or(spec.longChdir, g.longChdir)
			subcommandRunners[prog][sub] = spec
		}
		for _, c := range g.argOpts {
			valueOptions[prog] = append(valueOptions[prog], "-"+string(c))
		}
		for _, l := range g.longArgs {
			valueOptions[prog] = append(valueOptions[prog], "--"+l)
		}
	}
}

// Script runners run a package.json script by its name, and when the project has none of that
// name they run a program of that name: pnpm NAME (not one of pnpm's own commands) runs the
// script, a dependency's bin or else the shell command NAME ARGS; yarn NAME and yarn run NAME the
// script or a dependency's bin; bun run NAME the script, a bin or the program NAME found by which.
// pnpm chmod -R 777 /, bun run rm -rf ~ and yarn rimraf ~ may run chmod, rm and rimraf, so what
// follows the runner is also judged as the command it would be; it does not make the call
// unrecognised, as pnpm lint, most likely the project's script, is not.

// optRequire is the long option (without "--") by which yarn run preloads a module.
const optRequire = "require"

// scriptRunners are the script runners whose NAME may be a program (yarn NAME, pnpm NAME), by
// their own commands, which they run instead, and the spec of their run (yarn run NAME, bun run
// NAME; pnpm run NAME runs only a script).
var scriptRunners = map[string]struct {
	own map[string]bool
	run *wrapSpec
}{
	// pnpm's own commands and the npm commands it passes to npm.
	"pnpm": {own: wordSet("add audit bin c config create dedupe deploy dlx doctor env exec fetch i import init install " +
		"install-test it licenses link ln list ls ll la outdated pack patch patch-commit patch-remove prune publish rebuild rb " +
		"recursive multi m remove rm uninstall un unlink dislink update up upgrade root run run-script server setup start store " +
		"t test tst why self-update approve-builds ignored-builds cat-file cat-index find-hash help completion sbom " +
		"access adduser bugs deprecate dist-tag docs edit info login logout owner ping prefix profile pkg repo s se search " +
		"set-script show star stars team token unpublish unstar v version view whoami xmas")},
	// Yarn's commands, Berry's and Classic's (yarn env and yarn run env print the environment).
	"yarn": {own: wordSet("add audit autoclean bin cache check config constraints create dedupe dlx env exec explain generate-lock-entry " +
		"global help import info init install licenses link list login logout node npm outdated owner pack patch patch-commit " +
		"plugin policies prune publish rebuild remove run search self-update set stage start tag team test unlink unplug up " +
		"upgrade upgrade-interactive version versions why workspace workspaces"),
		run: &wrapSpec{skip: 1, longArgs: []string{optRequire, "cwd"}, longChdir: "cwd"}},
	cmdBun: {run: &wrapSpec{skip: 1, argOpts: "Frcdl", longArgs: []string{"filter", "cwd", "env-file", "elide-lines", "shell", "preload",
		"config", "define", "loader", "tsconfig-override", "conditions", "main-fields"}, longChdir: "cwd", longRead: "env-file",
		strict: true, shortFlags: "bh", flags: []string{cmdBun, "watch", "hot", "no-clear-screen", "silent", "if-present", "smol",
			"no-install", "prefer-offline", "prefer-latest", "workspaces", subHelp}}},
}

// fallbackSpec returns the runner spec by which a script runner's segment runs a program when no
// script has the name (pnpm NAME, yarn [run] NAME, bun run NAME), and whether it may.
func fallbackSpec(s *segment) (wrapSpec, bool) {
	r, ok := scriptRunners[s.name]
	if !ok || len(s.operands) == 0 || s.operands[0].dynamic {
		return wrapSpec{}, false
	}
	name := s.operands[0].s
	_, runner := subcommandRunners[s.name][name]
	switch {
	case r.run != nil && name == subRun:
		// A file (bun run x.ts) is bun's to run, which runsCode judges; yarn run env is yarn's.
		if script := s.operands[min(1, len(s.operands)-1)]; len(s.operands) > 1 && !script.dynamic && !strings.ContainsAny(script.s, "./") && !r.own[script.s] {
			return *r.run, true
		}
	case r.own != nil && !r.own[name] && !runner:
		spec := subcommandRunners[s.name]["exec"]
		spec.joinScript = false // yarn exec's script: yarn NAME is no script
		return spec, true
	}
	return wrapSpec{}, false
}

// scriptFallback judges what a script runner runs when the project has no script of the name,
// as its own segments that need not be recognised (fallbackSpec).
func (a *analyzer) scriptFallback(idx int, redirs []*syntax.Redirect, depth int) {
	spec, ok := fallbackSpec(&a.out.segments[idx])
	if !ok {
		return
	}
	n := len(a.out.segments)
	a.unwrap(idx, spec, redirs, depth)
	a.out.segments[idx].wrapper = false // pnpm and its script are what runs first
	for i := n; i < len(a.out.segments); i++ {
		a.out.segments[i].fallback = true
	}
}

// npmCommands are npm's commands and aliases (npm 10's cmd-list): npm runs the one of which its
// subcommand is an unambiguous prefix, so npm exe -c CMD is npm exec -c CMD, npm explo npm explore.
var npmCommands = strings.Fields("access adduser audit bugs cache ci completion config dedupe deprecate diff dist-tag docs " +
	"doctor edit exec explain explore find-dupes fund get help help-search hook init install install-ci-test install-test " +
	"link ll login logout ls org outdated owner pack ping pkg prefix profile prune publish query rebuild repo restart root " +
	"run-script sbom search set set-script shrinkwrap star stars start stop team test token undeprecate uninstall unpublish " +
	"unstar update version view whoami author home issues info show find add unlink remove rm r un rb list ln create i it " +
	"cit up c s se tst t ddp v run x why la verison udpate upgrade innit hlep dist-tags in ins inst insta instal isnt isnta " + //nolint:misspell // npm's own aliases of its typos
	"isntal isntall ic install-clean isntall-clean clean-install clean-install-test sit urn rum add-user")

// npmCommand returns the npm command an unambiguous prefix names, or sub itself.
func npmCommand(sub string) string {
	var found []string
	for _, c := range npmCommands {
		if c == sub {
			return sub
		}
		if strings.HasPrefix(c, sub) {
			found = append(found, c)
		}
	}
	if len(found) == 1 {
		return found[0]
	}
	return sub
}

// runnerSubcommandHidden returns why a subcommand runner's subcommand is not known, or "": an
// option the engine does not know comes before its first operand, and a later operand is one
// of its runner subcommands. The option may take the first operand as its value (nix --option
// NAME VALUE, npm's configuration), so that subcommand may run a command the engine does not
// read; it is not merely unrecognised.
func runnerSubcommandHidden(s *segment) string {
	subs, ok := subcommandRunners[s.name]
	if !ok || len(s.operands) < 2 || !strings.HasPrefix(s.words[1].s, "-") {
		return ""
	}
	if _, ok := subs[s.operands[0].s]; ok {
		return ""
	}
	for _, o := range s.operands[1:min(3, len(s.operands))] {
		if _, ok := subs[o.s]; ok {
			return s.name + "'s options before " + o.s + " are not all known: one may take a value, so " + o.s + " may run a command the engine does not read"
		}
	}
	return ""
}

// runnerSpec returns the wrapper spec of a runner segment and the number of words before the
// runner's own options (1 for a runner known by name; a subcommand runner's options start after
// its subcommand, counted by skip).
func runnerSpec(seg *segment) (wrapSpec, bool) {
	if spec, ok := runnerWrappers[seg.name]; ok {
		return spec, true
	}
	if r, ok := dotenvCLI(seg); ok {
		return wrapSpec{cmdAt: r.cmdAt}, true
	}
	subs, ok := subcommandRunners[seg.name]
	if !ok || len(seg.operands) == 0 {
		return wrapSpec{}, false
	}
	spec, ok := subs[seg.operands[0].s]
	if name, _, _ := strings.Cut(seg.operands[0].s, "@"); !ok && seg.name == "corepack" {
		spec, ok = subs[name]
	}
	if !ok && seg.name == cmdNpm {
		spec, ok = subs[npmCommand(seg.operands[0].s)]
	}
	if !ok {
		return wrapSpec{}, false
	}
	spec.skip++ // the subcommand itself
	if spec.dashesOpt && commandAfter(seg.words, spec) == len(seg.words) {
		spec.cmdAfter = nil
	}
	if len(spec.shellFlags) > 0 && ownFlag(seg, spec, spec.shellFlags) {
		spec.joinScript = true // pnpm exec -c: its words, joined, are a shell script
	}
	return spec, true
}

// ownFlag says whether one of flags ("--name=value" too) is among a runner's own options: those
// before its command, among its subcommand and leading operands (spec.skip; any up to the marker
// of a runner whose command follows one), values skipped: pnpm exec -c CMD and npx -c CMD, not
// pnpm exec vitest -c FILE nor npx eslint -c FILE.
func ownFlag(seg *segment, spec wrapSpec, flags []string) bool {
	operands := 0
	for k := 1; k < len(seg.words); k++ {
		v := seg.words[k].s
		name, _, _ := strings.Cut(v, "=")
		switch {
		case seg.words[k].dynamic || v == "--":
			return false
		case slices.Contains(flags, name) || inBundle(name, flags):
			return true
		case !strings.HasPrefix(v, "-"):
			if operands++; operands > spec.skip && len(spec.cmdAfter) == 0 {
				return false
			}
		case !strings.Contains(v, "=") && (slices.Contains(spec.longArgs, strings.TrimPrefix(v, "--")) || len(v) == 2 && strings.IndexByte(spec.argOpts, v[1]) >= 0):
			k++ // the option's value
		}
	}
	return false
}

// inBundle says whether a bundle of short options (-rc) holds one of flags' short ones: npm's
// nopt reads -rc as -r -c, so pnpm -rc exec CMD runs CMD as a shell script.
func inBundle(name string, flags []string) bool {
	if len(name) < 3 || name[0] != '-' || name[1] == '-' {
		return false
	}
	return slices.ContainsFunc(flags, func(f string) bool { return len(f) == 2 && f[0] == '-' && strings.IndexByte(name[1:], f[1]) >= 0 })
}

// commandAfter returns the index of the word after the first of spec's cmdAfter markers (nix
// shell ... -c CMD), or len(words) when none is there: the command, if any, is what follows it.
func commandAfter(words []word, spec wrapSpec) int {
	for k := 1; k < len(words); k++ {
		if slices.Contains(spec.cmdAfter, words[k].s) && !words[k].dynamic {
			return k + 1
		}
	}
	return len(words)
}

// runsOne reports whether a segment is a runner (not another wrapper: env, sudo, nice, which a
// declared command may not name) that wraps a command, not a script of its own (npx -c, npm
// exec --call, mise exec -c: their text is a script, and a declared command is not one). The
// files its own options name (uv run --env-file) are judged on every call like any other path.
func runsOne(seg *segment) bool {
	if _, ok := wrappers[seg.name]; ok || !seg.wrapper {
		return false
	}
	spec, ok := runnerSpec(seg)
	flags := []string{"-" + string(spec.script), "--" + spec.longScript}
	if spec.dashLong {
		flags = append(flags, "-"+spec.longScript, "--"+string(spec.script))
	}
	script := spec.script != 0 && ownFlag(seg, spec, flags) || spec.joinScript
	return ok && !script
}

// wrapSpecOf returns the wrapper spec of a segment: a wrapper's, or a runner's.
func wrapSpecOf(seg *segment) (wrapSpec, bool) {
	if spec, ok := wrappers[seg.name]; ok {
		return spec, true
	}
	return runnerSpec(seg)
}

// runnerCode returns why a runner runs code the engine does not follow, or "": what direnv exec
// and nix develop run first (.envrc, the flake's shellHook), nix-shell's --run, machinectl
// shell's command, and the programs and roots of runnerStarts.
func runnerCode(s *segment) string {
	sub := ""
	if len(s.operands) > 0 {
		sub = s.operands[0].s
	}
	switch s.name {
	case "nix-shell":
		if s.hasFlag("--run") || s.hasFlag("--command") {
			return "nix-shell runs the shell command its --run or --command gives"
		}
	case cmdDirenv:
		if sub == "exec" {
			return "direnv exec runs the .envrc of the directory it names first"
		}
	case "nix":
		if sub == "develop" {
			return "nix develop runs the flake's shellHook first"
		}
	case "machinectl":
		if sub == "shell" {
			return "machinectl shell runs a command in a machine, as the user it names"
		}
	}
	if why := runnerSubcommandHidden(s); why != "" {
		return why
	}
	return runnerStarts(s)
}

// runnerOptionsUnread returns why a runner the engine reads through has an option, or a
// placeholder in its command, that changes what runs in ways it does not read, or "":
// watchexec's shell with arguments or a path (it runs SHELL ARGS -c CMD), its variables (-E
// NODE_OPTIONS=...), its log file (written anywhere) and its filter program; chokidar's and
// nodemon's placeholders ({path}: the changed file's name pasted into the shell line unquoted;
// {{pwd}}: the absolute working directory); summon's provider program and secrets files (which
// set the command's variables); teller's configuration.
func runnerOptionsUnread(s *segment) string {
	unread := optionsUnread[s.name]
	if s.name == "summon" && slices.ContainsFunc(s.env, func(e string) bool { return strings.HasPrefix(e, "SUMMON_") }) {
		return "summon's SUMMON_ variables name its provider or its secrets"
	}
	for _, w := range s.words[1:] {
		if w.s == "--" || s.name == "summon" && !strings.HasPrefix(w.s, "-") {
			break // its command: the options after it are the command's
		}
		if why := unread(w.s); why != "" {
			return why
		}
		if w.dynamic {
			return s.name + " takes a word computed at run time"
		}
	}
	return ""
}

// watchexecShells are the shells watchexec's --shell may name by itself.
var watchexecShells = wordSet("bash sh zsh dash ksh fish pwsh powershell cmd none")

// optLogFile is a program's file of its log (written wherever it names).
const optLogFile = "--log-file"

// optionsUnread are runnerOptionsUnread's readers of one word, by runner.
var optionsUnread = map[string]func(v string) string{
	"watchexec": func(v string) string {
		name, val, hasVal := strings.Cut(v, "=")
		// A log file named plainly in the working directory (watchexec.log) is a write of it,
		// judged as > FILE is (the spec's longWrite).
		logElsewhere := name == optLogFile && (!hasVal || strings.ContainsAny(val, "/\\~$") || strings.HasPrefix(val, "."))
		// A shell by its name (it runs SHELL -c CMD); another program would run CMD as its code.
		shellArgs := name == optShell && (!hasVal || !watchexecShells[val])
		// -E and -j in a bundle of short options too (-rE, -rj, -jtrue).
		shortEJ := !strings.HasPrefix(v, "--") && strings.HasPrefix(v, "-") && strings.ContainsAny(v, "Ej")
		if shortEJ || name == optEnv || logElsewhere || name == "--filter-prog" || shellArgs {
			return "watchexec's " + name + " changes what its command runs or writes"
		}
		return ""
	},
	"chokidar": func(v string) string {
		if l := strings.ToLower(v); strings.Contains(l, "{path}") || strings.Contains(l, "{event}") {
			return "chokidar pastes the changed path into its command"
		}
		return ""
	},
	"nodemon": func(v string) string {
		if strings.Contains(v, "{{") {
			return "nodemon fills its command's {{...}} placeholders"
		}
		return ""
	},
	"summon": func(v string) string {
		name, _, _ := strings.Cut(v, "=")
		return "summon's " + name + " names its provider or the secrets that set its command's variables"
	},
	"teller": func(v string) string {
		if name, _, _ := strings.Cut(v, "="); strings.HasPrefix(name, "-c") || strings.HasPrefix(name, "--config") {
			return "teller's configuration names the providers that set its command's variables"
		}
		return ""
	},
}

// runnerStarts returns why a runner starts a program the engine does not follow, or "": a
// terminal's command (xterm -e), start-stop-daemon's and bwrap's programs, another root (proot,
// chpst -/), systemd-run's output sent to a file by a property.
func runnerStarts(s *segment) string {
	hasWord := func(f func(string) bool) bool {
		return slices.ContainsFunc(s.words, func(w word) bool { return f(w.s) })
	}
	switch s.name {
	case "start-stop-daemon", "bwrap":
		return s.name + " runs the program its options name"
	case "hyperfine":
		// Each operand, and --prepare, --setup, --cleanup and --conclude, is a shell line.
		if len(s.operands) > 0 {
			return "hyperfine runs its operands and options as shell commands"
		}
	case "watchexec", "chokidar", "nodemon", "summon", "teller":
		return runnerOptionsUnread(s)
	case "xterm", "uxterm", "urxvt", "rxvt", "gnome-terminal", "konsole", "alacritty", "kitty", "wezterm", "foot", "xfce4-terminal", "tilix", "terminator":
		if len(s.words) > 2 {
			return s.name + " runs a command in a new terminal"
		}
	case "proot":
		return "proot runs the command below another root, with the host paths it binds"
	case "chpst":
		if hasWord(func(v string) bool { return strings.HasPrefix(v, "-/") }) {
			return "chpst -/ runs the command below another root"
		}
	case "systemd-run":
		if hasWord(func(v string) bool {
			return strings.Contains(v, "file:") || strings.Contains(v, "append:") || strings.Contains(v, "truncate:")
		}) {
			return "systemd-run sends the command's output to a file its property names"
		}
	}
	return ""
}
