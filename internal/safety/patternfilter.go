package safety

import (
	"regexp/syntax"
	"slices"
	"strings"
)

// Pattern rules' regular expressions run in Go's regexp, which reads a long text with an NFA at
// up to a few hundred nanoseconds a byte for the pack's largest patterns (cloud-resource-delete:
// a 16 KiB aws command took 3.4 ms per pass). Two things keep that bounded:
//   - a literal filter: each pattern's literals that every match must contain, as an and/or tree,
//     checked with a plain substring search first (about a nanosecond a byte): a text that lacks
//     them cannot match, and the pattern is not run on it;
//   - a byte budget (maxPatternBytes): the texts the patterns do run on count towards it, and past
//     it the command is denied command-too-complex, as past the analysis's work budget: the bound
//     is on what the engine reads, not on time, so no decision depends on the machine's load.

// maxPatternBytes bounds the bytes of text pattern rules' regular expressions read for one call,
// after the literal filter. Go's regexp reads with an NFA (with the backtracker only for patterns
// of at most 500 instructions and short texts), at 25 to 400 ns a byte for the pack's patterns
// on this project's 2-core machine; 12 KiB of the slowest is about 2.5 ms on an idle one. Every
// ordinary command fits many times over: the filter skips the texts that cannot match.
const maxPatternBytes = 12 << 10

// minFilterLiteral is the shortest literal the filter searches for. One byte is enough: it is found
// at once in most texts, costing little, and where a pattern needs it beside a word (the "$" of
// \$\{?[a-z0-9_]*(token|secret|...)) it keeps prose that names the word (a commit message about
// tokens) from being charged to the budget.
const minFilterLiteral = 1

// literalFilter is a condition every text a pattern matches satisfies: a literal it contains (in
// any ASCII case), all of the subtrees (and), or one of them (or). A nil filter holds for every
// text.
type literalFilter struct {
	lit  string // lower-case ASCII; set for a leaf
	and  bool
	subs []*literalFilter
}

// compileLiteralFilter returns the filter of a pattern compiled as compileRuleRegexp compiles it;
// nil when the pattern requires no literal the filter can use.
func compileLiteralFilter(expr string) *literalFilter {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	return literalsOf(re.Simplify()).filter()
}

// maxExactStrings bounds a set of exact strings before it is turned into a filter.
const maxExactStrings = 16

// literals is what the filter knows of a subexpression: either the exact strings it matches (the
// parser factors "delete|drain" into d(elete|rain), so the strings are rebuilt by crossing a
// concatenation's parts) or, when they are too many or unknown, a filter every match satisfies.
type literals struct {
	exact   []string // lower-cased; "" when the node can match the empty string
	isExact bool
	match   *literalFilter // when !isExact; nil holds for every text
}

// literalsOf reads re. It only ever weakens: a node it does not understand requires nothing.
func literalsOf(re *syntax.Regexp) literals {
	switch re.Op {
	case syntax.OpLiteral:
		s := string(re.Rune)
		if !isASCII(s) {
			return literals{}
		}
		return exactly(strings.ToLower(s))
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return exactly("")
	case syntax.OpCharClass:
		return classLiterals(re)
	case syntax.OpCapture:
		return literalsOf(re.Sub[0])
	case syntax.OpPlus:
		return literals{match: literalsOf(re.Sub[0]).filter()}
	case syntax.OpQuest:
		if sub := literalsOf(re.Sub[0]); sub.isExact {
			return exactly(append([]string{""}, sub.exact...)...)
		}
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return literals{match: literalsOf(re.Sub[0]).filter()}
		}
	case syntax.OpConcat:
		return concatLiterals(re.Sub)
	case syntax.OpAlternate:
		return alternateLiterals(re.Sub)
	}
	return literals{}
}

func exactly(s ...string) literals { return literals{exact: s, isExact: true} }

// classLiterals is a character class of a few ASCII characters ([bm], or a letter under (?i)) as
// the strings of one character it matches.
func classLiterals(re *syntax.Regexp) literals {
	var out []string
	for i := 0; i+1 < len(re.Rune); i += 2 {
		lo, hi := re.Rune[i], re.Rune[i+1]
		if hi >= 0x80 || int(hi-lo)+1+len(out) > maxExactStrings {
			return literals{}
		}
		for r := lo; r <= hi; r++ {
			if c := strings.ToLower(string(r)); !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return exactly(out...)
}

// concatLiterals crosses the exact strings of consecutive parts while the product stays small,
// and requires each run of them (and every inexact part's filter) in turn.
func concatLiterals(subs []*syntax.Regexp) literals {
	var (
		all []*literalFilter
		run = []string{""}
	)
	exact := true
	for _, sub := range subs {
		l := literalsOf(sub)
		if l.isExact && len(run)*len(l.exact) <= maxExactStrings {
			run = cross(run, l.exact)
			continue
		}
		exact = false
		all = append(all, exactly(run...).filter())
		if l.isExact {
			run = l.exact
			continue
		}
		all, run = append(all, l.match), []string{""}
	}
	if exact {
		return exactly(run...)
	}
	all = append(all, exactly(run...).filter())
	return literals{match: joinFilters(true, all)}
}

func cross(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			if s := x + y; !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// alternateLiterals unites exact branches, and otherwise requires one branch's filter.
func alternateLiterals(subs []*syntax.Regexp) literals {
	var exact []string
	filters := make([]*literalFilter, 0, len(subs))
	allExact := true
	for _, sub := range subs {
		l := literalsOf(sub)
		if l.isExact {
			for _, s := range l.exact {
				if !slices.Contains(exact, s) {
					exact = append(exact, s)
				}
			}
		} else {
			allExact = false
		}
		filters = append(filters, l.filter())
	}
	if allExact && len(exact) <= maxExactStrings {
		return exactly(exact...)
	}
	for _, f := range filters {
		if f == nil {
			return literals{} // one branch requires nothing, so the alternation does not either
		}
	}
	return literals{match: joinFilters(false, filters)}
}

// filter is what a text must contain for the node to match in it: one of its exact strings (none
// when one is shorter than minFilterLiteral: it is in nearly every text), or its filter.
func (l literals) filter() *literalFilter {
	if !l.isExact {
		return l.match
	}
	subs := make([]*literalFilter, 0, len(l.exact))
	for _, s := range l.exact {
		if len(s) < minFilterLiteral {
			return nil
		}
		// A string that holds another of the set adds nothing to the search (" delete " and
		// " delete").
		if !slices.ContainsFunc(l.exact, func(t string) bool { return t != s && strings.Contains(s, t) }) {
			subs = append(subs, &literalFilter{lit: s})
		}
	}
	return joinFilters(false, subs)
}

func joinFilters(and bool, subs []*literalFilter) *literalFilter {
	kept := subs[:0:0]
	for _, f := range subs {
		if f != nil {
			kept = append(kept, f)
		} else if !and {
			return nil
		}
	}
	switch len(kept) {
	case 0:
		return nil
	case 1:
		return kept[0]
	}
	return &literalFilter{and: and, subs: kept}
}

// admits reports whether text may match the filter's pattern. Go's case folding makes two
// non-ASCII runes match ASCII letters (asciiFoldRunes: the Kelvin sign matches (?i)k, the long s
// (?i)s), so a text holding one is admitted whole. Any other non-ASCII text is searched as an
// ASCII one: no byte of a UTF-8 sequence is an ASCII byte, so it holds a literal only where the
// literal is spelt. Admitting every non-ASCII text whole charged a commit message of 2 KiB with
// an em dash or an accent to every pattern of git's rules, past the budget.
func (f *literalFilter) admits(text string) bool {
	if f == nil || !isASCII(text) && strings.ContainsAny(text, asciiFoldRunes) {
		return true
	}
	return f.holds(text)
}

// asciiFoldRunes are the runes outside ASCII that unicode.SimpleFold folds to an ASCII letter:
// U+212A (K, Kelvin) to k and U+017F (long s) to s.
const asciiFoldRunes = "\u212a\u017f"

func (f *literalFilter) holds(text string) bool {
	switch {
	case f.lit != "":
		return containsFoldASCII(text, f.lit)
	case f.and:
		for _, s := range f.subs {
			if !s.holds(text) {
				return false
			}
		}
		return true
	}
	for _, s := range f.subs {
		if s.holds(text) {
			return true
		}
	}
	return false
}

// containsFoldASCII reports whether text contains lit (lower-case ASCII) in any ASCII case,
// without copying text: it steps from one occurrence of lit's first byte, in either case, to the
// next.
func containsFoldASCII(text, lit string) bool {
	last := len(text) - len(lit)
	if last < 0 {
		return false
	}
	lower := lit[0]
	upper := lower
	if 'a' <= lower && lower <= 'z' {
		upper -= 'a' - 'A'
	}
	nextLower, nextUpper := -1, -1 // positions of the next candidates at or after i; -1: not looked for yet
	for i := 0; i <= last; {
		if nextLower < i {
			if nextLower = indexByteFrom(text[:last+1], lower, i); nextLower < 0 {
				nextLower = len(text)
			}
		}
		if nextUpper < i {
			if nextUpper = indexByteFrom(text[:last+1], upper, i); nextUpper < 0 {
				nextUpper = len(text)
			}
		}
		i = min(nextLower, nextUpper)
		if i > last {
			return false
		}
		if equalFoldASCII(text[i:i+len(lit)], lit) {
			return true
		}
		i++
	}
	return false
}

func indexByteFrom(s string, c byte, from int) int {
	if k := strings.IndexByte(s[from:], c); k >= 0 {
		return from + k
	}
	return -1
}

// equalFoldASCII reports whether s equals lit (lower-case ASCII) but for ASCII case.
func equalFoldASCII(s, lit string) bool {
	for i := 0; i < len(lit); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lit[i] {
			return false
		}
	}
	return true
}
