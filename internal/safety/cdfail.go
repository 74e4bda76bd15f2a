package safety

import (
	"slices"

	"mvdan.cc/sh/v3/syntax"
)

// A cd that fails (the directory does not exist, or is not one) leaves the shell where it was, and
// a command after it that does not depend on its success runs there: in "cd /tmp/a/b/c; cat
// ../../etc/shadow" cat reads /etc/shadow from the project when /tmp/a/b/c is missing. The
// analysis keeps, beside cwd (where every cd succeeded), the other directories the shell may be
// in, and judges each relative path from each. A cd known to have succeeded adds none: on the
// right of "cd X &&", in the branch of "if cd X", and after "cd X || exit". set -e is not taken
// for one: bash ignores it in too many places (either side of || and &&, after !, in a condition,
// in a function called from one, in a command substitution) for a failing cd to be sure to end
// the script.

// maxCdFallbacks bounds the directories kept; past it, where the shell is is not known.
const maxCdFallbacks = 8

// cdState is what the cds of a line leave: the other directories the shell may be in, those it
// is in when the last cd succeeded, and how many cds ran (to tell whether a statement was one).
type cdState struct {
	fallbacks []string
	succeeded []string
	count     int
}

// cdFallbacks returns the directories, other than cwd, the shell may be in.
func (a *analyzer) cdFallbacks() []string {
	if a.line == nil {
		return nil
	}
	return a.line.cd.fallbacks
}

// setCdFallbacks replaces them.
func (a *analyzer) setCdFallbacks(dirs []string) {
	if a.line != nil || len(dirs) > 0 {
		a.state().cd.fallbacks = dirs
	}
}

// cdFrom moves the analysis as cd does (a.cd), from cwd and from every fallback: the shell is
// where the cd took it from any of them, or, the cd failing, still in one of them.
func (a *analyzer) cdFrom(seg segment) {
	prev, others := a.cwd, slices.Clone(a.cdFallbacks())
	a.cd(seg)
	main := a.cwd
	var succeeded []string
	for _, d := range others {
		a.cwd = d
		a.cd(seg)
		succeeded = addDir(succeeded, a.cwd, main)
	}
	a.cwd = main
	if a.line == nil && prev == main {
		return
	}
	st := &a.state().cd
	st.count++
	st.succeeded = succeeded
	st.fallbacks = slices.Clone(succeeded) // appended to below: not into succeeded's array
	for _, d := range append(others, prev) {
		st.fallbacks = addDir(st.fallbacks, d, main)
	}
}

// addDir adds d to dirs unless it is main or there already; past maxCdFallbacks the shell's
// directory is not known.
func addDir(dirs []string, d, main string) []string {
	switch {
	case d == main || slices.Contains(dirs, d):
		return dirs
	case len(dirs) >= maxCdFallbacks:
		return []string{cwdUnknown}
	}
	return append(dirs, d)
}

// touchFallbacks records a relative path again from each directory a failed cd may have left the
// shell in, each at the path's cost in work.
func (a *analyzer) touchFallbacks(w word, op pathOp, dynamic bool, cost int) {
	for _, d := range a.cdFallbacks() {
		if d == a.cwd || isAbsOrHome(expandHome(w.s)) {
			continue
		}
		if !a.spend(cost) {
			return
		}
		a.recordPath(w.s, d, op, dynamic, w.glob)
	}
}

// succeededAfter runs analyse (the statement X of "X && ...", or an if's condition) and returns
// the fallbacks for what runs only when it succeeded: those of the cd it ended with having
// succeeded, or the ones it left when it was no cd.
func (a *analyzer) succeededAfter(x *syntax.Stmt, analyse func()) []string {
	count := 0
	if a.line != nil {
		count = a.line.cd.count
	}
	analyse()
	if a.line == nil {
		return nil
	}
	if isCd(x) && a.line.cd.count > count {
		return a.line.cd.succeeded
	}
	return a.line.cd.fallbacks
}

// isCd reports whether a statement is a cd or pushd, or an && list that ends with one (its
// success is that cd's).
func isCd(s *syntax.Stmt) bool {
	if s.Negated || s.Background {
		return false // ! cd X succeeds when cd fails; cd X & moves another shell
	}
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && b.Op == syntax.AndStmt {
		return isCd(b.Y)
	}
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return false
	}
	n := c.Args[0].Lit()
	return n == "cd" || n == cmdPushd
}

// andThen analyses "X && Y": Y runs only when X succeeded; after the list the shell may be where
// X's failure left it, or where Y did.
func (a *analyzer) andThen(c *syntax.BinaryCmd, pipeFrom []int, depth int) {
	ok := a.succeededAfter(c.X, func() { a.stmt(c.X, pipeFrom, depth) })
	afterX := slices.Clone(a.cdFallbacks())
	a.setCdFallbacks(slices.Clone(ok))
	a.cond++
	a.stmt(c.Y, pipeFrom, depth)
	a.cond--
	for _, d := range afterX {
		a.setCdFallbacks(addDir(a.cdFallbacks(), d, a.cwd))
	}
}

// orElse analyses "X || Y": when Y ends the script (exit, or a block that ends with it), what
// follows the list runs only when X succeeded.
func (a *analyzer) orElse(c *syntax.BinaryCmd, pipeFrom []int, depth int) {
	ok := a.succeededAfter(c.X, func() { a.stmt(c.X, pipeFrom, depth) })
	a.cond++
	a.stmt(c.Y, pipeFrom, depth)
	a.cond--
	if ends(c.Y) && !a.defined("exit") {
		a.setCdFallbacks(slices.Clone(ok))
	}
}

// ifClause analyses an if with its elif and else branches. An elif or else runs after the
// conditions before it failed, from wherever they left the shell; after the if, the shell may be
// wherever any branch left it.
func (a *analyzer) ifClause(c *syntax.IfClause, pipeFrom []int, depth int) {
	all := slices.Clone(a.cdFallbacks())
	for cl := c; cl != nil; cl = cl.Else {
		all = addDir(all, a.cwd, "")
		a.setCdFallbacks(slices.Clone(all))
		a.ifBranch(cl, pipeFrom, depth)
		for _, d := range a.cdFallbacks() {
			all = addDir(all, d, "")
		}
	}
	all = slices.DeleteFunc(all, func(d string) bool { return d == a.cwd })
	a.setCdFallbacks(all)
}

// ifBranch analyses an if's condition and then its branch, which runs only when the condition
// succeeded.
func (a *analyzer) ifBranch(cl *syntax.IfClause, pipeFrom []int, depth int) {
	var last *syntax.Stmt
	if len(cl.Cond) > 0 {
		last = cl.Cond[len(cl.Cond)-1]
	}
	ok := a.cdFallbacks()
	if last != nil {
		ok = a.succeededAfter(last, func() { a.stmts(cl.Cond, pipeFrom, depth) })
	}
	a.setCdFallbacks(slices.Clone(ok))
	a.stmts(cl.Then, pipeFrom, depth)
}

// ends reports whether a statement always leaves the script: exit, or a block whose last
// statement does (return leaves only a function, and outside one fails and goes on).
func ends(s *syntax.Stmt) bool {
	if s.Negated || s.Background {
		return false
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		return len(c.Args) > 0 && c.Args[0].Lit() == "exit"
	case *syntax.Block:
		return len(c.Stmts) > 0 && ends(c.Stmts[len(c.Stmts)-1])
	}
	return false
}
