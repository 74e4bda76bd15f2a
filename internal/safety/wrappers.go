package safety

import (
	"cmp"
	"slices"
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// wrapSpec describes a command that runs another command given as its arguments. The wrapped
// command is analysed as a segment of its own, so "timeout 5 sudo rm -rf /" is seen as timeout,
// sudo and rm.
type wrapSpec struct {
	argOpts     string     // short options that take a value
	longArgs    []string   // long options (without "--") that take a value
	skip        int        // operands before the wrapped command, e.g. timeout's DURATION
	assigns     bool       // NAME=VALUE words set the wrapped command's environment
	script      byte       // short option whose value is a shell script (su -c)
	longScript  string     // long option whose value is a shell script (su --command)
	writeOpts   string     // short options whose value is a file written (time -o)
	joinScript  bool       // the remaining words form one shell script (eval, watch)
	xargs       bool       // stdin lines become extra arguments of the wrapped command
	readOpts    string     // short options whose value is a file read (xargs -a)
	longRead    string     // long option for the same (xargs --arg-file)
	chdir       byte       // short option whose value is the wrapped command's working directory (env -C)
	longChdir   string     // long option for the same (env --chdir)
	optArgOpts  string     // short options whose value is optional: attached only (nsenter -w/etc)
	longOpt     []string   // long options whose value is optional: after "=" only (nsenter --wd=/etc)
	cmdAfter    []string   // the command is what follows the first of these words (nix shell -c, mise exec --)
	longWrite   []string   // long options whose value is a file written (perf record --output, rlwrap --logfile)
	shellFlags  []string   // flags that make the words after the options one shell script (pnpm exec -c)
	fetch       *fetchSpec // options by which a runner fetches what it runs from where the caller chooses (uv run --index)
	envPrefix   bool       // the command may follow matrix filters and name an environment first (hatch run +py=3.12 test:pytest)
	pyScript    bool       // a module, a Python file, a URL or "-" runs under python (uv run -m pytest, uv run x.py)
	pyAlways    bool       // its command is always a Python program: -m's module or a file (coverage run)
	again       bool       // the command is the program's own (yarn workspace NAME exec CMD is yarn exec CMD)
	shellIfNone bool       // given no command, it runs the user's shell, which reads what it is fed (aws-vault exec PROFILE)
	versioned   bool       // a version may come before the command (nvm exec 20 CMD; without one, .nvmrc's)
	program     string     // the wrapped words are this program's arguments (minikube kubectl -- ARGS runs kubectl ARGS)
	pipeWrites  bool       // a written file's name that starts with "|" or "!" is a command it runs (strace -o '|cmd')
	cmdAt       int        // the command's word index, found by the runner's own reading (dotenv-cli's minimist)
	dashesOpt   bool       // with no "--" to follow, the command is the first operand after the options (dotenvx run CMD)
	logOperand  bool       // its operand is no command but a file it writes, and its command is -c's or the shell (script FILE)
	dashLong    bool       // its parser (npm's nopt) reads a long option after one dash too: npx -call CMD is npx --call CMD
	atVersion   bool       // the command's program may be named with a version, which is no part of its name (corepack yarn@4)
	eachScript  bool       // each remaining word is a shell script of its own (concurrently 'tsc -w' 'vite')
	scriptArgs  bool       // the words after the options follow the script, as nodemon joins them (nodemon -x CMD SCRIPT)
	longScripts []string   // long options whose values are shell lines it runs besides its command (concurrently --teardown)
	shortcuts   bool       // a script's PM:NAME is PM run NAME, a package.json script (concurrently 'npm:watch-*')
	strict      bool       // an option it does not list (as taking a value, or in flags, shortFlags) makes it opaque
	flags       []string   // long options (without "--") that take no value, for strict
	shortFlags  string     // short options that take no value, for strict
}

// longOptCommand is the long option whose value is a shell script for flock, runuser, su and
// script ("su --command CMD").
const longOptCommand = "command"

//nolint:goconst // option spellings and program names in this table read best literally, next to their neighbours
var wrappers = map[string]wrapSpec{
	"nohup":            {},
	"setsid":           {},
	"unbuffer":         {},
	"caffeinate":       {},
	"catchsegv":        {},
	"torsocks":         {},
	"builtin":          {},
	"command":          {},
	"busybox":          {},
	"toybox":           {},
	"dbus-run-session": {},
	"proxychains":      {argOpts: "f"},
	"proxychains4":     {argOpts: "f"},
	"exec":             {argOpts: "a"},
	"nice":             {argOpts: "n", longArgs: []string{"adjustment"}},
	"ionice":           {argOpts: "cnpPu", longArgs: []string{"class", "classdata", "pid", "pgid", "uid"}},
	"stdbuf":           {argOpts: "ioe", longArgs: []string{"input", "output", "error"}},
	"time":             {argOpts: "fo", longArgs: []string{"format", "output"}, writeOpts: "o"},
	"timeout":          {argOpts: "sk", longArgs: []string{"signal", "kill-after"}, skip: 1},
	"chroot":           {longArgs: []string{"userspec", "groups"}, skip: 1},
	"taskset":          {skip: 1},
	// numactl, cgexec and prlimit run their command with a memory policy, in a cgroup, or with
	// resource limits (prlimit's limits attach with '=').
	"numactl": {argOpts: "iNmCpPwbS", longArgs: []string{"interleave", "cpunodebind", "membind", "physcpubind", "preferred",
		"preferred-many", "weighted-interleave", "balancing", "shmid", "offset", "length", "strict", "shmmode", "file"}},
	"cgexec":   {argOpts: "g"},
	"prlimit":  {argOpts: "po", longArgs: []string{"pid", "output"}},
	"chrt":     {skip: 1},
	"faketime": {skip: 1},
	"flock":    {argOpts: "wE", skip: 1, script: 'c', longScript: longOptCommand},
	"unshare": {argOpts: "wRSG", longArgs: []string{"wd", "root", "propagation", "setgroups", "map-user", "map-group", "map-users", "map-groups", "setuid", "setgid", "monotonic", "boottime"},
		optArgOpts: "muinpUCT", longOpt: []string{"mount", "uts", "ipc", "net", "pid", "user", "cgroup", "time", "kill-child", "mount-proc"}, chdir: 'w', longChdir: "wd"},
	"nsenter": {argOpts: "tSGW", longArgs: []string{"target", "setuid", "setgid", "wdns"},
		optArgOpts: "muinpCUTrw", longOpt: []string{"mount", "uts", "ipc", "net", "pid", "cgroup", "user", "time", "root", "wd"}, chdir: 'w', longChdir: "wd"},
	"firejail": {},
	// moreutils' chronic and ifne, and entr, which runs its command (entr -s: a shell script) as
	// the files it is fed change; libtool --mode=execute runs its command with the libraries found.
	"chronic": {},
	"ifne":    {},
	"entr":    {script: 's'},
	"libtool": {longArgs: []string{"mode", "config"}},
	"strace": {argOpts: "eoOpPsSuIXabEU", longArgs: []string{"trace", "trace-path", "output", "signal", "status", "attach", "user", "env",
		"string-limit", "columns", "summary-columns", "summary-sort-by", "argv0", "inject", "fault"}, writeOpts: "o", longWrite: []string{"output"}, pipeWrites: true},
	"ltrace": {argOpts: "eopsuanADFlxw", longArgs: []string{"align", subDebug, "config", "library", "indent", "output", "where"},
		writeOpts: "o", longWrite: []string{"output"}},
	"env":     {argOpts: "uCa", longArgs: []string{"unset", "chdir", "argv0"}, assigns: true, script: 'S', longScript: "split-string", chdir: 'C', longChdir: "chdir"},
	"sudo":    {argOpts: "ugpChrtTUDR", longArgs: []string{"user", "group", "prompt", "close-from", "host", "role", "type", "other-user", "chdir", "chroot"}, assigns: true, chdir: 'D', longChdir: "chdir"}, //nolint:goconst // option spellings in this table read best literally, next to their neighbours
	"doas":    {argOpts: "uC"},
	"pkexec":  {longArgs: []string{"user"}},
	"runuser": {argOpts: "ugGw", longArgs: []string{"user", "group", "supp-group", "whitelist-environment"}, script: 'c', longScript: longOptCommand},
	"su":      {argOpts: "gGsw", longArgs: []string{"group", "supp-group", "shell", "whitelist-environment"}, script: 'c', longScript: longOptCommand},
	"sg":      {skip: 1, joinScript: true},
	// script writes what the session prints to its operand (the typescript) and to the files of
	// -I/-O/-B/-T (--log-in, --log-out, --log-io, --log-timing); without -c it runs the shell.
	"script": {argOpts: "EIOTBm", longArgs: []string{"echo", "log-in", "log-out", "log-io", "log-timing", "logging-format"},
		writeOpts: "IOTB", longWrite: []string{"log-in", "log-out", "log-io", "log-timing"}, script: 'c', longScript: longOptCommand, logOperand: true},
	"watch": {argOpts: "nd", longArgs: []string{"interval"}, joinScript: true},
	"eval":  {joinScript: true},
	"xargs": {argOpts: "EeIiLlnPsdaR", longArgs: []string{"eof", "replace", "max-lines", "max-args", "max-procs", "max-chars", "delimiter", "arg-file", "process-slot-var"}, xargs: true, readOpts: "a", longRead: "arg-file"},
}

// shells run a script given with -c, a script file, or stdin.
var shells = map[string]bool{
	"sh": true, cmdBash: true, cmdZsh: true, "dash": true, cmdKsh: true, "mksh": true, "ash": true,
	"fish": true, "rbash": true, "yash": true, "posh": true, "csh": true, "tcsh": true, "oksh": true,
}

// interpreters run inline code (-c, -e) the engine cannot see into: such a segment is opaque.
// Python is not among them: readPython reads its command line as CPython does (a.python).
var interpreters = map[string]string{
	"perl": "eE",
	"ruby": "e", cmdNode: "ep", "nodejs": "ep", cmdDeno: "", cmdBun: "e", "php": "r", "lua": "e",
	"rscript": "e", "osascript": "e", "pwsh": "c", "powershell": "c",
	"tclsh": "", "expect": "c", "jshell": "", "irb": "", "julia": "e", "ipython": "c", "ipython3": "c",
	// m4 runs shell commands (syscmd, esyscmd) under names it can compute (indir, defn); gnuplot
	// runs them with system, "!" and backquotes (shellescapes.go).
	"m4": "", "gnuplot": "e",
	// TypeScript runners, LuaJIT, the JVM's, BEAM's, Lisps' and Haskell's: code in -e/-c/-p or a script
	// operand; the read-eval-print loops and script runners (iex, erl, sbcl, runghc) run any code.
	"tsx": "ep", "ts-node": "ep", "luajit": "e", "elixir": "e", "iex": "", "erl": "", "groovy": "e", "scala": "e",
	"guile": "c", "racket": "e", "sbcl": "", "clojure": "e", "clj": "e", "bb": "e", "ghci": "e", "runghc": "",
	"runhaskell": "",
	// R (-e, -f, a script on standard input, R CMD BATCH's script), Octave (--eval, a script; it
	// has no -e, so only the long option and a script count), GHC's -e, escript, Tk's wish,
	// QuickJS, GJS, and the JVM's and GraalVM's Pythons, which Rscript's, runghc's, tclsh's and
	// python's rows did not cover: each runs the code it is given.
	"r": "ef", "octave": "e", "octave-cli": "e", "ghc": "e", "escript": "", "wish": "", "qjs": "e", "gjs": "c",
	"jython": "c", "graalpy": "c",
	// zx runs JavaScript whose $`…` are shell lines: -e|--eval code or a script.
	"zx": "e",
}

// follow analyses what a recorded segment runs in turn and the paths it touches.
func (a *analyzer) follow(idx int, redirs []*syntax.Redirect, depth int) {
	a.downloads(idx, redirs)
	a.aliases(idx, depth)
	seg := a.out.segments[idx]
	switch name := seg.name; {
	case name == "":
		return
	case seg.localFunc:
		// A function shadows a builtin of its name (cd() { :; } moves nowhere).
		a.callLocal(name, seg.pipeFrom, depth)
		a.callLocalFed(name, redirs, depth) // f <<< 'put .env': its body reads what f is fed
		if a.moves(name) {
			a.cwd = cwdUnknown // its body changes the directory, from wherever it is called
		}
	case name == "cd" || name == cmdPushd:
		// The directory is resolved from where cd runs, before the working directory changes.
		a.argPaths(idx)
		a.cdFrom(seg)
		return
	case name == cmdEcho || name == cmdPf:
		a.out.segments[idx].yields = printedWords(seg)
	case name == "popd":
		a.cwd = cwdUnknown
	case name == cmdShopt || name == cmdSetopt:
		a.shopt(idx)
	case name == cmdTrap:
		a.trap(idx, depth)
	case name == cmdSource || name == ".":
		a.source(idx, redirs, depth)
	case shells[name]:
		a.shell(idx, redirs, depth)
	case name == cmdFind:
		a.findExec(idx, redirs, depth)
	case isFileTool(&seg):
		a.fileTool(idx, redirs, depth)
	case name == cmdGit:
		a.gitScripts(seg, depth)
		a.gitBatchObjects(idx, redirs)
		a.gitStdinPaths(idx, redirs)
	default:
		if why := runsCode(&a.out.segments[idx]); why != "" {
			a.opaque(idx, why)
		}
		a.dbClientInput(idx, redirs)
		a.shellEscapeInput(idx, redirs)
		a.commandClientInput(idx, redirs)
		if spec, ok := wrapSpecOf(&a.out.segments[idx]); ok {
			a.unwrap(idx, spec, redirs, depth)
		} else {
			a.interpreter(idx, redirs)
			a.pythonModuleRunner(idx, redirs, depth)
			a.scriptFallback(idx, redirs, depth)
		}
	}
	a.remoteCommand(idx, redirs, depth)
	a.sftpBatch(idx, redirs, depth)
	a.stdinText(idx, redirs)
	a.shellcheckSources(idx, redirs)
	a.keepText(idx, redirs)
	a.workloadInput(idx, redirs)
	a.optionCode(idx)
	a.argPaths(idx)
}

func (a *analyzer) cd(seg segment) {
	if len(seg.operands) == 0 {
		if seg.name == cmdPushd {
			a.cwd = cwdUnknown // pushd alone swaps the top two directories of the stack
		} else {
			a.cwd = "~"
		}
		return
	}
	t := seg.operands[0]
	if t.s == "-" || seg.name == cmdPushd && isStackIndex(t.s) {
		t.dynamic = true // the previous directory, or one of the stack's: unknown here
	}
	a.cdTo(t, seg.hasFlag("-P"))
}

// isStackIndex says whether a pushd operand names an entry of the directory stack (+1, -0).
func isStackIndex(s string) bool {
	return len(s) > 1 && (s[0] == '+' || s[0] == '-') && strings.Trim(s[1:], "0123456789") == ""
}

// shopt asks for a person when the command turns on an option that changes what later words
// expand to ("shopt -s dotglob; cat *" reads .env); zsh's setopt is read the same way.
func (a *analyzer) shopt(idx int) {
	seg := a.out.segments[idx]
	if seg.name == cmdShopt && !slices.ContainsFunc(seg.words[1:], func(w word) bool { return w.s == "-s" || strings.HasPrefix(w.s, "-") && strings.Contains(w.s, "s") }) {
		return
	}
	for _, w := range seg.words[1:] {
		if w.dynamic || isExpansionOption(w.s) {
			a.opaque(idx, seg.name+" "+w.s+" changes what later words expand to")
			return
		}
	}
}

// findNegated says whether word i of a find expression is negated: "!" or -not stands before it.
func findNegated(words []word, i int) bool {
	return slices.Contains(findNegatingPrefix, words[i-1].s)
}

// commandLookup reports whether words are the command builtin's lookup (command -v, -V, -pv): the
// options before the first operand, literal, hold v or V. A computed option word could be
// anything, so it is no lookup.
func commandLookup(words []word) bool {
	if len(words) < 2 || commandName(words[0].s) != "command" {
		return false
	}
	lookup := false
	for _, w := range words[1:] {
		if w.dynamic {
			return false
		}
		if w.s == "--" || len(w.s) < 2 || w.s[0] != '-' {
			break
		}
		if strings.Trim(w.s[1:], "pvV") != "" {
			return false // an option command does not have: bash refuses it, the engine reads on
		}
		lookup = lookup || strings.ContainsAny(w.s, "vV")
	}
	return lookup
}

// unwrap finds the wrapped command (or script) of a wrapper and analyses it.
func (a *analyzer) unwrap(idx int, spec wrapSpec, redirs []*syntax.Redirect, depth int) {
	defer func(was bool) { a.zsh = was }(a.zsh)
	a.zsh = a.zsh || userShellWrappers[a.out.segments[idx].name]
	words := flagValues(a.out.segments[idx].words, spec.shellFlags)
	if commandLookup(words) {
		return // command -v NAME prints what NAME is, as type does, and runs nothing
	}
	opts := a.wrapperOptions(words, spec, depth)
	a.runnerFetch(idx, spec.fetch, opts.fetch)
	a.codeLongs(idx, opts.longs)
	if opts.unknown != "" {
		a.opaque(idx, "its option "+opts.unknown+", which may take the word read as its command")
		return
	}
	for _, sc := range opts.scripts {
		a.scriptFed(sc, depth+1, a.out.segments[idx].pipeFrom)
	}
	i := commandIndex(words, &spec, &opts)
	if a.noptMisread(idx, words, spec, i, opts.hasScript) {
		return
	}
	own := words[1:min(i, len(words))] // the wrapper's own options and operands
	a.out.segments[idx].wrapper = true
	for _, r := range opts.reads {
		a.touch(r, opRead)
	}
	a.wrapperWrites(idx, spec, opts.writes, depth)
	if spec.logOperand && a.logOperand(idx, i, opts.hasScript, redirs, depth) {
		return
	}
	if opts.hasScript {
		if script, ok := a.wrapperScript(idx, spec, words[min(i, len(words)):], opts.script); ok {
			a.scriptFed(script, depth+1, a.out.segments[idx].pipeFrom)
		}
		return
	}
	if i >= len(words) {
		switch {
		case spec.xargs:
			a.xargsInner(idx, own, []word{{s: cmdEcho}}, redirs, depth)
		case spec.shellIfNone:
			// echo env | aws-vault exec prof: the subshell, with the credentials, runs env.
			a.command([]word{{s: "sh"}}, redirs, a.out.segments[idx].pipeFrom, depth+1)
		default:
			a.out.segments[idx].wrapper = false
		}
		return
	}
	rest := spec.command(words[0], own, words[i:])
	if len(rest) == 0 {
		a.out.segments[idx].wrapper = false
		return
	}
	a.runnerPackage(idx, spec, own, rest)
	if saved, moved := a.runIn(a.out.segments[idx].name, opts.chdir, own); moved {
		defer func() { a.cwd = saved }()
	}
	switch {
	case spec.joinScript:
		a.joinedScript(idx, own, rest, redirs, depth)
	case spec.eachScript:
		a.eachScript(idx, spec, rest, depth)
	case spec.xargs:
		a.xargsInner(idx, own, rest, redirs, depth)
	default:
		a.env = opts.env
		// command and builtin run the program or builtin of that name, never a function.
		name := a.out.segments[idx].name
		a.noFunc = name == "command" || name == "builtin"
		a.command(rest, redirs, a.out.segments[idx].pipeFrom, depth+1)
	}
}

// noptBooleans are the values nopt reads as a flag's own after "=".
var noptBooleans = wordSet("true false")

// flagValues returns words with each of flags given a value after "=" split in two: npm's nopt
// reads a flag's value only when it is true or false, and otherwise takes it for the next word,
// so pnpm exec -c='rm -rf ~' and --shell-mode='rm -rf ~' run the script rm -rf ~.
func flagValues(words []word, flags []string) []word {
	if len(flags) == 0 {
		return words
	}
	var out []word
	for k, w := range words {
		name, val, ok := strings.Cut(w.s, "=")
		if k == 0 || w.dynamic || !ok || !slices.Contains(flags, name) || noptBooleans[val] {
			out = append(out, w)
			continue
		}
		out = append(out, w.with(name), w.with(val))
	}
	return out
}

// envSplitBlanks are env -S's escapes that split its string as blanks do: \_ does; GNU env 9.1
// keeps \t and \n in the word as a tab and a newline, and splitting at them too is a stricter
// reading (it may refuse what env runs as one word), kept as the safer one.
var envSplitBlanks = strings.NewReplacer(`\_`, " ", `\t`, " ", `\n`, " ")

// commandIndex returns the index of the word a wrapper's command starts at: after its options, or
// after the marker it follows (nix shell -c), or at the index its runner's own reading found.
func commandIndex(words []word, spec *wrapSpec, opts *wrapperOpts) int {
	i := opts.next
	if len(spec.cmdAfter) > 0 && !opts.hasScript {
		i = commandAfter(words, *spec)
	}
	if spec.cmdAt > 0 {
		i = spec.cmdAt
	}
	return i
}

// logOperand records the file script writes its typescript to, its operand at words[i], and
// reports whether the command it runs is decided: getopt reads options after the file too (script
// /dev/null -c CMD runs CMD, and a second -c replaces the first), which is opaque, and without -c
// it runs the shell on what it is fed.
func (a *analyzer) logOperand(idx, i int, hasScript bool, redirs []*syntax.Redirect, depth int) bool {
	words := a.out.segments[idx].words
	if i >= len(words) {
		return false
	}
	a.touch(words[i], opWrite)
	switch {
	case i+1 < len(words):
		a.opaque(idx, "script's options after its file")
		return true
	case !hasScript:
		a.command([]word{{s: "sh"}}, redirs, a.out.segments[idx].pipeFrom, depth+1)
		return true
	}
	return false
}

// codeLongs makes a runner's segment opaque when one of the long options it was given (by the
// full name its reading expands them to: npx -script-shell=/tmp/x and --node-opt=... are
// --script-shell and --node-options) is one of its program's code options, which the segment's
// flags hold only as spelt.
func (a *analyzer) codeLongs(idx int, longs []string) {
	code := codeOptions[a.out.segments[idx].name]
	for _, name := range longs {
		if slices.Contains(code, "--"+name) {
			a.opaque(idx, "its option --"+name)
			return
		}
	}
}

// runIn moves to the directory a wrapper runs its command in, and returns the directory before
// and whether it moved: env -C DIR runs the command in DIR, so its relative paths resolve there;
// chroot runs it in the new root's "/" (another root than "/" is opaque, runsCode); nsenter -w
// or -W in a directory the engine does not know.
func (a *analyzer) runIn(name string, chdir *word, own []word) (string, bool) {
	if name == "nsenter" && slices.ContainsFunc(own, nsenterTargetDir) || name == cmdNpm && slices.ContainsFunc(own, isExplore) {
		// nsenter's target's directory, or one in its namespace; npm explore's package directory
		// below a node_modules its options may move.
		chdir = &word{s: placeholderCmdSubst, dynamic: true}
	}
	saved := a.cwd
	switch {
	case chdir != nil:
		a.chdir(*chdir)
	case name == "chroot" && !slices.ContainsFunc(own, skipsChdir):
		a.cwd = "/"
	default:
		return saved, false
	}
	return saved, true
}

// wrapperScript returns the shell line a wrapper's script option gives, with the words after its
// options (rest) where the wrapper adds them, or false when the segment is opaque.
func (a *analyzer) wrapperScript(idx int, spec wrapSpec, rest []word, script string) (string, bool) {
	words := a.out.segments[idx].words
	if words[0].s != "" && commandName(words[0].s) == "env" {
		// env -S splits at \_ as at a blank (env -S 'rm\_-rf\_~' runs rm -rf); \t and \n too here.
		script = envSplitBlanks.Replace(script)
		if len(rest) > 0 {
			// The words after -S's value are arguments of their own, not split again: env -S
			// 'bash -c' 'rm -rf .claude' runs bash -c "rm -rf .claude", so each is quoted.
			args, ok := quotedWords(rest)
			if !ok {
				a.opaque(idx, "a computed word after env -S")
				return "", false
			}
			script += " " + args
		}
	}
	if spec.scriptArgs && len(rest) > 0 {
		args, ok := nodemonArgs(rest)
		if !ok {
			a.opaque(idx, "a computed word after its command")
			return "", false
		}
		script += " " + args
	}
	return script, true
}

// eachScript analyses each word of rest as a shell line of its own (concurrently's commands).
func (a *analyzer) eachScript(idx int, spec wrapSpec, rest []word, depth int) {
	for _, w := range rest {
		sc, ok := w.s, !w.dynamic
		if spec.shortcuts && ok {
			sc, ok = scriptShortcut(w.s)
		}
		if !ok {
			a.opaque(idx, "a command computed at run time")
			return
		}
		a.scriptFed(sc, depth+1, a.out.segments[idx].pipeFrom)
	}
}

// scriptShortcut returns the shell line of concurrently's command sc: PM:NAME [ARGS] (npm, yarn,
// pnpm, bun) is PM run NAME [ARGS], NAME a package.json script or a wildcard over their names
// (watch-*, whose "*" no shell expands); other commands as they are. A NAME with a character
// outside a script name's and its wildcard's is not read (false).
func scriptShortcut(sc string) (string, bool) {
	pm, body, ok := strings.Cut(sc, ":")
	if !ok || !scriptShortcutPMs[pm] {
		return sc, true
	}
	name, tail, _ := strings.Cut(body, " ")
	if name == "" || strings.IndexFunc(name, notGlobText) >= 0 || strings.ContainsAny(name, "[]{}") {
		return "", false
	}
	return pm + " run '" + name + "' " + tail, true
}

// scriptShortcutPMs are the package managers concurrently's PM:NAME names.
var scriptShortcutPMs = wordSet("npm yarn pnpm bun")

// nodemonArgs returns the words nodemon puts after its -x command in the line its shell runs:
// each as it is, or in JSON's double quotes when it holds a blank or is empty (its stringify), so
// nodemon -x 'bash -c' 'rm -rf ~' runs bash -c "rm -rf ~". A computed word is not known (false).
func nodemonArgs(ws []word) (string, bool) {
	parts := make([]string, 0, len(ws))
	for _, w := range ws {
		switch {
		case w.dynamic:
			return "", false
		case w.s != "" && !strings.Contains(w.s, " "):
			parts = append(parts, w.s)
		default:
			parts = append(parts, `"`+strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(w.s)+`"`)
		}
	}
	return strings.Join(parts, " "), true
}

// isExplore is npm's explore subcommand.
func isExplore(w word) bool { return !w.dynamic && npmCommand(w.s) == "explore" }

// command returns the command a runner (prog) runs, from the words after its options (rest).
func (spec wrapSpec) command(prog word, own, rest []word) []word {
	switch {
	case spec.again:
		return append([]word{prog}, rest...)
	case spec.program != "":
		return append([]word{{s: spec.program}}, rest...)
	case spec.envPrefix:
		return envCommand(rest)
	case spec.pyScript:
		return pythonCommand(own, rest)
	case spec.pyAlways:
		return pyProgramCommand(own, rest, spec)
	case spec.versioned && len(rest) > 1 && isVersionWord(rest[0]):
		return rest[1:]
	case spec.atVersion && !rest[0].dynamic:
		name, _, _ := strings.Cut(rest[0].s, "@")
		return append([]word{rest[0].with(name)}, rest[1:]...)
	}
	return rest
}

// isVersionWord says whether a word names a Node version as nvm reads one first: a number
// (20, v20.1), an LTS line (lts/*, lts/iron) or one of its aliases for the latest.
func isVersionWord(w word) bool {
	v := strings.TrimPrefix(w.s, "v")
	return !w.dynamic && (v != "" && isDigit(v[0]) || strings.HasPrefix(w.s, "lts/") || nvmAliases[w.s])
}

// nvmAliases are nvm's built-in names of a Node version.
var nvmAliases = wordSet("node stable unstable iojs system default current")

// pythonCommand returns the command uv run runs under python: a module (-m, --module), a Python
// file, a URL's script (downloaded first), standard input ("-"), or any file with --script or
// --gui-script, as uv run python would ("uv run x.py" is "uv run python x.py"); otherwise rest.
func pythonCommand(own, rest []word) []word {
	py := word{s: cmdPython}
	for _, w := range own {
		switch w.s {
		case "-m", "--module":
			return append([]word{py, {s: "-m"}}, rest...)
		case "-s", "--script", "--gui-script":
			return append([]word{py}, rest...)
		}
	}
	if f := rest[0].s; !rest[0].dynamic && (f == "-" || strings.HasSuffix(f, ".py") || strings.HasSuffix(f, ".pyw") || strings.Contains(f, "://")) {
		return append([]word{py}, rest...)
	}
	return rest
}

// cmdPython is the interpreter a runner runs a Python program with.
const cmdPython = "python"

// pyProgramCommand returns the command line coverage run runs under python: python -m MODULE
// ARGS when its own options hold -m (--module, an abbreviation of it, or in a bundle: -pm), else
// python FILE ARGS. A long option's value is skipped, so "--omit -m" sets no module.
func pyProgramCommand(own, rest []word, spec wrapSpec) []word {
	py := word{s: cmdPython}
	longs := slices.Concat(spec.flags, spec.longArgs)
	for k := 0; k < len(own); k++ {
		v := own[k].s
		long, isLong := strings.CutPrefix(v, "--")
		name, _, joined := strings.Cut(long, "=")
		switch {
		case isLong && expandLong(name, longs...) == "module",
			!isLong && strings.HasPrefix(v, "-") && strings.ContainsRune(v[1:], 'm'):
			return append([]word{py, {s: "-m"}}, rest...)
		case isLong && !joined && slices.Contains(spec.longArgs, expandLong(name, longs...)):
			k++
		}
	}
	return append([]word{py}, rest...)
}

// envCommand returns the command hatch run runs: after its matrix filters (+py=3.12), the first
// word without the environment named before a colon (test:pytest runs pytest in test).
func envCommand(rest []word) []word {
	for len(rest) > 0 && !rest[0].dynamic && strings.HasPrefix(rest[0].s, "+") {
		rest = rest[1:]
	}
	if len(rest) == 0 || rest[0].dynamic {
		return rest
	}
	if _, cmd, ok := strings.Cut(rest[0].s, ":"); ok {
		if cmd == "" {
			return rest[1:]
		}
		return append([]word{rest[0].with(cmd)}, rest[1:]...)
	}
	return rest
}

// wrapperOpts is what a wrapper's own options say: where the wrapped command starts, and the shell
// script an option gave, if any.
type wrapperOpts struct {
	next      int // index of the first word after the wrapper's options
	script    string
	hasScript bool
	env       []string // NAME=VALUE assignments for the wrapped command
	reads     []word   // files option values name, read
	writes    []word   // files option values name, written
	chdir     *word    // the wrapped command's working directory, when an option sets it
	fetch     bool     // an option of spec.fetch was given
	longs     []string // the long options given, by their full names
	scripts   []string // the shell lines its options give besides its command (spec.longScripts)
	unknown   string   // an option a strict spec does not list
}

// wrapperOptions walks a wrapper's options, environment assignments and leading operands (recording
// the assignments and the files option values write) up to the wrapped command.
func (a *analyzer) wrapperOptions(words []word, spec wrapSpec, depth int) wrapperOpts {
	skip := spec.skip
	o := wrapperOpts{next: 1}
	optionsEnded, loneDash := false, false
	for o.next < len(words) {
		w := words[o.next]
		v := w.s
		switch {
		case w.dynamic:
			return o
		case v == "--" && !optionsEnded:
			// After "--" env still takes assignments (env -- LD_PRELOAD=x cmd).
			o.next++
			if !spec.assigns {
				return o
			}
			optionsEnded = true
		case v == "-" && spec.assigns && !loneDash:
			// env's lone "-" (-i), before or after "--", is no command, and ends its options.
			o.next++
			optionsEnded, loneDash = true, true
		case spec.assigns && strings.Contains(v, "=") && (optionsEnded || v[0] != '-'):
			// env takes every word with "=" before the command for an assignment (A.B=1 too), and
			// reads no option after one (env A=1 -u x runs a program named -u).
			name, val, _ := strings.Cut(v, "=")
			a.envVar(name, val, depth)
			o.env = append(o.env, v)
			o.next++
			optionsEnded, loneDash = true, true
		case optionsEnded:
			return o
		case longOptionText(spec, v) != "":
			o.unknownOption(spec, v)
			o.longOption(words, spec, longOptionText(spec, v))
		case len(v) > 1 && v[0] == '-':
			o.unknownOption(spec, v)
			a.shortOptions(&o, words, spec, v)
		case skip > 0:
			skip--
			o.next++
		case len(spec.cmdAfter) > 0:
			// A runner whose command follows a marker (mise exec TOOL@VERSION ... -- CMD) reads its
			// own options among its operands up to it: mise exec node@20 -c CMD runs CMD.
			o.next++
		default:
			return o
		}
	}
	return o
}

// unknownOption records an option word v that a strict spec does not list: a long option by its
// name or an abbreviation of one, a short one by each letter up to one that takes a value.
func (o *wrapperOpts) unknownOption(spec wrapSpec, v string) {
	if !spec.strict || o.unknown != "" {
		return
	}
	if name, _, _ := strings.Cut(strings.TrimPrefix(v, "--"), "="); strings.HasPrefix(v, "--") {
		known := append(append([]string{spec.longScript, spec.longChdir, spec.longRead}, spec.longArgs...), spec.flags...)
		if !slices.Contains(known, expandLong(name, known...)) {
			o.unknown = v
		}
		return
	}
	for _, c := range v[1:] {
		switch {
		case strings.ContainsRune(spec.shortFlags, c):
		case strings.ContainsRune(spec.argOpts, c) || spec.script != 0 && c == rune(spec.script):
			return
		default:
			o.unknown = v
			return
		}
	}
}

// longOptionText returns a long option's text after its dashes ("--name=value", and "-name" for
// a runner that reads a long option after one dash), or "" when v is none.
func longOptionText(spec wrapSpec, v string) string {
	name, _, _ := strings.Cut(v, "=")
	switch {
	case spec.dashLong && len(name) == 3 && strings.HasPrefix(v, "--"):
		return "" // nopt reads --c as -c, a short option: npx --c='rm -rf ~' is npx -c 'rm -rf ~'
	case strings.HasPrefix(v, "--") && len(v) > 2:
		return v[2:]
	case spec.dashLong && strings.HasPrefix(v, "-") && isLongName(spec, v[1:]):
		return v[1:]
	}
	return ""
}

// isLongName says whether opt (after the dashes, "=value" too) names one of spec's long options
// that take a value or its script option in full: nopt reads -call as --call, but -cal as -c -a -l.
func isLongName(spec wrapSpec, opt string) bool {
	name, _, _ := strings.Cut(opt, "=")
	return len(name) > 1 && (name == spec.longScript || slices.Contains(spec.longArgs, name))
}

// wrapperWrites records the files a wrapper's options write; for strace, an output file named
// "|CMD" or "!CMD" is CMD, which it runs with sh -c, so it is read as a script.
func (a *analyzer) wrapperWrites(idx int, spec wrapSpec, writes []word, depth int) {
	for _, w := range writes {
		if spec.pipeWrites && (strings.HasPrefix(w.s, "|") || strings.HasPrefix(w.s, "!")) {
			a.scriptFed(w.s[1:], depth+1, a.out.segments[idx].pipeFrom)
			continue
		}
		a.touch(w, opWrite)
	}
}

// longOption consumes "--name" or "--name=value" (opt is without the dashes) and, when the option
// takes a value and has none attached, the next word.
func (o *wrapperOpts) longOption(words []word, spec wrapSpec, opt string) {
	name, val, hasVal := strings.Cut(opt, "=")
	// The wrapper reads an abbreviated option as the one it abbreviates (env --chd=DIR).
	name = expandLong(name, append(append(append([]string{spec.longScript, spec.longChdir, spec.longRead}, spec.longArgs...), spec.longOpt...), spec.longWrite...)...)
	isScript := spec.longScript != "" && name == spec.longScript
	takes := (slices.Contains(spec.longArgs, name) || isScript) && !slices.Contains(spec.longOpt, name)
	valWord := words[o.next].with(val)
	if !hasVal && takes && o.next+1 < len(words) {
		valWord = words[o.next+1]
		val = valWord.s
		o.next++
	}
	if isScript {
		o.script, o.hasScript = val, true
	}
	if spec.longChdir != "" && name == spec.longChdir && (takes || hasVal) {
		o.chdir = &valWord
	}
	if spec.longRead != "" && name == spec.longRead {
		o.reads = append(o.reads, valWord)
	}
	if slices.Contains(spec.longWrite, name) {
		o.writes = append(o.writes, valWord)
	}
	o.fetch = o.fetch || spec.fetch != nil && slices.Contains(spec.fetch.long, name)
	o.longs = append(o.longs, name)
	if slices.Contains(spec.longScripts, name) {
		o.scripts = append(o.scripts, val)
	}
	o.next++
}

// shortOptions consumes a bundle of short options (v, such as "-uroot") and, when the first option
// that takes a value has none attached, the next word.
func (a *analyzer) shortOptions(o *wrapperOpts, words []word, spec wrapSpec, v string) {
	o.next++
	for j := 1; j < len(v); j++ {
		c := v[j]
		o.fetch = o.fetch || spec.fetch != nil && strings.IndexByte(spec.fetch.short, c) >= 0
		isScript := spec.script != 0 && c == spec.script
		optional := strings.IndexByte(spec.optArgOpts, c) >= 0
		if !isScript && !optional && strings.IndexByte(spec.argOpts, c) < 0 {
			continue
		}
		// A value attached after "=" (-c=CMD) is the value without it, as npm's nopt, clap,
		// argparse and yargs read it; getopt's "=CMD" names a program "=..." that does not exist,
		// so reading CMD refuses no more than the caller could have run.
		val := strings.TrimPrefix(v[j+1:], "=")
		valWord := words[o.next-1].with(val)
		if optional && val == "" {
			continue // no value: the option alone
		}
		if val == "" && o.next < len(words) {
			valWord = words[o.next]
			val = valWord.s
			o.next++
		}
		if spec.chdir != 0 && c == spec.chdir {
			o.chdir = &valWord
		}
		if strings.IndexByte(spec.readOpts, c) >= 0 {
			o.reads = append(o.reads, valWord)
		}
		if isScript {
			o.script, o.hasScript = val, true
		} else if strings.IndexByte(spec.writeOpts, c) >= 0 {
			o.writes = append(o.writes, valWord) // a computed name stays computed: strace -o "$F"
		}
		return
	}
}

// xargsInner analyses the command xargs runs. Its extra arguments come from stdin: the values an
// earlier find or echo stage yields when they are known, a computed placeholder otherwise.
func (a *analyzer) xargsInner(idx int, opts, rest []word, redirs []*syntax.Redirect, depth int) {
	inner := append([]word(nil), rest...)
	yields, known := a.stdinYields(idx, redirs)
	yields, ok := xargsSplit(yields)
	if !ok || xargsTransforms(opts) {
		known = false
	}
	if r, ok := xargsReplace(opts); ok {
		// Each word holding the replace string is made of what xargs reads: sh -c '{}' runs it.
		for i := range inner {
			switch {
			case r == "":
				inner[i] = word{s: placeholderXargs, dynamic: true}
			case strings.Contains(inner[i].s, r):
				inner[i] = word{s: strings.ReplaceAll(inner[i].s, r, placeholderXargs), dynamic: true}
			}
		}
	}
	if !known || len(yields) == 0 {
		inner = append(inner, word{s: placeholderXargs, dynamic: true})
	}
	for _, y := range yields {
		inner = append(inner, word{s: y, glob: hasGlobMeta(y), dynamic: y == placeholderXargs})
	}
	a.command(inner, redirs, a.out.segments[idx].pipeFrom, depth+1)
}

// xargsSplit is the arguments xargs makes of the text it reads, as the engine knows it: split at
// blanks. Quotes and backslashes xargs removes ('.e\nv' is .env to it) make them unknown (false).
func xargsSplit(text []string) ([]string, bool) {
	var out []string
	for _, t := range text {
		if t != placeholderXargs && strings.ContainsAny(t, `'"\`) {
			return nil, false
		}
		// xargs -0 splits at NUL alone, where a name may hold blanks: split at both, every
		// argument it makes is among the words judged (or part of one).
		out = append(out, strings.FieldsFunc(t, func(r rune) bool { return r == 0 || unicode.IsSpace(r) })...)
	}
	return out, true
}

// xargsReplace returns the replace string of xargs -I R, -IR, -i[R] or --replace[=R] ("{}" when
// -i or --replace gives none; "" when computed at run time, which could be in any word), and
// whether there is one. In a bundle, the options before I or i take no value (-0I{}).
func xargsReplace(opts []word) (string, bool) {
	for i, w := range opts {
		s := w.s
		switch {
		case w.dynamic:
			return "", true
		case strings.HasPrefix(s, "--"):
			if name, val, _ := strings.Cut(s[2:], "="); len(name) >= 3 && strings.HasPrefix("replace", name) {
				return cmp.Or(val, "{}"), true
			}
		case strings.HasPrefix(s, "-"):
			j := strings.IndexAny(s, "EeLlnPsdaRIi")
			switch {
			case j < 0 || s[j] != 'I' && s[j] != 'i':
			case j+1 < len(s):
				return s[j+1:], true
			case s[j] == 'i':
				return "{}", true
			case i+1 < len(opts) && opts[i+1].dynamic:
				return "", true
			case i+1 < len(opts):
				return opts[i+1].s, true
			}
		}
	}
	return "", false
}

// xargsTransforms says whether xargs' options make it build arguments otherwise than by splitting
// at blanks: a delimiter (-d, -0), a replacement string (-I, -i: "xargs -I{} cat .{}"), an end
// of input (-E, -e), or another input file (-a).
func xargsTransforms(opts []word) bool {
	for _, w := range opts {
		s := w.s
		switch {
		case w.dynamic:
			return true
		case strings.HasPrefix(s, "--"):
			name, _, _ := strings.Cut(s[2:], "=")
			for _, long := range []string{"delimiter", "replace", "eof", "arg-file"} { // --null: xargsSplit
				if len(name) > 0 && strings.HasPrefix(long, name) {
					return true
				}
			}
		case strings.HasPrefix(s, "-") && strings.ContainsAny(s, "dIiEea"): // -0: xargsSplit
			return true
		}
	}
	return false
}

// shell analyses what a shell runs: the -c script, a here-document or here-string on stdin, or a
// script file (opaque).
func (a *analyzer) shell(idx int, redirs []*syntax.Redirect, depth int) {
	a.shellStartupFile(idx)
	// Its script, and what that script's eval, traps and aliases run, is zsh's or not.
	defer func(was bool) { a.zsh = was }(a.zsh)
	a.zsh = a.out.segments[idx].name == cmdZsh
	words := fishCommand(a.out.segments[idx].words)
	i, hasC := shellOptions(words)
	switch {
	case fishInit(a.out.segments[idx].name, words):
		a.opaque(idx, "fish's --init-command")
	case a.out.segments[idx].name == cmdFish && fishUnread(words):
		a.opaque(idx, "fish's options read otherwise than a POSIX shell's: it runs every -c it is given, "+
			"a -c in a bundle takes the rest of the word, and -f, -d, -p, -D, -o take the next word")
	case a.zsh && zshAttachedOption(words):
		// zsh -oglobdots -c 'cat *': zsh reads the rest of the word as the option's name, where
		// shellOptions (bash's reading) takes the next words for it, the script among them.
		a.opaque(idx, "zsh's -oNAME, an option named in its own word")
	case shellStartedExpanding(a.out.segments[idx].name, words[:i]):
		// bash -O dotglob -c 'cat *' reads .env: the option is on before the script runs, as
		// shopt -s dotglob would turn it on inside it.
		a.opaque(idx, "the shell is started with an option that changes what its words expand to")
	case slices.ContainsFunc(words[1:i], notShellOption):
		// bash -c='rm -rf ~' refuses "-=", but which of its words a shell takes for the script
		// once its options are not its own is not the engine's to guess.
		a.opaque(idx, "an option the shell does not have")
	case hasC:
		a.out.segments[idx].wrapper = true
		if i < len(words) {
			// The words after the script are its $0, $1, ...
			a.scriptIn(words[i].s, depth+1, words[i+1:], true, a.out.segments[idx].pipeFrom)
		}
	case i < len(words):
		a.opaque(idx, "a script file")
	default:
		for _, r := range redirs {
			if body := stdinBody(r); body != nil && len(body.Parts) > 0 {
				a.out.segments[idx].wrapper = true
				a.script(a.render(body).s, depth+1)
			} else if readsStdin(r) {
				a.opaque(idx, "a script file on standard input")
			}
		}
	}
}

// fishCommand returns a shell's words with fish's --command[=SCRIPT] spelt -c SCRIPT, as fish
// reads it: fish --command='rm -rf ~' runs rm -rf ~.
func fishCommand(words []word) []word {
	out := words
	for k, w := range words {
		// getopt_long takes an unambiguous prefix: --c, --com are --command.
		if name, val, ok := strings.Cut(w.s, "="); !w.dynamic && len(name) > 2 && strings.HasPrefix("--"+longOptCommand, name) {
			out = slices.Concat(words[:k], []word{w.with("-c")}, words[k+1:])
			if ok {
				out = slices.Insert(out, k+1, w.with(val))
			}
			return out
		}
	}
	return out
}

// cmdFish is the fish shell.
const cmdFish = "fish"

// fishUnread says whether fish's options are ones the shell reader, which reads them as a POSIX
// shell's, would misread (fish's getopt is "c:C:p:d:f:D:o:" and permutes, so an option after an
// operand is one too): more than one -c (fish runs each: fish -c 'npm test' -c 'rm -rf ~'), a -c
// with the rest of its bundle as its script (fish -lcoo -c 'rm -rf ~' x runs oo, then rm -rf ~),
// a short option that takes the next word (fish -f -c ls runs the file ls), or a long option other
// than the few that take none.
func fishUnread(words []word) bool {
	commands := 0
	for i := 1; i < len(words); i++ {
		v := words[i].s
		switch {
		case words[i].dynamic:
			return true
		case v == "--":
			return commands > 1
		case strings.HasPrefix(v, "--"):
			name, _, hasVal := strings.Cut(v, "=")
			if len(name) > 2 && strings.HasPrefix("--command", name) {
				commands++
				if !hasVal {
					i++ // its script
				}
				continue
			}
			if !fishFlags[name] {
				return true
			}
		case len(v) > 1 && v[0] == '-':
			if strings.ContainsAny(v[1:], "fdpDoC") {
				return true
			}
			if c := strings.IndexByte(v, 'c'); c > 0 {
				if c != len(v)-1 {
					return true
				}
				commands++
				i++ // its script
			}
		}
	}
	return commands > 1
}

// fishFlags are fish's long options that take no value.
var fishFlags = wordSet("--login --interactive --private --no-config --no-execute --print-rusage-self --version --help")

// fishInit says whether fish is given an init command (-C, --init-command), which it runs before
// its script or its prompt.
func fishInit(name string, words []word) bool {
	return name == cmdFish && slices.ContainsFunc(words[1:], func(w word) bool {
		return w.s == "-C" || strings.HasPrefix(w.s, "--ini") // --init-command, or a prefix getopt_long takes
	})
}

// notShellOption says whether a word among a shell's options is a bundle of short options with a
// character no shell has for an option (-c=CMD); long options and option values are not judged.
func notShellOption(w word) bool {
	v := w.s
	if len(v) < 2 || v[0] != '-' && v[0] != '+' || strings.HasPrefix(v, "--") {
		return false
	}
	return strings.Trim(v[1:], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != ""
}

// zshAttachedOption reports whether a zsh's options hold -o or +o with more of the word after it
// (-oglobdots, -xoNAME).
func zshAttachedOption(words []word) bool {
	for _, w := range words[1:] {
		v := w.s
		if w.dynamic || v == "" || v[0] != '-' && v[0] != '+' || v == "--" || v == "-" {
			return false
		}
		if k := strings.IndexByte(v[1:], 'o'); !strings.HasPrefix(v, "--") && k >= 0 && k+2 < len(v) {
			return true
		}
	}
	return false
}

// shellOptions skips a shell's options and returns the index of the first word after them (the
// -c script or the script file) and whether -c was given.
func shellOptions(words []word) (int, bool) {
	hasC := false
	i := 1
	for ; i < len(words); i++ {
		v := words[i].s
		if words[i].dynamic || v == "" || (v[0] != '-' && v[0] != '+') {
			break
		}
		if v == "--" || v == "-" {
			i++
			break
		}
		if strings.HasPrefix(v, "--") {
			if v == "--rcfile" || v == "--init-file" {
				i++
			}
			continue
		}
		if v[0] == '-' && strings.Contains(v[1:], "c") {
			hasC = true
		}
		// Each -o (an option) and -O (a shopt) in a bundle takes the next word, with -c too:
		// "bash -co pipefail 'cat .env'" runs cat .env.
		i += strings.Count(v[1:], "o") + strings.Count(v[1:], "O")
	}
	return min(i, len(words)), hasC
}

// findExec analyses find's -exec, -execdir, -ok and -okdir commands. "{}" stands for the files
// find matched, so it is replaced by the patterns of the tests before the action (readFind) when
// there are any. A find whose expression holds a word computed at run time is opaque: the word
// may be an action the engine does not see.
func (a *analyzer) findExec(idx int, redirs []*syntax.Redirect, depth int) {
	words := a.out.segments[idx].words
	e := readFind(words)
	if e.computed != "" {
		a.opaque(idx, e.computed)
	}
	a.out.segments[idx].yields = e.printed
	for _, x := range e.execs {
		if x.end == x.start+1 {
			continue
		}
		a.out.segments[idx].wrapper = true
		var runs [][]word // named from here, before -execdir's directory is each match's
		for _, names := range findRuns(x) {
			runs = append(runs, a.execWords(words[x.start+1:x.end], names, x.inDir))
		}
		saved := a.cwd
		if x.inDir {
			a.cwd = cwdUnknown // each match's own directory
		}
		for _, inner := range runs {
			a.command(inner, redirs, a.out.segments[idx].pipeFrom, depth+1)
		}
		a.cwd = saved
		a.findExecInToolDirs(idx, x, redirs, depth)
	}
}

// findExecInToolDirs analyses an action again with "{}" as the names inside .git and agents'
// settings directories its tests may match (findAction.inToolDirs), keeping only what that run
// writes or deletes: find . -name HEAD -exec cp /tmp/x {} \; overwrites .git/HEAD. Its reads are
// left out, as for any file below the roots: reading .git is no harm the path policy names, and
// counting them would refuse every find of "config".
func (a *analyzer) findExecInToolDirs(idx int, x findAction, redirs []*syntax.Redirect, depth int) {
	if len(x.inToolDirs) == 0 {
		return
	}
	words := a.out.segments[idx].words
	before := len(a.out.paths)
	for _, names := range findRuns(findAction{batch: x.batch, names: x.inToolDirs}) {
		a.command(a.execWords(words[x.start+1:x.end], names, false), redirs, a.out.segments[idx].pipeFrom, depth+1)
	}
	kept := slices.DeleteFunc(a.out.paths[before:], func(r pathRef) bool { return r.op == opRead })
	a.out.paths = a.out.paths[:before+len(kept)]
}

// maxFindRuns bounds the commands an -exec ... ";" is analysed as, one per name it may run on;
// past it, "{}" is a file computed at run time.
const maxFindRuns = 16

// findRuns are the names each run of a find action gets for "{}": with "+" all of them at once,
// with ";" one per run, so that "{}" stays one word ("-exec sh -c 'cat \"$1\"' {} .env \;"
// gives sh's $1 one file, and .env is its $2); nil when the files are not known.
func findRuns(x findAction) [][]string {
	if x.batch || len(x.names) <= 1 {
		return [][]string{x.names}
	}
	if len(x.names) > maxFindRuns {
		return [][]string{nil}
	}
	runs := make([][]string, 0, len(x.names))
	for i := range x.names {
		runs = append(runs, x.names[i:i+1])
	}
	return runs
}

// findDotVariant returns the dotfiles a find pattern also matches: unlike bash's globs, find's
// (fnmatch without FNM_PERIOD) match a leading dot with a wildcard, so "*" and "?env" match .env.
// A last part that starts with a wildcard is also that part with the wildcard's first character a
// dot: "*" also names ".*", "?env" ".env", "[.a]*" ".*", "*rc" ".*rc".
func findDotVariant(p string) (string, bool) {
	dir, base := "", p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		dir, base = p[:i+1], p[i+1:]
	}
	rest := ""
	switch {
	case base == "":
		return "", false
	case base[0] == '*':
		rest = base
	case base[0] == '?':
		rest = base[1:]
	case base[0] == '[':
		// Read as bash (and fnmatch) read it: "[[:punct:]]", "[!]]" and "[[=.=]]" end at
		// their second "]", and a bracket that cannot match "." makes no dotfile.
		set, end, how := readBracket(base, 0)
		switch {
		case how == bracketUnread:
			rest = "*" // any dotfile
		case how != bracketClosed || !set.has('.'):
			return "", false
		default:
			rest = base[end:]
		}
	default:
		return "", false
	}
	if strings.Contains(strings.TrimLeft(rest, "*"), ".") {
		// "*.go" could match a dotfile ".env.go" too, but names nothing in particular: a pattern
		// with an extension aims at that extension.
		return "", false
	}
	return dir + "." + rest, true
}

// execWords are the words of a find -exec command with "{}" replaced by the files find yields
// (names), or by a computed placeholder when those are not known. With -execdir the command runs
// from each match's directory: the match is named as seen from here.
func (a *analyzer) execWords(cmd []word, names []string, inDir bool) []word {
	var inner []word
	for _, w := range cmd {
		switch {
		case !strings.Contains(w.s, "{}"):
			inner = append(inner, w)
		case len(names) == 0:
			inner = append(inner, word{s: strings.ReplaceAll(w.s, "{}", placeholderFind), dynamic: true})
		default:
			for _, n := range names {
				if inDir && a.cwd != cwdUnknown && a.cwd != "" {
					n = resolvePath(a.cwd, n)
				}
				v := strings.ReplaceAll(w.s, "{}", n)
				inner = append(inner, word{s: v, glob: hasGlobMeta(v), dynamic: w.dynamic})
			}
		}
	}
	return inner
}

// gitScripts analyses scripts git runs for the caller: "git submodule foreach CMD". Its command
// is every word after foreach and foreach's own options (-q, --quiet, --recursive, up to "--"),
// options among them: read from the words, not the operands, which leave the options out (git
// submodule foreach git reset --hard is not git reset). One word is a script git's shell runs;
// several are the command and its arguments.
func (a *analyzer) gitScripts(seg segment, depth int) {
	ops := seg.operands
	if len(ops) < 3 || ops[0].s != "submodule" || ops[1].s != "foreach" {
		return
	}
	args := gitSubArgs(&seg)
	at := slices.IndexFunc(args, func(w word) bool { return w.s == "foreach" })
	rest := args[at+1:]
	for len(rest) > 0 && strings.HasPrefix(rest[0].s, "-") && !rest[0].dynamic {
		end := rest[0].s == "--"
		rest = rest[1:]
		if end {
			break
		}
	}
	switch {
	case len(rest) == 1:
		a.script(rest[0].s, depth+1)
	case len(rest) > 1:
		a.command(rest, nil, nil, depth+1)
	}
}

// pythonModuleRunner analyses the command line of a runner run as a Python module as the
// runner's own (a segment of its own, unwrapped as the runner is): python -m uv run python
// /tmp/x.py is uv run python /tmp/x.py, python -m coverage run /tmp/x.py is coverage run
// /tmp/x.py. Before, the module's words were the python segment's operands, and what the runner
// runs was not read.
//
// Any other module is analysed as the program it installs as well, a segment judged (the rule
// pack's command rules key on a segment's name) but not required to be recognised: python -m
// pipx run x is pipx run x (package-fetch-run), python -m twine upload twine upload, python -m
// awscli s3 rb aws s3 rb. Before, only the runners were, and the others were admitted at Yolo.
func (a *analyzer) pythonModuleRunner(idx int, redirs []*syntax.Redirect, depth int) {
	mod, m, ok := pythonModuleRun(&a.out.segments[idx])
	// python -m dotenv run is asked for whatever it runs (printsDotenv); python -m pip is read as
	// pip by its own rule (python-pip-install) and options (pipArgs).
	if !ok || mod == cmdDotenv || mod == cmdPip || strings.HasPrefix(mod, cmdPip+"3") {
		return
	}
	runner := subcommandRunners[mod] != nil || isRunnerWrapper(mod)
	if !runner {
		mod = moduleProgram(mod)
	}
	words := append([]word{{s: mod}}, m.words[1:]...)
	n := len(a.out.segments)
	a.command(words, redirs, a.out.segments[idx].pipeFrom, depth+1)
	for i := n; !runner && i < len(a.out.segments); i++ {
		a.out.segments[i].asModule = true // python -m MODULE itself is what must be recognised
	}
}

// moduleProgram is the program a Python module installs under another name: awscli is aws,
// ansible.cli.pull is ansible-pull (and ansible.cli.X ansible-X); any other module is its own name.
func moduleProgram(mod string) string {
	if mod == "awscli" {
		return cmdAWS
	}
	if cli, ok := strings.CutPrefix(mod, "ansible.cli."); ok && cli != "" {
		return "ansible-" + cli
	}
	return mod
}

// isRunnerWrapper says whether a program is a runner known by its name (runnerWrappers).
func isRunnerWrapper(name string) bool {
	_, ok := runnerWrappers[name]
	return ok
}

// interpreter marks a segment of an interpreter that runs inline code as opaque.
func (a *analyzer) interpreter(idx int, redirs []*syntax.Redirect) {
	seg := &a.out.segments[idx]
	if isPython(seg.name) {
		a.python(idx, redirs)
		return
	}
	opts, ok := interpreters[seg.name]
	if !ok {
		return
	}
	sub := runtimeSubcommand(seg) || (seg.name == cmdNode || seg.name == cmdNodejs) && nodeProjectTests(seg)
	if opts == "" && !sub {
		a.opaque(idx, "an interpreter")
		return
	}
	for i := 0; i < len(opts); i++ {
		if seg.hasFlag(shortFlags[opts[i]]) {
			a.opaque(idx, "inline code ("+shortFlags[opts[i]]+")")
			return
		}
	}
	switch {
	case seg.hasFlag("--eval") || seg.hasFlag("--command") || seg.hasFlag("--print") || seg.name == "r" && seg.hasFlag("--file") ||
		denoTaskEval(seg):
		a.opaque(idx, "inline code")
	case sub:
		// a test, install or tooling command, a package.json script run by name, or node --test
		// of the project's test files
	case len(seg.operands) > 0:
		a.opaque(idx, "a script file")
	case len(seg.pipeFrom) > 0 || slices.ContainsFunc(redirs, readsStdin):
		a.opaque(idx, "a script on standard input")
	}
}

// denoTaskEval says whether a segment is deno task -e, --eval's short spelling (its value is a task
// line, run as deno.json's tasks are); deno's other subcommands have no -e.
func denoTaskEval(seg *segment) bool {
	return seg.name == cmdDeno && len(seg.operands) > 0 && runtimeSubcommands[cmdDeno][seg.operands[0].s] && seg.hasFlag("-e")
}

// python marks a Python command line that runs code the engine cannot see as opaque: inline code,
// a script, a program on standard input, or options it cannot read. A module (-m), installed or
// the project's, is judged by name as a project's own commands are, and by the checks that read
// the modules they know (pip, pytest, http.server, zipfile, tarfile, dotenv), unless it is one
// that runs the script or code it is given (python -m cProfile x.py runs x.py).
func (a *analyzer) python(idx int, redirs []*syntax.Redirect) {
	seg := &a.out.segments[idx]
	p, _ := readPython(seg)
	fed := len(seg.pipeFrom) > 0 || slices.ContainsFunc(redirs, readsStdin)
	switch {
	case p.kind == pyCode:
		a.opaque(idx, "inline code (-c)")
	case p.kind == pyScript:
		a.opaque(idx, "a script file")
	case p.kind == pyUnread:
		a.opaque(idx, "an interpreter option the engine does not read, or one computed at run time")
	case p.kind == pyModule && p.target.dynamic:
		a.opaque(idx, "a module named at run time")
	case p.kind == pyModule && pythonCodeModules[p.target.s]:
		a.opaque(idx, "module "+p.target.s+", which runs the script or code it is given")
	case p.kind == pyStdin && (len(p.words) > 0 || fed):
		a.opaque(idx, "a script on standard input")
	case fed && (p.inspect || p.kind == pyModule && pythonStdinModules[p.target.s]):
		// -i reads code from standard input once the module ends (PYTHONINSPECT is codeEnvVars').
		a.opaque(idx, "code on standard input after the module (-i, or an interactive module)")
	}
}

// pythonCodeModules are standard modules whose command line runs a script or code it is given:
// profilers, debuggers and tracers run a script (or a module with -m), timeit runs statements,
// doctest the examples in a file, idlelib a script with -r, pickle unpickles (runs) a file,
// runpy the module it names (python -m runpy pip install x is python -m pip install x, which the
// rule pack's patterns would not see).
//
//nolint:goconst // module names read best literally, next to their neighbours
var pythonCodeModules = map[string]bool{"cProfile": true, "profile": true, "pdb": true, "trace": true, "timeit": true,
	"doctest": true, "idlelib": true, "idle": true, "pickle": true, "runpy": true}

// pythonStdinModules are standard modules that read Python code from standard input: the
// interactive consoles.
var pythonStdinModules = map[string]bool{"code": true, "asyncio": true}

// readsStdin says whether a redirect feeds standard input: a file (also opened for reading and
// writing), another descriptor, a here-document or a here-string.
func readsStdin(r *syntax.Redirect) bool {
	if stdinBody(r) != nil {
		return true
	}
	if r.N != nil && r.N.Value != "0" {
		return false
	}
	switch r.Op {
	case syntax.RdrIn, syntax.RdrInOut: // < FILE, <> FILE
		return true
	case syntax.DplIn: // <&N: another descriptor's input, unless <&- closes it
		return r.Word == nil || r.Word.Lit() != "-"
	}
	return false
}

// stdinUnread says whether a redirect feeds standard input with text the engine does not read: a
// file other than /dev/null, or another descriptor (a here-document or here-string is read).
func stdinUnread(r *syntax.Redirect) bool {
	return readsStdin(r) && stdinBody(r) == nil && (r.Word == nil || r.Word.Lit() != devNull)
}

// runsCode returns why a program runs code given to it in a way the engine does not follow, or
// "": a terminal multiplexer's new window or keys, GNU parallel's command template, a debugger,
// ssh's ProxyCommand or LocalCommand, go generate's directives, chroot into another root.
func runsCode(s *segment) string {
	if why := builtinCode(s); why != "" {
		return why
	}
	switch s.name {
	// ex reads editor commands (":!id") from its standard input, ansible-console modules to run.
	case "parallel", "gdb", "lldb", "ex", "ansible-console":
		return s.name + " runs the commands it is given"
	case "tmux", "screen":
		if len(s.operands) > 0 && !slices.Contains([]string{"ls", "list-sessions", "list-windows", "attach", "a", "attach-session", "kill-session", "kill-server", "has-session"}, s.operands[0].s) {
			return s.name + " runs a command in a new window or sends it keys"
		}
	case cmdSSH, cmdSFTP, cmdScp, "ssh-add", "ssh-keygen":
		return sshLocalCommand(s)
	case cmdGcloud, "az", "gh", "vagrant", cmdMinikube, "colima":
		if cloudSSHClient(s) {
			return sshOptionCode(s)
		}
	case "go":
		if len(s.operands) > 0 && s.operands[0].s == "generate" {
			return "go generate runs the commands its source files name"
		}
	case "chroot":
		if len(s.operands) == 0 || s.operands[0].dynamic || resolvePath("", s.operands[0].s) != "/" {
			return "chroot runs the command below another root, where its paths name other files"
		}
	case "unshare", "nsenter":
		root := "-R" // unshare's; its -r maps the user to root
		if s.name == "nsenter" {
			root = "-r"
		}
		if s.hasFlag(root) || s.hasFlag("--root") {
			return s.name + " runs the command below another root"
		}
	}
	return runnerCode(s)
}

// skipsChdir says whether w is chroot's --skip-chdir, or an abbreviation of it.
func skipsChdir(w word) bool {
	return len(w.s) >= 4 && strings.HasPrefix("--skip-chdir", w.s)
}

// nsenterTargetDir says whether w is an nsenter option that moves to a directory the engine does
// not know: -w or --wd alone (the target process's working directory), -W/--wdns (a directory in
// the target's mount namespace).
func nsenterTargetDir(w word) bool {
	return w.s == "-w" || w.s == "--wd" || strings.HasPrefix(w.s, "-W") || strings.HasPrefix(w.s, "--wdn")
}

// sshLocalCommand returns why ssh, scp or sftp runs a program or loads a library of the
// caller's locally (ProxyCommand, LocalCommand, KnownHostsCommand; a PKCS#11 or security key
// provider; scp's and sftp's -S program, sftp's -D server), or "".
func sshLocalCommand(s *segment) string {
	if (s.name == cmdSSH || s.name == cmdSFTP || s.name == cmdScp) && s.hasFlag("-F") { // ssh-keygen -F finds a host
		return s.name + " -F reads a configuration that may name commands it runs locally"
	}
	for _, f := range sshCodeFlags[s.name] {
		if s.hasFlag(f) {
			return s.name + " " + f + " runs a program or loads a library the caller names"
		}
	}
	return sshOptionCode(s)
}

// sshOptionCode returns why a command's words give ssh an option that runs a program or loads a
// library locally (-o ProxyCommand=..., LocalCommand, ...), or "".
func sshOptionCode(s *segment) string {
	for _, w := range s.words[1:] {
		l := strings.ToLower(w.s)
		for _, opt := range []string{"proxycommand", "localcommand", "knownhostscommand", "pkcs11provider", "securitykeyprovider"} {
			if strings.Contains(l, opt) {
				return s.name + " runs its " + w.s + " locally"
			}
		}
	}
	return ""
}

// gcloudCompute is gcloud's Compute Engine command group.
const gcloudCompute = "compute"

// cloudSSHClient says whether a cloud or VM CLI's command runs the local ssh (or scp) with
// options it is given: after "--" (gcloud compute ssh VM -- -o ..., az ssh vm, gh codespace ssh,
// vagrant ssh, minikube ssh) or in --ssh-flag and --scp-flag (gcloud compute ssh and scp).
func cloudSSHClient(s *segment) bool {
	if _, ok := cloudSSH(s); ok {
		return true
	}
	ops := cliOperands(s)
	return len(ops) > 0 && ops[0].s == cmdSSH || len(ops) > 1 && ops[0].s == gcloudCompute && ops[1].s == cmdScp ||
		len(ops) > 1 && (ops[0].s == "codespace" || ops[0].s == "cs") && ops[1].s == "cp"
}

// sshCodeFlags are, per OpenSSH program, the options whose value is a program it runs or a
// library it loads: ssh -I (PKCS#11), scp -S and sftp -S (the ssh to run), sftp -D (the server),
// ssh-add -S/-s and ssh-keygen -w/-D (a security key or PKCS#11 provider). ssh -S and -D are a
// control socket and a forwarding port.
var sshCodeFlags = map[string][]string{cmdSSH: {"-I"}, cmdScp: {"-S"}, cmdSFTP: {"-S", "-D"},
	"ssh-add": {"-S", "-s"}, "ssh-keygen": {"-w", "-D"}}

// trap analyses the code a trap runs (trap 'cat .env' EXIT runs it when the shell exits).
func (a *analyzer) trap(idx int, depth int) {
	seg := a.out.segments[idx]
	if len(seg.operands) < 2 || seg.hasFlag("-p") || seg.hasFlag("-l") {
		return
	}
	switch code := seg.operands[0]; {
	case code.dynamic:
		a.opaque(idx, "a trap's code computed at run time")
	case code.s != "-" && code.s != "":
		a.script(code.s, depth+1)
		a.traps = append(a.traps, pendingTrap{code: code.s, cwd: a.cwd, depth: depth + 1})
	}
}

// stdinPaths are the paths a program opens to read its standard input.
var stdinPaths = map[string]bool{"/dev/stdin": true, "/dev/fd/0": true, "/proc/self/fd/0": true}

// namesStdin says whether a program's file operand or option value f names its standard input:
// "-", as most programs (kubectl, helm, compose, ansible-playbook, just) read it, or a stdinPaths
// path. (source takes no "-": it reads stdinPaths alone.)
func namesStdin(f string) bool { return f == "-" || stdinPaths[f] }

// source analyses what source (.) runs in this shell: a here-document's or here-string's body on
// /dev/stdin, or a file whose content the engine cannot see (opaque).
func (a *analyzer) source(idx int, redirs []*syntax.Redirect, depth int) {
	seg := a.out.segments[idx]
	if len(seg.operands) == 0 {
		return
	}
	if stdinPaths[seg.operands[0].s] {
		for _, r := range redirs {
			if body := stdinBody(r); body != nil {
				a.script(a.render(body).s, depth+1)
				return
			}
		}
	}
	a.opaque(idx, "a sourced file")
}

// opaque marks a segment that runs code the engine cannot see. Such code could read a
// zero-access path or write anywhere, so the call asks for a person at every autonomy level and
// is refused in a read-only plan.
func (a *analyzer) opaque(idx int, why string) {
	seg := &a.out.segments[idx]
	if seg.opaque {
		return
	}
	seg.opaque = true
	a.find(false, RuleOpaqueCode, "command %q runs code the engine cannot see (%s); it could read a path the zeroAccess policy protects or write anywhere, so it needs human approval", truncate(seg.text, 120), why)
}

// literalOperands returns the words an echo prints, which a following xargs passes on: every
// word after echo's own options (-n, -e, -E and their bundles). bash's echo takes no other option
// and no --: it prints -1, -rf and -- as text, so echo -1 | xargs kill -9 is kill -9 -1.
func literalOperands(seg segment) []string {
	var out []string
	opts := true
	for _, w := range seg.words[1:] {
		if w.dynamic {
			return nil
		}
		if opts && echoOption(w.s) {
			continue
		}
		opts = false
		out = append(out, w.s)
	}
	return out
}

// printedWords returns the words echo or printf prints, which a following xargs passes on, or nil
// when they are not known. echo -e and printf's format turn the operands into other text (printf
// %s%s .e nv prints .env): echo's are known without -e, printf's when its format only prints each
// argument whole ('%s\n', '%s ', '%s\t%s\n'): printf '%s\n' -1 | xargs kill -9 is kill -9 -1.
func printedWords(seg segment) []string {
	if seg.name == cmdEcho {
		out := literalOperands(seg)
		// -e changes only backslash sequences: echo -e -1 prints -1.
		if seg.hasFlag("-e") && slices.ContainsFunc(out, func(w string) bool { return strings.ContainsRune(w, '\\') }) {
			return nil
		}
		return out
	}
	args := seg.words[1:]
	if len(args) > 0 && args[0].s == "--" {
		args = args[1:]
	}
	if len(args) == 1 && !args[0].dynamic {
		return formatOnlyWords(args[0].s) // printf -- '-1\n' prints its format
	}
	if len(args) < 2 || args[0].dynamic || !wholeWordsFormat(args[0].s) {
		return nil
	}
	numeric := strings.Contains(args[0].s, "%d") || strings.Contains(args[0].s, "%i")
	out := make([]string, 0, len(args)-1)
	for _, w := range args[1:] {
		if w.dynamic || strings.ContainsAny(w.s, " \t\n") || numeric && !plainInteger(w.s) {
			return nil
		}
		out = append(out, w.s)
	}
	return out
}

// formatOnlyWords returns the words a printf format given no argument prints, when it holds no
// conversion and no escape but \n and \t; nil otherwise.
func formatOnlyWords(f string) []string {
	if strings.ContainsRune(f, '%') {
		return nil
	}
	f = strings.NewReplacer(`\n`, " ", `\t`, " ").Replace(f)
	if strings.ContainsRune(f, '\\') {
		return nil
	}
	return strings.Fields(f)
}

// plainInteger reports whether printf's %d prints a word as it is: a decimal integer without a
// leading zero (010 is octal to printf, 8).
func plainInteger(s string) bool {
	d := strings.TrimPrefix(s, "-")
	return d != "" && strings.Trim(d, "0123456789") == "" && (d == "0" || d[0] != '0')
}

// wholeWordsFormat reports whether a printf format is only %s (or %d, %i) conversions, each followed by a
// blank or the escape of a newline or a tab, and such separators: '%s%s' would print two
// arguments as one word.
func wholeWordsFormat(f string) bool {
	conv, sep := false, false
	for f != "" {
		switch {
		case (strings.HasPrefix(f, "%s") || strings.HasPrefix(f, "%d") || strings.HasPrefix(f, "%i")) && !conv:
			conv, f = true, f[2:]
			continue
		case f[0] == ' ':
			f = f[1:]
		case strings.HasPrefix(f, `\n`) || strings.HasPrefix(f, `\t`):
			f = f[2:]
		default:
			return false
		}
		if conv {
			conv, sep = false, true
		}
	}
	return sep && !conv
}

// echoOption reports whether a word is one of bash's echo options: a dash and only n, e and E.
func echoOption(s string) bool {
	return len(s) > 1 && s[0] == '-' && strings.Trim(s[1:], "neE") == ""
}

// quotedWords joins ws, each quoted as bash would need it to stay one word; false when a word is
// computed at run time.
func quotedWords(ws []word) (string, bool) {
	var b strings.Builder
	for i, w := range ws {
		q, err := syntax.Quote(w.s, syntax.LangBash)
		if w.dynamic || err != nil {
			return "", false
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(q)
	}
	return b.String(), true
}

// joinedScript analyses the words rest of a wrapper that joins them into one shell script (eval,
// watch), or, for watch -x, runs them as they are: watch -x sh -c 'rm -rf .git' runs rm -rf .git.
func (a *analyzer) joinedScript(idx int, own, rest []word, redirs []*syntax.Redirect, depth int) {
	if execsWords(a.out.segments[idx].name, own) {
		a.command(rest, redirs, a.out.segments[idx].pipeFrom, depth+1)
		return
	}
	a.scriptFed(joinWords(rest), depth+1, a.out.segments[idx].pipeFrom)
}

// optWatchExec is watch's long -x.
const optWatchExec = "--exec"

// execsWords reports whether watch, given its own words own, runs its command's words as they are
// (-x, --exec, also in a cluster), not as one shell script.
func execsWords(name string, own []word) bool {
	if name != "watch" {
		return false
	}
	for _, w := range own {
		if w.s == optWatchExec || len(w.s) > 1 && w.s[0] == '-' && w.s[1] != '-' && strings.IndexByte(w.s, 'x') > 0 {
			return true
		}
	}
	return false
}

func joinWords(ws []word) string {
	var b strings.Builder
	for i, w := range ws {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.s)
	}
	return b.String()
}

func isAssignment(v string) bool {
	name, _, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i <= 0 || !isDigit(c)) {
			return false
		}
	}
	return true
}

func hasGlobMeta(s string) bool { return strings.ContainsAny(s, "*?[") }

// stdinYields returns the words a segment reads on standard input — from a here-string or
// here-document, and what the pipeline stages before it print — and whether they are all known: a
// stage whose output is unknown may add any word. xargs makes arguments of them, git cat-file
// --batch object names.
func (a *analyzer) stdinYields(idx int, redirs []*syntax.Redirect) ([]string, bool) {
	yields, known := a.hereStringYields(redirs)
	known = known || len(a.out.segments[idx].pipeFrom) > 0
	for _, p := range a.out.segments[idx].pipeFrom {
		if a.out.segments[p].yields == nil && !a.out.segments[p].wrapper {
			known = false
		}
		yields = append(yields, a.out.segments[p].yields...)
	}
	return yields, known
}

// hereStringYields returns the words a here-string or here-document gives xargs on stdin, and
// whether there is one. A computed body yields a computed argument.
func (a *analyzer) hereStringYields(redirs []*syntax.Redirect) ([]string, bool) {
	for _, r := range redirs {
		body := stdinBody(r)
		if body == nil {
			continue
		}
		w := a.render(body)
		if w.dynamic {
			return []string{placeholderXargs}, true
		}
		return strings.Fields(w.s), true
	}
	return nil, false
}

// stdinBody is the text a here-document or here-string redirect feeds to standard input, or nil
// for any other redirect.
func stdinBody(r *syntax.Redirect) *syntax.Word {
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		return r.Hdoc
	case syntax.WordHdoc:
		return r.Word
	}
	return nil
}
