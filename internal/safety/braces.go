package safety

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxBraceGroups bounds the brace groups one word may hold, nested ones and sequences included:
// the expansion walks them one inside the other, so its cost grows with their square.
const maxBraceGroups = 64

// braceSequence is a sequence group ({1..5}, {a..e}, {01..10..3}) as bash reads it.
type braceSequence struct {
	from, to, step, width int
	letters               bool
}

// maxSequenceBound bounds a sequence's ends: past it the sequence is taken as too long to expand,
// which its count (with no overflow) then says.
const maxSequenceBound = 1 << 40

// parseSequence reads a sequence group; false for one bash leaves as it is ({a..5}, {1..x}).
func parseSequence(br *syntax.BraceExp) (braceSequence, bool) {
	if len(br.Elems) < 2 {
		return braceSequence{}, false
	}
	from, to, incr := br.Elems[0].Lit(), br.Elems[1].Lit(), "1"
	if len(br.Elems) > 2 {
		incr = br.Elems[2].Lit()
	}
	step, err := strconv.Atoi(incr)
	if err != nil {
		return braceSequence{}, false
	}
	s := braceSequence{step: max(step, -step, 1)}
	a, errA := strconv.Atoi(from)
	b, errB := strconv.Atoi(to)
	switch {
	case errA == nil && errB == nil:
		s.from, s.to = min(max(a, -maxSequenceBound), maxSequenceBound), min(max(b, -maxSequenceBound), maxSequenceBound)
		if zeroPadded(from) || zeroPadded(to) {
			s.width = max(len(from), len(to))
		}
	case len(from) == 1 && len(to) == 1 && isASCIILetter(from[0]) && isASCIILetter(to[0]):
		s.from, s.to, s.letters = int(from[0]), int(to[0]), true
	default:
		return braceSequence{}, false
	}
	return s, true
}

func zeroPadded(n string) bool {
	n = strings.TrimPrefix(n, "-")
	return len(n) > 1 && n[0] == '0'
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// count is how many words the sequence makes.
func (s braceSequence) count() int { return max(s.to-s.from, s.from-s.to)/s.step + 1 }

// words are the sequence's words.
func (s braceSequence) words() []*syntax.Word {
	out := make([]*syntax.Word, 0, s.count())
	dir := 1
	if s.to < s.from {
		dir = -1
	}
	for i, v := 0, s.from; i < cap(out); i, v = i+1, v+dir*s.step {
		var text string
		if s.letters {
			text = string(rune(v))
		} else if text = strconv.Itoa(v); s.width > 0 {
			// Padded to the width with zeros after the sign, as bash pads {-05..05}: -05 ... 005.
			digits := strings.TrimPrefix(text, "-")
			sign := text[:len(text)-len(digits)]
			text = sign + strings.Repeat("0", max(s.width-len(text), 0)) + digits
		}
		out = append(out, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: text}}})
	}
	return out
}

// braceElems are the elements of a brace group as bash expands it, a list's elements or a
// sequence's words; literal when bash leaves the group as it is. expand calls it only once
// braceWords has bounded what the group makes.
func braceElems(br *syntax.BraceExp) (elems []*syntax.Word, literal bool) {
	if !br.Sequence {
		return br.Elems, false
	}
	s, ok := parseSequence(br)
	if !ok {
		return nil, true
	}
	return s.words(), false
}

// braceWords is how many words brace expansion makes of parts, as expand walks them, or limit+1
// once it is more than limit or the parts hold more than maxBraceGroups groups in all (groups
// counts them): the product, over the groups in a row, of the sum of what each of a group's
// elements makes, a sequence's words counted, not built.
func braceWords(parts []syntax.WordPart, limit int, groups *int) int {
	n := 1
	for _, p := range parts {
		br, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		if *groups++; *groups > maxBraceGroups {
			return limit + 1
		}
		sum := 0
		if br.Sequence {
			s, ok := parseSequence(br)
			if !ok {
				continue // left as it is
			}
			sum = s.count() // at most 2^41: the product below cannot overflow
		} else {
			for _, e := range br.Elems {
				if sum += braceWords(e.Parts, limit, groups); sum > limit {
					return limit + 1
				}
			}
		}
		if n *= max(sum, 1); n > limit {
			return limit + 1
		}
	}
	return n
}
