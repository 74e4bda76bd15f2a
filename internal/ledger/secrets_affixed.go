package ledger

import (
	"math/bits"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
)

// The credential rules' expressions begin with a credential's name with any affixes
// (DB_PASSWORD, client.secret, x-api-key): as an assignment's name after a word boundary, or
// as an option's after a space, a quote or a parenthesis (or at the start) and one or two
// dashes (--db-password, -token). What follows the name (the rule's tail) begins with a byte
// that is not a name byte.
const (
	nameRun     = `[a-z0-9_.-]*` + credentialNames + `[a-z0-9_.-]*`
	affixedName = `(?i)\b` + nameRun
	optionName  = `(?i)(?:^|[\s"'(])--?` + nameRun
)

// A URL's query parameter (?token=X&page=2, &password=Y) is an assignment whose value ends at
// &: the assignment rule's expression tries it first, at the ? or & before the name, and takes
// the plain assignment where no = follows the name (password: x, an encoded password%3Dx). The
// value is a quoted string (as the plain assignment's) or runs to the first & or the word's end
// (it may be empty: ?token=&page=2 hides nothing), so no parameter is read more than once. A #
// does not end it: libpq and JDBC read postgresql://h/db?password=a#b's password as a#b, and a
// form body's (curl -d 'user=bob&password=a#b') holds one as any other byte, so a URL's fragment
// after a credential (?token=x#top) is hidden with it.
const (
	queryTail          = `[ \t]*=[ \t]*(?:` + quotedValue + `|([^\s"'&]*))`
	queryTailGroups    = 2
	queryParameterByte = "?&"
)

var queryOrAssignment = `(?i)(?:[?&]` + nameRun + queryTail + `|\b` + nameRun + assignmentTail + `)`

// affixedRule finds an affixedName or optionName rule's matches in ASCII text without running
// its expression over the text: Go's regexp tries every name at every byte, a few hundred
// nanoseconds a byte, and on 64 KiB of credential words the three rules took 5 to 30 ms each,
// the most of any record's redaction. locate returns exactly what the expression's
// FindAllStringSubmatchIndex does (FuzzAffixedRulesMatchTheirExpression), for this reason:
//
// A match's name lies in a run of name bytes ([A-Za-z0-9_.-]), and as the tail begins with a
// byte that is no name byte, the name's suffix runs to the end of the run. An assignment's
// match begins at a word boundary in the run, before the name: from the run's first boundary
// every name of the run is reachable, from a later one only fewer, so the run holds a match iff
// it holds a name after its first boundary and the tail matches at the run's end, and the match
// begins at that boundary (the leftmost start, as the unanchored search takes it). An option's
// run begins with a dash (the dashes before the name are name bytes) right after a space, a
// quote or a parenthesis, where its match begins, or at the start of the text. The names are
// found with an automaton (keywordSet), the tail with its own small expression.
type affixedRule struct {
	option bool
	query  *regexp.Regexp    // queryOrAssignment's first alternative's tail, anchored; nil for the others
	names  *keywordSet       // every spelling of credentialNames; bit i: a name of length short[i] ends here
	short  []int             // the names' lengths, shortest first
	tails  []tailAlternative // the rule's tail, anchored at its start: its alternatives, in order
}

// tailAlternative is one alternative of a rule's tail, anchored at its start, and how many
// capture groups the alternatives before it hold. ^(?:A|B) matches as A where A matches, else as
// B (leftmost-first), so running them in order finds the tail's match; alone each is small
// enough for regexp's backtracker, which the whole is not on a long text.
type tailAlternative struct {
	re     *regexp.Regexp
	prefix string // what every match of re begins with, if anything: a cheaper look first
	before int
}

// affixedRules are the rules whose expression begins with affixedName or optionName, by
// expression.
var affixedRules = func() map[*regexp.Regexp]affixedRule {
	names := finiteLanguage(`(?i)` + credentialNames)
	// One bit per name length, so that a hit tells where the shortest name ending there begins.
	var lengths []int
	for _, n := range names {
		if !slices.Contains(lengths, len(n)) {
			lengths = append(lengths, len(n))
		}
	}
	slices.Sort(lengths)
	nameBits := make([]uint64, len(names))
	for i, n := range names {
		nameBits[i] = 1 << slices.Index(lengths, len(n))
	}
	set := newKeywordSet(names, nameBits)
	rules := map[*regexp.Regexp]affixedRule{}
	for _, r := range secretRules {
		if r.re == nil {
			continue
		}
		expr, query := r.re.String(), false
		if expr == queryOrAssignment {
			expr, query = affixedName+assignmentTail, true
		}
		for _, name := range []string{affixedName, optionName} {
			if tail, ok := strings.CutPrefix(expr, name); ok {
				alternatives := []string{tail}
				if tail == assignmentTail {
					alternatives = assignmentTails
				}
				a := affixedRule{option: name == optionName, names: set, short: lengths}
				groups := 0
				if query {
					a.query = regexp.MustCompile(`(?i)^(?:` + queryTail + `)`)
					groups = queryTailGroups
				}
				for _, alt := range alternatives {
					re := regexp.MustCompile(`(?i)^(?:` + alt + `)`)
					prefix, _ := regexp.MustCompile(`(?i)` + alt).LiteralPrefix() // ^ hides it from re's
					a.tails = append(a.tails, tailAlternative{re: re, prefix: prefix, before: groups})
					groups += re.NumSubexp()
				}
				rules[r.re] = a
			}
		}
	}
	return rules
}()

// locate is the rule's FindAllStringSubmatchIndex(s, -1), for ASCII s.
func (a affixedRule) locate(s string) [][]int {
	var locs [][]int
	var row uint32
	lastEnd := 0  // where the last match ended: the next begins at or after it
	runStart := 0 // the first byte of the run of name bytes that holds s[i], if s[i] is one
	// The first word boundary at or after from, searched for up to scanned; -1 if none yet.
	from, scanned, boundary := -1, 0, -1
	runEnd, failed := -1, -1 // the end of the run of s[i], once found; a run end whose tail did not match
	queryFailed := -1        // a run end whose query parameter's tail did not match
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) {
			runStart, runEnd = i+1, -1
		}
		var seen uint64
		if row, seen = a.names.step(row, s[i], 0); seen == 0 {
			continue
		}
		nameStart := i + 1 - a.short[bits.TrailingZeros64(seen)] // of the shortest name ending at i
		if nameStart < lastEnd {
			continue
		}
		if a.query != nil && runStart > lastEnd && strings.IndexByte(queryParameterByte, s[runStart-1]) >= 0 {
			// A query parameter's match begins at the ? or & before the run, ahead of any
			// other, and holds the run whole: its tail is tried at the run's end, once.
			var loc []int
			if loc, runEnd, queryFailed = a.matchQuery(s, runStart-1, runEnd, i, queryFailed); loc != nil {
				locs = append(locs, loc)
				lastEnd = loc[1]
				continue
			}
		}
		var begin int
		if a.option {
			begin = optionStart(s, runStart, lastEnd)
		} else {
			if start := max(runStart, lastEnd); start != from {
				from, scanned, boundary = start, start, -1
			}
			for ; boundary < 0 && scanned <= nameStart; scanned++ {
				if isWordByte(s[scanned]) != (scanned > 0 && isWordByte(s[scanned-1])) {
					boundary = scanned
				}
			}
			begin = boundary
		}
		if begin < 0 {
			continue
		}
		if runEnd < 0 {
			runEnd = nameRunEnd(s, i+1)
		}
		if runEnd == failed {
			continue
		}
		loc := a.matchTail(s, runEnd, begin)
		if loc == nil {
			failed = runEnd
			continue
		}
		locs = append(locs, loc)
		lastEnd = loc[1] // matches do not overlap, and none is empty
	}
	return locs
}

// nameRunEnd is the end of the run of name bytes that holds s[i-1].
func nameRunEnd(s string, i int) int {
	for i < len(s) && isNameByte(s[i]) {
		i++
	}
	return i
}

// matchQuery is the submatch indexes of the query parameter's match that begins at param (its
// ? or &), its run of name bytes holding s[i] and ending at runEnd (-1: not found yet), or nil
// when the tail does not match at the run's end or did not before (failed); with the run's end
// and the run end whose tail did not match, for the next call.
func (a affixedRule) matchQuery(s string, param, runEnd, i, failed int) (loc []int, end, newFailed int) {
	if runEnd < 0 {
		runEnd = nameRunEnd(s, i+1)
	}
	if runEnd == failed {
		return nil, runEnd, failed
	}
	m := a.query.FindStringSubmatchIndex(s[runEnd:])
	if m == nil {
		return nil, runEnd, runEnd
	}
	groups := 0
	for _, t := range a.tails {
		groups += t.re.NumSubexp()
	}
	loc = make([]int, 0, len(m)+2*groups)
	loc = append(loc, param, runEnd+m[1])
	return appendSubmatches(loc, m, runEnd), runEnd, failed
}

// matchTail is the submatch indexes of the rule's match that begins at begin, its tail at
// s[runEnd:], or nil when the tail does not match there.
func (a affixedRule) matchTail(s string, runEnd, begin int) []int {
	for k, t := range a.tails {
		if !strings.HasPrefix(s[runEnd:], t.prefix) {
			continue
		}
		m := t.re.FindStringSubmatchIndex(s[runEnd:])
		if m == nil {
			continue
		}
		groups := t.before + t.re.NumSubexp()
		for _, u := range a.tails[k+1:] {
			groups += u.re.NumSubexp()
		}
		loc := make([]int, 2, 2+2*groups)
		loc[0], loc[1] = begin, runEnd+m[1]
		for range t.before {
			loc = append(loc, -1, -1)
		}
		return appendSubmatches(loc, m, runEnd)
	}
	return nil
}

// appendSubmatches appends to loc the submatch indexes of m, a match of s[off:], as indexes of s
// (-1 for a group that did not take part), then fills loc to its capacity with -1: the groups of
// the expression's other parts.
func appendSubmatches(loc, m []int, off int) []int {
	for _, x := range m[2:] {
		if x >= 0 {
			x += off
		}
		loc = append(loc, x)
	}
	for len(loc) < cap(loc) {
		loc = append(loc, -1)
	}
	return loc
}

// optionStart is where an option's match begins whose run of name bytes begins at runStart,
// for a match at or after lastEnd; -1 if there is none.
func optionStart(s string, runStart, lastEnd int) int {
	switch {
	case s[runStart] != '-':
		return -1
	case runStart == 0 && lastEnd == 0: // ^
		return 0
	case runStart == 0 || runStart-1 < lastEnd:
		return -1
	}
	switch s[runStart-1] {
	case ' ', '\t', '\n', '\f', '\r', '"', '\'', '(':
		return runStart - 1
	}
	return -1
}

// isNameByte is [A-Za-z0-9_.-]: what a credential's name and its affixes are made of.
func isNameByte(c byte) bool { return isWordByte(c) || c == '.' || c == '-' }

// finiteLanguage is every string expr matches, in lower-case ASCII (expr's case-folded
// spellings outside ASCII left out: affixedRule reads ASCII text only), for an expression with
// no repetition but ?: literals, classes, concatenation and alternation.
func finiteLanguage(expr string) []string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		panic(err)
	}
	var lang func(re *syntax.Regexp) []string
	lang = func(re *syntax.Regexp) []string {
		switch re.Op {
		case syntax.OpEmptyMatch:
			return []string{""}
		case syntax.OpLiteral:
			return []string{strings.ToLower(string(re.Rune))}
		case syntax.OpCharClass:
			var out []string
			for i := 0; i < len(re.Rune); i += 2 {
				for r := re.Rune[i]; r <= re.Rune[i+1] && r < 0x80; r++ {
					if c := strings.ToLower(string(r)); !slices.Contains(out, c) {
						out = append(out, c)
					}
				}
			}
			return out
		case syntax.OpCapture:
			return lang(re.Sub[0])
		case syntax.OpQuest:
			return append([]string{""}, lang(re.Sub[0])...)
		case syntax.OpAlternate:
			var out []string
			for _, sub := range re.Sub {
				out = append(out, lang(sub)...)
			}
			return out
		case syntax.OpConcat:
			out := []string{""}
			for _, sub := range re.Sub {
				var next []string
				for _, prefix := range out {
					for _, w := range lang(sub) {
						next = append(next, prefix+w)
					}
				}
				out = next
			}
			return out
		}
		panic("ledger: not a finite language: " + expr)
	}
	words := lang(re)
	slices.Sort(words)
	return slices.Compact(words)
}
