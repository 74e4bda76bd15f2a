package safety

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bash evaluates a variable's value inside arithmetic as an arithmetic expression, and an array
// subscript in it is expanded again: with N='a[$(cat .env)]', "echo $((N))" runs cat. So do
// [[ $x -eq 1 ]], ${a[i]}, ${s:o:l}, let, (( )) and for (( )), and a builtin that takes a
// variable name ('read a[$(id)]', 'unset', 'printf -v', 'declare', test -v). What the engine does
// not see there is code: a name in arithmetic must have a value the line gives it that is a
// number (or one arithmetic computes), or the line asks.

// shellNumbers are the parameters the shell itself sets to numbers.
var shellNumbers = map[string]bool{"#": true, "?": true, "$": true, "!": true, "RANDOM": true, "SRANDOM": true,
	"SECONDS": true, "LINENO": true, "BASHPID": true, "PPID": true, "UID": true, "EUID": true,
	"EPOCHSECONDS": true, "OPTIND": true}

// nameTakers are the builtins whose operands are variable names, whose subscripts bash evaluates.
var nameTakers = map[string]bool{"read": true, "mapfile": true, "readarray": true, "printf": true, "unset": true,
	"test": true, "[": true, "getopts": true, "wait": true, "let": true}

// subscriptCode is a variable name with a subscript that holds an expansion: evaluated as code
// when a builtin takes it for a name.
var subscriptCode = regexp.MustCompile("^[A-Za-z_][A-Za-z0-9_]*\\[.*[$`]")

// mayEvaluateArithmetic is a cheap test before the walk: no arithmetic context, no subscript.
func mayEvaluateArithmetic(src string) bool {
	return strings.Contains(src, "((") || strings.Contains(src, "$[") || strings.Contains(src, "${") ||
		strings.Contains(src, "let") || strings.Contains(src, "[[") || strings.Contains(src, "-eq") ||
		strings.Contains(src, "[") && strings.ContainsAny(src, "$`")
}

// arithmeticCode asks for a person when a script evaluates, as arithmetic or as a subscript, text
// the engine does not see: a name without a numeric value from the line, a command's output,
// quoted text, a subscript with an expansion given to a builtin as a name.
func (a *analyzer) arithmeticCode(f *syntax.File, src string) {
	if !mayEvaluateArithmetic(src) {
		return
	}
	numeric, other := arithmeticAssignments(f)
	why := ""
	var check func(root syntax.Node)
	check = func(root syntax.Node) {
		if why != "" || root == nil {
			return
		}
		syntax.Walk(root, func(n syntax.Node) bool {
			if why != "" {
				return false
			}
			switch n := n.(type) {
			case *syntax.BinaryArithm:
				if w, ok := n.X.(*syntax.Word); ok && n.Op == syntax.Assgn && isName(w.Lit()) {
					check(n.Y) // "x = ..." sets x without reading its old value
					return false
				}
			case *syntax.CmdSubst, *syntax.ProcSubst:
				why = "arithmetic evaluates a command's output as an expression"
			case *syntax.SglQuoted, *syntax.DblQuoted:
				why = "arithmetic evaluates quoted text as an expression"
			case *syntax.ParamExp:
				if name := n.Param.Value; !n.Length && !shellNumbers[name] && (!numeric[name] || other[name]) {
					why = "arithmetic evaluates the value of " + name + ", which the line does not set to a number"
				}
				// Not its name again, as a bare word: its subscript, slice and default.
				check(n.Index)
				if n.Slice != nil {
					check(n.Slice.Offset)
					check(n.Slice.Length)
				}
				if n.Exp != nil && n.Exp.Word != nil {
					check(n.Exp.Word)
				}
				return false
			case *syntax.Lit:
				if strings.ContainsAny(n.Value, "$`") {
					why = "arithmetic evaluates " + n.Value + " as an expression"
				} else if isName(n.Value) && (!numeric[n.Value] || other[n.Value]) {
					why = "arithmetic evaluates the value of " + n.Value + ", which the line does not set to a number"
				}
			}
			return true
		})
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.ArithmExp:
			check(n.X)
		case *syntax.ArithmCmd:
			check(n.X)
		case *syntax.LetClause:
			for _, e := range n.Exprs {
				check(e)
			}
		case *syntax.CStyleLoop:
			check(n.Init)
			check(n.Cond)
			check(n.Post)
		case *syntax.ParamExp:
			if n.Index != nil {
				check(n.Index)
			}
			if n.Slice != nil {
				check(n.Slice.Offset)
				check(n.Slice.Length)
			}
		case *syntax.BinaryTest:
			switch n.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
				check(n.X)
				check(n.Y)
			}
		case *syntax.CallExpr:
			if len(n.Args) > 1 && nameTakers[n.Args[0].Lit()] {
				why = subscriptWord(n.Args[1:])
			}
		case *syntax.DeclClause:
			for _, as := range n.Args {
				if as.Name == nil && as.Value != nil {
					why = subscriptWord([]*syntax.Word{as.Value})
				} else if as.Index != nil {
					check(as.Index)
				}
			}
		}
		return why == ""
	})
	if why != "" {
		a.find(false, RuleOpaqueCode, "%s, which can run commands the engine cannot see; it needs human approval", why)
	}
}

// subscriptWord returns why one of a builtin's name operands runs code: a literal name with a
// subscript holding an expansion ('a[$(id)]'), or "".
func subscriptWord(words []*syntax.Word) string {
	for _, w := range words {
		if t, ok := literalText(w); ok && subscriptCode.MatchString(t) {
			return "a builtin evaluates the subscript of " + t + " as code"
		}
	}
	return ""
}

// literalText is a word's text when it is only literals and quotes.
func literalText(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// arithmeticAssignments returns the names a script sets only to numbers — a numeric literal, an
// arithmetic assignment, a for loop over numbers — and those it sets otherwise (to text, a
// command's output, from a builtin that assigns by name).
func arithmeticAssignments(f *syntax.File) (numeric, other map[string]bool) {
	numeric, other = map[string]bool{}, map[string]bool{}
	target := func(x syntax.ArithmExpr) {
		if w, ok := x.(*syntax.Word); ok {
			if l := w.Lit(); isName(l) {
				numeric[l] = true
			}
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name == nil {
				break
			}
			if n.Array == nil && (n.Value == nil || isNumber(n.Value.Lit())) || n.Array != nil && numericArray(n.Array) {
				numeric[n.Name.Value] = true
			} else {
				other[n.Name.Value] = true
			}
		case *syntax.BinaryArithm:
			switch n.Op {
			case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
				syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn, syntax.AndBoolAssgn,
				syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
				target(n.X)
			}
		case *syntax.UnaryArithm:
			if n.Op == syntax.Inc || n.Op == syntax.Dec {
				target(n.X)
			}
		case *syntax.ForClause:
			if wi, ok := n.Loop.(*syntax.WordIter); ok {
				for _, it := range wi.Items {
					if !isNumber(it.Lit()) {
						other[wi.Name.Value] = true
					}
				}
				numeric[wi.Name.Value] = true
			}
		case *syntax.CallExpr:
			if len(n.Args) > 1 && computedAssigners[n.Args[0].Lit()] {
				for _, w := range n.Args[1:] {
					other[w.Lit()] = true
				}
			}
		}
		return true
	})
	return numeric, other
}

// numericArray reports whether an array literal holds only numbers.
func numericArray(a *syntax.ArrayExpr) bool {
	for _, e := range a.Elems {
		if e.Value == nil || !isNumber(e.Value.Lit()) {
			return false
		}
	}
	return true
}

// isName reports whether s is a shell variable name.
func isName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// isNumber reports whether s is a decimal integer literal, optionally signed.
func isNumber(s string) bool {
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
