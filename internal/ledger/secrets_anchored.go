package ledger

// anchoredRule lets a rule whose every match begins at one of a few words try a match only
// there, instead of at every byte: Go's regexp has no literal-prefix shortcut for a
// case-insensitive alternation, so on a long command line the authorization rule cost a third of
// encoding a decision, and even anchored its backtracker was a fifth. locate returns exactly what
// re.FindAllStringSubmatchIndex does (FuzzAnchoredRulesMatchTheirExpression).
type anchoredRule struct {
	starts []string // lower-case ASCII words; every match of the rule begins with one, after \b
	// match is the rule's expression without its leading \b, anchored at s[q:], for ASCII s:
	// the submatch indexes of the match starting at q, or nil.
	match func(s string, q int) []int
	first [256]bool // the bytes a start word begins with, in either case
}

func newAnchoredRule(starts []string, match func(s string, q int) []int) anchoredRule {
	a := anchoredRule{starts: starts, match: match}
	for _, w := range starts {
		a.first[w[0]] = true
		if 'a' <= w[0] && w[0] <= 'z' {
			a.first[w[0]-'a'+'A'] = true
		}
	}
	return a
}

// The authorization rule's id and its keywords, which are also where its matches begin.
const authorizationRule = "authorization"

var authorizationWords = []string{"authorization", "bearer"}

var anchoredRules = map[string]anchoredRule{
	authorizationRule: newAnchoredRule(authorizationWords, matchAuthorization),
}

// matchAuthorization is, for ASCII s,
//
//	(?i)^(?:authorization\s*[:=]\s*(?:[a-z][a-z0-9-]*\s+)?|bearer\s+)([A-Za-z0-9._~+/=-]{8,})
//
// (\s standing for headerSpace) on s[q:], written out. The expression has one way to match at each choice: the scheme word,
// \s and the token are greedy, a shorter scheme word is followed by a letter, digit or dash
// rather than a space, and a token never starts with a space, so backtracking only ever drops the
// optional scheme word (preferred when it leaves a token of 8 or more), and the two alternatives
// begin with different words.
func matchAuthorization(s string, q int) []int {
	token := func(p int) []int {
		n := 0
		for p+n < len(s) && isTokenByte(s[p+n]) {
			n++
		}
		if n < 8 {
			return nil
		}
		return []int{q, p + n, p, p + n}
	}
	switch {
	case hasWordAt(s, q, authorizationWords[:1]):
		p := skipSpace(s, q+len("authorization"))
		if p == len(s) || s[p] != ':' && s[p] != '=' {
			return nil
		}
		p = skipSpace(s, p+1)
		if w := schemeWordEnd(s, p); w > p {
			if t := skipSpace(s, w); t > w {
				if m := token(t); m != nil {
					return m
				}
			}
		}
		return token(p)
	case hasWordAt(s, q, authorizationWords[1:]):
		p := skipSpace(s, q+len("bearer"))
		if p == q+len("bearer") {
			return nil // \s+ wants one
		}
		return token(p)
	}
	return nil
}

// schemeWordEnd returns the end of the word [A-Za-z][A-Za-z0-9-]* at s[p:], or p when there is none.
func schemeWordEnd(s string, p int) int {
	if p == len(s) || !isLetter(s[p]) {
		return p
	}
	e := p + 1
	for e < len(s) && (isLetter(s[e]) || '0' <= s[e] && s[e] <= '9' || s[e] == '-') {
		e++
	}
	return e
}

// isLetter is [A-Za-z]: setting bit 5 maps each upper-case letter onto its lower case, and no
// other byte into a-z.
func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// headerSpace is the white space the authorization rule skips: unicode.IsSpace's set (\v,
// U+0085 and the separators \p{Z}, U+00A0 among them), as a server or client that splits a
// header's value with strings.Fields or a similar split reads any of them as a blank; but a
// newline only before a space or a tab, where a header's value goes on (obs-fold): the next line
// of a command is a command of its own, and its program (/usr/bin/rm) is no token.
const headerSpace = `(?:[\t\v\f\r \x{85}\p{Z}]|\n[\t ])`

// skipSpace returns the index of the first byte at or after p that headerSpace does not match,
// for ASCII s.
func skipSpace(s string, p int) int {
	for p < len(s) {
		switch s[p] {
		case ' ', '\t', '\v', '\f', '\r':
		case '\n':
			if p+1 == len(s) || s[p+1] != ' ' && s[p+1] != '\t' {
				return p
			}
		default:
			return p
		}
		p++
	}
	return p
}

// isTokenByte is [A-Za-z0-9._~+/=-].
func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '.' || c == '_' || c == '~' || c == '+' || c == '/' || c == '=' || c == '-'
}

// locate is r.re.FindAllStringSubmatchIndex(s, -1).
func (r secretRule) locate(s string) [][]int {
	if !isASCII(s) {
		// (?i) folds a few non-ASCII runes onto ASCII letters (U+212A onto k); only for ASCII
		// text are the start words and the names exactly where matches begin.
		return r.re.FindAllStringSubmatchIndex(s, -1)
	}
	if a, ok := affixedRules[r.re]; ok {
		return a.locate(s)
	}
	a, ok := anchoredRules[r.id]
	if !ok {
		return r.re.FindAllStringSubmatchIndex(s, -1)
	}
	var locs [][]int
	for q := 0; q < len(s); {
		if !a.first[s[q]] || q > 0 && isWordByte(s[q-1]) || !hasWordAt(s, q, a.starts) {
			q++
			continue
		}
		m := a.match(s, q)
		if m == nil {
			q++
			continue
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
