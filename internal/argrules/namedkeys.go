package argrules

import (
	"maps"
	"slices"

	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
)

// anyElement is the path segment for every element of a list, or every value of a map, that a
// rule reaches by an index that is not a constant key (args.jobs[0].dry_run, args.opts[k].force),
// or, as anyIterated, by iterating (args.jobs.all(j, j.dry_run)): each such element is an object the tool reads
// as it reads args, so a respelling in any of them is refused. No key is "\x00*" (extra.go
// refuses control characters in keys).
const anyElement = "\x00*"

// anyIterated is anyElement for the elements a comprehension binds its variable to: each element
// of a list, but each key of a map (a string), not its values. A key the rule reads below it is
// read off a map's keys, which hold none (has() is false): a map there is refused (respelledIn).
const anyIterated = "\x00@"

// anyObject is the path segment for every object in args at any depth, args itself included: a
// key a rule reads off a value whose place in args it cannot follow (dyn(j).dry_run, a
// conditional, a list or map literal around an element of args) may be read off any of them, so a
// respelling of it anywhere in the arguments is refused. What the check cannot follow, it does not
// admit; the cost is a call that spells one key two ways in unrelated objects.
const anyObject = "\x00**"

// argPaths are the keys of args a rule names, each as the path from args to it: args.force is
// [force], args.opts.force and args['opts']['force'] are [opts force], 'limit' in args.opts is
// [opts limit], args.jobs[0].dry_run is [jobs anyElement dry_run] and args.jobs.all(j,
// j.dry_run) is [jobs anyIterated dry_run]. Keys a rule reaches otherwise (with a computed key) are not named, and a rule on
// them must itself require the key.
func argPaths(e ast.Expr) [][]string {
	var paths [][]string
	add := func(p []string) {
		if len(p) > 0 && !slices.ContainsFunc(paths, func(q []string) bool { return slices.Equal(p, q) }) {
			paths = append(paths, p)
		}
	}
	collectPaths(e, map[string][]string{VarArgs: nil}, add)
	return paths
}

// collectPaths walks e, adding every path from args it names; scope maps the variables that
// stand for a place in args (args itself, a comprehension's element) to their path.
func collectPaths(e ast.Expr, scope map[string][]string, add func([]string)) {
	if p, ok := argPath(e, scope); ok {
		add(p)
	}
	switch e.Kind() {
	case ast.SelectKind:
		sel := e.AsSelect()
		if _, ok := argPath(sel.Operand(), scope); !ok && mentionsArgs(sel.Operand(), scope) {
			add([]string{anyObject, sel.FieldName()})
		}
		collectPaths(sel.Operand(), scope, add)
	case ast.CallKind:
		collectCallPaths(e.AsCall(), scope, add)
	case ast.ListKind:
		for _, el := range e.AsList().Elements() {
			collectPaths(el, scope, add)
		}
	case ast.MapKind:
		for _, en := range e.AsMap().Entries() {
			collectPaths(en.AsMapEntry().Key(), scope, add)
			collectPaths(en.AsMapEntry().Value(), scope, add)
		}
	case ast.ComprehensionKind:
		collectComprehensionPaths(e.AsComprehension(), scope, add)
	}
}

// collectCallPaths is collectPaths for a call: its target and arguments, a constant key of an
// index, and 'key' in a map.
func collectCallPaths(call ast.CallExpr, scope map[string][]string, add func([]string)) {
	if call.IsMemberFunction() {
		collectPaths(call.Target(), scope, add)
	}
	for _, a := range call.Args() {
		collectPaths(a, scope, add)
	}
	if call.FunctionName() == operators.Index && len(call.Args()) == 2 {
		if key, ok := constString(call.Args()[1]); ok {
			if _, known := argPath(call.Args()[0], scope); !known && mentionsArgs(call.Args()[0], scope) {
				add([]string{anyObject, key})
			}
		}
	}
	collectComparedKeys(call, scope, add)
	if call.FunctionName() == operators.In && len(call.Args()) == 2 {
		if key, ok := constString(call.Args()[0]); ok {
			if p, ok := argPath(call.Args()[1], scope); ok {
				add(append(slices.Clone(p), key))
			} else if mentionsArgs(call.Args()[1], scope) {
				add([]string{anyObject, key})
			}
		}
	}
}

// collectComparedKeys adds the keys a rule compares with the keys of a map it iterates: k ==
// 'force', 'force' != k and k in ['force', 'dry_run'], with k a comprehension's variable over
// args or a place in it (args.exists(k, k == 'force') reads as 'force' in args does). Over a
// list, the variable is each element and the key names nothing, which costs nothing to check.
func collectComparedKeys(call ast.CallExpr, scope map[string][]string, add func([]string)) {
	args := call.Args()
	if len(args) != 2 {
		return
	}
	switch call.FunctionName() {
	case operators.Equals, operators.NotEquals:
		for _, pair := range [][2]ast.Expr{{args[0], args[1]}, {args[1], args[0]}} {
			if keys, ok := iteratedKeys(pair[0], scope); ok {
				if key, isConst := constString(pair[1]); isConst {
					add(append(keys, key))
				}
			}
		}
	case operators.In:
		keys, ok := iteratedKeys(args[0], scope)
		if !ok || args[1].Kind() != ast.ListKind {
			return
		}
		for _, el := range args[1].AsList().Elements() {
			if key, isConst := constString(el); isConst {
				add(append(slices.Clone(keys), key))
			}
		}
	}
}

// iteratedKeys is the path of the map whose keys e, a comprehension's variable, iterates.
func iteratedKeys(e ast.Expr, scope map[string][]string) ([]string, bool) {
	if e.Kind() != ast.IdentKind {
		return nil, false
	}
	p, ok := scope[e.AsIdent()]
	if !ok || len(p) == 0 || p[len(p)-1] != anyIterated {
		return nil, false
	}
	return slices.Clone(p[:len(p)-1]), true
}

// collectComprehensionPaths is collectPaths for a comprehension (all, exists, map, filter...).
func collectComprehensionPaths(c ast.ComprehensionExpr, scope map[string][]string, add func([]string)) {
	collectPaths(c.IterRange(), scope, add)
	collectPaths(c.AccuInit(), scope, add)
	// The comprehension's variables hide any of the same names outside it; its element
	// variable (a one-variable comprehension's only one — a map's is its key, a string with
	// nothing below — or the second of two) stands for each element of a range in args.
	inner := maps.Clone(scope)
	delete(inner, c.IterVar())
	delete(inner, c.IterVar2())
	delete(inner, c.AccuVar())
	elem := c.IterVar()
	if c.HasIterVar2() {
		elem = c.IterVar2()
	}
	if p, ok := argPath(c.IterRange(), scope); ok {
		inner[elem] = append(slices.Clone(p), anyIterated)
	} else if mentionsArgs(c.IterRange(), scope) {
		inner[elem] = []string{anyObject} // an element of something built from args
	}
	collectPaths(c.LoopCondition(), inner, add)
	collectPaths(c.LoopStep(), inner, add)
	collectPaths(c.Result(), inner, add)
}

// mentionsArgs says whether e may hold a value taken from args: it names args, or a variable in
// scope that stands for a place in it. A value built only from literals and the other variables
// (command, paths, cwd, tool) holds nothing of args.
func mentionsArgs(e ast.Expr, scope map[string][]string) bool {
	found := false
	ast.PreOrderVisit(e, ast.NewExprVisitor(func(e ast.Expr) {
		if e.Kind() == ast.IdentKind {
			if _, ok := scope[e.AsIdent()]; ok {
				found = true
			}
		}
	}))
	return found
}

// argPath is the path from args that e names, and whether it names one: args, a variable in
// scope, and selections and indexes of them; an index that is not a constant string is any
// element.
func argPath(e ast.Expr, scope map[string][]string) ([]string, bool) {
	switch e.Kind() {
	case ast.IdentKind:
		p, ok := scope[e.AsIdent()]
		return slices.Clone(p), ok
	case ast.SelectKind:
		p, ok := argPath(e.AsSelect().Operand(), scope)
		return append(p, e.AsSelect().FieldName()), ok
	case ast.CallKind:
		call := e.AsCall()
		if call.FunctionName() != operators.Index || len(call.Args()) != 2 {
			return nil, false
		}
		p, ok := argPath(call.Args()[0], scope)
		key, isConst := constString(call.Args()[1])
		if !isConst {
			key = anyElement
		}
		return append(p, key), ok
	}
	return nil, false
}

func constString(e ast.Expr) (string, bool) {
	if e.Kind() != ast.LiteralKind {
		return "", false
	}
	s, ok := e.AsLiteral().(types.String)
	return string(s), ok
}

// namedKey is a key a rule names, as a path from args: its keys, and their spellings.
type namedKey struct {
	path, spellings []string
}

func newNamedKey(path []string) namedKey {
	k := namedKey{path: path, spellings: make([]string, len(path))}
	for i, seg := range path {
		k.spellings[i] = spelling(seg)
	}
	return k
}
