package ledger

import "regexp"

// anchoredRule lets a rule whose every match begins at one of a few words try its expression only
// there, instead of at every byte: Go's regexp has no literal-prefix shortcut for a
// case-insensitive alternation, so on a long command line the authorization rule cost a third of
// encoding a decision. locate returns exactly what re.FindAllStringSubmatchIndex does
// (FuzzAnchoredRulesMatchTheirExpression).
type anchoredRule struct {
	starts []string       // lower-case ASCII words; every match of the rule begins with one, after \b
	re     *regexp.Regexp // the rule's expression without its leading \b, anchored with ^
}

// The authorization rule's id and its keywords, which are also where its matches begin.
const authorizationRule = "authorization"

var authorizationWords = []string{"authorization", "bearer"}

var anchoredRules = map[string]anchoredRule{
	authorizationRule: {authorizationWords,
		regexp.MustCompile(`(?i)^(?:authorization\s*[:=]\s*(?:bearer|basic|token|digest)?\s*|bearer\s+)([A-Za-z0-9._~+/=-]{8,})`)},
}

// locate is r.re.FindAllStringSubmatchIndex(s, -1).
func (r secretRule) locate(s string) [][]int {
	a, ok := anchoredRules[r.id]
	if !ok || !isASCII(s) {
		// (?i) folds a few non-ASCII runes onto ASCII letters (U+212A onto k); only for ASCII
		// text are the start words exactly where matches begin.
		return r.re.FindAllStringSubmatchIndex(s, -1)
	}
	var locs [][]int
	for q := 0; q < len(s); {
		if q > 0 && isWordByte(s[q-1]) || !hasWordAt(s, q, a.starts) {
			q++
			continue
		}
		m := a.re.FindStringSubmatchIndex(s[q:])
		if m == nil {
			q++
			continue
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += q
			}
		}
		locs = append(locs, m)
		q = m[1] // matches do not overlap, and none is empty
	}
	return locs
}

// hasWordAt reports whether one of words (lower case) begins at s[q:], ignoring ASCII case.
func hasWordAt(s string, q int, words []string) bool {
	for _, w := range words {
		if len(s)-q < len(w) {
			continue
		}
		i := 0
		for ; i < len(w); i++ {
			c := s[q+i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != w[i] {
				break
			}
		}
		if i == len(w) {
			return true
		}
	}
	return false
}

// isWordByte is \w in Go's regexp: an ASCII letter, digit or underscore.
func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
