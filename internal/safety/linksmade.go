package safety

import (
	"path"
	"strings"
)

// A symbolic link made earlier on the line leads a later path through it to its target: after
// "ln -s .git/hooks h", "cp x h/pre-commit" writes .git/hooks/pre-commit. The engine does no I/O,
// so it keeps the links the line makes and judges a path below one as the path below its target
// too.

// maxLinksMade bounds the links kept.
const maxLinksMade = 16

// linkMade is a link the line made: where it is and what it points to, both resolved.
type linkMade struct{ at, target string }

// recordLink notes a link made at `at` (as written, from the working directory) to target (as
// written; a relative target is read from the link's directory, as the kernel reads it).
func (a *analyzer) recordLink(at, target word) {
	if at.dynamic || target.dynamic || a.cwd == cwdUnknown {
		return
	}
	l := resolvePath(a.cwd, at.s)
	t := target.s
	if !isAbsOrHome(expandHome(t)) {
		t = path.Join(path.Dir(l), t)
	}
	t = resolvePath("/", t)
	if l == "" || t == "" || l == "/" {
		return
	}
	st := a.state()
	if len(st.links) < maxLinksMade {
		st.links = append(st.links, linkMade{at: l, target: t})
	}
}

// touchThroughLinks records a path below a link the line made again, below the link's target.
func (a *analyzer) touchThroughLinks(w word, op pathOp, cost int) {
	if a.line == nil || len(a.line.links) == 0 || w.dynamic || a.cwd == cwdUnknown {
		return
	}
	p := resolvePath(a.cwd, w.s)
	for _, l := range a.line.links {
		rest, below := strings.CutPrefix(p, l.at+"/")
		if !below && p != l.at || !a.spend(cost) {
			continue
		}
		a.recordPath(path.Join(l.target, rest), "", op, false, w.glob)
	}
}
