package argrules

import (
	"slices"

	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
)

// argPaths are the keys of args a rule names, each as the path from args to it: args.force is
// [force], args.opts.force and args['opts']['force'] are [opts force], 'limit' in args.opts is
// [opts limit]. Keys a rule reaches otherwise (by iterating, or with a computed index) are not
// named, and a rule on them must itself require the key.
func argPaths(e ast.Expr) [][]string {
	var paths [][]string
	add := func(p []string) {
		if len(p) > 0 && !slices.ContainsFunc(paths, func(q []string) bool { return slices.Equal(p, q) }) {
			paths = append(paths, p)
		}
	}
	ast.PreOrderVisit(e, ast.NewExprVisitor(func(e ast.Expr) {
		if p, ok := argPath(e); ok {
			add(p)
		}
		if e.Kind() != ast.CallKind || e.AsCall().FunctionName() != operators.In {
			return
		}
		args := e.AsCall().Args()
		if key, ok := constString(args[0]); ok {
			if p, ok := argPath(args[1]); ok {
				add(append(slices.Clone(p), key))
			}
		}
	}))
	return paths
}

// argPath is the path from args that e names, and whether it names one.
func argPath(e ast.Expr) ([]string, bool) {
	switch e.Kind() {
	case ast.IdentKind:
		return nil, e.AsIdent() == VarArgs
	case ast.SelectKind:
		p, ok := argPath(e.AsSelect().Operand())
		return append(p, e.AsSelect().FieldName()), ok
	case ast.CallKind:
		call := e.AsCall()
		if call.FunctionName() != operators.Index || len(call.Args()) != 2 {
			return nil, false
		}
		key, isConst := constString(call.Args()[1])
		p, ok := argPath(call.Args()[0])
		return append(p, key), ok && isConst
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
