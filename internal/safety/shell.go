package safety

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Limits on a command line. They bound the work an agent can make the webhook do, and a command
// beyond them is denied, never admitted unchecked.
const (
	// MaxCommandBytes is the longest command line the engine accepts.
	MaxCommandBytes = 64 << 10
	// maxNesting bounds wrappers, nested scripts and substitutions inside one another.
	maxNesting = 16
	// maxBracketDepth bounds how deeply brackets nest in a script the engine parses.
	maxBracketDepth = 64
	// maxArithOps bounds the operators of the arithmetic expressions in a script the engine parses.
	maxArithOps = 1024
	// maxSegments bounds the simple commands one command line may contain.
	maxSegments = 512
	// maxBraceWords bounds the words one brace expansion may produce.
	maxBraceWords = 256
	// maxWork bounds the work one command may cause in all: every expanded word, path and
	// command costs a unit, a glob path (checked against every path-policy entry) globCost and a
	// unit per globBytesPerUnit bytes, a brace-expanded word braceCost and a command segmentCost;
	// parsing costs a unit per parseBytesPerUnit bytes. The bound is
	// calibrated so that the worst input evaluates in well under 5 ms (docs/benchmarks-engine.md);
	// it counts work rather than time so a decision never depends on how loaded the machine is.
	maxWork           = 6000
	globCost          = 20
	braceCost         = 8 // a brace-expanded word is built part by part
	segmentCost       = 4
	parseBytesPerUnit = 32
	globBytesPerUnit  = 2
)

// globWork is what checking one glob path costs: globCost, and a unit per globBytesPerUnit
// bytes, since matching it against every path-policy entry takes time in proportion to its
// length (a 16 KiB "**/**/…/x" costs about 6 ms).
func globWork(glob string) int { return globCost + len(glob)/globBytesPerUnit }

// analysisError is a command the engine cannot check; it is always a denial.
type analysisError struct {
	rule string
	msg  string
}

// Error returns the explanation.
func (e *analysisError) Error() string { return e.msg }

// pathOp is what a call does to a path.
type pathOp uint8

const (
	opRead pathOp = iota + 1
	opWrite
	opDelete
)

// String names the operation in messages.
func (o pathOp) String() string {
	switch o {
	case opRead:
		return "read" //nolint:goconst // the operation's name in messages, not the action class
	case opWrite:
		return "write"
	case opDelete:
		return "delete"
	}
	return cmdTouch
}

// segment is one simple command after quote removal and unwrapping.
type segment struct {
	name     string // base name of the command word, lower-cased; "" when computed at run time
	words    []word // argv, words[0] is the command word
	text     string // name and arguments joined by single spaces: what pattern rules see
	flags    []string
	operands []word
	cwd      string   // working directory the segment runs in ("" = unknown base)
	pipeFrom []int    // segments of earlier pipeline stages feeding this one
	yields   []string // what the segment prints that xargs may turn into arguments
	env      []string // NAME=VALUE assignments in the command's environment (prefix or env wrapper)
	lineEnv  int      // how many of env, first, the line exported before it rather than the command's own (exportedenv.go)
	alt      string   // the text with global options after the subcommand, for pattern rules ("" = text)
	opsFirst string   // the text with the operands before every option, for pattern rules ("" = none)
	// The flags last, side by side: one word for all of them, not one each between the fields
	// above (a segment is made for every command of every call).
	unknownFlags  bool         // a computed word could be any flag
	wrapper       bool         // wraps another command, analysed as its own segment
	opaque        bool         // runs code the engine cannot see (a script file, inline interpreter code)
	localFunc     bool         // calls a function defined earlier in the same command line (already checked)
	fallback      bool         // what a script runner runs when the project has no script of the name (pnpm NAME): judged, not required to be recognised
	asModule      bool         // the program python -m MODULE is (pythonModuleRunner): judged beside it, not required to be recognised
	secretCopy    bool         // a word expands a copy of a credential variable (T=$GITHUB_TOKEN ... "$T")
	secretFed     bool         // a here-document or here-string fed to it names a credential variable
	dropFed       bool         // a database client is fed text that drops data (drops-data)
	stopsWorkload bool         // scales a workload to zero by a patch or values its text does not show (workloadstop.go)
	fedText       bool         // its standard input is a here-document or here-string known before it runs, with no database client command
	place         programPlace // where a program named by a path is (programpaths.go), placeUnjudged until judged
}

// pathRef is a path a command touches.
type pathRef struct {
	raw       string // as written, after quote removal
	cwd       string // working directory it resolves against
	op        pathOp
	dynamic   bool
	glob      bool
	recursive bool     // the operation covers everything below the path (rm -r, cp -r, tar c)
	members   bool     // a directory an extraction writes members into, by names the engine does not see
	listing   bool     // recursive, but only the names below are read (ls -R, find): listedFailure
	seg       int16    // 1 + the index of the segment whose words name it; 0 for a redirection
	only      []string // a recursive search reads only the files whose names pass these globs (searchNameFilter)
}

// finding is a structural verdict on a command (not from a rule pack).
type finding struct {
	rule  string
	msg   string
	block bool
}

// analysis is everything the engine learned from one command line.
type analysis struct {
	segments []segment
	paths    []pathRef
	findings []finding
	// patternBytes counts the text pattern rules' regular expressions read (maxPatternBytes).
	patternBytes int
	cwd          string   // the call's working directory, where the line starts
	inRepos      []int    // segments that run git where the line made a repository (gitrepository.go)
	elsewhere    [][2]int // [from, to) ranges of segments run on another machine or in a container (remote.go)
}

var parserPool = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// analyzeCommand parses a command line and returns every simple command inside it — in lists,
// pipelines, subshells, blocks, loops, functions, command and process substitutions, and inside
// wrappers such as "bash -c", env, xargs, timeout or sudo — with the paths each one touches.
func analyzeCommand(cmd, cwd string) (*analysis, *analysisError) {
	src, aerr := foldCommand(cmd)
	if aerr != nil {
		return nil, aerr
	}
	if n := commandStarts(src); n > 2*maxSegments {
		// Far more commands than the bound allows: refuse before the parser builds all of them.
		return nil, &analysisError{rule: RuleCommandTooComplex, msg: fmt.Sprintf("command line separates or substitutes %d commands, more than the %d the engine checks", n, maxSegments)}
	}
	p := parserPool.Get().(*syntax.Parser)
	defer parserPool.Put(p)
	a := &analyzer{parser: p, cwd: cwd, unrolled: 1, out: &analysis{cwd: cwd, segments: make([]segment, 0, 8), paths: make([]pathRef, 0, 8)}}
	a.scriptIn(src, 0, nil, false, nil)
	if a.err != nil {
		return nil, a.err
	}
	a.xtraceSecret(src)
	return a.out, nil
}

// commandStarts counts the bytes that can start a command (; | & newline, and the $( ` <( >( of a
// substitution), quoted or not: an upper bound on the simple commands a line can contain, for
// refusing a line that is far past maxSegments without parsing it.
func commandStarts(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ';', '|', '&', '\n', '`':
			n++
		case '(':
			if i > 0 && (s[i-1] == '$' || s[i-1] == '<' || s[i-1] == '>') {
				n++
			}
		}
	}
	return n
}

// Kinds of bracket scriptShape tracks.
const (
	shapeCommands = iota // a subshell, substitution or group: commands
	shapeArith           // (( )), $(( )) and parentheses inside them
	shapeBracket         // [ ]: a subscript, a test or a glob class; a literal [ ends with its line
	shapeParam           // ${ }
)

// scriptShape scans a script before it is parsed, quoted or not, and returns how deeply its
// brackets ( [ { nest and how many arithmetic operators it holds. Both bound how far the parser,
// and every later walk over its tree, descends: each nested subshell, $(( (( )) )), a[a[1]] and
// ${x:-${y}} is a level, and each operator of an arithmetic expression (in (( )), $(( )), $[ ],
// a subscript, a parameter expansion, a test or a let) is a level of its expression tree.
func scriptShape(s string) (depth, arithOps int) {
	var sh shape
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '[', '{':
			i = sh.open(s, i)
		case ')', ']', '}':
			sh.n = max(sh.n-1, 0)
			sh.let = sh.let && c != ')'
		case ';', '\n':
			sh.let = false
			for sh.n > 0 && sh.top() == shapeBracket {
				sh.n--
			}
		case '+', '-', '*', '/', '%', '!', '~', '^', '<', '>', '=', '?', ':', ',', '&', '|':
			if sh.let || sh.top() != shapeCommands {
				sh.ops++
			} else if c == '&' || c == '|' {
				sh.let = false
			}
		case 'l':
			if strings.HasPrefix(s[i:], "let ") && (i == 0 || strings.IndexByte(" \t;&|(\n", s[i-1]) >= 0) {
				sh.let = true
				i += 3
			}
		}
	}
	return sh.depth, sh.ops
}

// shape is scriptShape's state: the open brackets (as deep as the bound, counted beyond it),
// whether a let's arguments are being read, the deepest nesting and the operators seen.
type shape struct {
	stack         [maxBracketDepth + 1]uint8
	n, depth, ops int
	let           bool
}

func (sh *shape) push(k uint8) {
	if sh.n < len(sh.stack) {
		sh.stack[sh.n] = k
	}
	sh.n++
	sh.depth = max(sh.depth, sh.n)
}

func (sh *shape) top() uint8 {
	if sh.n == 0 || sh.n > len(sh.stack) {
		return shapeCommands
	}
	return sh.stack[sh.n-1]
}

// open records the bracket at s[i] and returns the index of its last byte ("((" is two).
func (sh *shape) open(s string, i int) int {
	switch {
	case s[i] == '[':
		sh.push(shapeBracket)
	case s[i] == '{' && i > 0 && s[i-1] == '$':
		sh.push(shapeParam)
	case s[i] == '{':
		sh.push(shapeCommands)
	case i+1 < len(s) && s[i+1] == '(':
		sh.push(shapeArith)
		sh.push(shapeArith)
		return i + 1
	case sh.top() == shapeArith:
		sh.push(shapeArith)
	default:
		sh.push(shapeCommands)
	}
	return i
}

type analyzer struct {
	parser    *syntax.Parser
	out       *analysis
	cwd       string                // working directory; cwdUnknown after a cd to a computed directory
	vars      *varScope             // the variables of the script being analysed
	cond      int                   // > 0 inside code that may not run, or runs in a subshell: assignments there are not recorded
	funcs     []string              // functions being defined (a call to one of them from its own body is a fork bomb)
	noFunc    bool                  // the next command is run by command or builtin, which skip functions (one-shot)
	bodies    map[string][]funcBody // the bodies of the functions defined so far, by lower-cased name
	traps     []pendingTrap         // the traps set by the scripts being analysed
	err       *analysisError
	work      int                // units of work spent so far (maxWork)
	env       []string           // assignments for the next recorded command
	stdinIn   []*syntax.Redirect // the redirections of the compound command being analysed, when one feeds its standard input
	unrolled  int                // how many times the loops around the code being analysed run its body (1 outside loops)
	feed      *stdinFeed         // what feeds the commands being analysed that run elsewhere (remote.go)
	line      *lineState         // what the line's process substitutions, downloads and aliases left, once there is any
	written   writtenKept        // build definitions and files the line wrote text into (writtenbuilds.go)
	texts     keptTexts          // files written with text the line shows: cat > f <<EOF, echo … > f (workloadstop.go)
	madeLink  bool               // a command before made or copied a link (madeFiles): a ".." may climb out of it
	recursive bool               // the operands being recorded are acted on recursively
	listing   bool               // ... and only their names below are read (listsTree)
	only      []string           // ... and only the files whose names pass these globs (searchNameFilter)
	members   bool               // the write being recorded is an extraction's destination directory
	// hiddenSecret: the call being recorded expands a credential inside another expansion's
	// operator (${X:-$GITHUB_TOKEN}), which its rendered words do not show (vars.hidesSecret).
	hiddenSecret bool
	braces       braceWalker // walk.go
	zsh          bool        // the script being analysed is run by zsh, which reads some words otherwise (zshscripts.go)
}

// lineState is what a command line's process substitutions, downloads and aliases leave for the
// commands after them; allocated at the first, so a line without any pays one pointer.
type lineState struct {
	procIn     []int           // segments of the <(...) substitutions in the statement being analysed, which feed its command
	procOut    []int           // segments of its >(...) substitutions, which its command feeds
	fetched    []string        // files curl and wget wrote earlier on the line (downloads.go)
	trees      []string        // directories git clone made and downloads were extracted into (fetchedtrees.go)
	applied    []string        // directories a patch or archive wrote the names it holds below (appliedtrees.go)
	urlFetch   bool            // a git fetch of a repository named by URL filled FETCH_HEAD (fetchedtrees.go)
	urlRemotes []string        // remotes git remote add named for a URL (fetchedtrees.go)
	aliasText  map[string]word // the aliases the line defined, by name (aliases.go)
	cd         cdState         // the directories a cd that may have failed left the shell in (cdfail.go)
	links      []linkMade      // the symbolic links the line made (linksmade.go)
	exported   []string        // NAME=VALUE of variables the line set that later commands may see (exportedenv.go)
	repos      []string        // directories git clone and git init made a repository in (gitrepository.go)
}

// state returns the line's state, allocating it at the first use.
func (a *analyzer) state() *lineState {
	if a.line == nil {
		a.line = &lineState{}
	}
	return a.line
}

// procSubsts returns the statement's pending process substitutions, and sets them.
func (a *analyzer) procSubsts() (in, out []int) {
	if a.line == nil {
		return nil, nil
	}
	return a.line.procIn, a.line.procOut
}

func (a *analyzer) setProcSubsts(in, out []int) {
	if a.line != nil {
		a.line.procIn, a.line.procOut = in, out
	}
}

// climbs says whether a path has a ".." component.
func climbs(p string) bool {
	return p == ".." || strings.HasPrefix(p, "../") || strings.HasSuffix(p, "/..") || strings.Contains(p, "/../")
}

// spend counts units of work and fails the analysis past maxWork.
func (a *analyzer) spend(units int) bool {
	a.work += units
	if a.work > maxWork {
		a.fail(RuleCommandTooComplex, "command expands to more words, paths and commands than the engine checks (work budget %d)", maxWork)
		return false
	}
	return true
}

func (a *analyzer) fail(rule, format string, args ...any) {
	if a.err == nil {
		a.err = &analysisError{rule: rule, msg: fmt.Sprintf(format, args...)}
	}
}

func (a *analyzer) find(block bool, rule, format string, args ...any) {
	a.out.findings = append(a.out.findings, finding{rule: rule, msg: fmt.Sprintf(format, args...), block: block})
}

// cwdUnknown is the working directory after a cd to a directory computed at run time: relative
// paths below it are unresolved. It cannot be a real path, since commands with control
// characters are refused.
const cwdUnknown = "\x00"

// script analyses shell source that a new shell process runs (bash -c, su -c, a here-document fed
// to a shell, a command-valued variable): it sees none of this script's variables.
func (a *analyzer) script(src string, depth int) { a.scriptIn(src, depth, nil, true, nil) }

// scriptFed analyses a child shell's script whose standard input is what the segments pipeFrom
// print: a wrapper's script (env -S, flock -c, script -c) or an alias's text reads the pipe the
// wrapper or the alias was fed, so curl URL | env -S sh is curl URL | sh.
func (a *analyzer) scriptFed(src string, depth int, pipeFrom []int) {
	a.scriptIn(src, depth, nil, true, pipeFrom)
}

// scriptIn parses and analyses shell source. A child shell gets a scope of its own, with its
// positional parameters args; eval runs in the current shell and shares its scope. Its commands
// read what the segments pipeFrom print on their standard input.
func (a *analyzer) scriptIn(src string, depth int, args []word, child bool, pipeFrom []int) {
	if a.err != nil {
		return
	}
	if depth > maxNesting {
		a.fail(RuleCommandTooComplex, "command nests wrappers or scripts more than %d levels deep", maxNesting)
		return
	}
	if !a.spend(1 + len(src)/parseBytesPerUnit) {
		return
	}
	// The parser descends once per bracket (subshells, arithmetic, subscripts, parameter
	// expansions) and once per arithmetic operator: thousands of them cost it, and the walks over
	// its tree, far more than the line's length.
	switch d, ops := scriptShape(src); {
	case d > maxBracketDepth:
		a.fail(RuleCommandTooComplex, "command nests brackets %d levels deep, more than the %d the engine parses", d, maxBracketDepth)
		return
	case ops > maxArithOps:
		a.fail(RuleCommandTooComplex, "command holds %d arithmetic operators, more than the %d the engine parses", ops, maxArithOps)
		return
	}
	if a.zsh {
		src = zshAsBash(src)
	}
	f, err := a.parser.Parse(strings.NewReader(src), "")
	if err != nil {
		a.fail(RuleCommandUnparseable, "parse error: %v", err)
		return
	}
	a.zshScript(src)
	a.arithmeticCode(f, src)
	a.unseenSets(f, src)
	traps := len(a.traps)
	switch {
	case child:
		saved, savedCond := a.vars, a.cond
		a.vars, a.cond = positional(f, args, saved), 0
		a.stmts(f.Stmts, pipeFrom, depth)
		a.exitTraps(traps)
		a.vars, a.cond = saved, savedCond
	case a.vars == nil:
		// Without a "$" nothing is expanded, so there is nothing to resolve and no need to count
		// assignments: an empty scope that is off resolves nothing, cheaply.
		a.vars = &varScope{off: true}
		if strings.ContainsRune(src, '$') {
			a.vars = newVarScope(f)
		}
		a.stmts(f.Stmts, nil, depth)
		a.exitTraps(traps)
	default:
		a.stmts(f.Stmts, nil, depth)
	}
}

// pendingTrap is a trap's code, set from the directory cwd: it runs when the shell exits or gets
// a signal, from wherever the shell is then.
type pendingTrap struct {
	code  string
	cwd   string
	depth int
}

// exitTraps analyses again, from the directory the script ends in, the code of the traps it set
// (those from index from on) from another directory (trap 'cat shadow' EXIT; cd /etc).
func (a *analyzer) exitTraps(from int) {
	pending := a.traps[from:]
	a.traps = a.traps[:from]
	for _, t := range pending {
		if t.cwd != a.cwd {
			a.script(t.code, t.depth)
		}
	}
}

// render is renderWord with the script's resolved variables.
func (a *analyzer) render(w *syntax.Word) word { return renderWord(w, a.vars) }

// conditional analyses statements whose assignments may not happen, or happen in a subshell.
func (a *analyzer) conditional(list []*syntax.Stmt, pipeFrom []int, depth int) {
	a.cond++
	a.stmts(list, pipeFrom, depth)
	a.cond--
}

func (a *analyzer) stmts(list []*syntax.Stmt, pipeFrom []int, depth int) {
	for _, s := range list {
		a.stmt(s, pipeFrom, depth)
	}
}

func (a *analyzer) stmt(s *syntax.Stmt, pipeFrom []int, depth int) {
	if a.err != nil || s == nil {
		return
	}
	savedIn, savedOut := a.procSubsts()
	a.setProcSubsts(nil, nil)
	defer a.setProcSubsts(savedIn, savedOut)
	for _, r := range s.Redirs {
		a.redirect(r, depth)
	}
	if s.Background || s.Negated {
		a.cond++
		defer func() { a.cond-- }()
	}
	if s.Background {
		// An asynchronous list runs in a subshell: its cd moves another shell.
		cwd, fallbacks := a.cwd, slices.Clone(a.cdFallbacks())
		defer func() { a.cwd = cwd; a.setCdFallbacks(fallbacks) }()
	}
	switch c := s.Cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		if len(c.Args) == 1 && c.Args[0].Lit() == subExec && slices.ContainsFunc(s.Redirs, readsStdin) {
			// exec <<< 'cat .env' feeds the shell's own input to every command after it.
			a.stdinIn = s.Redirs
		}
		redirs := s.Redirs
		if len(a.stdinIn) > 0 && len(pipeFrom) == 0 && !slices.ContainsFunc(redirs, readsStdin) {
			// { sftp x; } <<< 'put .env': the command reads what its compound is fed.
			redirs = append(slices.Clip(a.stdinIn), redirs...)
		}
		a.call(c, redirs, pipeFrom, depth)
	case *syntax.BinaryCmd:
		a.binaryCmd(c, pipeFrom, depth)
	default:
		saved := a.stdinIn
		if slices.ContainsFunc(s.Redirs, readsStdin) {
			a.stdinIn = s.Redirs
		}
		if !a.compound(c, pipeFrom, depth) {
			a.exprCmd(c, depth)
		}
		a.stdinIn = saved
	}
}

// compound analyses a compound command — subshell, block, if, loop, case, function, time,
// coproc, test declaration — and reports whether c was one. Code that may not run, or runs in a
// subshell, records no variable assignments.
func (a *analyzer) compound(c syntax.Command, pipeFrom []int, depth int) bool {
	switch c := c.(type) {
	case *syntax.Subshell:
		saved := a.cwd
		a.conditional(c.Stmts, pipeFrom, depth)
		a.cwd = saved
	case *syntax.Block:
		a.stmts(c.Stmts, pipeFrom, depth)
	case *syntax.IfClause:
		a.cond++
		a.ifClause(c, pipeFrom, depth)
		a.cond--
	case *syntax.WhileClause:
		if a.hasAssigner(c) {
			a.vars.poison()
		}
		a.conditional(c.Cond, pipeFrom, depth)
		a.conditional(c.Do, pipeFrom, depth)
	case *syntax.ForClause:
		a.forLoop(c, pipeFrom, depth)
	case *syntax.CaseClause:
		a.caseClause(c, pipeFrom, depth)
	case *syntax.FuncDecl:
		a.funcDecl(c, pipeFrom, depth)
	case *syntax.TimeClause:
		a.stmt(c.Stmt, pipeFrom, depth)
	case *syntax.CoprocClause:
		a.cond++
		a.stmt(c.Stmt, pipeFrom, depth)
		a.cond--
	case *syntax.TestDecl:
		a.stmt(c.Body, pipeFrom, depth)
	default:
		return false
	}
	return true
}

// maxLoopItems bounds the items of a for loop whose body is analysed once per item, and
// maxLoopBodies the times a body inside loops is analysed in all (3 × 3 nested loops are common;
// every statement of each analysis also spends work, so the budget bounds the rest).
const (
	maxLoopItems  = 8
	maxLoopBodies = 64
)

// forLoop analyses a for loop. A loop over a few literal words or globs, whose variable nothing
// else assigns, runs its body once per item with the variable set to it — "for f in *.go; do
// gofmt -l "$f"; done" is gofmt -l on *.go — and the variable is unresolved after the loop. Any
// other loop runs its body once with the variable unresolved.
func (a *analyzer) forLoop(c *syntax.ForClause, pipeFrom []int, depth int) {
	if a.hasAssigner(c) {
		a.vars.poison()
	}
	a.nested(c.Loop, depth)
	if c.Select {
		a.selectMenu(c, pipeFrom, depth)
	}
	name, items, ok := a.loopItems(c)
	if !ok || a.unrolled*len(items) > maxLoopBodies {
		// Loops inside loops multiply: the innermost body of four loops over 8 items each
		// would be analysed 4096 times. Past maxLoopBodies bodies in all, a loop's body is
		// analysed once, its variable unresolved.
		a.conditional(c.Do, pipeFrom, depth)
		return
	}
	a.unrolled *= len(items)
	for _, it := range items {
		a.vars.setItem(name, it)
		a.conditional(c.Do, pipeFrom, depth)
	}
	a.unrolled /= len(items)
	a.vars.forget(name)
}

// allPositional is "$@", the items of a select or for loop without "in".
var allPositional = &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{
	&syntax.ParamExp{Param: &syntax.Lit{Value: "@"}}}}}}

// selectMenu analyses what a select loop prints before it reads a choice: its items, numbered, on
// standard error, as echo of them would (select t in "$GITHUB_TOKEN" prints the token).
func (a *analyzer) selectMenu(c *syntax.ForClause, pipeFrom []int, depth int) {
	words := []word{{s: cmdEcho}}
	if it, ok := c.Loop.(*syntax.WordIter); ok && it.InPos.IsValid() {
		for _, w := range it.Items {
			words = a.expand(words, w)
		}
	} else {
		words = a.expand(words, allPositional)
	}
	a.command(words, nil, pipeFrom, depth)
}

// loopItems returns a for loop's variable and items when they are known statically.
func (a *analyzer) loopItems(c *syntax.ForClause) (string, []word, bool) {
	it, ok := c.Loop.(*syntax.WordIter)
	if !ok || it.Name == nil || len(it.Items) == 0 || a.vars == nil || a.vars.off || a.vars.assigned[it.Name.Value] != 2 {
		return "", nil, false
	}
	var items []word
	for _, w := range it.Items {
		items = a.expand(items, w)
	}
	if len(items) > maxLoopItems {
		return "", nil, false
	}
	for _, w := range items {
		if w.dynamic {
			return "", nil, false
		}
	}
	return it.Name.Value, items, true
}

// binaryCmd analyses both sides of a list ("&&", "||") or a pipeline. Every pipeline stage runs in
// its own subshell, so a cd inside one does not leak, and each stage is fed by the earlier ones.
func (a *analyzer) binaryCmd(c *syntax.BinaryCmd, pipeFrom []int, depth int) {
	if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
		saved := a.cwd
		first := len(a.out.segments)
		a.cond++
		a.stmt(c.X, pipeFrom, depth)
		a.cwd = saved
		from := append(append([]int(nil), pipeFrom...), seq(first, len(a.out.segments))...)
		a.stmt(c.Y, from, depth)
		a.cwd = saved
		a.cond--
		return
	}
	// The left side of && and || always runs; the right side may not.
	if c.Op == syntax.AndStmt {
		a.andThen(c, pipeFrom, depth)
	} else {
		a.orElse(c, pipeFrom, depth)
	}
}

// caseClause analyses a case statement: its word, every pattern and every branch.
func (a *analyzer) caseClause(c *syntax.CaseClause, pipeFrom []int, depth int) {
	a.cond++
	defer func() { a.cond-- }()
	a.secretCase(c)
	a.nested(c.Word, depth)
	for _, it := range c.Items {
		for _, p := range it.Patterns {
			a.nested(p, depth)
		}
		a.stmts(it.Stmts, pipeFrom, depth)
	}
}

// funcDecl analyses a function body once, where it is defined; a call to the function from its own
// body is a fork bomb, a later call runs a body already checked.
func (a *analyzer) funcDecl(c *syntax.FuncDecl, pipeFrom []int, depth int) {
	name := ""
	if c.Name != nil {
		name = strings.ToLower(c.Name.Value)
	}
	moves := a.analyseBody(name, c.Body, pipeFrom, depth)
	if a.bodies == nil {
		a.bodies = map[string][]funcBody{}
	}
	// Every definition is kept: one in a subshell, a child shell or a branch that does not run
	// leaves the earlier one in force, and which one a call runs is not known here.
	a.bodies[name] = append(a.bodies[name], funcBody{stmt: c.Body, cwd: a.cwd, moves: moves})
}

// funcBody is a function's body, the directory it was analysed from, where it was defined, and
// whether it changes the working directory.
type funcBody struct {
	stmt  *syntax.Stmt
	cwd   string
	moves bool
}

// defined says whether a function of that (lower-cased) name was defined before: calling it runs
// a body already analysed.
func (a *analyzer) defined(name string) bool { return len(a.bodies[name]) > 0 }

// moves says whether a definition of the function changes the working directory, from wherever it
// is called.
func (a *analyzer) moves(name string) bool {
	return slices.ContainsFunc(a.bodies[name], func(b funcBody) bool { return b.moves })
}

// analyseBody analyses a function's body as code that may run (its positional parameters are the
// caller's, not known here) and says whether it changes the working directory, which is restored.
func (a *analyzer) analyseBody(name string, body *syntax.Stmt, pipeFrom []int, depth int) bool {
	a.funcs = append(a.funcs, name)
	a.cond++
	cwd, hidden := a.cwd, a.vars.hidePositional()
	a.stmt(body, pipeFrom, depth)
	moved := a.cwd != cwd
	a.cwd = cwd
	a.vars.restore(hidden)
	a.cond--
	a.funcs = a.funcs[:len(a.funcs)-1]
	return moved
}

// callLocal analyses a call to a function defined earlier in the command from another directory
// than the one its body was analysed from: its relative paths name other files from here
// (f() { cat shadow; }; cd /etc; f reads /etc/shadow); and a call fed a pipe, which its body's
// commands read.
func (a *analyzer) callLocal(name string, pipeFrom []int, depth int) {
	if slices.Contains(a.funcs, name) {
		return
	}
	for _, b := range a.bodies[name] {
		// Analysed again from here, or fed a pipe its commands read (curl URL | f, where f runs
		// sh: the body was analysed where it was defined, fed nothing).
		if b.cwd == a.cwd && len(pipeFrom) == 0 {
			continue
		}
		if depth > maxNesting {
			a.fail(RuleCommandTooComplex, "command nests wrappers or scripts more than %d levels deep", maxNesting)
			return
		}
		a.analyseBody(name, b.stmt, pipeFrom, depth+1)
	}
}

// callLocalFed analyses a local function's bodies again with what its call feeds its standard
// input, if it feeds it, which the commands in them read.
func (a *analyzer) callLocalFed(name string, redirs []*syntax.Redirect, depth int) {
	if !slices.ContainsFunc(redirs, readsStdin) || slices.Contains(a.funcs, name) {
		return
	}
	saved := a.stdinIn
	defer func() { a.stdinIn = saved }()
	a.stdinIn = redirs
	for _, b := range a.bodies[name] {
		if depth > maxNesting {
			a.fail(RuleCommandTooComplex, "command nests wrappers or scripts more than %d levels deep", maxNesting)
			return
		}
		a.analyseBody(name, b.stmt, nil, depth+1)
	}
}

// exprCmd analyses the commands made only of words and expressions (arithmetic, tests,
// declarations, let) for substitutions; any other construct is refused.
func (a *analyzer) exprCmd(c syntax.Command, depth int) {
	switch c := c.(type) {
	case *syntax.ArithmCmd:
		a.nested(c.X, depth)
	case *syntax.TestClause:
		a.secretTest(c.X)
		a.nested(c.X, depth)
	case *syntax.DeclClause:
		a.declClause(c, depth)
	case *syntax.LetClause:
		for _, e := range c.Exprs {
			a.nested(e, depth)
		}
	default:
		a.fail(RuleCommandUnparseable, "command uses a shell construct the engine does not check (%T)", c)
	}
}

func seq(from, to int) []int {
	s := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}

// nested analyses every command and process substitution inside a node, wherever it hides: in
// arguments, assignments, redirections, parameter-expansion defaults, arithmetic or tests.
func (a *analyzer) nested(n syntax.Node, depth int) {
	if n == nil || a.err != nil {
		return
	}
	a.walk(n, func(n syntax.Node) bool {
		if a.err != nil {
			return false
		}
		switch n := n.(type) {
		case *syntax.CmdSubst:
			a.sub(n.Stmts, depth)
			return false
		case *syntax.ProcSubst:
			first := len(a.out.segments)
			a.sub(n.Stmts, depth)
			// What <(...) prints, the command reads as a file: a script given to an
			// interpreter, or standard input with "< <(...)" — as if it were piped in. What the
			// command writes to >(...) is the standard input of the commands there (tee >(sh)).
			for i := first; i < len(a.out.segments); i++ {
				if ls := a.state(); n.Op == syntax.CmdIn {
					ls.procIn = append(ls.procIn, i)
				} else {
					ls.procOut = append(ls.procOut, i)
				}
			}
			return false
		}
		return true
	})
}

func (a *analyzer) sub(list []*syntax.Stmt, depth int) {
	if depth+1 > maxNesting {
		a.fail(RuleCommandTooComplex, "command nests substitutions more than %d levels deep", maxNesting)
		return
	}
	saved := a.cwd
	a.conditional(list, nil, depth+1)
	a.cwd = saved
}

// mayHideCommands reports whether word parts could contain a substitution; plain and quoted
// literals cannot, which spares walking them.
func mayHideCommands(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			if mayHideCommands(p.Parts) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// commandEnvVars hold a command line that a program runs; their value is checked as a script.
var commandEnvVars = map[string]bool{
	"GIT_SSH_COMMAND": true, "GIT_SSH": true, "GIT_PROXY_COMMAND": true, "GIT_EXTERNAL_DIFF": true, "GIT_PAGER": true, "GIT_EDITOR": true,
	"GIT_SEQUENCE_EDITOR": true, "GIT_ASKPASS": true, "SSH_ASKPASS": true, "PAGER": true, "SVN_SSH": true,
	"EDITOR": true, "VISUAL": true, "ENV": true, "PROMPT_COMMAND": true,
	"MANPAGER": true, "LESSOPEN": true, "LESSCLOSE": true, "BROWSER": true,
	// Other programs' editors and pagers: kubectl edit, sudoedit, systemctl edit, gh, aws, psql, fc.
	"KUBE_EDITOR": true, "SUDO_EDITOR": true, "SYSTEMD_EDITOR": true, "SYSTEMD_PAGER": true, "GH_PAGER": true,
	"GH_EDITOR": true, "GH_BROWSER": true, "AWS_PAGER": true, "PSQL_PAGER": true, "PSQL_EDITOR": true, "FCEDIT": true,
}

// injectionEnvVars make the dynamic loader or an interpreter run code chosen by the caller.
var injectionEnvVars = map[string]bool{
	"LD_PRELOAD": true, "LD_LIBRARY_PATH": true, "LD_AUDIT": true, "DYLD_INSERT_LIBRARIES": true,
	"DYLD_LIBRARY_PATH": true, "PYTHONSTARTUP": true, "PERL5OPT": true, envNodeOptions: true,
	"RUBYOPT": true, envBunOptions: true, "SHELLOPTS": true, "BASHOPTS": true, "PS4": true, "GCONV_PATH": true,
	// .NET's: every .NET process (dotnet test's test host, MSBuild, pwsh) runs the startup hooks'
	// assemblies before its Main, and loads the profiler's native library into the runtime, as
	// LD_PRELOAD does.
	"DOTNET_STARTUP_HOOKS": true, "CORECLR_PROFILER_PATH": true, "CORECLR_PROFILER_PATH_32": true,
	"CORECLR_PROFILER_PATH_64": true, "CORECLR_PROFILER_PATH_ARM32": true, "CORECLR_PROFILER_PATH_ARM64": true,
}

func (a *analyzer) assign(as *syntax.Assign, depth int, prefix bool) {
	if !a.spend(1) { // a body of thousands of assignments, analysed once per loop item
		return
	}
	a.nested(as, depth)
	if as.Name == nil {
		return
	}
	val := ""
	if as.Value != nil {
		w := a.render(as.Value)
		val = w.s
		a.computedValue(as.Name.Value, w)
	}
	if prefix && shellOnlyVars[as.Name.Value] {
		return // "IFS=, read -r a b": the command's own setting, not the shell's splitting
	}
	a.envVar(as.Name.Value, val, depth)
}

// runsShellCode says whether a command named by w runs shell code in this shell, which a prefix
// assignment's IFS or GLOBIGNORE then applies to: a function, eval, source.
func (a *analyzer) runsShellCode(w *syntax.Word) bool {
	r := a.render(w)
	if r.dynamic {
		return true
	}
	name := commandName(r.s)
	return a.defined(name) || shellCodeRunners[name]
}

// shellCodeRunners are the builtins that run shell code in the current shell.
//
//nolint:goconst // builtin names read best literally
var shellCodeRunners = map[string]bool{"eval": true, "source": true, ".": true, "command": true, "builtin": true, "trap": true}

// shellOnlyVars change only what the shell itself expands: set for one command (a prefix
// assignment), they change nothing the engine reads, since the command's words are expanded first.
var shellOnlyVars = map[string]bool{envIFS: true, envGlobIgnore: true}

func (a *analyzer) envVar(name, val string, depth int) {
	if why := codeEnvReason(name, val); why != "" {
		a.find(false, RuleOpaqueCode, "%s; it needs human approval", why)
	}
	if (name == envGitDir || name == envGitCommonDir) && val != "" {
		a.gitDir(word{s: val}) // GIT_COMMON_DIR: where git reads config and hooks from
	}
	if name == "PYTHONPYCACHEPREFIX" && val != "" {
		// Every later python writes its compiled modules below it, as -X pycache_prefix does.
		a.touch(word{s: val, dynamic: strings.ContainsRune(val, '$')}, opWrite)
	}
	a.writtenFile(name, val)
	if name == envGitWorkTree && val != "" {
		// git checks files out below it, in any later git command that sees it (gitWrites).
		a.touch(word{s: val}, opWrite)
	}
	if gitTraceVar(name) {
		a.gitTraceEnv(name, val)
	}
	// npm reads its npm_config_* settings in any case; the loader, the shells and the programs
	// below read their variables by the exact name, as bash compares names: env=dev is no ENV.
	rule, fetches := fetchEnvVars[strings.ToUpper(name)]
	if registry, other := registryVar(name, val); registry {
		rule, fetches = fetchRule, other // the public registry is npm's own
	}
	if fetches && val != "" {
		a.find(false, RulePrefixDamageControl+rule, "setting %s makes a runner fetch the packages it runs from where the caller chooses: code that is not a project dependency; it needs human approval", name)
	}
	switch {
	case injects(name, val):
		a.find(true, RuleLibraryInjection, "setting %s makes programs load code chosen by the caller", name)
	case strings.HasPrefix(name, "BASH_FUNC_"):
		// bash imports BASH_FUNC_NAME%%=() { ...; } as a function NAME: "ls" then runs its body.
		a.find(true, RuleLibraryInjection, "setting %s defines a function that every bash started with it runs under a command's name", name)
	case commandEnvVars[name] && strings.TrimSpace(val) != "" && (name != "GIT_SSH" || !sshClient(val)):
		a.script(val, depth+1)
	}
}

func (a *analyzer) call(c *syntax.CallExpr, redirs []*syntax.Redirect, pipeFrom []int, depth int) {
	var env []string
	// A prefix assignment applies to the command alone, which expanded its words before: IFS and
	// GLOBIGNORE then change nothing the engine reads, unless the command runs shell code itself.
	prefix := len(c.Args) > 0 && !a.runsShellCode(c.Args[0])
	for _, as := range c.Assigns {
		a.assign(as, depth, prefix)
		if len(c.Args) == 0 {
			a.record(as)
			a.exportAssign(as)
		} else if as.Name != nil {
			val := ""
			if as.Value != nil {
				val = a.render(as.Value).s
			}
			env = append(env, as.Name.Value+"="+val)
		}
	}
	if len(c.Args) == 0 {
		return
	}
	a.secretEmptinessTest(c)
	first := len(a.out.segments) // the commands of substitutions in the words, up to outer
	words := make([]word, 0, len(c.Args))
	for _, w := range c.Args {
		if a.err != nil {
			return
		}
		if mayHideCommands(w.Parts) {
			a.nested(w, depth)
		}
		words = a.expand(words, w)
	}
	if a.err != nil || len(words) == 0 {
		return
	}
	a.env = env
	procIn, procOut := a.procSubsts()
	if len(procIn) > 0 {
		pipeFrom = append(slices.Clip(pipeFrom), procIn...)
		a.line.procIn = nil
	}
	outer := len(a.out.segments)
	a.hiddenSecret = a.vars != nil && a.vars.hidden[c]
	a.command(words, redirs, pipeFrom, depth)
	a.killFedEveryProcess(first, outer)
	if len(procOut) > 0 && outer < len(a.out.segments) {
		// The command (and what feeds it) feeds its >(...) substitutions' commands.
		feed := append(slices.Clip(pipeFrom), outer)
		for _, i := range procOut {
			a.out.segments[i].pipeFrom = append(a.out.segments[i].pipeFrom, feed...)
		}
		a.line.procOut = nil
	}
	if assignsByName(words) {
		// Its own arguments were resolved before it ran; nothing after it is.
		a.vars.poison()
	}
}

// expand appends the words one shell word becomes after brace expansion, as bash expands it:
// groups left to right, a group inside an element with what follows it ({x,/etc/{a,b}}), and
// sequences ({1..3}, {a..c}).
func (a *analyzer) expand(dst []word, w *syntax.Word) []word {
	if n, ok := a.allPositionalWords(w); ok {
		// "$@" with every positional parameter known is each of them, one word apiece
		// (find -exec sh -c 'cat "$@"' _ {} +).
		for i := 1; i <= n; i++ {
			dst = append(dst, a.render(&syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{
				&syntax.ParamExp{Short: true, Param: &syntax.Lit{Value: strconv.Itoa(i)}}}}}}))
		}
		return dst
	}
	if !syntax.SplitBraces(w) {
		a.spend(1)
		return append(dst, a.render(w))
	}
	groups := 0
	if braceWords(w.Parts, maxBraceWords, &groups) > maxBraceWords {
		// Counted before any is built: the walk below copies its prefix at every group.
		a.fail(RuleCommandTooComplex, "brace expansion produces more than %d words, or holds more than %d groups",
			maxBraceWords, maxBraceGroups)
		return dst
	}
	var walk func(prefix []syntax.WordPart, rest []syntax.WordPart) bool
	walk = func(prefix, rest []syntax.WordPart) bool {
		for i, p := range rest {
			br, ok := p.(*syntax.BraceExp)
			if !ok {
				continue
			}
			elems, literal := braceElems(br)
			if literal {
				continue
			}
			before := append(append([]syntax.WordPart(nil), prefix...), rest[:i]...)
			for _, e := range elems {
				// The element with what follows the group: a group inside it is expanded too.
				after := append(append([]syntax.WordPart(nil), e.Parts...), rest[i+1:]...)
				if !walk(before, after) {
					return false
				}
			}
			return true
		}
		if !a.spend(braceCost) {
			return false
		}
		dst = append(dst, a.render(&syntax.Word{Parts: append(append([]syntax.WordPart(nil), prefix...), rest...)}))
		return true
	}
	walk(nil, w.Parts)
	return dst
}

func (a *analyzer) redirect(r *syntax.Redirect, depth int) {
	a.nested(r.Word, depth)
	if r.Hdoc != nil {
		a.nested(r.Hdoc, depth)
	}
	if r.Word == nil || len(r.Word.Parts) == 0 {
		return
	}
	// Bash brace-expands a redirection's word (cat < .e{n..n}v reads .env); more than one word
	// is an error, but each is judged.
	for _, t := range a.expand(nil, r.Word) {
		a.redirectTo(r.Op, t)
	}
}

// redirectTo records what a redirection operator does to the path t.
func (a *analyzer) redirectTo(op syntax.RedirOperator, t word) {
	switch op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll,
		syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob, syntax.RdrInOut:
		a.touch(t, opWrite)
	case syntax.RdrIn:
		a.touch(t, opRead)
	case syntax.DplOut, syntax.DplIn:
		// ">&2" duplicates a descriptor; ">&file" (bash) writes to a file.
		if t.dynamic || !isFD(t.s) {
			if op == syntax.DplOut {
				a.touch(t, opWrite)
			} else {
				a.touch(t, opRead)
			}
		}
	}
}

func isFD(s string) bool {
	s = strings.TrimSuffix(s, "-")
	if s == "" {
		return true
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func (a *analyzer) touch(w word, op pathOp) {
	if w.s == "" || w.s == placeholderProcSubst {
		// A process substitution is a pipe (/dev/fd/N) whose commands are analysed themselves.
		return
	}
	cost := 1
	if w.glob {
		cost = globWork(w.s)
	}
	if !a.spend(cost) {
		return
	}
	dynamic := w.dynamic || a.madeLink && climbs(w.s)
	a.recordPath(w.s, a.cwd, op, dynamic, w.glob)
	a.touchFallbacks(w, op, dynamic, cost)
	a.touchThroughLinks(w, op, cost)
}

// recordPath appends a path the command touches, resolved later from cwd: below a computed directory
// only absolute and home paths are known; the operation is recursive, or an extraction's
// destination, as the analysis is recording it.
func (a *analyzer) recordPath(raw, cwd string, op pathOp, dynamic, glob bool) {
	if cwd == cwdUnknown {
		cwd, dynamic = "", dynamic || !isAbsOrHome(expandHome(raw))
	}
	a.out.paths = append(a.out.paths, pathRef{raw: raw, cwd: cwd, op: op, dynamic: dynamic, glob: glob,
		recursive: a.recursive && op != opWrite, members: a.members && op == opWrite, listing: a.listing && op == opRead,
		only: a.only})
}

// command records one simple command and follows whatever it runs in turn.
func (a *analyzer) command(words []word, redirs []*syntax.Redirect, pipeFrom []int, depth int) {
	if a.err != nil {
		return
	}
	if depth > maxNesting {
		a.fail(RuleCommandTooComplex, "command nests wrappers or scripts more than %d levels deep", maxNesting)
		return
	}
	if len(a.out.segments) >= maxSegments {
		a.fail(RuleCommandTooComplex, "command line contains more than %d commands", maxSegments)
		return
	}
	if !a.spend(segmentCost) {
		return
	}
	if f := a.feed; f != nil && len(pipeFrom) == 0 {
		// A command run elsewhere reads what its ssh or kubectl exec -i is fed.
		pipeFrom, redirs = f.pipeFrom, append(slices.Clip(redirs), f.redirs...)
	}
	env, lineEnv := a.segmentEnv()
	seg := segment{words: words, cwd: a.cwd, pipeFrom: pipeFrom, env: env, lineEnv: lineEnv}
	a.env = nil
	if words[0].dynamic {
		a.find(true, RuleDynamicCommand, "command name %q is computed at run time and cannot be checked", words[0].s)
	} else {
		seg.name = commandName(words[0].s)
	}
	// A function's own name called from its body calls it again, unless command or builtin runs
	// it, or a path names the program (git() { command git "$@"; } is a common wrapper).
	callsFunc := !a.noFunc && !strings.ContainsRune(words[0].s, '/')
	a.noFunc = false
	for _, f := range a.funcs {
		if callsFunc && seg.name != "" && f == seg.name {
			a.find(true, RuleForkBomb, "function %q calls itself (fork bomb pattern)", f)
		}
	}
	seg.localFunc = seg.name != "" && a.defined(seg.name)
	spliceEnvOptions(&seg)
	spliceAddopts(&seg)
	splitArgs(&seg)
	if why := unresolvedWord(&seg); why != "" {
		a.find(false, RuleUnresolvedWord, "%s: which program, subcommand or option runs is not known until then, so it needs human approval", why)
	}
	seg.text = segmentText(&seg)
	if extra := gitCloneConfigText(&seg); extra != "" {
		// For pattern rules only: a message quotes the command as written.
		seg.alt = cmp.Or(seg.alt, seg.text) + extra
	}
	seg.secretCopy = a.hiddenSecret || a.vars.refsSecret(seg.words)
	a.hiddenSecret = false // the call's own segment only, not what it wraps
	idx := len(a.out.segments)
	a.out.segments = append(a.out.segments, seg)
	a.follow(idx, redirs, depth)
}

// segmentText is what pattern rules match: the normalised name and the arguments, one space apart.
func segmentText(s *segment) string {
	n := len(s.name)
	for _, w := range s.words[1:] {
		n += 1 + len(w.s)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(s.name)
	for _, w := range s.words[1:] {
		b.WriteByte(' ')
		b.WriteString(w.s)
	}
	return b.String()
}

var shortFlags = func() (t [128]string) {
	for c := range 128 {
		t[c] = "-" + string(rune(c))
	}
	return t
}()

// splitArgs separates flags from operands. Short bundles count both whole ("-rf") and letter by
// letter ("-r", "-f"); "--name=value" counts as "--name". A computed word could be any flag.
// git's global options are skipped so its subcommand is the first operand.
func splitArgs(s *segment) {
	args := s.words[1:]
	s.operands = make([]word, 0, len(args))
	if s.name == cmdGit {
		args = skipGitGlobals(s, args)
	}
	envFlags(s)
	values := valueOptions[s.name]
	if s.name == cmdGit && len(args) > 0 {
		values = gitValueOptions[args[0].s]
	}
	end, skipNext := false, false
	base, firstOp, optionFirst := len(s.words)-len(args), 0, false
	operand := func(i int, w word) {
		if firstOp == 0 {
			firstOp = base + i
		}
		// An option (or a value) before this operand: the operands-first text differs.
		optionFirst = optionFirst || base+i > len(s.operands)+1
		s.operands = append(s.operands, w)
	}
	for i, w := range args {
		v := w.s
		switch {
		case skipNext:
			// The value of an option that takes one ("--context prod", "-n kube-system").
			skipNext = false
		case end:
			operand(i, w)
		case v == "--" && !w.dynamic:
			// find's "--" ends only its leading options (-H, -L, -P): the expression after its
			// starting points is still options (find -- / -delete deletes).
			end = s.name != cmdFind
		case w.dynamic && (strings.HasPrefix(v, "$") || strings.HasPrefix(v, "-")):
			s.unknownFlags = true
			operand(i, w)
		case len(v) > 1 && v[0] == '-':
			skipNext = s.addFlag(v, values)
		default:
			operand(i, w)
		}
	}
	aliasFlags(s)
	s.alt = globalsLast(s, firstOp)
	if optionFirst || gitPushRepos(s) != nil {
		s.opsFirst = operandsFirst(s)
	}
}

// operandsFirst is another text for pattern rules of programs with subcommands: the program, its
// operands (the subcommand first), then the other words, options with their values, in order. A
// project rule written as "^git push prod( |$)" then also matches "git push -u prod main" and
// "git -C ../deploy push --force-with-lease prod", as one written as "^make deploy" matches
// "make -s deploy"; git push's --repo=prod is its remote too (gitPushRepos). Empty when the
// program has no subcommands.
func operandsFirst(s *segment) string {
	if !hasSubcommands(s.name) {
		return ""
	}
	parts := make([]string, 0, len(s.words))
	parts = append(parts, s.name)
	for i, o := range s.operands {
		parts = append(parts, o.s)
		if i == 0 {
			parts = append(parts, gitPushRepos(s)...)
		}
	}
	k := 0 // operands are s.words' in order: the words that are not operands follow them
	for _, w := range s.words[1:] {
		if k < len(s.operands) && w == s.operands[k] {
			k++
			continue
		}
		parts = append(parts, w.s)
	}
	return strings.Join(parts, " ")
}

// hasSubcommands says whether pattern rules see a program's global options after its subcommand
// (globalsLast) and its operands before its options (operandsFirst).
func hasSubcommands(name string) bool {
	_, sub := valueOptions[name]
	return (sub || name == cmdGit) && !flatValuePrograms[name]
}

// addFlag records an option word: "--name=value" as "--name", a short bundle whole and letter by
// letter. It reports whether the option takes the next word as its value ("-n ns", or a bundle
// ending in such an option, "-xzf a.tgz").
func (s *segment) addFlag(v string, values []string) bool {
	name, takesNext := v, false
	if i := strings.IndexByte(v, '='); i > 0 {
		name = v[:i]
	} else {
		takesNext = slices.Contains(values, v) || (v[1] != '-' && len(v) > 2 && bundleEndsInValueOption(v, values)) ||
			abbreviatesValue(s.name, v, values)
	}
	s.flags = append(s.flags, name)
	if goFlagPrograms[s.name] && len(name) > 3 && name[1] == '-' {
		// Go's flag package reads --toolexec as -toolexec: the single-dash spelling is the one
		// rules and code options name.
		s.flags = append(s.flags, name[1:])
	}
	if v[1] != '-' && len(name) > 2 {
		spec := argSpecs[s.name]
		for i := 1; i < len(name); i++ {
			c := name[i]
			if c >= 128 {
				continue
			}
			s.flags = append(s.flags, shortFlags[c])
			if isASCIILetter(c) && takesShortValue(s.name, spec, shortFlags[c]) {
				break // the rest of the word is its value, as getopt reads it: curl -so.netrc is no -n
			}
		}
	}
	return takesNext
}

// bundleEndsInValueOption says whether a short bundle's last letter is an option that takes the
// next word ("-xzf a.tgz"), as getopt reads it: the first letter whose option takes a value takes
// the rest of the word, so in kubectl's "-nops secrets" ops is -n's value and the s no -s
// (--server) taking the next word.
func bundleEndsInValueOption(v string, values []string) bool {
	for i := 1; i < len(v); i++ {
		if slices.Contains(values, "-"+v[i:i+1]) {
			return i == len(v)-1
		}
	}
	return false
}

// goFlagPrograms parse their options with Go's flag package, for which "--name" and "-name" are
// one option (and which takes no abbreviations).
var goFlagPrograms = map[string]bool{"go": true, "gofmt": true, cmdTerraform: true, cmdTofu: true, cmdVault: true, "packer": true, "consul": true, "nomad": true}

// globalsLast is a second text for pattern rules of programs with subcommands: the program, the
// words from its subcommand on, then the global options before it and the options its environment
// stands for. A project rule written as "^kubectl delete" then also matches
// "kubectl --context prod delete" and "KUBECONFIG=x kubectl delete". Empty when it would equal
// the text.
func globalsLast(s *segment, firstOp int) string {
	if !hasSubcommands(s.name) {
		return "" // the search tools' and node's value options are not global options: they have no subcommand
	}
	var env []string
	for _, kv := range s.env {
		name, val, _ := strings.Cut(kv, "=")
		if f, ok := envOptions[s.name][name]; ok {
			env = append(env, f, val)
		}
	}
	if (firstOp <= 1 || firstOp >= len(s.words)) && len(env) == 0 {
		return ""
	}
	parts := []string{s.name}
	if firstOp > 1 && firstOp < len(s.words) {
		for _, w := range s.words[firstOp:] {
			parts = append(parts, w.s)
		}
		for _, w := range s.words[1:firstOp] {
			parts = append(parts, w.s)
		}
	} else {
		for _, w := range s.words[1:] {
			parts = append(parts, w.s)
		}
	}
	return strings.Join(append(parts, env...), " ")
}

//nolint:goconst // option spellings and program names in this table read best literally, next to their neighbours
var gitGlobalsWithValue = map[string]bool{"-C": true, "-c": true, "--git-dir": true, "--work-tree": true, "--namespace": true, "--exec-path": true, "--config-env": true, "--super-prefix": true, "--list-cmds": true, "--attr-source": true}

// skipGitGlobals records git's global options (before the subcommand) as flags, "--name=value"
// as "--name", and returns the words from the subcommand on.
func skipGitGlobals(s *segment, args []word) []word {
	end := gitGlobalsEnd(args)
	for i := 0; i < end; i++ {
		v := args[i].s
		// "--exec-path=/tmp/x" is the option --exec-path with its value, as "--exec-path /tmp/x".
		if name, _, ok := strings.Cut(v, "="); ok && strings.HasPrefix(v, "--") {
			s.flags = append(s.flags, name)
			continue
		}
		s.flags = append(s.flags, v)
		if gitGlobalsWithValue[v] {
			i++
		}
	}
	return args[end:]
}

// gitGlobalsEnd is the index in args (the words after "git") of git's subcommand, past the
// global options and their values; len(args) when there is none.
func gitGlobalsEnd(args []word) int {
	for i := 0; i < len(args); i++ {
		if !strings.HasPrefix(args[i].s, "-") || args[i].dynamic {
			return i
		}
		if gitGlobalsWithValue[args[i].s] {
			i++
		}
	}
	return len(args)
}

// declClause analyses declare, export, local, readonly and typeset. Without assignments (or with
// -p) the builtin prints variables, so it is a segment the rule pack sees like env or set; with
// them, each assignment is checked and, reached unconditionally, recorded.
func (a *analyzer) declClause(c *syntax.DeclClause, depth int) {
	words := []word{{s: c.Variant.Value}}
	prints := true
	for _, as := range c.Args {
		a.assign(as, depth, false)
		switch {
		case as.Name == nil && as.Value != nil:
			words = append(words, a.render(as.Value))
		case as.Name != nil && as.Naked:
			words = append(words, word{s: as.Name.Value})
			prints = false
		case as.Name != nil:
			a.record(as)
			a.exportAssign(as)
			prints = false
		}
	}
	for _, w := range words[1:] {
		if strings.HasPrefix(w.s, "-") && strings.ContainsAny(w.s, "p") {
			prints = true
		}
	}
	if prints {
		a.command(words, nil, nil, depth)
	}
}

// sshClient says whether GIT_SSH's value, a program git runs without a shell, is an ssh client
// itself (OpenSSH's, by name or from /usr/bin or /usr/local/bin, or PuTTY's plink), which runs
// nothing of the caller's.
func sshClient(path string) bool {
	path = strings.TrimSpace(path)
	return path == cmdSSH || path == "/usr/bin/ssh" || path == "/usr/local/bin/ssh" || path == "plink"
}

// allPositionalWords says whether w is "$@" alone and the scope knows every positional parameter,
// and how many there are.
func (a *analyzer) allPositionalWords(w *syntax.Word) (int, bool) {
	if len(w.Parts) != 1 {
		return 0, false
	}
	q, ok := w.Parts[0].(*syntax.DblQuoted)
	if !ok || len(q.Parts) != 1 {
		return 0, false
	}
	p, ok := q.Parts[0].(*syntax.ParamExp)
	if !ok || p.Param == nil || p.Param.Value != "@" || p.Excl || p.Length || p.Width || p.Index != nil ||
		p.Slice != nil || p.Repl != nil || p.Exp != nil || p.Names != 0 {
		return 0, false
	}
	v, ok := a.vars.lookup(positionalCount)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	return n, err == nil && n <= 9
}
