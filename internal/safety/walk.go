package safety

import "mvdan.cc/sh/v3/syntax"

// walk is syntax.Walk for a tree the analysis may already have brace-expanded: expansion leaves
// *syntax.BraceExp parts in a word (a loop's body is analysed once per item, a function's at each
// call), which syntax.Walk panics on; their elements are walked instead. f never sees them.
func walk(n syntax.Node, f func(syntax.Node) bool) {
	var visit func(syntax.Node) bool
	visit = func(n syntax.Node) bool {
		if b, ok := n.(*syntax.BraceExp); ok {
			for _, e := range b.Elems {
				syntax.Walk(e, visit)
			}
			return false
		}
		return f(n)
	}
	syntax.Walk(n, visit)
}
