package safety

import "slices"

// findGroup is a parenthesised group of find's expression (or the whole of it, readFind's root):
// what the chain before its "(" narrows it to (prefix), whether it is negated, and the names its
// finished branches narrowed to. An -o or "," starts a branch that sees only the prefix: the tests
// of the branch before it do not narrow it ("-name '*.md' -print -o -print" prints every other
// file), so each branch's actions are judged with the prefix and their own tests alone.
type findGroup struct {
	prefix, prefixToolDirs []string
	open, negated          bool
	alts, altsToolDirs     []string // the finished branches' names, when all of them narrowed
	altsOpen, branched     bool
}

// top is the innermost open group.
func (r *findReader) top() *findGroup {
	if len(r.groups) == 0 {
		return &r.root
	}
	return &r.groups[len(r.groups)-1]
}

// openGroup starts a group at "(": its branches begin with the chain before it. A negated
// group's tests narrow to what is not found, so nothing inside it is narrowed.
func (r *findReader) openGroup(negated bool) {
	r.groups = append(r.groups, findGroup{prefix: slices.Clip(r.names), prefixToolDirs: slices.Clip(r.inToolDirs),
		open: r.open, negated: negated, altsOpen: true})
	r.open = r.open && !negated
}

// alternative ends the current branch at -o or "," and starts the next from the group's prefix.
func (r *findReader) alternative() {
	g := r.top()
	g.endBranch(r)
	r.names, r.inToolDirs, r.open = g.prefix, g.prefixToolDirs, g.open && !g.negated
}

// endBranch adds the current branch's names to the group's.
func (g *findGroup) endBranch(r *findReader) {
	g.branched = true
	if names := r.snapshot(); names != nil {
		g.alts = append(g.alts, names...)
		g.altsToolDirs = append(g.altsToolDirs, r.inToolDirs...)
	} else {
		g.altsOpen = false
	}
}

// closeGroup ends the group at ")": what follows is narrowed by the chain before it and, when the
// group is neither negated nor unnarrowed in a branch, by the names of any of its branches.
func (r *findReader) closeGroup() {
	if len(r.groups) == 0 {
		return // find itself rejects it
	}
	g := r.groups[len(r.groups)-1]
	r.groups = r.groups[:len(r.groups)-1]
	switch {
	case g.negated:
		r.names, r.inToolDirs, r.open = g.prefix, g.prefixToolDirs, g.open
	case g.branched:
		g.endBranch(r)
		if g.altsOpen {
			r.names, r.inToolDirs, r.open = slices.Clip(g.alts), slices.Clip(g.altsToolDirs), true
		} else {
			r.names, r.inToolDirs, r.open = g.prefix, g.prefixToolDirs, g.open
		}
	}
}

// whole is what the whole expression narrows find's implicit -print to: any of its top-level
// branches (nil for any file).
func (r *findReader) whole() []string {
	for len(r.groups) > 0 {
		r.closeGroup() // an unclosed group: find rejects it
	}
	if !r.root.branched {
		return r.snapshot()
	}
	r.root.endBranch(r)
	if !r.root.altsOpen || r.blind {
		return nil
	}
	return slices.Clip(r.root.alts)
}

// wholeToolDirs is what of .git and agents' settings directories the whole expression narrows
// to, after whole.
func (r *findReader) wholeToolDirs() []string {
	if !r.root.branched {
		return r.toolDirSnapshot()
	}
	return slices.Clip(r.root.altsToolDirs)
}
