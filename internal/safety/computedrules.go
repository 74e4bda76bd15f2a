package safety

import (
	"fmt"
	"regexp/syntax"
	"slices"
	"strings"
)

// A project's pattern rule reads the words a command spells; a word computed at run time is only
// a placeholder to it. "^helm .*--kube-context prod" cannot match helm list --kube-context "$C",
// nor "^git push prod( |$)" git push "$R" (whose computed operand the rule pack denies anyway, as a
// possible --force), though the value may be prod. The engine does not admit what it cannot see:
// such a command asks when one of the rule's own words (or literals) put where the computed word
// stands would make the rule match (unresolved-word).

// maxSubstitutes bounds the words of a pattern tried in place of a computed word,
// maxComputedWords the computed words of a segment each is tried in, and maxSubstitutions the
// texts tried for a call: past it (hundreds of computed words under project rules) the engine
// cannot rule a match out, and asks.
const (
	maxSubstitutes   = 16
	maxComputedWords = 4
	maxSubstitutions = 256
)

// patternSubstitutes returns the words a pattern spells, in their case: each literal whole (an
// unquoted $ARGS may become several words) and its blank-separated words.
func patternSubstitutes(expr string) []string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	var out []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" && !slices.Contains(out, s) && len(out) < maxSubstitutes {
			out = append(out, s)
		}
	}
	var walk func(*syntax.Regexp)
	walk = func(r *syntax.Regexp) {
		if r.Op == syntax.OpLiteral {
			lit := string(r.Rune)
			add(lit)
			for w := range strings.FieldsSeq(lit) {
				add(w)
			}
		}
		for _, sub := range r.Sub {
			walk(sub)
		}
	}
	walk(re.Simplify())
	return out
}

// patternPrograms returns the programs an anchored pattern names first ("^helm ...",
// "^(kubectl|helm) ..."): a segment of another program cannot match whatever its computed words
// hold, and is not tried. nil when the pattern does not say.
func patternPrograms(expr string) []string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	re = re.Simplify()
	if re.Op != syntax.OpConcat || len(re.Sub) < 2 || re.Sub[0].Op != syntax.OpBeginText && re.Sub[0].Op != syntax.OpBeginLine {
		return nil
	}
	first := re.Sub[1]
	for first.Op == syntax.OpCapture {
		first = first.Sub[0]
	}
	alts := []*syntax.Regexp{first}
	if first.Op == syntax.OpAlternate {
		alts = first.Sub
	}
	var out []string
	for _, a := range alts {
		for a.Op == syntax.OpCapture {
			a = a.Sub[0]
		}
		if a.Op != syntax.OpLiteral {
			return nil
		}
		name, _, _ := strings.Cut(string(a.Rune), " ")
		if name == "" {
			return nil
		}
		out = append(out, strings.ToLower(name))
	}
	// The program's name must be the whole first literal, or the rest of the pattern continues it.
	if len(re.Sub) > 2 && first.Op != syntax.OpLiteral && !startsWithSpace(re.Sub[2]) {
		return nil
	}
	if first.Op == syntax.OpLiteral && !strings.Contains(string(first.Rune), " ") && (len(re.Sub) == 2 || !startsWithSpace(re.Sub[2])) {
		return nil
	}
	return out
}

// startsWithSpace says whether a pattern node is a literal that starts with a space.
func startsWithSpace(re *syntax.Regexp) bool {
	return re.Op == syntax.OpLiteral && len(re.Rune) > 0 && re.Rune[0] == ' '
}

// computedRuleMatch returns the first project pattern rule that a computed word of a segment
// could make match, with the segment, or nil. The rules that matched as written have decided
// already (matchRules).
func (p *Policy) computedRuleMatch(an *analysis) (*compiledRule, *segment) {
	if an == nil || !p.projectPatterns {
		return nil, nil
	}
	tries := 0
	for si := range an.segments {
		s := &an.segments[si]
		computed := computedWords(s)
		if len(computed) == 0 || s.name == "" {
			continue
		}
		for _, r := range p.rules {
			if !r.project || r.pattern == nil || !r.matchesName(s.name) ||
				r.programs != nil && !slices.Contains(r.programs, s.name) {
				continue
			}
			if r.couldMatch(an, s, computed, &tries) {
				return r, s
			}
		}
	}
	return nil, nil
}

// computedWords returns a segment's distinct words computed at run time (their placeholders:
// "$C", "x$B", "$(:)"), at most maxComputedWords.
func computedWords(s *segment) []word {
	var out []word
	for _, w := range s.words[1:] {
		if w.dynamic && strings.ContainsAny(w.s, "$`") && !strings.Contains(w.s, " ") && len(out) < maxComputedWords &&
			!slices.ContainsFunc(out, func(o word) bool { return o.s == w.s }) {
			out = append(out, w)
		}
	}
	return out
}

// couldMatch reports whether the rule matches the segment with one of its computed words spelt as
// one of the pattern's words, in each of the texts patterns see; tries counts the texts tried. A word computed only in part
// keeps its literal start (image.tag=$TAG is never --kube-context; --context=$C may be
// --context=prod), and only an unquoted expansion, which bash splits, may become several words
// (helm list $ARGS may be helm list --kube-context prod; --filter "$F" is one word). Past the
// pattern budget it cannot rule a match out.
func (r *compiledRule) couldMatch(an *analysis, s *segment, computed []word, tries *int) bool {
	for _, c := range computed {
		prefix := c.s[:strings.IndexAny(c.s, "$`")]
		for _, sub := range r.substitutes {
			if strings.Contains(sub, " ") && (prefix != "" || !c.split) {
				continue
			}
			if *tries++; *tries > maxSubstitutions {
				return true
			}
			v := prefix + sub
			t := *s
			t.text, t.alt, t.opsFirst = replaceWord(s.text, c.s, v), replaceWord(s.alt, c.s, v), replaceWord(s.opsFirst, c.s, v)
			if r.matchesPattern(an, &t) || an.patternBytes > maxPatternBytes {
				return true
			}
		}
	}
	return false
}

// replaceWord returns a pattern text (words one space apart) with every word that is w spelt as
// sub; "" stays "".
func replaceWord(text, w, sub string) string {
	if text == "" || !strings.Contains(text, w) {
		return text
	}
	words := strings.Split(text, " ")
	for i := 1; i < len(words); i++ {
		if words[i] == w {
			words[i] = sub
		}
	}
	return strings.Join(words, " ")
}

// computedRuleFailure asks for a person when a computed word could make a project rule match.
func (p *Policy) computedRuleFailure(an *analysis) *failure {
	r, s := p.computedRuleMatch(an)
	if r == nil {
		return nil
	}
	return &failure{kind: kindHumanApprovalRequired, ask: true, rule: RuleUnresolvedWord,
		msg: fmt.Sprintf("command %q has a word computed at run time that could make project rule %q match (%s): the engine cannot rule it out, so it needs human approval", s.text, r.ID, r.Reason)}
}
