package ledger

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// plainTree copies fields into the tree encode works on (strings, bools, json.Number, nil,
// []any, map[string]any) without the encoding/json round trip, when every value is of a kind
// whose JSON form is obvious: strings (valid UTF-8), bools, integers, nil, and maps and slices
// of those. Anything else (floats, structs, times, invalid UTF-8) makes ok false and encode
// takes the round trip, so the record is the same either way. The copy matters: redaction
// rewrites the tree, and the caller's maps and slices must stay as they were.
func plainTree(v any) (out any, ok bool) {
	switch x := v.(type) {
	case nil, bool:
		return x, true
	case string:
		return x, utf8.ValidString(x)
	case int:
		return json.Number(strconv.Itoa(x)), true
	case int32:
		return json.Number(strconv.FormatInt(int64(x), 10)), true
	case int64:
		return json.Number(strconv.FormatInt(x, 10)), true
	case uint64:
		return json.Number(strconv.FormatUint(x, 10)), true
	case []string:
		return plainStrings(x)
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			if l[i], ok = plainTree(e); !ok {
				return nil, false
			}
		}
		return l, true
	case map[string]string:
		return plainStringMap(x)
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			if !utf8.ValidString(k) {
				return nil, false
			}
			if m[k], ok = plainTree(e); !ok {
				return nil, false
			}
		}
		return m, true
	}
	return nil, false
}

func plainStrings(x []string) (any, bool) {
	l := make([]any, len(x))
	for i, s := range x {
		if !utf8.ValidString(s) {
			return nil, false
		}
		l[i] = s
	}
	return l, true
}

func plainStringMap(x map[string]string) (any, bool) {
	m := make(map[string]any, len(x))
	for k, s := range x {
		if !utf8.ValidString(k) || !utf8.ValidString(s) {
			return nil, false
		}
		m[k] = s
	}
	return m, true
}
