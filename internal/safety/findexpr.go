package safety

import (
	"maps"
	"path"
	"slices"
	"strings"
)

// findExpr is a find command's expression as find evaluates it: left to right, each test
// narrowing only the actions after it in its AND chain. "find . -exec cat {} \; -name '*.md'"
// cats every file: the -name comes after the -exec. So each action is judged with the tests
// before it, never with those after it or inside another action's command.
type findExpr struct {
	execs   []findAction // each -exec, -execdir, -ok and -okdir, with the names before it
	deletes []string     // what -delete deletes: the names before the first; empty is every file
	// toolDirDeletes are the same names inside .git and agents' settings directories, where find
	// descends and their tools keep files by names a test may match (toolDirNames).
	toolDirDeletes []string
	printed        []string // what find prints for a following xargs (yields); nil is not known
	// computed says why the expression is not what its words read as, when a word of it is
	// computed at run time where an operator or action may stand ("find . -name x $OPTS",
	// where $OPTS may be "-o -exec cat {} ;"); "" when none is.
	computed string
}

// findAction is one -exec (-execdir, -ok, -okdir): its words from the action to its terminator
// (words[start+1:end] are the command), whether it runs from each match's directory, and the
// names the tests before it narrow "{}" to (nil: any file below the roots).
type findAction struct {
	start, end int
	inDir      bool
	batch      bool // ends with "+": "{}" is every file at once; with ";" it is one file per run
	names      []string
	inToolDirs []string // names inside .git and agents' settings directories the tests before may match (toolDirNames)
}

// findFprintf writes its format's text to a file: it takes two words.
const findFprintf = "-fprintf"

// find's primaries by what they do to the reading of its expression. bfs, a find that searches
// breadth first, reads the same expression (programAliases reads it as find), with primaries of
// its own: -rm deletes as -delete does, -printx prints the names for xargs as -print does, and
// -exclude EXPR leaves out what EXPR matches, as -not EXPR -prune would.
var (
	findNameTests      = []string{"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename"}
	findExecActions    = []string{"-exec", "-execdir", "-ok", "-okdir"}
	findDeleteActions  = []string{"-delete", "-rm"}
	findPrintActions   = []string{"-print", "-print0", "-printx"}
	findNegatingPrefix = []string{"!", "-not", "\\!", "-exclude"}
	// findTextActions print text find makes up, not the names found; a file's may be
	// /dev/stdout, or a link to it.
	findTextActions = []string{"-ls", "-printf", "-fprint", "-fprint0", "-fls", findFprintf}
)

// findOneOperand are find's primaries that take the next word as their operand (a number, a
// user, a file, a format), which is no operator or action whatever it spells. -fprintf takes two.
var findOneOperand = func() map[string]bool {
	m := map[string]bool{
		"-amin": true, "-anewer": true, "-atime": true, "-cmin": true, "-cnewer": true, "-ctime": true,
		"-fstype": true, "-gid": true, "-group": true, "-inum": true, "-links": true, "-mmin": true,
		"-mtime": true, "-perm": true, "-regex": true, "-iregex": true, "-samefile": true, "-size": true,
		"-type": true, "-xtype": true, "-uid": true, "-used": true, "-user": true, "-context": true,
		"-maxdepth": true, "-mindepth": true, "-regextype": true, optFiles0From: true, "-lname": true,
		"-ilname": true,
		// bfs's
		"-xattrname": true, "-flags": true, "-since": true, "-asince": true, "-Bsince": true, "-csince": true,
		"-msince": true, "-Bmin": true, "-Bnewer": true, "-mnewer": true, "-Btime": true, "-limit": true, "-S": true, "-D": true,
	}
	for _, a := range findTextActions[1:] { // all but -ls
		m[a] = true
	}
	return m
}()

// readFind reads the expression of a find command (words).
func readFind(words []word) findExpr {
	roots, start := findStart(words)
	r := findReader{words: words, roots: roots, open: true, printAt: -1}
	for _, w := range words[1:] {
		switch {
		case w.split:
			// bash may split it into several words: a root, a test or an -exec's command may
			// become "-o -exec cat {} ;".
			r.e.computed, r.blind = "a word of it, "+w.s+", is computed at run time and may be several words, an action among them", true
		case w.glob && findGlobMayBeOperator(w.s):
			// "[-]o" or "?" expands to a file named -o or !, which find reads as its operator.
			r.e.computed, r.blind = "its glob "+w.s+" may expand to a file named as one of find's operators or actions", true
		}
	}
	r.root = findGroup{open: true, altsOpen: true}
	for i := start; i < len(words); i++ {
		i = r.step(i)
	}
	if r.deleteAll {
		r.e.deletes = []string{} // every file
	}
	switch {
	case r.printsText:
		r.e.printed = []string{placeholderXargs} // -exec cat {}, -printf '/etc/shadow\n': any words
	case r.printAt < 0:
		r.e.printed = r.whole() // the implicit -print of the whole expression
		if r.e.printed != nil {
			r.e.printed = append(slices.Clip(r.e.printed), r.wholeToolDirs()...)
		}
	case r.printAll:
		r.e.printed = nil
	}
	return r.e
}

// findReader is readFind's state: the names the tests of the current branch (the AND chain since
// the last -o or "," of its group, with the group's prefix) narrow to, whether the branch's tests
// are all read (open), the enclosing groups (findbranches.go), whether a word computed at run
// time blinds the whole expression, where the first -print is and whether find prints other text.
type findReader struct {
	e            findExpr
	words, roots []word
	names        []string
	inToolDirs   []string
	open, blind  bool
	groups       []findGroup
	root         findGroup
	printAt      int
	printsText   bool
	// deleteAll and printAll: a -delete or -print some branch does not narrow acts on every file.
	deleteAll, printAll bool
}

// snapshot is what the tests so far narrow an action to: nil for any file.
func (r *findReader) snapshot() []string {
	if r.blind || !r.open || len(r.names) == 0 {
		return nil
	}
	return slices.Clip(r.names) // later tests append to names, not to what an earlier action saw
}

// toolDirSnapshot is what of .git and agents' settings directories the tests so far narrow an
// action to, when they narrow it at all.
func (r *findReader) toolDirSnapshot() []string {
	if r.snapshot() == nil {
		return nil
	}
	return slices.Clip(r.inToolDirs)
}

// step reads the word at i and returns the index of the last word it took.
func (r *findReader) step(i int) int {
	w := r.words[i]
	if w.dynamic {
		r.e.computed = "a word of its expression, " + w.s + ", is computed at run time and may be an operator or an action"
		r.blind = true
		return i
	}
	switch {
	case slices.Contains(findNameTests, w.s):
		if i+1 < len(r.words) {
			r.test(i)
			return i + 1
		}
	case slices.Contains(findExecActions, w.s):
		return r.action(i)
	case slices.Contains(findDeleteActions, w.s):
		// Each -delete counts: one after -o or "," deletes what the tests before it did not
		// take (find . -name '*.pyc' -delete -o -delete deletes every other file).
		names := r.snapshot()
		r.deleteAll = r.deleteAll || names == nil
		r.e.deletes = append(r.e.deletes, names...)
		r.e.toolDirDeletes = append(r.e.toolDirDeletes, r.toolDirSnapshot()...)
	case slices.Contains(findPrintActions, w.s):
		names := r.snapshot()
		r.printAll = r.printAll || names == nil
		r.e.printed = append(r.e.printed, names...)
		// find . -name settings.json | xargs rm deletes .claude/settings.json too.
		r.e.printed = append(r.e.printed, r.toolDirSnapshot()...)
		if r.printAt < 0 {
			r.printAt = i
		}
	case slices.Contains(findTextActions, w.s):
		r.printsText = true
	case w.s == "-o" || w.s == "-or" || w.s == ",":
		r.alternative()
	case w.s == "(" || w.s == "\\(":
		r.openGroup(findNegated(r.words, i)) // -not \( -name x \): the group's names are what is not found
	case w.s == ")" || w.s == "\\)":
		r.closeGroup()
	}
	return i + findOperands(w.s) // its operands, computed or not, are values
}

// findOperands is how many words after a primary of find's are its operands.
func findOperands(primary string) int {
	switch {
	case primary == findFprintf:
		return 2 // its file and its format
	case findOneOperand[primary] || strings.HasPrefix(primary, "-newer") || slices.Contains(findNameTests, primary):
		return 1
	}
	return 0
}

// action reads the -exec (-execdir, -ok, -okdir) at i and returns the index of its terminator.
func (r *findReader) action(i int) int {
	end := findExecEnd(r.words, i)
	batch := end < len(r.words) && r.words[end].s == "+"
	r.e.execs = append(r.e.execs, findAction{start: i, end: end, inDir: strings.HasSuffix(r.words[i].s, "dir"),
		batch: batch, names: r.snapshot(), inToolDirs: r.toolDirSnapshot()})
	r.printsText = true // what the command prints goes to find's output
	return end
}

// test reads the name or path test at i and its pattern.
func (r *findReader) test(i int) {
	switch op := r.words[i+1]; {
	case findNegated(r.words, i):
		// -not -path './vendor/*': what is found is elsewhere
	case op.dynamic:
		r.open = false // -name $(echo .env), .[e\]]nv: not the name its text reads as
	default:
		r.names = appendFindNames(r.names, r.roots, r.words[i].s, op.s)
		r.inToolDirs = appendToolDirNames(r.inToolDirs, r.roots, r.words[i].s, op.s)
	}
}

// findOptionalNumber are bfs's primaries whose operand, a number, may be left out: -depth N
// (GNU find's -depth takes none) and -exit STATUS.
var findOptionalNumber = []string{"-depth", "-exit"}

// findLaterRoots returns the starting points among an expression's words, from index from: bfs
// takes flags, paths and expression "freely mixed in any order" (bfs -name x -delete .claude
// deletes below .claude), its -f PATH anywhere too. A word that is no operator, no primary's
// operand and no -exec's command is such a path. GNU find refuses one ("paths must precede
// expression") and runs nothing, so reading it as a root refuses nothing find would run.
func findLaterRoots(words []word, from int) []word {
	var roots []word
	for i := from; i < len(words); i++ {
		v := words[i].s
		switch {
		case slices.Contains(findExecActions, v):
			i = findExecEnd(words, i)
		case v == "-f" && i+1 < len(words):
			i++
			roots = append(roots, words[i])
		case slices.Contains(findOptionalNumber, v) && i+1 < len(words) && findNumber(words[i+1].s):
			i++
		case strings.HasPrefix(v, "-"):
			i += findOperands(v)
		case !slices.Contains(findOperators, v) && v != "\\(" && v != "\\)":
			roots = append(roots, words[i])
		}
	}
	return roots
}

// findNumber says whether a word is one of find's numeric operands: N, +N or -N.
func findNumber(s string) bool {
	s = strings.TrimLeft(s, "+-")
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// findStartsExpr says whether a word of find's begins its expression rather than naming a
// starting point.
func findStartsExpr(s string) bool {
	return strings.HasPrefix(s, "-") || s == "(" || s == "!" || s == "\\("
}

// findExecEnd is the index of the terminator of the action at i: ";", or for -exec and -execdir
// "+" right after "{}". GNU find reads any other "+" as an argument ("find . -exec cat + {} \;"
// runs cat + FILE), and -ok and -okdir have no "+" form at all.
func findExecEnd(words []word, i int) int {
	batches := words[i].s == findExecActions[0] || words[i].s == findExecActions[1] // -exec, -execdir
	j := i + 1
	for j < len(words) && words[j].s != ";" && (!batches || words[j].s != "+" || words[j-1].s != "{}") {
		j++
	}
	return j
}

// appendFindNames adds what a test narrows the files found to, under each root. A name test
// matches a file at any depth, the roots' own entries included (find /proc/self/ -name environ
// finds /proc/self/environ); find's wildcards match a leading dot too (findDotVariant). A path
// test matches the whole path, where "*", "?" and "[" also match "/": only a literal one names a
// file (the path itself); one with a wildcard narrows nothing the engine can name, and the
// actions after it are narrowed by the other tests or not at all.
func appendFindNames(names []string, roots []word, test, pattern string) []string {
	if test != findNameTests[0] && test != findNameTests[1] { // -name, -iname
		if hasGlobMeta(pattern) || strings.ContainsRune(pattern, '\\') {
			return names
		}
		return append(names, pattern)
	}
	for _, r := range roots {
		names = append(names, path.Join(r.s, "**", pattern), path.Join(r.s, pattern))
		if d, ok := findDotVariant(pattern); ok {
			names = append(names, path.Join(r.s, "**", d), path.Join(r.s, d))
		}
	}
	return names
}

// findOperators are the words find reads as something other than a starting point or an
// operand: its operators, the terminators of -exec, and every primary GNU find 4.9 has.
var findOperators = func() []string {
	ops := []string{"(", ")", ",", ";", "+", "{}", "-a", "-and", "-o", "-or", "-prune", "-quit", "-true", "-false", "-empty", "-executable", "-readable",
		"-writable", "-nogroup", "-nouser", "-depth", "-d", "-follow", "-xdev", "-mount", "-noleaf",
		"-daystart", "-warn", "-nowarn", "-help", "-version", "-ignore_readdir_race",
		"-noignore_readdir_race", "-newer", "-ls",
		// bfs's
		"-acl", "-capable", "-hidden", "-nohidden", "-sparse", "-xattr", "-color", "-nocolor", "-exit",
		"-noerror", "-status", "-unique"}
	ops = slices.Concat(ops, findNameTests, findExecActions, findDeleteActions, findPrintActions, findNegatingPrefix,
		slices.Collect(maps.Keys(findOneOperand)))
	for _, x := range "aBcmt" {
		for _, y := range "aBcmt" {
			ops = append(ops, "-newer"+string(x)+string(y))
		}
	}
	return ops
}()

// findGlobMayBeOperator says whether an unquoted glob among find's words may expand to a file
// named as one of findOperators (a glob the engine cannot read may).
func findGlobMayBeOperator(g string) bool {
	pattern, known := canonicalGlob(g)
	if !known {
		return true
	}
	for _, op := range findOperators {
		if ok, err := path.Match(pattern, op); ok || err != nil {
			return true
		}
	}
	return false
}

// toolDirNames are, for the dot directories whose files run or configure code (.git, and the
// coding agents' settings directories, agentSettingsDirs), the names their
// tools give files and directories inside them, by pattern where they vary: a name test that may
// match one reaches it, since find descends into dot directories (find . -name HEAD -delete
// deletes .git/HEAD; find . -name settings.json -exec cp x {} \; writes .claude/settings.json).
// Every hook git runs (githooks(5)) is listed. A branch's or tag's loose ref is named like the
// branch, any name at all, and an agent's command or rule file is any *.md: both are left to the
// protection of the directory as a whole.
var toolDirNames = func() map[string][]string {
	m := map[string][]string{dirGit: append(strings.Fields(`HEAD ORIG_HEAD FETCH_HEAD MERGE_HEAD CHERRY_PICK_HEAD
	REVERT_HEAD AUTO_MERGE BISECT_LOG index config config.worktree description packed-refs
	COMMIT_EDITMSG MERGE_MSG SQUASH_MSG shallow hooks objects refs info logs exclude modules
	worktrees lfs heads tags remotes pack pack-*.pack pack-*.idx pack-*.rev pack-*.mtimes
	multi-pack-index commit-graph *.lock *.sample alternates attributes sparse-checkout grafts
	applypatch-msg pre-applypatch post-applypatch pre-commit pre-merge-commit prepare-commit-msg
	commit-msg post-commit pre-rebase post-checkout post-merge pre-push pre-receive update
	proc-receive post-receive post-update reference-transaction push-to-checkout pre-auto-gc
	post-rewrite sendemail-validate fsmonitor-watchman p4-changelist p4-prepare-changelist
	p4-post-changelist p4-pre-submit post-index-change
	[0-9a-f][0-9a-f]`), strings.Repeat("[0-9a-f]", 38))} // the last two: an object's directory and file
	for _, d := range agentSettingsDirs {
		m[d] = agentSettingsNames
	}
	return m
}()

// agentSettingsNames are the names coding agents give their settings, hooks and MCP servers.
var agentSettingsNames = strings.Fields(`settings.json settings.local.json mcp.json hooks.json
	environment.json config.toml config.json config.yaml config.yml cli.json hooks commands agents skills rules steering
	settings cli-agents *.mdc plugin plugins tasks.json opencode.json opencode.jsonc kilo.json kilo.jsonc`)

// appendToolDirNames adds, for a name test whose pattern may match one of toolDirNames' names, that
// pattern directly inside each root's directory of them, where the engine's ./**/NAME (a bash
// glob, which enters no dot directory) does not reach. Path tests name whole paths, already
// judged as such.
func appendToolDirNames(names []string, roots []word, test, pattern string) []string {
	if test != findNameTests[0] && test != findNameTests[1] { // -name, -iname
		return names
	}
	p, known := canonicalGlob(pattern)
	if test == findNameTests[1] {
		p = strings.ToLower(p)
	}
	for _, dir := range slices.Sorted(maps.Keys(toolDirNames)) {
		meets := !known || slices.ContainsFunc(toolDirNames[dir], func(n string) bool {
			if test == findNameTests[1] {
				n = strings.ToLower(n)
			}
			return p == n || globsMeet(p, n)
		})
		for _, r := range roots {
			if meets {
				names = append(names, path.Join(r.s, dir, pattern))
			}
		}
	}
	return names
}
