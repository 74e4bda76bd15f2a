package safety

import (
	"regexp"
	"slices"
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
//
//nolint:goconst // builtin names read best literally, next to their neighbours
var nameTakers = map[string]bool{"read": true, "mapfile": true, "readarray": true, cmdPf: true, "unset": true,
	"test": true, "[": true, "getopts": true, "wait": true, "let": true}

// subscriptCode is a variable name with a subscript that holds an expansion: evaluated as code
// when a builtin takes it for a name.
var subscriptCode = regexp.MustCompile("^[A-Za-z_][A-Za-z0-9_]*\\[.*[$`]")

// mayEvaluateArithmetic is a cheap test before the walk: no arithmetic context, no subscript, no
// name computed at run time given to a builtin or a declaration.
func mayEvaluateArithmetic(src string) bool {
	return strings.Contains(src, "((") || strings.Contains(src, "$[") || strings.Contains(src, "${") ||
		strings.Contains(src, "let") || strings.Contains(src, "[[") || strings.Contains(src, "-eq") ||
		strings.ContainsAny(src, "$`") && (strings.Contains(src, "[") || containsAny(src, nameTakerWords) || containsAny(src, declarationWords)) ||
		strings.Contains(src, " -") && containsAny(src, declarationWords) && integerDeclaration.MatchString(src)
}

// nameTakerWords and declarationWords (the declaration builtins, whose NAME=VALUE words assign)
// find, cheaply and loosely, a builtin or declaration that could take a variable name (for a
// closer look by nameOperands); a regular expression of the alternatives would scan a long line
// far more slowly than these searches for each.
//
//nolint:goconst // builtin names read best literally, next to their neighbours
var (
	nameTakerWords   = []string{"read", "mapfile", cmdPf, "unset", "getopts", "wait", "test", "-v", "-i"}
	declarationWords = []string{subExport, "declare", "typeset", "local", "readonly"}
)

// containsAny reports whether s contains one of words.
func containsAny(s string, words []string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(s, w) })
}

// integerDeclaration finds a declaration with the integer attribute, whose values are arithmetic.
var integerDeclaration = regexp.MustCompile(`(declare|typeset|local|export|readonly) (.* )?-[a-zA-Z]*i`)

// arithmeticCode asks for a person when a script evaluates, as arithmetic or as a subscript, text
// the engine does not see: a name without a numeric value from the line, a command's output,
// quoted text, a subscript with an expansion given to a builtin as a name.
func (a *analyzer) arithmeticCode(f *syntax.File, src string) {
	if !mayEvaluateArithmetic(src) {
		return
	}
	c := &arithCheck{file: f}
	c.visit = c.node
	syntax.Walk(f, func(n syntax.Node) bool {
		if c.why == "" {
			c.why = nameOperands(n)
		}
		return c.context(n) && c.why == ""
	})
	if c.why != "" {
		a.find(false, RuleOpaqueCode, "%s, which can run commands the engine cannot see; it needs human approval", c.why)
	}
}

// nameOperands returns why a builtin that takes variable names is given one with a subscript
// holding an expansion, or one computed at run time (which may hold such a subscript:
// x='a[$(id)]'; read "$x"), or "".
func nameOperands(n syntax.Node) string {
	switch n := n.(type) {
	case *syntax.CallExpr:
		if len(n.Args) > 1 && nameTakers[n.Args[0].Lit()] {
			if why := subscriptWord(n.Args[1:]); why != "" {
				return why
			}
			return computedName(builtinNames(n.Args[0].Lit(), n.Args[1:]))
		}
	case *syntax.DeclClause:
		for _, as := range n.Args {
			if as.Name == nil && as.Value != nil {
				if why := subscriptWord([]*syntax.Word{as.Value}); why != "" {
					return why
				}
				if _, ok := literalText(as.Value); !ok && !literalName(as.Value) {
					return "a declaration takes a name computed at run time, whose subscript it evaluates as code"
				}
			}
		}
	case *syntax.UnaryTest:
		if n.Op == syntax.TsVarSet || n.Op == syntax.TsRefVar {
			if w, ok := n.X.(*syntax.Word); ok {
				if why := subscriptWord([]*syntax.Word{w}); why != "" {
					return why
				}
				return computedName([]*syntax.Word{w})
			}
		}
	}
	return ""
}

// literalName reports whether a declaration's word names its variable in literal text before an
// "=" ("FOO=$HOME/x", quoted or not): only the value is computed.
func literalName(w *syntax.Word) bool {
	var b strings.Builder
	parts := w.Parts
	if len(parts) == 1 {
		if q, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = q.Parts
		}
	}
	for _, p := range parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			break
		}
		b.WriteString(l.Value)
	}
	name, _, found := strings.Cut(b.String(), "=")
	return found && isName(strings.TrimSuffix(name, "+"))
}

// computedName returns why one of the words, each a variable name a builtin takes, is computed
// at run time, or "".
func computedName(names []*syntax.Word) string {
	for _, w := range names {
		if _, ok := literalText(w); !ok {
			return "a builtin takes a variable name computed at run time, whose subscript it evaluates as code"
		}
	}
	return ""
}

// builtinValueLetters are, per builtin, its short options that take a value; the value of those
// in builtinNameLetters is a variable name.
var (
	builtinValueLetters = map[string]string{"read": "adinNptu", "mapfile": "dnOsuCc", "readarray": "dnOsuCc", cmdPf: "v", "wait": "p"}
	builtinNameLetters  = map[string]string{"read": "a", cmdPf: "v", "wait": "p"}
)

// builtinNames returns the words a builtin takes for variable names: read's operands and -a,
// mapfile's operand, printf -v, wait -p, unset's operands (not with -f), test's operand of -v,
// getopts' second operand.
func builtinNames(name string, args []*syntax.Word) []*syntax.Word {
	switch name {
	case "test", "[":
		for i, w := range args[:len(args)-1] {
			if l := w.Lit(); l == "-v" || l == "-R" {
				return args[i+1 : i+2]
			}
		}
		return nil
	case "getopts":
		return args[min(1, len(args)-1):min(2, len(args))]
	case "unset":
		if slices.ContainsFunc(args, func(w *syntax.Word) bool { return w.Lit() == "-f" }) {
			return nil
		}
	}
	return optionNames(name, args)
}

// optionNames returns the names a builtin takes in its options' values (read -a, printf -v,
// wait -p; attached, -vNAME, or the next word) and, for read, mapfile and unset, its operands.
func optionNames(name string, args []*syntax.Word) []*syntax.Word {
	var names []*syntax.Word
	values, nameLetters := builtinValueLetters[name], builtinNameLetters[name]
	for i := 0; i < len(args); i++ {
		l := args[i].Lit()
		if l == "" {
			l, _ = literalText(args[i]) // -a'PATH' is -aPATH
		}
		if l == "--" || len(l) < 2 || l[0] != '-' {
			if l == "--" {
				i++
			}
			if name != cmdPf && name != "wait" { // their operands are a format and jobs
				names = append(names, args[i:]...)
			}
			break
		}
		if j := strings.IndexAny(l[1:], values) + 1; j > 0 {
			switch {
			case j < len(l)-1 && strings.IndexByte(nameLetters, l[j]) >= 0:
				// The value attached: printf -vPATH, read -aPATH.
				names = append(names, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: l[j+1:]}}})
			case j == len(l)-1 && i+1 < len(args):
				i++
				if strings.IndexByte(nameLetters, l[j]) >= 0 {
					names = append(names, args[i])
				}
			}
		}
	}
	return names
}

// arithCheck judges arithmetic expressions against the names the script sets to numbers
// (arithmeticAssignments, computed at the first name); why is the first reason found.
type arithCheck struct {
	file           *syntax.File
	numeric, other map[string]bool
	integers       map[string]bool // the names declared -i so far
	why            string
	visit          func(syntax.Node) bool // node, made once: a method value per walk would allocate
}

// context judges the expressions a node evaluates as arithmetic: $(( )), (( )), let, a C-style
// loop's three parts, a subscript, a slice's offset and length, the operands of [[ -eq ]] and its
// kin, an assignment's index. It reports whether the walk should descend into the node: not into
// an arithmetic expression, which expr has walked whole.
func (c *arithCheck) context(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.ArithmExp:
		c.expr(n.X)
		return false
	case *syntax.ArithmCmd:
		c.expr(n.X)
		return false
	case *syntax.LetClause:
		for _, e := range n.Exprs {
			c.expr(e)
		}
		return false
	case *syntax.CStyleLoop:
		c.expr(n.Init)
		c.expr(n.Cond)
		c.expr(n.Post)
		return false
	case *syntax.ParamExp:
		c.subscripts(n)
		c.expansionCode(n)
	case *syntax.Assign:
		c.expr(n.Index)
		c.integerTargets(n)
	case *syntax.CallExpr:
		c.integerTargets(n)
	case *syntax.DeclClause:
		c.integerValues(n)
	case *syntax.BinaryTest:
		switch n.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			c.expr(n.X)
			c.expr(n.Y)
		}
	}
	return true
}

// declNameref is mksh's declaration of name references, which the parser keeps as a variant.
const declNameref = "nameref"

// integerValues judges the values a declaration with the integer attribute (declare -i y=x)
// assigns, which bash evaluates as arithmetic.
//
// A name reference (declare -n r=TARGET) is code unless its target is a plain name: assigning r
// assigns the variable the target names, subscript and all (declare -n r=$x; r=1).
func (c *arithCheck) integerValues(d *syntax.DeclClause) {
	integer, ref := false, d.Variant != nil && d.Variant.Value == declNameref
	for _, as := range d.Args {
		if as.Name == nil && as.Value != nil {
			o := as.Value.Lit()
			integer = integer || declOption(o, 'i')
			ref = ref || declOption(o, 'n')
			continue
		}
		if as.Name == nil || c.why != "" {
			continue
		}
		if integer {
			if c.integers == nil {
				c.integers = map[string]bool{}
			}
			c.integers[as.Name.Value] = true
		}
		if as.Value == nil {
			continue
		}
		switch t, literal := literalText(as.Value); {
		case ref && (!literal || !isName(t)):
			c.why = "declare -n makes " + as.Name.Value + " a reference to a name that is computed or holds a subscript, which an assignment to it evaluates"
		case integer:
			c.integerValue(as.Name.Value, as.Value)
		}
	}
}

// declOption reports whether a declaration's option word gives the letter (declare -rn: n).
func declOption(o string, letter byte) bool {
	return strings.HasPrefix(o, "-") && strings.IndexByte(o, letter) >= 0
}

// integerValue judges a value given to a variable with the integer attribute: bash evaluates it as
// arithmetic.
func (c *arithCheck) integerValue(name string, v *syntax.Word) {
	if t, ok := literalText(v); ok {
		c.text(t)
	} else if c.why == "" {
		c.why = "a variable declared -i (" + name + ") evaluates the value it is given as arithmetic"
	}
}

// integerTargets judges what a later assignment or a builtin gives a variable declared -i: read,
// mapfile or printf -v into it evaluates their input as arithmetic.
func (c *arithCheck) integerTargets(n syntax.Node) {
	if len(c.integers) == 0 || c.why != "" {
		return
	}
	switch n := n.(type) {
	case *syntax.Assign:
		if n.Name != nil && n.Value != nil && c.integers[n.Name.Value] {
			c.integerValue(n.Name.Value, n.Value)
		}
	case *syntax.CallExpr:
		if len(n.Args) > 1 && nameTakers[n.Args[0].Lit()] {
			for _, w := range builtinNames(n.Args[0].Lit(), n.Args[1:]) {
				if c.integers[w.Lit()] {
					c.why = "a variable declared -i (" + w.Lit() + ") evaluates what " + n.Args[0].Lit() + " gives it as arithmetic"
				}
			}
		}
	}
}

// expansionCode judges the expansions that evaluate a variable's value as code: ${x@P} expands
// it as a prompt, running the command substitutions in it, and ${!x} takes it for a name, whose
// subscript is evaluated (x='a[$(id)]'). ${!x} is admitted when every assignment of x in the line
// gives it a plain name (v=GITHUB_TOKEN) and nothing else sets it.
func (c *arithCheck) expansionCode(n *syntax.ParamExp) {
	switch {
	case c.why != "" || n.Param == nil:
	case n.Exp != nil && n.Exp.Op == syntax.OtherParamOps && n.Exp.Word != nil && strings.Contains(n.Exp.Word.Lit(), "P"):
		c.why = "${" + n.Param.Value + "@P} expands the value of " + n.Param.Value + " as a prompt, running the commands in it"
	case n.Excl && n.Names == 0 && n.Index == nil && !c.namesOnly(n.Param.Value):
		c.why = "${!" + n.Param.Value + "} takes the value of " + n.Param.Value + ", which the line does not set to a plain name, for a variable name whose subscript it evaluates"
	}
}

// namesOnly reports whether the script sets v only by assignments of plain variable names.
func (c *arithCheck) namesOnly(v string) bool {
	set := false
	syntax.Walk(c.file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name != nil && n.Name.Value == v {
				set = true
				if n.Value == nil || n.Array != nil || n.Index != nil || !isName(n.Value.Lit()) {
					set, v = false, ""
				}
			}
		case *syntax.WordIter:
			if n.Name != nil && n.Name.Value == v {
				set = true
				if slices.ContainsFunc(n.Items, func(w *syntax.Word) bool { return !isName(w.Lit()) }) {
					set, v = false, ""
				}
			}
		case *syntax.CallExpr:
			if len(n.Args) > 1 && computedAssigners[n.Args[0].Lit()] {
				set, v = false, ""
			}
		}
		return v != ""
	})
	return set
}

// subscripts judges a parameter expansion's subscript and slice, which are arithmetic.
func (c *arithCheck) subscripts(n *syntax.ParamExp) {
	c.expr(n.Index)
	if n.Slice != nil {
		c.expr(n.Slice.Offset)
		c.expr(n.Slice.Length)
	}
}

// expr walks one arithmetic expression (nil: an absent one, such as a loop without a condition).
func (c *arithCheck) expr(root syntax.Node) {
	if c.why != "" || root == nil {
		return
	}
	syntax.Walk(root, c.visit)
}

// node judges one node of an arithmetic expression.
func (c *arithCheck) node(n syntax.Node) bool {
	if c.why != "" {
		return false
	}
	switch n := n.(type) {
	case *syntax.BinaryArithm:
		if w, ok := n.X.(*syntax.Word); ok && n.Op == syntax.Assgn && isName(w.Lit()) {
			c.expr(n.Y) // "x = ..." sets x without reading its old value
			return false
		}
	case *syntax.CmdSubst, *syntax.ProcSubst:
		c.why = "arithmetic evaluates a command's output as an expression"
	case *syntax.SglQuoted:
		c.text(n.Value)
	case *syntax.ParamExp:
		// Its value (not its length), then its subscript, slice and default — not its name
		// again, as a bare word.
		if !n.Length {
			c.name(n.Param.Value)
		}
		c.subscripts(n)
		if n.Exp != nil && n.Exp.Word != nil {
			c.expr(n.Exp.Word)
		}
		return false
	case *syntax.Lit:
		c.text(n.Value)
	}
	return true
}

// text judges literal text arithmetic evaluates: a token of $(( )), or a whole word of [[ -eq ]]
// or let, quoted or not ("x+y", "a[1]"). Every name in it is a value evaluated in turn; an
// expansion in it ("a[\$(id)]") runs when the subscript is expanded.
func (c *arithCheck) text(v string) {
	if strings.ContainsAny(v, "$`") {
		c.why = "arithmetic evaluates " + v + " as an expression"
		return
	}
	for i := 0; i < len(v) && c.why == ""; i++ {
		if !isNameStart(v[i]) || i > 0 && (isNameChar(v[i-1]) || v[i-1] == '#') {
			continue // not a name, or a digit of 0x1f or 16#ff
		}
		j := i + 1
		for j < len(v) && isNameChar(v[j]) {
			j++
		}
		c.name(v[i:j])
		i = j
	}
}

func isNameStart(b byte) bool { return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

func isNameChar(b byte) bool { return isNameStart(b) || b >= '0' && b <= '9' }

// name judges a variable whose value arithmetic evaluates.
func (c *arithCheck) name(v string) {
	if c.why != "" || shellNumbers[v] {
		return
	}
	if c.numeric == nil {
		c.numeric, c.other = arithmeticAssignments(c.file)
	}
	if !c.numeric[v] || c.other[v] {
		c.why = "arithmetic evaluates the value of " + v + ", which the line does not set to a number"
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
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name == nil {
				break
			}
			if n.Array == nil && (n.Value == nil || isNumber(n.Value.Lit()) || arithmeticValue(n.Value)) || n.Array != nil && numericArray(n.Array) {
				numeric[n.Name.Value] = true
			} else {
				other[n.Name.Value] = true
			}
		case *syntax.BinaryArithm, *syntax.UnaryArithm:
			if name := arithmeticTarget(n); name != "" {
				numeric[name] = true
			}
		case *syntax.ForClause:
			if wi, ok := n.Loop.(*syntax.WordIter); ok {
				numeric[wi.Name.Value] = true
				if slices.ContainsFunc(wi.Items, func(w *syntax.Word) bool { return !isNumber(w.Lit()) }) {
					other[wi.Name.Value] = true
				}
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

// arithmeticValue reports whether a word is one arithmetic expansion, $((...)) or $[...], quoted
// or not: its value is an integer, whatever the names it reads hold (each is judged where it is
// read). So n=0; ...; n=$((n+1)) keeps n a number.
func arithmeticValue(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	part := w.Parts[0]
	if q, ok := part.(*syntax.DblQuoted); ok && len(q.Parts) == 1 {
		part = q.Parts[0]
	}
	_, ok := part.(*syntax.ArithmExp)
	return ok
}

// arithmeticTarget is the name an arithmetic assignment (x = 1, x += 1, x++) sets, or "".
func arithmeticTarget(n syntax.Node) string {
	var x syntax.ArithmExpr
	switch n := n.(type) {
	case *syntax.BinaryArithm:
		switch n.Op {
		case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
			syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn, syntax.AndBoolAssgn,
			syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
			x = n.X
		}
	case *syntax.UnaryArithm:
		if n.Op == syntax.Inc || n.Op == syntax.Dec {
			x = n.X
		}
	}
	if w, ok := x.(*syntax.Word); ok && isName(w.Lit()) {
		return w.Lit()
	}
	return ""
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
