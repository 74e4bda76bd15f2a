package ledger

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// The direct encoder writes a record's fields as redacted canonical JSON straight from the
// caller's values into a reused buffer: no tree copy, no map per level, no lower-cased copies.
// Each string is escaped and scanned for the redaction rules' keywords in the same pass
// (appendScanned); only a string with a keyword, a long one or a non-ASCII one goes through
// RedactSecrets and truncate, exactly as the tree path does. It handles the values plainTree
// copies and json.Number (whose text the tree path's encoding/json round trip keeps); for
// anything else (floats, structs, invalid UTF-8) or a key long enough to be cut, it gives up and
// encode takes the tree path, which stays the definition of the output
// (TestPlainTreeMatchesTheRoundTrip, FuzzDirectEncoderMatchesTheTreePath).
type directWriter struct {
	red  redactor
	buf  []byte
	anys []entry2[any]
	strs []entry2[string]
	// order is the sorted order of a map's entries (indexes into them): sorting small integers
	// instead of the entries themselves moves no pointers, so no write barriers while GC runs.
	order []int32
	// fixed writes FixedFields records into buf (encode_fixed.go).
	fixed FieldWriter
	// keys remembers, for keys fixed has written, whether each names a secret under keysOf, the
	// key set they were checked against (Reconfigure replaces it): a FixedFields record's keys
	// are the same constants every time, and scanning them was a sixth of its encode. It is
	// direct-mapped (a key replaces the one in its slot) and keeps only keys written as they are
	// (ASCII, nothing escaped). A map was the first version: its lookups cost half of what it
	// saved; a slot costs a multiply, and the comparison of a constant key with itself is a
	// pointer's.
	keys   [keyMemoSlots]keyMemo
	keysOf *keywordSet
}

const keyMemoBits, keyMemoSlots = 8, 1 << 8

type keyMemo struct {
	k      string
	secret bool
	set    bool
}

// entry2 is one key and value of a map being written, kept to sort the map's keys.
type entry2[V any] struct {
	k string
	v V
}

var directWriters = sync.Pool{New: func() any { return &directWriter{buf: make([]byte, 0, 2048)} }}

// maxPooledBuffer bounds the buffer a pooled writer keeps, so one huge record does not pin its
// memory for the life of the process.
const maxPooledBuffer = 64 << 10

// encodeDirect returns the encoding of fields, or ok false when the tree path must decide.
func (r redactor) encodeDirect(fields map[string]any) (out []byte, ok bool) {
	w, ok := r.encodeDirectPooled(fields)
	if ok {
		out = bytes.Clone(w.buf)
		w.release()
	}
	return out, ok
}

// encodeDirectPooled is encodeDirect leaving the encoding in the pooled writer it returns (when
// ok), which its user releases once done with w.buf.
func (r redactor) encodeDirectPooled(fields map[string]any) (*directWriter, bool) {
	w := getDirectWriter(r)
	if !writeMap(w, fields, &w.anys, (*directWriter).value) {
		w.release()
		return nil, false
	}
	return w, true
}

func getDirectWriter(r redactor) *directWriter {
	w := directWriters.Get().(*directWriter)
	w.red = r
	w.buf = w.buf[:0]
	return w
}

// release returns w to the pool; neither w nor its buf may be used after.
func (w *directWriter) release() {
	if cap(w.buf) <= maxPooledBuffer {
		directWriters.Put(w)
	}
}

func (w *directWriter) value(v any) bool {
	switch x := v.(type) {
	case nil:
		w.buf = append(w.buf, "null"...)
	case bool:
		w.buf = strconv.AppendBool(w.buf, x)
	case string:
		return w.str(x)
	case int:
		w.buf = strconv.AppendInt(w.buf, int64(x), 10)
	case int32:
		w.buf = strconv.AppendInt(w.buf, int64(x), 10)
	case int64:
		w.buf = strconv.AppendInt(w.buf, x, 10)
	case uint64:
		w.buf = strconv.AppendUint(w.buf, x, 10)
	case json.Number:
		// encoding/json writes a valid number's text as it stands, and decodes it back (UseNumber)
		// to the same text, which appendCanonical writes: a call's extra arguments keep theirs.
		if !validNumber(x) {
			return false
		}
		w.buf = append(w.buf, x...)
	case []string:
		if w.red.values && argvHasSecret(x) || isCredentialPair(w.red, x) {
			return false // the tree path hides the option's value (redactArgv) or the pair's (isCredentialPair)
		}
		return writeList(w, x, (*directWriter).str)
	case []any:
		if w.red.values && argvHasSecret(x) || isCredentialPair(w.red, x) {
			return false
		}
		return writeList(w, x, (*directWriter).value)
	case map[string]string:
		return writeMap(w, x, &w.strs, (*directWriter).str)
	case map[string]any:
		return writeMap(w, x, &w.anys, (*directWriter).value)
	default:
		return false
	}
	return true
}

// str writes a string value: redacted by value, then truncated, then quoted.
func (w *directWriter) str(s string) bool {
	start := len(w.buf)
	// RedactSecrets leaves short and hex-like strings (UIDs, digests) as they are, so they need
	// no scan for its keywords.
	redact := w.red.values && len(s) >= 8 && !hexLike(s)
	if redact && looksLikeJSON(s) {
		return false // a JSON document in a string is redacted as fields (redactString)
	}
	var rules *keywordSet
	if redact {
		rules = ruleKeywords
	}
	var mask uint64
	var ascii bool
	w.buf, mask, ascii = appendScanned(w.buf, s, rules)
	if !ascii && !utf8.ValidString(s) {
		return false // the tree path takes encoding/json's round trip, which replaces bad bytes
	}
	if len(s) <= w.red.max && (!redact || ascii && mask&anyRuleKeyword == 0) {
		return true // RedactSecrets and truncate would return s as it is
	}
	w.buf = w.buf[:start]
	switch {
	case redact && ascii:
		s = redactScanned(s, mask) // before truncation, so a cut never leaves half a secret readable
	case redact:
		s = redactSecretsLowered(s)
	}
	w.buf = appendString(w.buf, truncate(s, w.red.max))
	return true
}

// writeMap writes a map with its keys sorted; a key that looks secret gets Redacted for its
// value. ents is the writer's reused slice of this map type; nested maps append after this
// map's entries and cut back when done.
// writeList writes a JSON array of list's elements, each with write; false if one cannot be.
func writeList[V any](w *directWriter, list []V, write func(*directWriter, V) bool) bool {
	w.buf = append(w.buf, '[')
	for i, e := range list {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		if !write(w, e) {
			return false
		}
	}
	w.buf = append(w.buf, ']')
	return true
}

func writeMap[V any](w *directWriter, m map[string]V, ents *[]entry2[V], write func(*directWriter, V) bool) bool {
	base, obase := len(*ents), len(w.order)
	defer func() {
		clear((*ents)[base:]) // the pool must not keep the caller's values alive
		*ents = (*ents)[:base]
		w.order = w.order[:obase]
	}()
	for k, v := range m {
		if len(k) > w.red.max {
			return false // a cut key may collide with another; the tree path numbers them
		}
		*ents = append(*ents, entry2[V]{k, v})
	}
	// mine and order stay valid when a nested map grows *ents or w.order: they keep the old
	// arrays, which nothing else writes.
	mine := (*ents)[base:]
	if hasPairedSecret(w.red, mine) {
		return false // the tree path hides a named credential's value (pairValueKey)
	}
	if w.red.values && mayHaveProgramArgs(mine) {
		return false // the tree path reads the arguments with their program (redactProgramArgs)
	}
	for i := range mine {
		w.order = append(w.order, int32(i))
	}
	order := w.order[obase:]
	sortOrder(order, mine)
	w.buf = append(w.buf, '{')
	for i, o := range order {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		if !writeEntry(w, &mine[o], write) {
			return false
		}
	}
	w.buf = append(w.buf, '}')
	return true
}

// writeEntry writes one "key":value of a map, the value redacted when the key names a secret;
// false sends the record to the tree path (a key that holds a credential, a value it must check).
func writeEntry[V any](w *directWriter, e *entry2[V], write func(*directWriter, V) bool) bool {
	var mask uint64
	var ascii bool
	w.buf, mask, ascii = appendScanned(w.buf, e.k, w.red.keySet)
	if !ascii && !utf8.ValidString(e.k) {
		return false
	}
	if w.red.values && len(e.k) >= 8 && (!ascii && keyHidesSecret(e.k) ||
		ascii && mask&anyRuleKeyword != 0 && !hexLike(e.k) && redactScanned(e.k, mask) != e.k) {
		return false // a key holding a credential is redacted, and numbered, by the tree path
	}
	w.buf = append(w.buf, ':')
	// The key's scan is redaction by key name; secret decides for non-ASCII keys.
	if w.red.secretScanned(e.k, mask, ascii) {
		if !plainValue(e.v) {
			return false // the tree path rejects it (or round-trips the whole record)
		}
		w.buf = append(w.buf, `"`+Redacted+`"`...)
		return true
	}
	return write(w, e.v)
}

// plainValue reports whether plainTree accepts v, for a value the encoder replaces by Redacted
// without writing it.
func plainValue(v any) bool {
	switch x := v.(type) {
	case nil, bool, int, int32, int64, uint64:
		return true
	case json.Number:
		return validNumber(x)
	case string:
		return utf8.ValidString(x)
	case []string:
		for _, s := range x {
			if !utf8.ValidString(s) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !plainValue(e) {
				return false
			}
		}
		return true
	case map[string]string:
		for k, s := range x {
			if !utf8.ValidString(k) || !utf8.ValidString(s) {
				return false
			}
		}
		return true
	case map[string]any:
		for k, e := range x {
			if !utf8.ValidString(k) || !plainValue(e) {
				return false
			}
		}
		return true
	}
	return false
}

// sortOrder sorts order so that ents[order[i]].k increase. Records' maps are small (a decision's
// largest has two dozen keys): an insertion sort with the comparison inline is quicker there
// than the general sort calling a comparison function.
func sortOrder[V any](order []int32, ents []entry2[V]) {
	if len(order) > 32 {
		slices.SortFunc(order, func(a, b int32) int { return strings.Compare(ents[a].k, ents[b].k) })
		return
	}
	for i := 1; i < len(order); i++ {
		o := order[i]
		k := ents[o].k
		j := i
		for ; j > 0 && ents[order[j-1]].k > k; j-- {
			order[j] = order[j-1]
		}
		order[j] = o
	}
}
