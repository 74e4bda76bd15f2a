package safety

import (
	"math/bits"
	"strings"
	"unicode/utf8"
)

// An agent's glob is read by bash, grep's --include (fnmatch) and rg's globset, but matched here
// by doublestar, Go's path.Match and the engine's own globTokens and exampleOf, which read a
// bracket expression differently: a "]" right after "[", "[!" or "[^" is a member to bash
// ("[!]]nv" is every character but "]", then "nv"), where doublestar and path.Match refused the
// pattern or closed the class early, and path.Match takes "!" for a member. An agent spelt .env
// as ".[!]]nv" and was admitted. canonicalGlob rewrites each bracket expression, as bash reads
// it, into the one spelling every matcher here reads alike: the characters it may match, listed
// with each punctuation character escaped, never negated. Brackets of letters, digits and
// same-case ranges ("[id]", "[a-z]", "[0-9]") are left as written.

// charSet is the characters one bracket expression may match: the ASCII ones bit by bit, and
// whether it may match a character beyond ASCII (taken as any of them).
type charSet struct {
	ascii    [2]uint64
	nonASCII bool
}

func (s *charSet) has(c byte) bool { return s.ascii[c>>6]&(1<<(c&63)) != 0 }

// hasFolded says whether the set holds c in either case: names are compared folded.
func (s *charSet) hasFolded(c byte) bool {
	return s.has(c) || asciiBlock(c) == 3 && s.has(c-'a'+'A') || asciiBlock(c) == 2 && s.has(c-'A'+'a')
}

// meets says whether two sets share a character, in either case.
func (s *charSet) meets(o *charSet) bool {
	if s.nonASCII && o.nonASCII {
		return true
	}
	for c := range byte(utf8.RuneSelf) {
		if s.has(c) && o.hasFolded(c) {
			return true
		}
	}
	return false
}

// size is how many ASCII characters the set holds.
func (s *charSet) size() int { return bits.OnesCount64(s.ascii[0]) + bits.OnesCount64(s.ascii[1]) }

func (s *charSet) add(c rune) {
	if c >= utf8.RuneSelf {
		s.nonASCII = true
		return
	}
	s.ascii[c>>6] |= 1 << (c & 63)
}

// addRange adds lo..hi. bash matches nothing by a reversed range ("[z-a]"); it is read as a-z,
// erring toward a match.
func (s *charSet) addRange(lo, hi rune) {
	if lo > hi {
		lo, hi = hi, lo
	}
	for c := lo; c <= hi && c < utf8.RuneSelf; c++ {
		s.add(c)
	}
	if hi >= utf8.RuneSelf {
		s.nonASCII = true
	}
}

// addASCII adds every byte of members, and any character beyond ASCII when wide.
func (s *charSet) addASCII(members string, wide bool) {
	for i := 0; i < len(members); i++ {
		s.add(rune(members[i]))
	}
	s.nonASCII = s.nonASCII || wide
}

// any makes the set every character: what a bracket the engine cannot read exactly may match.
func (s *charSet) any() { s.ascii, s.nonASCII = [2]uint64{^uint64(0), ^uint64(0)}, true }

// POSIX classes' ASCII members, and whether they hold characters beyond ASCII in a UTF-8 locale.
const (
	lowerLetters = "abcdefghijklmnopqrstuvwxyz"
	upperLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	digitChars   = "0123456789"
	punctChars   = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
)

// posixClasses are keyed by the class as written, "[:alpha:]".
var posixClasses = map[string]struct {
	members string
	wide    bool
}{
	// Names are folded to lower case, so upper and lower are both every letter.
	"[:alpha:]": {lowerLetters + upperLetters, true}, "[:upper:]": {lowerLetters + upperLetters, true},
	"[:lower:]": {lowerLetters + upperLetters, true}, "[:alnum:]": {lowerLetters + upperLetters + digitChars, true},
	"[:word:]": {lowerLetters + upperLetters + digitChars + "_", true}, "[:digit:]": {digitChars, false},
	"[:xdigit:]": {digitChars + "abcdefABCDEF", false}, "[:space:]": {" \t\n\v\f\r", true}, "[:blank:]": {" \t", true},
	"[:punct:]": {punctChars, true}, "[:graph:]": {lowerLetters + upperLetters + digitChars + punctChars, true},
	"[:print:]": {" " + lowerLetters + upperLetters + digitChars + punctChars, true}, "[:cntrl:]": {"\x7f", false},
}

// Ways bracketMember reads a member.
const (
	memberExact   = iota // a character
	memberUnknown        // a collating element of a name ("[.hyphen.]"), which the engine does not know
	memberBroken         // a "[." that no ".]" closes: bash then reads the whole bracket's "[" as itself
	memberTooLong        // a "[." whose name is longer than maxElementName
)

// maxElementName bounds the name of a class, an equivalence class or a collating element
// ("[:alpha:]", "[.hyphen.]") the engine looks for the end of, so that reading a glob stays
// linear in its length; a longer one makes the bracket unread (bracketUnread).
const maxElementName = 64

// elementTooLong is elementEnd's answer for a name longer than maxElementName.
const elementTooLong = -2

// elementEnd returns the length of the name of the element opening at g[j] ("[:", "[=", "[.")
// up to its closer (":]", "=]", ".]"), -1 when a "/" or the end of g comes first, or
// elementTooLong.
func elementEnd(g string, j int, closer string) int {
	rest := g[j+2:]
	if len(rest) > maxElementName+len(closer) {
		rest = rest[:maxElementName+len(closer)]
	}
	end := strings.Index(rest, closer)
	slash := strings.IndexByte(rest, '/')
	switch {
	case end >= 0 && (slash < 0 || slash > end):
		return end
	case slash >= 0 || len(rest) == len(g)-j-2:
		return -1
	}
	return elementTooLong
}

// How readBracket reads a bracket.
const (
	bracketClosed  = iota // a bracket expression
	bracketLiteral        // nothing closes it, or it spans a "/": bash reads the "[" as itself
	bracketUnread         // a class or element name too long to look for the end of
)

// bracketMember reads one member of a bracket expression at g[j] and returns it and the index
// after it: a character, a backslash-escaped one, or a collating element "[.c.]" of one character.
func bracketMember(g string, j int) (r rune, next, how int) {
	if g[j] == '\\' && j+1 < len(g) {
		j++
	} else if strings.HasPrefix(g[j:], "[.") {
		end := elementEnd(g, j, ".]")
		switch {
		case end == elementTooLong:
			return 0, 0, memberTooLong
		case end < 0:
			return 0, 0, memberBroken
		}
		name := g[j+2 : j+2+end]
		r, n := utf8.DecodeRuneInString(name)
		if n == 0 || n != len(name) {
			return r, j + 4 + end, memberUnknown
		}
		return r, j + 4 + end, memberExact
	}
	r, n := utf8.DecodeRuneInString(g[j:])
	return r, j + n, memberExact
}

// readBracket reads the bracket expression that opens at g[i] ("[") as bash does, and returns
// the characters it may match and the index after its closing "]". ok is false when nothing
// closes it, or it spans a "/" (a bracket never matches a slash): bash then reads the "[" as
// itself.
func readBracket(g string, i int) (set charSet, end, how int) {
	j := i + 1
	negate := j < len(g) && (g[j] == '!' || g[j] == '^')
	if negate {
		j++
	}
	for first := true; j < len(g); first = false {
		switch {
		case g[j] == '/':
			return charSet{}, j, bracketLiteral
		case g[j] == ']' && !first:
			if negate {
				set.ascii = [2]uint64{^set.ascii[0], ^set.ascii[1]}
				set.nonASCII = true
			}
			return set, j + 1, bracketClosed
		case strings.HasPrefix(g[j:], "[:") || strings.HasPrefix(g[j:], "[="):
			next, read := readClass(g, j, &set)
			if read == bracketUnread {
				return charSet{}, j, bracketUnread
			}
			if read == bracketClosed {
				j = next
				continue
			}
		}
		next, how := readMembers(g, j, &set)
		if how != bracketClosed {
			return charSet{}, j, how
		}
		j = next
	}
	return charSet{}, j, bracketLiteral
}

// readMembers reads one member of a bracket at g[j], or a range of two, into set and returns the
// index after it; how is bracketClosed when it was read, else what the bracket is then.
func readMembers(g string, j int, set *charSet) (next, how int) {
	lo, next, member := bracketMember(g, j)
	hi := lo
	if member == memberExact && next+1 < len(g) && g[next] == '-' && g[next+1] != ']' {
		hi, next, member = bracketMember(g, next+1)
	}
	switch member {
	case memberBroken:
		return j, bracketLiteral
	case memberTooLong:
		return j, bracketUnread
	case memberUnknown:
		set.any()
	default:
		set.addRange(lo, hi)
	}
	return next, bracketClosed
}

// readClass reads a POSIX class "[:name:]" or an equivalence class "[=c=]" at g[j] into set and
// returns the index after it; read is false when it is not closed, and its "[" is a member.
// An unknown class, or an equivalence class of a name, is every character; "[=e=]" is e and
// whatever beyond ASCII the locale puts beside it.
func readClass(g string, j int, set *charSet) (next, how int) {
	kind := g[j+1]
	end := elementEnd(g, j, string(kind)+"]")
	switch end {
	case elementTooLong:
		return 0, bracketUnread
	case -1:
		return 0, bracketLiteral
	}
	name := g[j+2 : j+2+end]
	if kind == '=' {
		r, n := utf8.DecodeRuneInString(name)
		if n == 0 || n != len(name) {
			set.any()
		} else {
			set.add(r)
			set.nonASCII = true
		}
	} else if c, known := posixClasses[strings.ToLower(g[j:j+4+end])]; known {
		set.addASCII(c.members, c.wide)
	} else {
		set.any()
	}
	return j + 4 + end, bracketClosed
}

// plainBracket reports whether a bracket's body (between "[" and "]") is letters, digits, dots,
// underscores and ranges within one of a-z, A-Z, 0-9: every matcher reads it as bash does, and
// folded to lower case it matches the folded names.
func plainBracket(body string) bool {
	if body == "" {
		return false
	}
	for k := 0; k < len(body); k++ {
		c := body[k]
		switch {
		case k+2 < len(body) && body[k+1] == '-':
			// A range, within one block, in order; what follows it is read afresh.
			if asciiBlock(c) == 0 || asciiBlock(c) != asciiBlock(body[k+2]) || c > body[k+2] {
				return false
			}
			k += 2
		case c == '.' || c == '_' || asciiBlock(c) != 0:
		default:
			return false
		}
	}
	return true
}

// asciiBlock says which of digits (1), upper-case (2) and lower-case letters (3) c is, or 0.
func asciiBlock(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return 1
	case c >= 'A' && c <= 'Z':
		return 2
	case c >= 'a' && c <= 'z':
		return 3
	}
	return 0
}

// nonASCIIRange is every character beyond ASCII in a canonical bracket, from U+00A1 (the C1
// controls name no file a policy protects) to the last code point: folding leaves both as they
// are. U+00A0 and the other Unicode spaces are " " to foldPath, so the set holds " " instead:
// starting the range at U+00A0 made it " " to U+10FFFF once folded, every ASCII character,
// "." among them.
const nonASCIIRange = "\u00a1-\U0010ffff"

// write writes the set as a canonical bracket: runs of three or more as ranges, split where the
// upper-case letters begin and end, so that folding the text to lower case folds the set with
// it; punctuation escaped; "/", NUL and the controls (which no protected name holds) left out.
// An empty set is written as "?": erring toward a match.
func (s *charSet) write(b *strings.Builder) {
	if s.nonASCII {
		// strings.ToLower folds the Kelvin sign to an ASCII k, foldPath a Unicode space to " ".
		s.add('k')
		s.add(' ')
	}
	start := b.Len()
	b.WriteByte('[')
	for c := 0x20; c < 0x7f; {
		if !s.has(byte(c)) || c == '/' {
			c++
			continue
		}
		hi := c
		for hi+1 < 0x7f && s.has(byte(hi+1)) && hi+1 != '/' && hi+1 != 'A' && hi != 'Z' {
			hi++
		}
		writeMember(b, byte(c))
		if hi > c+1 {
			b.WriteByte('-')
		}
		if hi > c {
			writeMember(b, byte(hi))
		}
		c = hi + 1
	}
	if s.nonASCII {
		b.WriteString(nonASCIIRange)
	}
	if b.Len() == start+1 {
		b.WriteByte('?')
		return
	}
	b.WriteByte(']')
}

// writeMember writes one member of a canonical bracket, escaped unless a letter or a digit.
func writeMember(b *strings.Builder, c byte) {
	if asciiBlock(c) == 0 {
		b.WriteByte('\\')
	}
	b.WriteByte(c)
}

// maxCanonicalGrowth bounds how much longer than the glob its canonical spelling may be; past
// it, the remaining brackets are written as "?", any character, so a long glob of brackets
// costs the matchers no more than its own length allows.
const maxCanonicalGrowth = 256

// canonicalWork bounds the bytes canonicalGlob reads per byte of the glob: a "[" that nothing
// closes is read up to the end of its part each time ("*[[[[…"), so a glob of many of them is
// not read past the bound, and is then unread.
const canonicalWork = 16

// canonicalGlob rewrites an agent's glob so that every matcher in the engine reads its bracket
// expressions as bash does (see the top of this file): a bracket is its members listed plainly,
// an unclosed "[" is escaped ("\["), a backslash escape is kept. ok is false for a glob the
// engine does not read (a class name too long, a glob past canonicalWork): it may name any path,
// and the pattern returned is only cheap to match.
func canonicalGlob(g string) (string, bool) {
	if !strings.Contains(g, "[") {
		return g, true
	}
	var b strings.Builder
	b.Grow(len(g) + 16)
	work := canonicalWork*len(g) + 2*maxCanonicalGrowth
	for i := 0; i < len(g); i++ {
		switch c := g[i]; c {
		case '\\':
			b.WriteByte(c)
			if i+1 < len(g) {
				i++
				b.WriteByte(g[i])
			}
		case '[':
			set, end, how := readBracket(g, i)
			if work -= end - i + 1; work < 0 || how == bracketUnread {
				// The path is unknown (the caller asks); its brackets are escaped so that the
				// matchers that still see it read it in linear time.
				return strings.ReplaceAll(g, "[", `\[`), false
			}
			switch {
			case how == bracketLiteral:
				b.WriteString(`\[`)
				continue
			case plainBracket(g[i+1 : end-1]):
				b.WriteString(g[i:end])
			case b.Len() > i+maxCanonicalGrowth:
				b.WriteByte('?')
			default:
				set.write(&b)
			}
			i = end - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// globPattern is a path as the matchers read it: canonical when it is a glob; known is false
// for a glob the engine does not read.
func globPattern(p string, glob bool) (pattern string, known bool) {
	if glob {
		return canonicalGlob(p)
	}
	return p, true
}

// example returns one character the set matches, for exampleOf: a lower-case letter or a digit
// where it holds one (names are compared folded), else its first printable member, else "x".
func (s *charSet) example() byte {
	for _, c := range []byte(lowerLetters + digitChars) {
		if s.has(c) {
			return c
		}
	}
	for c := byte(0x21); c < 0x7f; c++ {
		if s.has(c) && c != '/' {
			return c
		}
	}
	return 'x'
}

// minWideBracket is how many characters a bracket holds at least to be read as "?" by
// bareWildcard: a class of letters or digits ("[a-z]", "[0-9]", "[[:upper:]]").
const minWideBracket = 10

// bareWildcard says whether a glob part (a lower-cased canonical one) names nothing in
// particular: wildcards and dots only ("*", "?*", "*.*"), not starting with a dot (a bare
// wildcard matches no dotfile; ".*" names every one). A wide bracket counts as "?": one of at
// least minWideBracket characters, none of them a dot, narrows "?" but aims at no name, so
// ls [a-z]* is ls ?*; a narrow one ("[i]*", "[ab]*") is read as the letters it holds, as i* is,
// and one that holds a dot may name a dotfile to a matcher other than bash.
func bareWildcard(c string) bool {
	if strings.HasPrefix(c, ".") {
		return false
	}
	for i := 0; i < len(c); i++ {
		switch c[i] {
		case '*', '?', '.':
		case '[':
			set, end, how := readBracket(c, i)
			if how != bracketClosed || set.has('.') || set.size() < minWideBracket {
				return false
			}
			i = end - 1
		default:
			return false
		}
	}
	return true
}
