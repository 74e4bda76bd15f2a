package argrules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/toolgate/toolgate/internal/jsonobject"
)

// Bounds on the extra arguments of one call. They keep a call small in etcd and in the ledger,
// and bound what a rule can cost: the cost estimator assumes no list, map or string is larger.
const (
	// MaxExtraBytes bounds the canonical JSON encoding of the extra arguments.
	MaxExtraBytes = 16 << 10
	// MaxDepth bounds how deeply objects and arrays nest (the top-level object is depth 1).
	MaxDepth = 16
	// MaxValues bounds how many values (scalars, arrays and objects) the arguments hold.
	MaxValues = 1024
)

// ExtraError is extra arguments that are refused; Message says why.
type ExtraError struct{ Message string }

func (e *ExtraError) Error() string { return e.Message }

func extraErr(format string, args ...any) error {
	return &ExtraError{Message: fmt.Sprintf(format, args...)}
}

// ParseExtra decodes raw (a JSON object, or empty or null for none) into the values CEL sees:
// map[string]any, []any, string, int64 (integers that fit), float64, bool and nil. It refuses,
// with an *ExtraError, input that is not one JSON object, larger than MaxExtraBytes, nested
// deeper than MaxDepth or holding more than MaxValues values, a key repeated in one object
// (encoding/json would keep the last, another decoder the first), two keys of one object that
// differ only in case or Unicode compatibility form, a key not in NFKC form (a full-width
// "ａｍｏｕｎｔ" is not "amount"), a key with control or invisible format characters, invalid UTF-8
// and numbers beyond float64.
func ParseExtra(raw []byte) (map[string]any, error) {
	return parseObject(raw, MaxExtraBytes)
}

// ParseObject is ParseExtra with another bound on the canonical size: a front door decodes a
// tool's whole arguments with it (pkg/toolcall), before splitting off the command, paths and
// working directory, so that what the engine checks is exactly what the tool is sent. Its
// refusals speak of the tool's arguments ("argument path holds a NUL character"), not of extra
// arguments: the value refused may be a path or the command.
func ParseObject(raw []byte, maxCanonical int) (map[string]any, error) {
	obj, err := parseObject(raw, maxCanonical)
	if ee, ok := errors.AsType[*ExtraError](err); ok {
		// Every message starts with "extra argument", the package's own words, never the agent's.
		return nil, &ExtraError{Message: strings.TrimPrefix(ee.Message, "extra ")}
	}
	return obj, err
}

func parseObject(raw []byte, maxCanonical int) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	if len(raw) > 4*maxCanonical { // whitespace is free in JSON, but not unlimited
		return nil, extraErr("extra arguments are %d bytes, more than %d", len(raw), 4*maxCanonical)
	}
	if !utf8.Valid(raw) {
		return nil, extraErr("extra arguments are not valid UTF-8")
	}
	p := &parser{dec: json.NewDecoder(bytes.NewReader(raw)), raw: raw}
	p.dec.UseNumber()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, extraErr("extra arguments are not JSON: %v", err)
	}
	if tok != json.Delim('{') {
		return nil, extraErr("extra arguments must be a JSON object")
	}
	obj, err := p.object(1, "", "")
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); !errors.Is(err, io.EOF) {
		return nil, extraErr("extra arguments hold more than one JSON value")
	}
	if n, err := canonicalSize(obj); err != nil || n > maxCanonical {
		return nil, extraErr("extra arguments are %d bytes as canonical JSON, more than %d", n, maxCanonical)
	}
	return obj, nil
}

// Canonical is the canonical JSON of parsed extra arguments: keys sorted, no insignificant space.
// Equal arguments have equal canonical forms, whatever order or spacing the agent used.
func Canonical(extra map[string]any) []byte {
	if extra == nil {
		return nil
	}
	b, err := json.Marshal(extra)
	if err != nil { // ParseExtra's values always marshal
		panic(err)
	}
	return b
}

func canonicalSize(v map[string]any) (int, error) {
	b, err := json.Marshal(v)
	return len(b), err
}

type parser struct {
	dec    *json.Decoder
	raw    []byte // what dec reads, for a string's text as written (checkString)
	values int
}

func (p *parser) count(path string) error {
	p.values++
	if p.values > MaxValues {
		return extraErr("extra arguments hold more than %d values (at %s)", MaxValues, pathOr(path))
	}
	return nil
}

var folder = cases.Fold()

// object decodes an object, the value of the key parent ("" at the top level and in an array).
func (p *parser) object(depth int, path, parent string) (map[string]any, error) {
	if depth > MaxDepth {
		return nil, extraErr("extra arguments nest deeper than %d levels (at %s)", MaxDepth, pathOr(path))
	}
	if err := p.count(path); err != nil {
		return nil, err
	}
	obj := map[string]any{}
	folded := map[string]string{}
	for key, err := range jsonobject.Members(p.dec) { // the values, read here, and the closing brace
		if err != nil {
			return nil, extraErr("extra arguments are not JSON: %v", err)
		}
		keyPath := path + "." + key
		if err := checkKey(key, keyPath); err != nil {
			return nil, err
		}
		if prototypeKey(parent, key) {
			return nil, extraErr("extra argument key %s (at %s) reaches a JavaScript object's prototype "+
				"(__proto__, constructor.prototype); a JavaScript tool merging it would change every object it has",
				strconv.Quote(key), pathOr(keyPath))
		}
		if _, dup := obj[key]; dup {
			return nil, extraErr("extra arguments repeat the key %s", strconv.Quote(keyPath[1:]))
		}
		f := fold(key)
		if other, ok := folded[f]; ok {
			return nil, extraErr("extra arguments hold the keys %q and %q, which differ only in case or form", other, key)
		}
		folded[f] = key
		v, err := p.value(depth, keyPath, key)
		if err != nil {
			return nil, err
		}
		obj[key] = v
	}
	return obj, nil
}

func (p *parser) array(depth int, path string) ([]any, error) {
	if depth > MaxDepth {
		return nil, extraErr("extra arguments nest deeper than %d levels (at %s)", MaxDepth, pathOr(path))
	}
	if err := p.count(path); err != nil {
		return nil, err
	}
	arr := []any{}
	for p.dec.More() {
		v, err := p.value(depth, fmt.Sprintf("%s[%d]", path, len(arr)), "")
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
	}
	if _, err := p.dec.Token(); err != nil { // the closing bracket
		return nil, extraErr("extra arguments are not JSON: %v", err)
	}
	return arr, nil
}

// value decodes the value of key, or ("") one inside an array; depth is its container's.
func (p *parser) value(depth int, path, key string) (any, error) {
	start := p.dec.InputOffset()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, extraErr("extra arguments are not JSON: %v", err)
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return p.object(depth+1, path, key)
		}
		return p.array(depth+1, path)
	case json.Number:
		if err := p.count(path); err != nil {
			return nil, err
		}
		return number(t, path)
	case string:
		if err := p.count(path); err != nil {
			return nil, err
		}
		if err := checkString(t, p.raw[start:p.dec.InputOffset()], path); err != nil {
			return nil, err
		}
		return t, nil
	default: // bool, nil
		if err := p.count(path); err != nil {
			return nil, err
		}
		return t, nil
	}
}

// number is an int64 when the literal is an integer that fits, otherwise a float64: CEL then
// compares 399 and 399.5 with 400 alike (cross-type numeric comparisons are on). A literal a
// float64 cannot hold exactly as written (99999999999999999999, 400.00000000000000001) is
// refused: the call, its digest and the ledger would record a neighbour of what the tool is sent,
// so a rule, an approval and the record would all judge another number. So is an integer a
// float64 cannot hold (9007199254740993): a tool that decodes numbers as float64 gets another.
func number(n json.Number, path string) (any, error) {
	if !strings.ContainsAny(string(n), ".eE") {
		if i, err := n.Int64(); err == nil {
			if f := float64(i); f >= 0x1p63 || int64(f) != i {
				// Beyond 2^53 not every integer is a float64, which is what JavaScript's
				// JSON.parse (and many a tool's decoder) reads: a rule would judge 2^53+1 and
				// the tool get 2^53.
				return nil, extraErr("extra argument %s is %s, which a float64 (JavaScript's number) holds only as %s; "+
					"send an integer that large as a string", pathOr(path), string(n), strconv.FormatFloat(f, 'f', -1, 64))
			}
			return i, nil
		}
	}
	f, err := n.Float64()
	if err != nil || math.IsInf(f, 0) {
		return nil, extraErr("extra argument %s is a number out of range", pathOr(path))
	}
	if !exactFloat(string(n), f) {
		return nil, extraErr("extra argument %s is %s, which a float64 holds only as %s; send a number that "+
			"precise as a string", pathOr(path), shortened(string(n)), strconv.FormatFloat(f, 'g', -1, 64))
	}
	return f, nil
}

// shortened is a literal short enough for a message.
func shortened(literal string) string {
	if len(literal) > 40 {
		return literal[:40] + "..."
	}
	return literal
}

// exactFloat says whether f, parsed from the JSON number literal, is the literal's value: the
// shortest form of f names the same decimal. Every literal of at most 15 significant digits is
// (a float64 holds 15 decimal digits), except where f is subnormal.
func exactFloat(literal string, f float64) bool {
	switch digits := significantDigits(literal); {
	case f == 0:
		return digits == 0 // 1e-400 is not 0
	case digits <= 15 && math.Abs(f) >= 0x1p-1022:
		return true
	case digits > 17:
		return false // the shortest form of a float64 has at most 17: never the same decimal
	}
	written, ok1 := new(big.Rat).SetString(literal)
	held, ok2 := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	return ok1 && ok2 && written.Cmp(held) == 0
}

// significantDigits counts the digits of a JSON number's mantissa from its first non-zero one to
// its last non-zero one.
func significantDigits(literal string) int {
	if i := strings.IndexAny(literal, "eE"); i >= 0 {
		literal = literal[:i]
	}
	first, last, n := -1, -1, 0
	for i := 0; i < len(literal); i++ {
		c := literal[i]
		if c < '0' || c > '9' {
			continue
		}
		if c != '0' {
			if first < 0 {
				first = n
			}
			last = n
		}
		n++
	}
	if first < 0 {
		return 0
	}
	return last - first + 1
}

// fold is the form two keys must not share: case-folded NFKC. ASCII needs neither table.
func fold(key string) string {
	if isASCII(key) {
		return strings.ToLower(key)
	}
	return folder.String(norm.NFKC.String(key))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func checkKey(key, path string) error {
	if key == "" {
		return extraErr("extra arguments hold an empty key (at %s)", pathOr(path[:len(path)-1]))
	}
	if isASCII(key) { // printable ASCII is NFKC and holds no format characters
		for i := 0; i < len(key); i++ {
			if c := key[i]; c < 0x20 || c == 0x7f {
				return extraErr("extra argument key %s holds a control or invisible character (%U)",
					strconv.QuoteToASCII(key), rune(c))
			}
		}
		return nil
	}
	for _, r := range key {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError {
			return extraErr("extra argument key %s holds a control or invisible character (%U)", strconv.QuoteToASCII(key), r)
		}
	}
	if !norm.NFKC.IsNormalString(key) {
		return extraErr("extra argument key %s is not in Unicode NFKC form; spell it %s",
			strconv.QuoteToASCII(key), strconv.Quote(norm.NFKC.String(key)))
	}
	return nil
}

func pathOr(path string) string {
	if path == "" {
		return "the top level"
	}
	return strings.TrimPrefix(path, ".")
}
