package safety

import "mvdan.cc/sh/v3/syntax"

// A name reference (declare -n r=PATH, local -n, typeset -n) makes an assignment to r one to the
// variable it names. unseenWalk follows them: to a judged variable directly, through a chain of
// references (declare -n a=PATH; declare -n b=a; b=/tmp, also one declared before its target
// became a reference), and to a target given later. A reference declared without a target takes
// the name the first value stored into it gives: by an assignment of a literal name it is that
// name (declare -n r; r=PATH); by read, mapfile, printf -v, getopts, a loop or an assignment of a
// computed value it is a name the engine does not see (declare -n r; read r <<< PATH), and any
// later store through it asks. A for loop over a reference re-targets it at each word (declare -n
// r; for r in PATH; do r=/tmp; done). Before, such a reference was dropped: the chains and the
// targets read at run time set PATH, BASH_ENV or GIT_DIR unseen, at every level.

// Targets of a reference that are no variable's name: none yet, and one given at run time.
const (
	unboundRef = "\x00"
	unseenRef  = "\x01"
)

// maxRefHops bounds a chain of references; bash refuses a longer one or a cycle.
const maxRefHops = 8

// resolveRef follows the reference name to the variable it ends at, or to unboundRef or
// unseenRef, and returns the last reference of the chain, whose target a store may give.
func (u *unseenWalk) resolveRef(name string) (target, holder string) {
	holder = name
	for range maxRefHops {
		t, ok := u.refs[holder]
		switch {
		case !ok:
			return holder, holder
		case t == unboundRef || t == unseenRef:
			return t, holder
		}
		if _, ref := u.refs[t]; !ref {
			return t, holder
		}
		holder = t
	}
	return unseenRef, holder
}

// set records a judged variable a value the engine does not see is stored into, or one a
// reference stands for; a store into a reference without a target gives it one the engine does
// not see.
func (u *unseenWalk) set(name, how string) {
	if u.name != "" {
		return
	}
	if _, ref := u.refs[name]; ref {
		switch t, holder := u.resolveRef(name); t {
		case unboundRef:
			u.refs[holder] = unseenRef
			return
		case unseenRef:
			u.name, u.how, u.unseen = name, how+" through the name reference "+name, true
			return
		default:
			name, how = t, how+" through the name reference "+name
		}
	}
	if judgedVar(name) {
		u.name, u.how = name, how
	}
}

// assign records an assignment through a name reference: to the variable it ends at, or, for
// one without a target yet, the target it gives (a literal name, or one the engine does not
// see).
func (u *unseenWalk) assign(as *syntax.Assign) {
	if as.Name == nil || u.decls[as] {
		return
	}
	if _, ref := u.refs[as.Name.Value]; !ref {
		return
	}
	how := "an assignment to the name reference " + as.Name.Value
	switch t, holder := u.resolveRef(as.Name.Value); t {
	case unboundRef:
		if as.Value == nil {
			return
		}
		u.refs[holder] = unseenRef
		if v, ok := literalText(as.Value); ok && isName(baseName(v)) {
			u.refs[holder] = baseName(v)
		}
	case unseenRef:
		u.name, u.how, u.unseen = as.Name.Value, how, true
	default:
		if judgedVar(t) && u.name == "" {
			u.name, u.how = t, how
		}
	}
}

// loop records a for or select loop's variable: a reference is re-targeted at each word (a
// judged one if any, one the engine does not see if a word is computed); any other variable is
// given the words as values.
func (u *unseenWalk) loop(n *syntax.WordIter) {
	if n.Name == nil {
		return
	}
	name := n.Name.Value
	if _, ref := u.refs[name]; !ref {
		u.set(name, "a loop")
		return
	}
	target := unboundRef
	for _, w := range n.Items {
		v, ok := literalText(w)
		switch {
		case !ok || !isName(baseName(v)):
			target = unseenRef
		case judgedVar(baseName(v)):
			u.refs[name] = baseName(v)
			return
		case target == unboundRef:
			target = baseName(v)
		}
	}
	u.refs[name] = target
}

// namerefs keeps the name references a declaration makes (declare -n r=PATH, declare -n r),
// with their targets: a literal name, none yet, or, computed, one the engine does not see.
func (u *unseenWalk) namerefs(d *syntax.DeclClause) {
	ref := d.Variant != nil && d.Variant.Value == declNameref
	for _, as := range d.Args {
		if as.Name == nil && as.Value != nil {
			ref = ref || declOption(as.Value.Lit(), 'n')
			continue
		}
		if !ref || as.Name == nil {
			continue
		}
		target := unboundRef
		if as.Value != nil {
			target = unseenRef
			if t, ok := literalText(as.Value); ok && isName(baseName(t)) {
				target = baseName(t)
			}
		}
		if u.refs == nil {
			u.refs, u.decls = map[string]string{}, map[*syntax.Assign]bool{}
		}
		u.refs[as.Name.Value], u.decls[as] = target, true
	}
}
