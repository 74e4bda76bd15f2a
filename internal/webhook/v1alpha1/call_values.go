package v1alpha1

import (
	"bytes"
	"fmt"
)

// Decoding JSON into Go values costs far more memory than the JSON when the values are many and
// small: 3 MiB of finalizers ("a","a",...), which the API server accepts in a create, decode to
// 67 MB, and a few such creates at once would take the manager past its memory limit, failing
// every call in the cluster closed. So a call is decoded only if its JSON holds a bounded number
// of values (decodeCall); one with more is denied BadRequest (and recorded) from its raw bytes.
//
// maxCallValues is far above what a call needs: its largest legitimate part, the extra
// arguments, is at most 16 KiB (argrules.MaxExtraBytes), so about 8,000 values, and the managed
// fields may mirror them; spec, status and metadata add a few hundred more.
const maxCallValues = 1 << 15

// withinValues reports whether the JSON b holds at most about n values (valueCount).
func withinValues(b []byte, n int) bool { return valueCount(b, n) <= n }

// valueCount counts the commas and opening brackets of the JSON b outside strings, stopping once
// the count passes stop: a container with e elements counts e, or 1 when empty, so the count is
// at least the number of values less one. It reads b once and does not check that b is JSON:
// the decoder does.
func valueCount(b []byte, stop int) int {
	count := 0
	for i := 0; i < len(b) && count <= stop; i++ {
		switch b[i] {
		case '"':
			end := stringEnd(b, i+1)
			if end < 0 {
				return count // an unterminated string: not JSON, which the decoder reports
			}
			i = end
		case ',', '[', '{':
			count++
		}
	}
	return count
}

// stringEnd returns the index of the quote that ends the JSON string starting at b[from], or -1.
func stringEnd(b []byte, from int) int {
	for i := from; ; {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		j += i
		backslashes := 0
		for k := j - 1; k >= from && b[k] == '\\'; k-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return j // not escaped
		}
		i = j + 1
	}
}

// errTooManyValues is decodeCall's refusal of a call over maxCallValues.
var errTooManyValues = fmt.Errorf(
	"it holds more than %d JSON values (labels, annotations, finalizers, arguments): not decoded", maxCallValues)
