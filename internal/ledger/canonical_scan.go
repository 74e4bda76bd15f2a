package ledger

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// maxDepth is encoding/json's nesting limit, so the scanner accepts what it decodes.
const maxDepth = 10000

// canonScanner checks that bytes are in the canonical JSON form appendCanonical writes: no
// whitespace, object keys strictly increasing (bytewise, after unescaping: sorted, no
// duplicates), strings escaping exactly what appendString escapes, valid UTF-8, and JSON number
// syntax. The first error sticks; later calls do nothing.
type canonScanner struct {
	b   []byte
	i   int
	err error
}

func (s *canonScanner) fail(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf("at byte %d: %s", s.i, fmt.Sprintf(format, args...))
	}
}

func (s *canonScanner) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *canonScanner) lit(want string) {
	if s.err != nil {
		return
	}
	if len(s.b)-s.i < len(want) || string(s.b[s.i:s.i+len(want)]) != want {
		s.fail("want %s", want)
		return
	}
	s.i += len(want)
}

// uint reads an unsigned decimal integer without leading zeros.
func (s *canonScanner) uint() uint64 {
	if s.err != nil {
		return 0
	}
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	digits := string(s.b[start:s.i])
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil || strconv.FormatUint(n, 10) != digits {
		s.fail("not a canonical unsigned integer: %q", digits)
	}
	return n
}

func (s *canonScanner) value(depth int) {
	if s.err != nil {
		return
	}
	if depth > maxDepth {
		s.fail("nested too deeply")
		return
	}
	switch c := s.peek(); {
	case c == '{':
		s.object(depth)
	case c == '[':
		s.array(depth)
	case c == '"':
		s.str()
	case c == 't':
		s.lit("true")
	case c == 'f':
		s.lit("false")
	case c == 'n':
		s.lit("null")
	case c == '-' || c >= '0' && c <= '9':
		s.number()
	default:
		s.fail("unexpected %q", c)
	}
}

func (s *canonScanner) object(depth int) {
	s.i++ // {
	if s.peek() == '}' {
		s.i++
		return
	}
	var prev string
	for first := true; s.err == nil; first = false {
		if s.peek() != '"' {
			s.fail("want a key")
			return
		}
		k := s.str()
		if !first && k <= prev {
			s.fail("key %q is not after %q: keys unsorted or repeated", k, prev)
			return
		}
		prev = k
		s.lit(":")
		s.value(depth + 1)
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return
		default:
			s.fail("want , or }")
		}
	}
}

func (s *canonScanner) array(depth int) {
	s.i++ // [
	if s.peek() == ']' {
		s.i++
		return
	}
	for s.err == nil {
		s.value(depth + 1)
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return
		default:
			s.fail("want , or ]")
		}
	}
}

var errString = errors.New("string not in canonical form")

// str reads a string and returns it unescaped.
func (s *canonScanner) str() string {
	if s.err != nil {
		return ""
	}
	if s.peek() != '"' {
		s.fail("want a string")
		return ""
	}
	s.i++
	start := s.i
	var buf []byte // only when the string has escapes
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			raw := s.b[start:s.i]
			s.i++
			if buf == nil {
				if !utf8.Valid(raw) {
					s.fail("%v: invalid UTF-8", errString)
				}
				return string(raw)
			}
			if !utf8.Valid(buf) {
				s.fail("%v: invalid UTF-8", errString)
			}
			return string(buf)
		case c < 0x20:
			s.fail("%v: raw control character", errString)
			return ""
		case c == '\\':
			if buf == nil {
				buf = append([]byte(nil), s.b[start:s.i]...)
			}
			r, ok := s.escape()
			if !ok {
				s.fail("%v: escape", errString)
				return ""
			}
			buf = append(buf, r)
		default:
			if buf != nil {
				buf = append(buf, c)
			}
			s.i++
		}
	}
	s.fail("unterminated string")
	return ""
}

// escape reads one escape sequence at s.i; only the ones appendString writes are canonical.
func (s *canonScanner) escape() (byte, bool) {
	if s.i+1 >= len(s.b) {
		return 0, false
	}
	e := s.b[s.i+1]
	s.i += 2
	switch e {
	case '"', '\\':
		return e, true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'u':
		if s.i+4 > len(s.b) || s.b[s.i] != '0' || s.b[s.i+1] != '0' {
			return 0, false
		}
		hi, lo := unhex(s.b[s.i+2]), unhex(s.b[s.i+3])
		s.i += 4
		if hi < 0 || lo < 0 {
			return 0, false
		}
		// \u00XX only for the control characters that have no short escape.
		c := byte(hi<<4 | lo)
		if c >= 0x20 || c == '\n' || c == '\r' || c == '\t' {
			return 0, false
		}
		return c, true
	}
	return 0, false
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return -1 // upper-case hex is not canonical
}

// number reads JSON number syntax; its text is canonical as it stands (numbers keep the text
// encoding/json gave them).
func (s *canonScanner) number() {
	digits := func() int {
		n := 0
		for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	if s.peek() == '-' {
		s.i++
	}
	switch c := s.peek(); {
	case c == '0':
		s.i++
	case c >= '1' && c <= '9':
		digits()
	default:
		s.fail("bad number")
		return
	}
	if s.peek() == '.' {
		s.i++
		if digits() == 0 {
			s.fail("bad number fraction")
			return
		}
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		s.i++
		if c := s.peek(); c == '+' || c == '-' {
			s.i++
		}
		if digits() == 0 {
			s.fail("bad number exponent")
		}
	}
}
