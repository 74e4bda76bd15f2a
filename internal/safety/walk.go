package safety

import "mvdan.cc/sh/v3/syntax"

// braceWalker is syntax.Walk for a tree the analysis may already have brace-expanded: expansion
// leaves *syntax.BraceExp parts in a word (a loop's body is analysed once per item, a function's
// at each call), which syntax.Walk panics on; their elements are walked instead, and f never sees
// them. Its visit is made once per analysis (a closure per walk would allocate for every word);
// f is swapped around each walk, so a walk started from within f (nested commands) restores it.
type braceWalker struct {
	f, visit func(syntax.Node) bool
}

// walk walks n with f.
func (a *analyzer) walk(n syntax.Node, f func(syntax.Node) bool) {
	bw := &a.braces
	if bw.visit == nil {
		bw.visit = func(n syntax.Node) bool {
			if b, ok := n.(*syntax.BraceExp); ok {
				for _, e := range b.Elems {
					syntax.Walk(e, bw.visit)
				}
				return false
			}
			return bw.f(n)
		}
	}
	saved := bw.f
	bw.f = f
	syntax.Walk(n, bw.visit)
	bw.f = saved
}
