package ledger

// keywordSet finds which of a fixed set of lower-case keywords occur in a string, ignoring ASCII
// case, in one pass and without allocating: an Aho–Corasick automaton compiled to a table. The
// encoder runs every string of a record through it (redaction by value: which rules' keywords
// occur) and every key (redaction by key name), so a string without a keyword costs one table
// walk instead of a lower-cased copy and a substring search per keyword.
//
// It only answers for ASCII input: strings.ToLower maps a few non-ASCII runes to ASCII letters
// (U+212A KELVIN SIGN to "k"), so for a string with any byte >= 0x80 scan reports ascii=false and
// callers take the strings.ToLower path, which stays the definition.
type keywordSet struct {
	class [256]uint8 // byte (upper-case ASCII folded) to its column in next; 0 = in no keyword
	width int        // columns per state
	// next[row+class] is the row (state*width) after reading a byte of that class, with
	// hasOutput set when a keyword ends in that state: the scan loop then needs no multiply, and
	// reads output only when a keyword was seen.
	next   []uint32
	output []uint64 // per state: the bits of every keyword that ends there (suffixes included)
}

const hasOutput = 1 << 31

// newKeywordSet compiles keywords (lower case; empty ones are ignored); bits[i] is what scan ORs
// into its mask when keywords[i] occurs.
func newKeywordSet(keywords []string, bits []uint64) *keywordSet {
	k := &keywordSet{width: 1}
	for _, w := range keywords {
		for i := 0; i < len(w); i++ {
			if c := w[i]; k.class[c] == 0 {
				k.class[c] = uint8(k.width)
				k.width++
			}
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		k.class[c] = k.class[c+'a'-'A']
	}
	// The trie: goto[state*width+class], 0 meaning no edge (state 0 is the root, never a target).
	k.next = make([]uint32, k.width)
	k.output = []uint64{0}
	for i, w := range keywords {
		if w == "" {
			continue
		}
		s := uint32(0)
		for j := 0; j < len(w); j++ {
			c := int(k.class[w[j]])
			if k.next[int(s)*k.width+c] == 0 {
				k.next[int(s)*k.width+c] = uint32(len(k.output))
				k.next = append(k.next, make([]uint32, k.width)...)
				k.output = append(k.output, 0)
			}
			s = k.next[int(s)*k.width+c]
		}
		k.output[s] |= bits[i]
	}
	// Breadth first, turn missing edges into the failure transitions and inherit the outputs of
	// the longest proper suffix that is a trie state.
	fail := make([]uint32, len(k.output))
	queue := make([]uint32, 0, len(k.output))
	for c := 1; c < k.width; c++ {
		if t := k.next[c]; t != 0 {
			queue = append(queue, t) // fail[t] = 0
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		k.output[s] |= k.output[fail[s]]
		for c := 0; c < k.width; c++ {
			i := int(s)*k.width + c
			if t := k.next[i]; t != 0 {
				fail[t] = k.next[int(fail[s])*k.width+c]
				queue = append(queue, t)
			} else {
				k.next[i] = k.next[int(fail[s])*k.width+c]
			}
		}
	}
	for i, t := range k.next {
		row := t * uint32(k.width)
		if k.output[t] != 0 {
			row |= hasOutput
		}
		k.next[i] = row
	}
	return k
}

// step reads byte c in the state at row; mask collects the keywords that end there.
func (k *keywordSet) step(row uint32, c byte, mask uint64) (uint32, uint64) {
	row = k.next[int(row)+int(k.class[c])]
	if row&hasOutput != 0 {
		row &^= hasOutput
		mask |= k.output[int(row)/k.width]
	}
	return row, mask
}

// scan returns the bits of the keywords that occur in s, ignoring ASCII case, and whether s is
// ASCII; when it is not, the mask is meaningless.
func (k *keywordSet) scan(s string) (mask uint64, ascii bool) {
	var row uint32
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return 0, false
		}
		row, mask = k.step(row, c, mask)
	}
	return mask, true
}
