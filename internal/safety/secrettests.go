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

// secretCase asks when a case statement matches a credential's value against its patterns.
func (a *analyzer) secretCase(c *syntax.CaseClause) {
	if len(c.Items) > 0 && a.expandsSecret(c.Word) {
		a.secretCompared("case", c.Word)
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
		case syntax.TsEmpStr, syntax.TsNempStr, syntax.TsVarSet:
			return nil // -z, -n: whether it is empty; -v: whether the name is set
		case syntax.TsNot:
			return a.testedSecret(x.X)
		}
		if w, ok := x.X.(*syntax.Word); ok && a.expandsSecret(w) {
			return w
		}
	case *syntax.ParenTest:
		return a.testedSecret(x.X)
	}
	return nil // a lone word, [[ $TOKEN ]], is -n
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
		if s.name != subSet || !enablesXtrace(s.words[1:]) {
			continue
		}
		if credentialVar.MatchString(src) {
			a.find(false, RulePrefixDamageControl+"print-environment-secret",
				"command %q turns on xtrace, which prints every later command with its words expanded, and the line expands a variable named like a credential: bash prints its value; it needs human approval", truncate(s.text, 80))
		}
		return
	}
}

// enablesXtrace reports whether set's words turn xtrace on: -x alone or in a bundle (-ex), or
// -o xtrace.
func enablesXtrace(words []word) bool {
	for i, w := range words {
		switch {
		case w.s == "-o" && i+1 < len(words) && words[i+1].s == "xtrace":
			return true
		case len(w.s) > 1 && w.s[0] == '-' && w.s[1] != '-' && strings.IndexByte(w.s, 'x') > 0:
			return true
		}
	}
	return false
}
