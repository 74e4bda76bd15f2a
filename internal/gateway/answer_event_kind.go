package gateway

import "bytes"

// eventIsNoAnswer says whether event, one server-sent event as read (its lines and the blank line
// that ends it), carries a JSON-RPC request or notification: a progress or log notification, a
// request of the server's own. The SDK's client handles such a message and keeps none of it, so
// its share of the answer budget may be given back once the next event is read. Anything else
// (the call's answer, an event of several data lines, one that cannot be read so) counts as an
// answer, held until the call ends: the safe side.
func eventIsNoAnswer(event []byte) bool {
	var data []byte
	for line := range bytes.Lines(event) {
		line = bytes.TrimRight(line, "\r\n")
		rest, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue
		}
		if data != nil {
			return false // joined with newlines by the SDK: not read here
		}
		data = bytes.TrimPrefix(rest, []byte(" "))
	}
	return hasMethod(data)
}

// hasMethod says whether data is a JSON object whose last top-level "method" member is a string
// that is not empty: what the SDK's jsonrpc decoding takes for a request, not a response. It reads
// no value, so a large one costs one pass and no allocation; a key or value it cannot read
// without decoding (an escape) counts as no method.
func hasMethod(data []byte) bool {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	method := false
	i++
	for {
		i = skipSpace(data, i)
		if i >= len(data) || data[i] != '"' {
			return false
		}
		key, next, ok := plainString(data, i)
		if !ok {
			return false
		}
		i = skipSpace(data, next)
		if i >= len(data) || data[i] != ':' {
			return false
		}
		i = skipSpace(data, i+1)
		if string(key) == "method" {
			if i >= len(data) || data[i] != '"' {
				return false
			}
			value, next, ok := plainString(data, i)
			if !ok {
				return false
			}
			method, i = len(value) > 0, next
		} else if i = skipValue(data, i); i < 0 {
			return false
		}
		i = skipSpace(data, i)
		switch {
		case i >= len(data):
			return false
		case data[i] == ',':
			i++
		case data[i] == '}':
			return method
		default:
			return false
		}
	}
}

// plainString reads the string starting at data[i] (a quote), returning its bytes, the index past
// it, and false when it holds an escape or does not end.
func plainString(data []byte, i int) ([]byte, int, bool) {
	end := bytes.IndexByte(data[i+1:], '"')
	if end < 0 {
		return nil, 0, false
	}
	s := data[i+1 : i+1+end]
	if bytes.IndexByte(s, '\\') >= 0 {
		return nil, 0, false
	}
	return s, i + end + 2, true
}

// skipValue returns the index past the JSON value starting at data[i] (for a number or a literal,
// the index of the delimiter that ends it), or -1 when it does not end.
func skipValue(data []byte, i int) int {
	depth := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '"':
			j := i + 1
			for ; j < len(data) && data[j] != '"'; j++ {
				if data[j] == '\\' {
					j++ // the escaped byte, a quote among them
				}
			}
			if j >= len(data) {
				return -1
			}
			i = j
		case '{', '[':
			depth++
			continue
		case '}', ']':
			if depth == 0 {
				return i // the end of the object holding a number or literal
			}
			depth--
		case ',':
			if depth == 0 {
				return i
			}
			continue
		default:
			continue
		}
		if depth == 0 {
			return i + 1
		}
	}
	return -1
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}
