package safety

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The engine judges what an assignment gives the variables that change what programs run, open or
// fetch (PATH, BASH_ENV, EDITOR, GIT_DIR, http_proxy, MAKEFLAGS, ...: judgedVar). The shell sets a
// variable in other ways too, with a value the engine does not see there: read, mapfile, printf
// -v, getopts and wait -p store what they read or print, a for or select loop its items, arithmetic
// (let, (( )), $(( )), a subscript) a number, ${V:=word} its word, and a name reference (declare -n
// r=PATH; r=/tmp) whatever is assigned to it. Before, read PATH <<< /tmp; ls and for PATH in /tmp;
// do ls; done ran /tmp/ls at every level, as did BASH_CMDS[ls]=/tmp/x; ls (bash's table of where
// commands are, which an assignment edits). Any of these setting such a variable asks.

// unseenSets asks when a script sets a judged variable other than by an assignment.
func (a *analyzer) unseenSets(f *syntax.File, src string) {
	if !maySetUnseen(src) {
		return
	}
	u := unseenWalk{}
	syntax.Walk(f, u.node)
	switch {
	case u.unseen:
		a.find(false, RuleOpaqueCode, "%s sets the variable the reference was given the name of at run time, which could be one that changes what programs run, open or fetch (PATH, BASH_ENV); it needs human approval", u.how)
	case u.name != "":
		a.find(false, RuleOpaqueCode, "%s sets %s, which changes what programs run, open or fetch, to a value the engine does not see; it needs human approval", u.how, u.name)
	}
}

// unseenSetWords find, cheaply and loosely, a construct that could set a variable other than by an
// assignment, for a closer look by unseenWalk.
//
//nolint:goconst // builtin names read best literally, next to their neighbours
var unseenSetWords = []string{"read", "mapfile", cmdPf, "getopts", "wait", "for", "select", "let", "((", "$[", "[",
	"${", "declare", "typeset", "local", declNameref}

// maySetUnseen is a cheap test before the walk.
func maySetUnseen(src string) bool { return containsAny(src, unseenSetWords) }

// unseenWalk finds the first judged variable a script sets to a value the engine does not see,
// and how; refs are the name references declared so far (declare -n r=PATH), by name, with their
// targets (namerefs.go), which an assignment to r sets. A reference only read (declare -n r=HOME;
// echo "$r") sets nothing. unseen says the variable set is one a reference was given at run time.
type unseenWalk struct {
	name, how string
	unseen    bool
	refs      map[string]string
	decls     map[*syntax.Assign]bool // the declarations' own r=PATH, which assign no value
}

func (u *unseenWalk) node(n syntax.Node) bool {
	if u.name != "" {
		return false
	}
	switch n := n.(type) {
	case *syntax.CallExpr:
		u.builtin(n)
	case *syntax.WordIter:
		u.loop(n)
	case *syntax.BinaryArithm, *syntax.UnaryArithm:
		u.set(arithmeticTarget(n), "arithmetic")
	case *syntax.ParamExp:
		if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) && n.Param != nil {
			u.set(n.Param.Value, "${"+n.Param.Value+":=...}")
		}
	case *syntax.Assign:
		u.assign(n)
	case *syntax.DeclClause:
		u.namerefs(n)
	}
	return u.name == ""
}

// builtin records the variables read, mapfile, printf -v, getopts or wait -p store into, also
// spelled with quotes or escapes and run by builtin or command (builtin read PATH).
func (u *unseenWalk) builtin(c *syntax.CallExpr) {
	args := c.Args
	if len(args) < 2 {
		return // an assignment alone, or a builtin without operands
	}
	for len(args) > 1 && (commandWord(args[0]) == "builtin" || commandWord(args[0]) == longOptCommand) { //nolint:goconst // builtin names read best literally
		args = args[1:]
	}
	b := commandWord(args[0])
	if len(args) < 2 || !nameTakers[b] {
		return
	}
	switch b {
	case "unset", "test", "[": //nolint:goconst // builtin names read best literally
		// They set nothing.
	default:
		for _, w := range builtinNames(b, args[1:]) {
			t, _ := literalText(w) // read 'BASH_CMDS[ls]' is read BASH_CMDS[ls]
			u.set(baseName(t), b)
		}
	}
}

// commandWord is a command word's literal text without quotes or escapes ('read', \read), or "".
func commandWord(w *syntax.Word) string {
	if l := w.Lit(); l != "" && !strings.ContainsRune(l, '\\') {
		return l
	}
	t, ok := literalText(w)
	if !ok {
		return ""
	}
	return strings.ReplaceAll(t, "\\", "")
}

// baseName is a variable name without its subscript (BASH_CMDS[ls] is BASH_CMDS).
func baseName(s string) string {
	if i := strings.IndexByte(s, '['); i > 0 {
		return s[:i]
	}
	return s
}

// computedValue asks when an assignment gives a variable whose value is read as text where a
// program runs (a proxy, a remote rclone defines, a program's options, git's repository or
// allowed transports) a value computed at run time: MAKEFLAGS=$X make test could be
// MAKEFLAGS=SHELL=/tmp/x, GIT_ALLOW_PROTOCOL=$(cat f) could allow ext::, http_proxy=$P could be
// the metadata service. Before, those values were read as the text "$X", which names nothing.
func (a *analyzer) computedValue(name string, w word) {
	if w.dynamic && (lineEnvVar(name) || name == envGitAllowProto) {
		a.find(false, RuleOpaqueCode, "%s is given a value computed at run time (%q), which decides what a program runs, opens or reaches; it needs human approval", name, w.s)
	}
}

// writtenFileVars name a file or directory that programs seeing them write: HISTFILE the history
// builtin's (history -w, -a; history -r, -n read it), GIT_INDEX_FILE git's index (git add and
// git status rewrite it), SSLKEYLOGFILE the TLS key log curl and python append to, GOBIN where go
// install puts its programs. Before, HISTFILE=.env; history -r; history printed .env (history -r
// .env is refused), GIT_INDEX_FILE=.env git add x overwrote it, and GOBIN=.git/hooks go install
// ./cmd/pre-commit installed a hook. KUBECACHEDIR is kubectl's --cache-dir, PIP_LOG and
// PIP_CACHE_DIR pip's --log and --cache-dir (KUBECACHEDIR=.git/hooks kubectl get pods wrote there).
// COVERAGE_FILE is coverage's --data-file (coverage run, pytest --cov write it), CARGO_TARGET_DIR
// cargo's --target-dir, TOX_WORK_DIR tox's --workdir, MYPY_CACHE_DIR and RUFF_CACHE_DIR their --cache-dir; npm's settings from
// the environment (npm_config_cache, npm_config_logs_dir) are its options' (npmFileOps):
// COVERAGE_FILE=.git/hooks/pre-commit pytest --cov and npm_config_cache=~/.ssh npm ci wrote there.
var writtenFileVars = map[string]bool{"HISTFILE": true, "GIT_INDEX_FILE": true, "SSLKEYLOGFILE": true, "GOBIN": true,
	"KUBECACHEDIR": true, "PIP_LOG": true, "PIP_LOG_FILE": true, "PIP_CACHE_DIR": true, "COVERAGE_FILE": true,
	envCargoTargetDir: true, "TOX_WORK_DIR": true, "MYPY_CACHE_DIR": true, "RUFF_CACHE_DIR": true}

// envCargoTargetDir is cargo's --target-dir from the environment; the other CARGO_TARGET_ variables
// name programs (codeEnvFamily).
const envCargoTargetDir = "CARGO_TARGET_DIR"

// loadedFileVars name a file a program loads into a command's environment, as the option they
// stand for does: UV_ENV_FILE uv run's --env-file, PIPENV_DOTENV_LOCATION the .env pipenv run
// loads, DOTENV_CONFIG_PATH the file node -r dotenv/config loads, COMPOSE_ENV_FILES compose's
// --env-file (a comma-separated list). Before, UV_ENV_FILE=~/.aws/credentials uv run make test put
// the keys in the command's environment, admitted, where uv run --env-file names them denied.
var loadedFileVars = map[string]bool{"UV_ENV_FILE": true, "PIPENV_DOTENV_LOCATION": true, "DOTENV_CONFIG_PATH": true, "COMPOSE_ENV_FILES": true}

// writtenFile records the file a writtenFileVars variable names, as a write, and the files a
// loadedFileVars one names, as reads.
func (a *analyzer) writtenFile(name, val string) {
	switch {
	case val == "":
	case writtenFileVars[name]:
		a.touch(word{s: val, dynamic: strings.ContainsRune(val, '$')}, opWrite)
	case loadedFileVars[name]:
		for f := range strings.SplitSeq(val, ",") {
			a.touch(word{s: f, dynamic: strings.ContainsRune(f, '$')}, opRead)
		}
	default:
		if k, ok := npmConfigSetting(name); ok && npmFileOps["--"+k] != 0 {
			a.touch(word{s: val, dynamic: strings.ContainsRune(val, '$')}, npmFileOps["--"+k])
		}
	}
}

// judgedVar reports whether the engine judges the value a line gives the variable: one that names
// code or options a program runs, a file or repository it opens, a proxy or remote it reaches, or
// changes what the shell expands.
func judgedVar(name string) bool {
	if name == "" {
		return false
	}
	// A shell variable's name is case-sensitive, and so is the environment programs read: "env" in
	// for env in dev prod is not ENV (envVar's upper-casing errs the other way, for assignments).
	if judgedNames[name] {
		return true
	}
	// The families codeEnvReason, lineEnvVar and envVar judge by prefix or suffix.
	const rclone, proxy = "RCLONE_CONFIG_", "_PROXY"
	switch {
	case len(name) >= len(rclone) && strings.EqualFold(name[:len(rclone)], rclone),
		len(name) >= len(proxy) && strings.EqualFold(name[len(name)-len(proxy):], proxy),
		gitTraceVar(name), strings.HasPrefix(name, "BASH_FUNC_"), codeEnvFamily(name), msbuildCodeName(name),
		strings.HasPrefix(name, "CARGO_TARGET_") && name != envCargoTargetDir:
		return true
	}
	k, ok := npmConfigSetting(name)
	return ok && (npmCodeSettings[k] || npmFileOps["--"+k] != 0 || k == npmWorkspace)
}

// npmWorkspace is npm's -w setting, the workspace package whose script it runs
// (npmWorkspaceFromEnv).
const npmWorkspace = "workspace"

// judgedNames are the names held by the tables codeEnvReason, lineEnvVar and envVar judge a
// variable by, gathered once: every loop variable and every name read assigns is looked up.
var judgedNames = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range []map[string]bool{codeEnvVars, injectionEnvVars, commandEnvVars, expansionEnvVars, valueJudgedVars, writtenFileVars,
		loadedFileVars, resolverEnvVars, goModuleSourceVars} {
		for k := range t {
			m[k] = true
		}
	}
	for k := range fetchEnvVars {
		m[k] = true
	}
	for k := range flagEnvVars {
		m[k] = true
	}
	for _, vars := range envOptions {
		for k := range vars {
			m[k] = true
		}
	}
	m[envGitDir], m[envGitWorkTree], m[envGitCommonDir] = true, true, true
	for k := range codeFlagEnvVars {
		m[k] = true
	}
	return m
}()

// valueJudgedVars are the other variables whose value the engine reads where a line assigns them.
var valueJudgedVars = map[string]bool{envGitAllowProto: true, "PYTHONPYCACHEPREFIX": true,
	"GIT_TRACE2_ENV_VARS": true, envGitCommonDir: true}
