package ledger

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// FixedFields is a record's content whose keys are known when the caller is compiled, as a
// decision's or a completion's are: instead of a map the journal sorts and walks, the caller
// writes its members in canonical order through a FieldWriter, straight into the encoder's
// pooled buffer. Fields is the same content as a map; it defines what WriteFields must write
// (audit's tests and fuzz targets hold the two to the same bytes) and is what the journal encodes
// whenever the writer gives up (a key longer than MaxStringLength, invalid UTF-8, keys out of
// order, a value of a type the direct encoder leaves to encoding/json).
type FixedFields interface {
	WriteFields(w *FieldWriter)
	Fields() map[string]any
}

// maxFixedDepth bounds how deeply FieldWriter objects nest; deeper values go through Value.
const maxFixedDepth = 8

// FieldWriter writes a record's members, each object's keys in strictly increasing byte order,
// with exactly the redaction and truncation the map encoder applies: a key that looks secret
// gets Redacted for its value (an object under it is skipped whole), every string value is
// redacted by value and truncated. Anything it cannot write byte for byte as the map encoder
// would makes it give up; the journal then encodes Fields instead. Its methods do nothing once
// it has given up.
type FieldWriter struct {
	d      *directWriter
	depth  int                   // open objects below the top level
	prev   [maxFixedDepth]string // the last key written at each level
	count  [maxFixedDepth]int    // keys written at each level
	hidden int                   // open objects inside a redacted one: checked, not written
	failed bool
	// program holds, per level, what noteProgramArgs saw there: a program naming a tool, its
	// arguments, and whether the level is an extra object (whose arguments are its parent's).
	program [maxFixedDepth]uint8
}

const (
	sawProgram = 1 << iota
	sawArgs
	isExtra
)

// noteProgramArgs notes member k, v of the current level for redactProgramArgs, which reads a
// program field that names a tool with the arguments beside it or in the extra object beside
// it: a level that holds both gives up, and the map encoder, which sees the whole map, decides.
func (w *FieldWriter) noteProgramArgs(k string, v any) {
	if w.failed || w.hidden > 0 || !w.d.red.values {
		return
	}
	lvl := w.depth
	switch {
	case isProgramKey(k):
		if namesTool(v) {
			w.program[lvl] |= sawProgram
		}
	case isArgsKey(k):
		w.program[lvl] |= sawArgs
		if lvl > 0 && w.program[lvl]&isExtra != 0 {
			w.program[lvl-1] |= sawArgs
			lvl--
		}
	case k == extraKey && extraHoldsArgs(v):
		w.program[lvl] |= sawArgs
	}
	if w.program[lvl]&(sawProgram|sawArgs) == sawProgram|sawArgs {
		w.failed = true
	}
}

// key writes k and its colon, and reports whether the value is to be written (false: give up,
// or the key is secret and Redacted stands for the value, or the object holding it is redacted).
// secret reports the second case, where the caller must still check the value is one the map
// encoder accepts.
func (w *FieldWriter) key(k string) (write, secret bool) {
	if w.failed {
		return false, false
	}
	lvl := w.depth
	if w.count[lvl] > 0 && k <= w.prev[lvl] {
		w.failed = true // a repeated or unsorted key: not canonical; Fields decides
		return false, false
	}
	first := w.count[lvl] == 0
	w.prev[lvl] = k
	w.count[lvl]++
	if w.hidden > 0 {
		if !utf8.ValidString(k) {
			w.failed = true
		}
		return false, !w.failed
	}
	if len(k) > w.d.red.max {
		w.failed = true // a cut key may collide with another; the tree path numbers them
		return false, false
	}
	if !first {
		w.d.buf = append(w.d.buf, ',')
	}
	secret, ok := w.d.cachedKey(k)
	if !ok && w.d.red.values && keyHidesSecret(k) {
		w.failed = true // the tree path redacts and numbers it
		return false, false
	}
	if ok {
		w.d.buf = append(w.d.buf, '"')
		w.d.buf = append(w.d.buf, k...)
		w.d.buf = append(w.d.buf, '"', ':')
	} else {
		start := len(w.d.buf)
		var mask uint64
		var ascii bool
		w.d.buf, mask, ascii = appendScanned(w.d.buf, k, w.d.red.keySet)
		if !ascii && !utf8.ValidString(k) {
			w.failed = true
			return false, false
		}
		secret = w.d.red.secretScanned(k, mask, ascii)
		if ascii && len(w.d.buf)-start == len(k)+2 {
			w.d.keys[keySlot(k)] = keyMemo{k: k, secret: secret, set: true}
		}
		w.d.buf = append(w.d.buf, ':')
	}
	if secret {
		w.d.buf = append(w.d.buf, `"`+Redacted+`"`...)
		return false, true
	}
	return true, false
}

// cachedKey returns what keys remembers of k under the current redactor's key set.
func (d *directWriter) cachedKey(k string) (secret, ok bool) {
	if d.keysOf != d.red.keySet {
		d.keys, d.keysOf = [keyMemoSlots]keyMemo{}, d.red.keySet
		return false, false
	}
	if e := &d.keys[keySlot(k)]; e.set && e.k == k {
		return e.secret, true
	}
	return false, false
}

// keySlot is k's slot in keys, from its length and three of its bytes: the record keys audit
// writes (41 of them) share one slot pair.
func keySlot(k string) int {
	if len(k) == 0 {
		return 0
	}
	h := uint32(len(k)) | uint32(k[0])<<8 | uint32(k[len(k)/2])<<16 | uint32(k[len(k)-1])<<24
	return int(h * 2654435769 >> (32 - keyMemoBits))
}

// Value writes any value the map encoder takes (strings, bools, integers, json.Number, nil, and
// slices and maps of them), through the same code.
func (w *FieldWriter) Value(k string, v any) {
	write, secret := w.key(k)
	switch {
	case write:
		w.failed = !w.d.value(v)
	case secret:
		w.failed = !plainValue(v)
	}
	w.noteProgramArgs(k, v)
}

// String writes a string member.
func (w *FieldWriter) String(k, v string) {
	write, secret := w.key(k)
	switch {
	case write:
		w.failed = !w.d.str(v)
	case secret:
		w.failed = !utf8.ValidString(v)
	}
	w.noteProgramArgs(k, v)
}

// Strings writes a list of strings (nil as [], as the map encoder writes it).
func (w *FieldWriter) Strings(k string, v []string) { w.Value(k, v) }

// Bool writes a boolean member.
func (w *FieldWriter) Bool(k string, v bool) {
	if write, _ := w.key(k); write {
		w.d.buf = strconv.AppendBool(w.d.buf, v)
	}
}

// Int writes an integer member.
func (w *FieldWriter) Int(k string, v int64) {
	if write, _ := w.key(k); write {
		w.d.buf = strconv.AppendInt(w.d.buf, v, 10)
	}
}

// Object opens an object member; the members written until the matching End are its own.
func (w *FieldWriter) Object(k string) {
	write, _ := w.key(k)
	if w.failed {
		return
	}
	if w.depth+1 >= maxFixedDepth {
		w.failed = true
		return
	}
	w.depth++
	w.count[w.depth] = 0
	w.program[w.depth] = 0
	switch {
	case write:
		if k == extraKey {
			w.program[w.depth] = isExtra
		}
		w.d.buf = append(w.d.buf, '{')
	default: // the key is secret, or the object holding it is redacted
		w.hidden++
	}
}

// End closes the object Object opened.
func (w *FieldWriter) End() {
	if w.failed {
		return
	}
	if w.depth == 0 {
		w.failed = true
		return
	}
	w.depth--
	if w.hidden > 0 {
		w.hidden--
		return
	}
	w.d.buf = append(w.d.buf, '}')
}

// encoded is a record's fields as encoded: b, held by the pooled writer w when w is not nil (the
// direct paths), so that a record's bytes are not copied once more on their way to the
// committer, which releases w once it has copied b into its batch.
type encoded struct {
	b []byte
	w *directWriter
}

func (e *encoded) release() {
	if e.w != nil {
		e.w.release()
		*e = encoded{}
	}
}

// encodeRecord is the fields Append writes for r.
func (r redactor) encodeRecord(rec Record) ([]byte, error) {
	e, err := r.encodePooled(rec)
	if err != nil {
		return nil, err
	}
	out := e.b
	if e.w != nil {
		out = bytes.Clone(e.b)
		e.release()
	}
	return out, nil
}

// encodePooled is encodeRecord, leaving the bytes in a pooled writer where it can.
func (r redactor) encodePooled(rec Record) (encoded, error) {
	var out []byte
	var err error
	switch {
	case rec.Fixed != nil && rec.Fields != nil:
		return encoded{}, errors.New("ledger: a record has Fields or Fixed, not both")
	case rec.Fixed != nil:
		if w, ok := r.encodeFixedPooled(rec.Fixed); ok {
			return encoded{b: w.buf, w: w}, nil
		}
		out, err = r.encode(rec.Fixed.Fields())
	case len(rec.Fields) == 0:
		out = []byte("{}")
	default:
		if w, ok := r.encodeDirectPooled(rec.Fields); ok {
			return encoded{b: w.buf, w: w}, nil
		}
		out, err = r.encodeTree(rec.Fields)
	}
	if err != nil {
		return encoded{}, fmt.Errorf("ledger: %w", err)
	}
	return encoded{b: out}, nil
}

// EncodeFields returns the fields of r exactly as a journal opened with cfg writes them
// (redacted by cfg.RedactKeys and by value, truncated to cfg.MaxStringLength): for tests and
// tools that hold one way of building a record to another.
func EncodeFields(cfg Config, r Record) ([]byte, error) {
	return NewFieldEncoder(cfg).Encode(r)
}

// FieldEncoder is EncodeFields for many records under one cfg: its redactor's key automaton is
// built once, as a journal builds it when opened, rather than per record.
type FieldEncoder struct{ red redactor }

// NewFieldEncoder returns a FieldEncoder for cfg.
func NewFieldEncoder(cfg Config) FieldEncoder {
	if cfg.MaxStringLength == 0 {
		cfg.MaxStringLength = DefaultMaxStringLength
	}
	return FieldEncoder{red: newRedactor(cfg.RedactKeys, cfg.MaxStringLength)}
}

// Encode returns the fields of r exactly as a journal opened with the encoder's cfg writes them.
func (e FieldEncoder) Encode(r Record) ([]byte, error) { return e.red.encodeRecord(r) }

// encodeFixed encodes f through its FieldWriter, or through Fields when the writer gives up.
func (r redactor) encodeFixed(f FixedFields) ([]byte, error) {
	return r.encodeRecord(Record{Fixed: f})
}

// encodeFixedPooled writes f through a pooled writer's FieldWriter; ok false (the writer
// released) when it gave up.
func (r redactor) encodeFixedPooled(f FixedFields) (*directWriter, bool) {
	d := getDirectWriter(r)
	d.buf = append(d.buf, '{')
	w := &d.fixed
	*w = FieldWriter{d: d}
	f.WriteFields(w)
	ok := !w.failed && w.depth == 0
	*w = FieldWriter{} // the pool must not keep the caller's keys alive
	if !ok {
		d.release()
		return nil, false
	}
	d.buf = append(d.buf, '}')
	return d, true
}

// validNumber reports whether n is a JSON number encoding/json writes as it stands (it writes
// an empty one as 0).
func validNumber(n json.Number) bool {
	if n == "" {
		return false
	}
	s := canonScanner{b: []byte(n)}
	s.number()
	return s.err == nil && s.i == len(s.b)
}
