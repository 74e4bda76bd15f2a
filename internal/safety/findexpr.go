package safety

import (
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
	printed []string     // what find prints for a following xargs (yields); nil is not known
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
	names      []string
}

// findFprintf writes its format's text to a file: it takes two words.
const findFprintf = "-fprintf"

// findOneOperand are find's primaries that take the next word as their operand (a number, a
// user, a file, a format), which is no operator or action whatever it spells. -fprintf takes two.
var findOneOperand = map[string]bool{
	"-amin": true, "-anewer": true, "-atime": true, "-cmin": true, "-cnewer": true, "-ctime": true,
	"-fstype": true, "-gid": true, "-group": true, "-inum": true, "-links": true, "-mmin": true,
	"-mtime": true, "-perm": true, "-regex": true, "-iregex": true, "-samefile": true, "-size": true,
	"-type": true, "-xtype": true, "-uid": true, "-used": true, "-user": true, "-context": true,
	"-maxdepth": true, "-mindepth": true, "-regextype": true, optFiles0From: true, "-lname": true,
	"-ilname": true, "-fprint": true, "-fprint0": true, "-fls": true, "-printf": true, findFprintf: true,
}

// readFind reads the expression of a find command (words) whose starting points are roots.
func readFind(words, roots []word) findExpr {
	r := findReader{words: words, roots: roots, open: true, printAt: -1}
	for _, w := range words[1:] {
		if w.split {
			// bash may split it into several words: a root, a test or an -exec's command may
			// become "-o -exec cat {} ;".
			r.e.computed, r.open = "a word of it, "+w.s+", is computed at run time and may be several words, an action among them", false
		}
	}
	for i := findExprStart(words); i < len(words); i++ {
		i = r.step(i)
	}
	switch {
	case r.printsText:
		r.e.printed = []string{placeholderXargs} // -exec cat {}, -printf '/etc/shadow\n': any words
	case r.printAt < 0:
		r.e.printed = r.snapshot() // the implicit -print of the whole expression
	}
	return r.e
}

// findReader is readFind's state: the names the tests so far narrow to, whether they are one AND
// chain with none computed (open), where the first -print is and whether find prints other text.
type findReader struct {
	e            findExpr
	words, roots []word
	names        []string
	open         bool
	printAt      int
	printsText   bool
}

// snapshot is what the tests so far narrow an action to: nil for any file.
func (r *findReader) snapshot() []string {
	if !r.open || len(r.names) == 0 {
		return nil
	}
	return slices.Clip(r.names) // later tests append to names, not to what an earlier action saw
}

// step reads the word at i and returns the index of the last word it took.
func (r *findReader) step(i int) int {
	w := r.words[i]
	if w.dynamic {
		r.e.computed = "a word of its expression, " + w.s + ", is computed at run time and may be an operator or an action"
		r.open = false
		return i
	}
	switch w.s {
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename":
		if i+1 < len(r.words) {
			r.test(i)
			return i + 1
		}
	case "-exec", "-ok", "-execdir", "-okdir":
		end := findExecEnd(r.words, i)
		r.e.execs = append(r.e.execs, findAction{start: i, end: end, inDir: strings.HasSuffix(w.s, "dir"), names: r.snapshot()})
		r.printsText = true
		return end
	case "-delete":
		if r.e.deletes != nil {
			break // the first -delete is the widest
		}
		if r.e.deletes = r.snapshot(); r.e.deletes == nil {
			r.e.deletes = []string{} // every file
		}
	case "-print", "-print0":
		if r.printAt < 0 {
			r.printAt, r.e.printed = i, r.snapshot()
		}
	case "-ls", "-printf":
		r.printsText = true // text find makes up, not the names found
	case "-o", "-or", ",":
		r.open = false
	case "(", "\\(":
		r.open = r.open && !findNegated(r.words, i) // -not \( -name x \): the group's names are what is not found
	case findFprintf:
		i++ // its file; its format follows
	}
	if findOneOperand[w.s] || strings.HasPrefix(w.s, "-newer") {
		i++ // its operand, computed or not, is a value
	}
	return i
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
	}
}

// findExprStart is the index of the first word of find's expression, after its leading options
// and starting points (findRoots).
func findExprStart(words []word) int {
	i := 1
	for i < len(words) && !words[i].dynamic && findLeadingOption(words[i].s) {
		if words[i].s == "--" {
			return findRootsEnd(words, i+1)
		}
		if words[i].s == "-D" || words[i].s == "-f" {
			i++
		}
		i++
	}
	return findRootsEnd(words, i)
}

// findRootsEnd skips the starting points from i: words up to the first that starts the expression.
func findRootsEnd(words []word, i int) int {
	for i < len(words) && !findStartsExpr(words[i].s) {
		i++
	}
	return i
}

// findStartsExpr says whether a word of find's begins its expression rather than naming a
// starting point.
func findStartsExpr(s string) bool {
	return strings.HasPrefix(s, "-") || s == "(" || s == "!" || s == "\\("
}

// findExecEnd is the index of the terminator of the -exec at i: ";", or "+" right after "{}".
// GNU find reads any other "+" as an argument: "find . -exec cat + {} \;" runs cat + FILE.
func findExecEnd(words []word, i int) int {
	j := i + 1
	for j < len(words) && words[j].s != ";" && (words[j].s != "+" || words[j-1].s != "{}") {
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
	if test != "-name" && test != "-iname" {
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
