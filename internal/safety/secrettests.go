package safety

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A comparison tells its caller something about what it compares: [[ $GITHUB_TOKEN == a* ]] &&
// echo a, run once for each letter and place (a loop does it in one command), prints the token a
// character at a time. test and [ given a credential are secret-in-arguments' (any argument may be
// printed back); [[ ]] and case are shell syntax, no command the rule pack sees, so their
// comparisons are judged here the same way: a credential variable's value (or a copy's, or one
// hidden in an operator) compared, matched or tested asks, and a presence check ([[ -n $TOKEN ]],
// [[ -z $TOKEN ]], [[ $TOKEN ]], [[ -v TOKEN ]]) does not.

// secretTest asks when a [[ ]] test compares or tests a credential's value.
func (a *analyzer) secretTest(x syntax.TestExpr) {
	if w := a.testedSecret(x); w != nil {
		a.secretCompared("[[ ]]", w)
	}
}

// secretEmptinessTest asks when [ or test tests with -n or -z the emptiness of a credential cut
// by an operator ([ -z "${GITHUB_TOKEN##a*}" ]): secret-in-arguments' check leaves -n and -z to
// be presence checks, and the words it reads no longer show the operator.
func (a *analyzer) secretEmptinessTest(c *syntax.CallExpr) {
	if len(c.Args) < 3 || !presenceTests[c.Args[0].Lit()] {
		return
	}
	for i, w := range c.Args[2:] {
		if op := c.Args[i+1].Lit(); op != "-n" && op != "-z" {
			continue
		}
		if e := a.emptinessTested(w); e != nil {
			a.secretCompared(c.Args[0].Lit(), e)
			return
		}
	}
}

// secretCase asks when a case statement matches a credential's value against its patterns.
func (a *analyzer) secretCase(c *syntax.CaseClause) {
	if len(c.Items) == 0 {
		return
	}
	if a.expandsSecret(c.Word) {
		a.secretCompared("case", c.Word)
		return
	}
	// A pattern is compared too: case a in ${GITHUB_TOKEN:0:1}) tells as much.
	for _, item := range c.Items {
		for _, pat := range item.Patterns {
			if a.expandsSecret(pat) {
				a.secretCompared("case", pat)
				return
			}
		}
	}
}

func (a *analyzer) secretCompared(construct string, w *syntax.Word) {
	a.find(false, RulePrefixDamageControl+"secret-in-arguments",
		"%s compares %q, a credential variable's value, with something else: what it does next tells the caller part of the value (a loop of such tests prints all of it); it needs human approval",
		construct, truncate(a.render(w).s, 80))
}

// testedSecret returns a word of a [[ ]] expression that gives a credential's value to a
// comparison or a test other than a presence check, or nil.
func (a *analyzer) testedSecret(x syntax.TestExpr) *syntax.Word {
	switch x := x.(type) {
	case *syntax.BinaryTest:
		if x.Op == syntax.AndTest || x.Op == syntax.OrTest {
			if w := a.testedSecret(x.X); w != nil {
				return w
			}
			return a.testedSecret(x.Y)
		}
		for _, side := range []syntax.TestExpr{x.X, x.Y} {
			if w, ok := side.(*syntax.Word); ok && a.expandsSecret(w) {
				return w
			}
		}
	case *syntax.UnaryTest:
		switch x.Op {
		case syntax.TsVarSet:
			return nil // -v: whether the name is set
		case syntax.TsEmpStr, syntax.TsNempStr:
			return a.emptinessTested(x.X) // -z, -n: whether it is empty
		case syntax.TsNot:
			return a.testedSecret(x.X)
		}
		if w, ok := x.X.(*syntax.Word); ok && a.expandsSecret(w) {
			return w
		}
	case *syntax.ParenTest:
		return a.testedSecret(x.X)
	case *syntax.Word:
		return a.emptinessTested(x) // a lone word, [[ $TOKEN ]], is -n
	}
	return nil
}

// emptinessTested returns the word of a -n, -z or lone-word test when its emptiness tells more
// than whether a credential is set: [[ -z ${GITHUB_TOKEN##a*} ]] is true exactly when the token
// starts with a, as [[ $GITHUB_TOKEN == a* ]] is. A credential's whole value (or a default or
// alternative for it, or its case changed) is a presence check, and stays admitted.
func (a *analyzer) emptinessTested(x syntax.TestExpr) *syntax.Word {
	w, ok := x.(*syntax.Word)
	if !ok || a.wholeValue(w) || !a.expandsSecret(w) {
		return nil
	}
	return w
}

// wholeValue reports whether a word is one parameter expansion that is empty exactly when a
// credential (or a default given for it, itself no credential) is: $X, "${X}", ${X:-word},
// ${X:+word}, ${X^^}, and a whole copy of one. An operator that removes, replaces or cuts part of
// the value is not, nor a copy made with one (T=${GITHUB_TOKEN##a*}; [[ -z $T ]]).
func (a *analyzer) wholeValue(w *syntax.Word) bool {
	p := wholeParam(w)
	if p == nil || a.vars != nil && a.vars.cut[p.Param.Value] {
		return false
	}
	return p.Exp == nil || p.Exp.Word == nil || !a.expandsSecret(p.Exp.Word)
}

// wholeParam returns the parameter expansion a word is when its emptiness is its parameter's (or
// a default's): $X, "${X}", ${X:-w}, ${X:+w}, ${X:?}, ${X,,}; nil for any other word.
func wholeParam(w *syntax.Word) *syntax.ParamExp {
	if w == nil || len(w.Parts) != 1 {
		return nil
	}
	part := w.Parts[0]
	if q, ok := part.(*syntax.DblQuoted); ok && len(q.Parts) == 1 {
		part = q.Parts[0]
	}
	p, ok := part.(*syntax.ParamExp)
	// ${!v} is whole too: the value of the variable v names.
	if !ok || p.Param == nil || p.Slice != nil || p.Repl != nil || p.Index != nil || p.Names != 0 {
		return nil
	}
	if p.Exp == nil {
		return p
	}
	switch p.Exp.Op {
	case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll,
		syntax.AlternateUnset, syntax.AlternateUnsetOrNull, syntax.DefaultUnset, syntax.DefaultUnsetOrNull,
		syntax.ErrorUnset, syntax.ErrorUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return p
	}
	return nil
}

// expandsSecret reports whether a word expands a credential variable's value, a copy of one, or
// one inside another expansion's operator (${X:-$NPM_TOKEN}).
func (a *analyzer) expandsSecret(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	r := a.render(w)
	return namesCredentialValue(r.s) || a.vars.refsSecret([]word{r}) || a.vars != nil && a.vars.hidesSecret(w)
}

// xtraceSecret asks when the line turns on bash's xtrace and expands a credential variable: with
// set -x (set -ex, set -vx, set -o xtrace) bash prints every command it runs with its words
// expanded, assignments too, so set -ex; T=$NPM_TOKEN prints the token as echo "$NPM_TOKEN" does.
func (a *analyzer) xtraceSecret(src string) {
	for i := range a.out.segments {
		s := &a.out.segments[i]
		if !turnsOnXtrace(s) {
			continue
		}
		if credentialVar.MatchString(src) {
			a.find(false, RulePrefixDamageControl+"print-environment-secret",
				"command %q turns on xtrace, which prints every later command with its words expanded, and the line expands a variable named like a credential: bash prints its value; it needs human approval", truncate(s.text, 80))
		}
		return
	}
}

// turnsOnXtrace reports whether a segment is set or shopt turning xtrace on.
func turnsOnXtrace(s *segment) bool {
	switch s.name {
	case subSet:
		return enablesXtrace(s.words[1:])
	case cmdShopt:
		return shoptXtrace(s.words[1:])
	}
	return false
}

const cmdShopt = "shopt"

// enablesXtrace reports whether set's words turn xtrace on: -x alone or in a bundle (-ex), or
// -o xtrace, -o ending a bundle too (set -eo xtrace: bash's set reads the next word as -o's).
func enablesXtrace(words []word) bool {
	for i, w := range words {
		if w.s == "--" || w.s == "-" {
			return false // what follows is the positional parameters
		}
		if !shortBundle(w.s) {
			continue
		}
		switch {
		case strings.HasSuffix(w.s, "o") && i+1 < len(words) && words[i+1].s == "xtrace":
			return true
		case strings.IndexByte(w.s, 'x') > 0:
			return true
		}
	}
	return false
}

// shoptXtrace reports whether shopt's words turn xtrace on: shopt -s -o xtrace (or -so, -os) sets
// set's options by name, as set -o does.
func shoptXtrace(words []word) bool {
	var setting, setOpts, named bool
	for _, w := range words {
		switch {
		case shortBundle(w.s):
			setting = setting || strings.IndexByte(w.s, 's') > 0
			setOpts = setOpts || strings.IndexByte(w.s, 'o') > 0
		case w.s == "xtrace":
			named = true
		}
	}
	return setting && setOpts && named
}

// shortBundle reports whether a word is a bundle of one-letter options: -x, -eo; not --x.
func shortBundle(s string) bool { return len(s) > 1 && s[0] == '-' && s[1] != '-' }
