package ledger

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// appendCanonical appends the canonical JSON form of v, a value of the tree encoding/json builds
// with UseNumber: nil, bool, string, json.Number, []any and map[string]any. Object keys are
// sorted bytewise and nothing is escaped that JSON does not require, so equal trees give equal
// bytes whatever produced them; the verifier re-encodes every record it reads and demands the
// same bytes.
func appendCanonical(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case string:
		return appendString(dst, x), nil
	case json.Number:
		// Numbers keep the literal text they were decoded from: it is valid JSON and re-encodes
		// to itself, which is all canonical form needs.
		return append(dst, x...), nil
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendCanonical(dst, e); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case map[string]any:
		dst = append(dst, '{')
		for i, k := range slices.Sorted(maps.Keys(x)) {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, k)
			dst = append(dst, ':')
			var err error
			if dst, err = appendCanonical(dst, x[k]); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	default:
		return nil, fmt.Errorf("canonical JSON: unsupported type %T", v)
	}
}

// appendString quotes s: only the quote, the backslash and control characters are escaped, so
// the output never depends on Unicode tables or HTML-escaping settings. s must be valid UTF-8
// (callers guarantee it), or the result is not valid JSON.
func appendString(dst []byte, s string) []byte {
	dst, _, _ = appendScanned(dst, s, nil)
	return dst
}

// appendScanned is appendString that also runs s through keywords (when not nil), returning the
// keywords' mask and whether s is ASCII (the mask means nothing otherwise). It reads s once for
// the keywords and whether anything needs an escape, then copies it whole: nearly no string in a
// record has a byte to escape, and a loop with nothing but the automaton and a table lookup per
// byte is much of an encode's time.
func appendScanned(dst []byte, s string, keywords *keywordSet) (_ []byte, mask uint64, ascii bool) {
	dst = append(dst, '"')
	var esc, high uint8
	i := 0
	if keywords != nil {
		var row uint32
		for ; i < len(s); i++ {
			c := s[i]
			if c >= 0x80 {
				break // the mask is meaningless from here; the loop below finishes the checks
			}
			esc |= needsEscape[c]
			row, mask = keywords.step(row, c, mask)
		}
	}
	for ; i < len(s); i++ {
		c := s[i]
		esc |= needsEscape[c]
		high |= c & 0x80
	}
	if esc == 0 {
		dst = append(dst, s...)
	} else {
		dst = appendEscaped(dst, s)
	}
	return append(dst, '"'), mask, high == 0
}

// needsEscape is 1 for the bytes appendString escapes: the quote, the backslash and control
// characters.
var needsEscape = func() (t [256]uint8) {
	for c := range 0x20 {
		t[c] = 1
	}
	t['"'], t['\\'] = 1, 1
	return t
}()

// appendEscaped appends s with the bytes needsEscape marks escaped; runs of bytes that need no
// escape are copied whole.
func appendEscaped(dst []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if needsEscape[c] == 0 {
			continue
		}
		dst = append(dst, s[last:i]...)
		last = i + 1
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			const hexdigits = "0123456789abcdef"
			dst = append(dst, '\\', 'u', '0', '0', hexdigits[c>>4], hexdigits[c&0xf])
		}
	}
	return append(dst, s[last:]...)
}
