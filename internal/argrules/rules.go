package argrules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/ext"
)

// CostLimit is the most one rule may cost, estimated when it is compiled and counted while it is
// evaluated: ValidatingAdmissionPolicy's per-expression limit. The estimate assumes every list,
// map and string of the arguments is as large as the bounds allow.
const CostLimit = 1_000_000

// MaxExpressionLength bounds an expression's source, as the API does.
const MaxExpressionLength = 4096

// Rule is one argument rule as the project wrote it.
type Rule struct {
	Name string
	// Tools the rule applies to; empty is every tool.
	Tools      []string
	Expression string
	// Message is shown when the rule is false; empty shows the expression.
	Message string
}

// Variables are the names an expression may use.
const (
	VarArgs    = "args"
	VarCommand = "command"
	VarPaths   = "paths"
	VarCwd     = "cwd"
	VarTool    = "tool"
)

// FieldError is an invalid rule: Index is its position in the list, Field the rule's field.
type FieldError struct {
	Index  int
	Field  string
	Detail string
}

func (e FieldError) Error() string {
	return fmt.Sprintf("argumentRules[%d].%s: %s", e.Index, e.Field, e.Detail)
}

// Set is a compiled list of rules; it is immutable and safe for concurrent use. The nil Set
// has no rules.
type Set struct {
	rules []compiled
}

type compiled struct {
	Rule
	prg cel.Program
	// keys are the keys of args the rule names (argPaths): a call respelling one is refused.
	keys []namedKey
}

// newEnv is the one CEL environment rules compile in: the variables, the standard library with
// the strings extension, and cross-type numeric comparisons so 399.5 < 400 holds.
func newEnv() (*cel.Env, error) {
	return cel.NewEnv(
		cel.Variable(VarArgs, cel.MapType(cel.StringType, cel.DynType)),
		cel.Variable(VarCommand, cel.StringType),
		cel.Variable(VarPaths, cel.ListType(cel.StringType)),
		cel.Variable(VarCwd, cel.StringType),
		cel.Variable(VarTool, cel.StringType),
		ext.Strings(),
		cel.CrossTypeNumericComparisons(true),
		cel.ParserExpressionSizeLimit(MaxExpressionLength),
	)
}

// Compile compiles rules. Every invalid rule is reported, each naming its index: an empty or
// repeated name, an expression that does not parse or type-check, is not boolean, or whose
// estimated cost exceeds CostLimit.
func Compile(rules []Rule) (*Set, []FieldError) {
	if len(rules) == 0 {
		return nil, nil
	}
	env, err := newEnv()
	if err != nil { // the environment is fixed; this is a programming error
		panic(fmt.Sprintf("argrules: building the CEL environment: %v", err))
	}
	var errs []FieldError
	set := &Set{}
	seen := map[string]bool{}
	for i, r := range rules {
		if r.Name == "" {
			errs = append(errs, FieldError{i, "name", "a rule needs a name"})
		} else if seen[r.Name] {
			errs = append(errs, FieldError{i, "name", fmt.Sprintf("rule name %q is used twice", r.Name)})
		}
		seen[r.Name] = true
		prg, keys, detail := compileOne(env, r.Expression)
		if detail != "" {
			errs = append(errs, FieldError{i, "expression", detail})
			continue
		}
		r.Tools = slices.Clone(r.Tools)
		set.rules = append(set.rules, compiled{Rule: r, prg: prg, keys: keys})
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return set, nil
}

func compileOne(env *cel.Env, expr string) (cel.Program, []namedKey, string) {
	if len(expr) > MaxExpressionLength {
		return nil, nil, fmt.Sprintf("expression is %d characters, more than %d", len(expr), MaxExpressionLength)
	}
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		return nil, nil, "does not compile: " + iss.Err().Error()
	}
	if t := ast.OutputType(); !t.IsExactType(cel.BoolType) && !t.IsExactType(cel.DynType) {
		return nil, nil, fmt.Sprintf("must evaluate to a bool, not %s", t)
	}
	est, err := env.EstimateCost(ast, sizeBounds{})
	if err != nil {
		return nil, nil, "cannot estimate its cost: " + err.Error()
	}
	if est.Max > CostLimit {
		return nil, nil, fmt.Sprintf("its estimated cost %d exceeds the limit %d for arguments of the largest allowed size; "+
			"bound the work (fewer nested comprehensions, smaller lists)", est.Max, CostLimit)
	}
	prg, err := env.Program(ast, cel.CostLimit(CostLimit), cel.EvalOptions(cel.OptOptimize))
	if err != nil {
		return nil, nil, "cannot be planned: " + err.Error()
	}
	var keys []namedKey
	for _, path := range argPaths(ast.NativeRep().Expr()) {
		keys = append(keys, newNamedKey(path))
	}
	return prg, keys, ""
}

// sizeBounds tells the cost estimator how large the variables can be: no list or map holds more
// than MaxValues entries (paths at most 32), no string is longer than MaxExtraBytes.
type sizeBounds struct{}

func (sizeBounds) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	if inIteratedArgument(n.Path()) {
		// An element of the arguments taken by a comprehension: the estimator counts its size
		// once for every element of its container, and the arguments' sizes add up to
		// MaxExtraBytes (and MaxValues values), so an element is priced at its share of them. The
		// estimate of linear work per element is then the work over all the arguments, as it is;
		// work that grows faster in one element alone is held by the runtime limit.
		return elementShare(n.Type().Kind())
	}
	switch n.Type().Kind() {
	case cel.ListKind, cel.MapKind:
		return &checker.SizeEstimate{Min: 0, Max: MaxValues}
	case cel.StringKind, cel.BytesKind:
		return &checker.SizeEstimate{Min: 0, Max: MaxExtraBytes}
	case cel.DynKind:
		return &checker.SizeEstimate{Min: 0, Max: MaxExtraBytes}
	case cel.TypeKind:
		// A type value (list, string, type(args.to)) is one name: comparing two is constant.
		// Unsized, the estimator takes it as unbounded, and type(args.to) == list, the way to
		// name the type a rule relies on, was refused as too costly.
		return &checker.SizeEstimate{Min: 1, Max: 1}
	}
	return nil
}

// inIteratedArgument says whether a node's path (a variable, then fields and "@items", "@keys",
// "@values", "@indices" for what a comprehension takes from a container) is, or is inside, an
// element of args that a comprehension iterates over.
func inIteratedArgument(path []string) bool {
	if len(path) < 2 || path[0] != VarArgs {
		return false
	}
	for _, p := range path[1:] {
		if strings.HasPrefix(p, "@") {
			return true
		}
	}
	return false
}

// elementShare is the size of an element of the arguments as its share of their bounds: a string
// MaxExtraBytes/MaxValues bytes, a list or map one entry (the values of all of them are MaxValues).
func elementShare(kind cel.Kind) *checker.SizeEstimate {
	switch kind {
	case cel.ListKind, cel.MapKind:
		return &checker.SizeEstimate{Min: 0, Max: 1}
	case cel.StringKind, cel.BytesKind, cel.DynKind:
		return &checker.SizeEstimate{Min: 0, Max: MaxExtraBytes / MaxValues}
	}
	return nil
}

func (sizeBounds) EstimateCallCost(string, string, *checker.AstNode, []checker.AstNode) *checker.CallEstimate {
	return nil
}

// Len is how many rules the set holds.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.rules)
}
