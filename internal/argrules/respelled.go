package argrules

import (
	"slices"
	"strconv"
	"strings"

	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
)

// Respells says whether key is another spelling of want that a tool's decoder may take for it:
// equal but for case and the separators '_' and '-' ("Force" or "FORCE" for "force", "dryRun"
// or "dry-run" for "dry_run"). Go's encoding/json matches keys regardless of case, and Python
// servers commonly take a field's camelCase alias as well as its name (pydantic's
// populate_by_name). pkg/toolcall refuses such keys for the keys a tool's map names; argument
// rules refuse them for the keys a rule names.
func Respells(key, want string) bool {
	return key != want && strings.EqualFold(unseparated(key), unseparated(want))
}

// unseparated is key without the separators a tool's decoder may ignore or add.
func unseparated(key string) string {
	if !strings.ContainsAny(key, "_-") {
		return key
	}
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		return r
	}, key)
}

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

// respelled is the first key of args along one of paths that another decoder may read as the key
// the path names there: a respelling of it (Respells), or a dotted or bracketed path through it
// and the keys below ("opts.force", `opts["Force"]`), which a JavaScript tool setting options by
// path follows. It is returned dotted from args with the key it stands for, and how ("respells"
// or "is a path to"); "" when there is none. Each path is followed through the maps the
// arguments hold; where it leaves them, there is nothing below to check.
func respelled(args map[string]any, paths [][]string) (key, want, how string) {
	for _, path := range paths {
		m := args
		for i, seg := range path {
			prefix := strings.Join(path[:i], ".")
			for k := range m {
				if Respells(k, seg) {
					return dotted(prefix, k), dotted(prefix, seg), "respells"
				}
				if n := pathThrough(k, path[i:]); n > 0 {
					return dotted(prefix, k), dotted(prefix, strings.Join(path[i:i+n], ".")), "is a path to"
				}
			}
			next, isMap := m[seg].(map[string]any)
			if !isMap {
				break
			}
			m = next
		}
	}
	return "", "", ""
}

// pathThrough is how many keys of path the key k spells as a dotted or bracketed path of more
// than one key, each the key or a respelling of it; 0 when it is not such a path.
func pathThrough(k string, path []string) int {
	if len(path) < 2 || !strings.ContainsAny(k, ".[") {
		return 0
	}
	segs := pathSegments(k)
	if len(segs) < 2 || len(segs) > len(path) {
		return 0
	}
	for j, s := range segs {
		if s != path[j] && !Respells(s, path[j]) {
			return 0
		}
	}
	return len(segs)
}

func dotted(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// respellingMessage is the denial of a call holding key where the rule reads want.
func respellingMessage(rule, key, how, want string) string {
	return "argument rule " + rule + ": " + strconv.Quote(key) + " " + how + " " + strconv.Quote(want) +
		", which the rule reads; a tool may take either for the other, so spell it exactly"
}
