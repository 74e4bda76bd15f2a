package argrules

import (
	"strings"
	"unicode/utf8"
)

// checkString refuses a string value that a tool would receive as another string than the one
// the rules, the record and an approval judge. literal is the value's JSON text as written (with
// what precedes it in the input since the previous token), s the string encoding/json decoded.
//
//   - A NUL: C ends a string there, and so does whatever a tool hands it to (a mail library, a
//     syscall's path, a Python subprocess refuses it): a rule judging
//     "x@evil.com\u0000@example.com" by its end would admit a payment the tool sends to x@evil.com.
//   - A lone UTF-16 surrogate escape ("\ud800"): encoding/json reads it as U+FFFD, while
//     JavaScript's JSON.parse (every Node MCP server) and Python's json keep the surrogate, so
//     "\ud800" and "\udfff" would be one value here, for a rule and an approval, and two there.
//
// Only a string holding U+FFFD can have come from such an escape, so other strings cost one scan.
func checkString(s string, literal []byte, path string) error {
	if strings.IndexByte(s, 0) >= 0 {
		return extraErr("extra argument %s holds a NUL character (U+0000), where a tool's C library would end the "+
			"string that the rules judge whole", pathOr(path))
	}
	if strings.ContainsRune(s, utf8.RuneError) && loneSurrogate(literal) {
		return extraErr("extra argument %s holds a lone UTF-16 surrogate escape, which this decoder reads as U+FFFD "+
			"and a JavaScript or Python tool keeps as written", pathOr(path))
	}
	return nil
}

// loneSurrogate says whether the JSON text holds a \u escape of a UTF-16 surrogate that is not
// one half of a high-low pair. An escaped backslash ("\\ud800") escapes nothing after it.
func loneSurrogate(text []byte) bool {
	pendingHigh := false
	for i := 0; i < len(text); i++ {
		if text[i] != '\\' {
			if pendingHigh {
				return true
			}
			continue
		}
		i++ // the escaped character
		if i >= len(text) || text[i] != 'u' || i+4 >= len(text) {
			if pendingHigh {
				return true
			}
			continue
		}
		u := hex4(text[i+1 : i+5])
		i += 4
		switch {
		case u >= 0xD800 && u < 0xDC00:
			if pendingHigh {
				return true
			}
			pendingHigh = true
		case u >= 0xDC00 && u < 0xE000:
			if !pendingHigh {
				return true
			}
			pendingHigh = false
		default:
			if pendingHigh {
				return true
			}
		}
	}
	return pendingHigh
}

// hex4 is the value of four hexadecimal digits, or -1.
func hex4(b []byte) int {
	n := 0
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			n = n<<4 | int(c-'0')
		case c >= 'a' && c <= 'f':
			n = n<<4 | int(c-'a'+10)
		case c >= 'A' && c <= 'F':
			n = n<<4 | int(c-'A'+10)
		default:
			return -1
		}
	}
	return n
}
