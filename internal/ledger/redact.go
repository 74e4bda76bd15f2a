package ledger

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Redacted replaces the value of every key that looks secret.
const Redacted = "[REDACTED]"

// defaultRedactKeys are the key substrings that always redact, matched case-insensitively.
var defaultRedactKeys = []string{"password", wordToken, "secret", "key", "auth", "credential"}

// redactor hides secret-looking values and shortens long strings before a record is written.
type redactor struct {
	keys   []string    // lower-case substrings
	keySet *keywordSet // keys, compiled; nil when there are none
	max    int         // longest string kept whole, in bytes
	values bool        // also redact credential-shaped values (RedactSecrets)
}

func newRedactor(extra []string, maxLen int) redactor {
	keys := append([]string(nil), defaultRedactKeys...)
	for _, k := range extra {
		if k = strings.ToLower(strings.TrimSpace(k)); k != "" {
			keys = append(keys, k)
		}
	}
	bits := make([]uint64, len(keys))
	for i := range bits {
		bits[i] = 1
	}
	return redactor{keys: keys, keySet: newKeywordSet(keys, bits), max: maxLen, values: true}
}

// encode turns caller fields into canonical JSON, redacted and truncated. The direct encoder
// (encode_direct.go) writes the values webhooks and controllers send; encodeTree defines the
// output and takes whatever the direct encoder gives up on.
func (r redactor) encode(fields map[string]any) ([]byte, error) {
	if len(fields) == 0 {
		return []byte("{}"), nil
	}
	if out, ok := r.encodeDirect(fields); ok {
		return out, nil
	}
	return r.encodeTree(fields)
}

// encodeTree encodes with encoding/json (so structs, times and numbers encode as callers
// expect), decodes back into a plain tree, redacts, truncates and writes it canonically. Fields
// of plain types skip the round trip (plainTree), with the same result.
func (r redactor) encodeTree(fields map[string]any) ([]byte, error) {
	if len(fields) == 0 {
		return []byte("{}"), nil
	}
	if tree, ok := plainTree(fields); ok {
		return appendCanonical(nil, r.value(tree))
	}
	return r.encodeRoundTrip(fields)
}

// encodeRoundTrip is encode for any fields: through encoding/json and back.
func (r redactor) encodeRoundTrip(fields map[string]any) ([]byte, error) {
	raw, err := json.Marshal(fields)
	if err != nil {
		return nil, fmt.Errorf("encoding record fields: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, fmt.Errorf("decoding record fields: %w", err)
	}
	return appendCanonical(nil, r.value(tree))
}

// secret reports whether a key names a secret: it holds one of r.keys, ignoring case. ASCII keys
// (nearly all) are one pass of the compiled set; others are lower-cased as Unicode, which is
// the definition.
func (r redactor) secret(key string) bool {
	if r.keySet == nil {
		return false
	}
	if mask, ascii := r.keySet.scan(key); ascii {
		return mask != 0
	}
	k := strings.ToLower(key)
	for _, s := range r.keys {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}

func (r redactor) value(v any) any {
	switch x := v.(type) {
	case string:
		if r.values {
			x = RedactSecrets(x) // before truncation, so a cut never leaves half a secret readable
		}
		return r.truncate(x)
	case []any:
		for i := range x {
			x[i] = r.value(x[i])
		}
		return x
	case map[string]any:
		if !r.anyLongKey(x) {
			// No key is cut, so none can collide: redact in place. The tree is the encoder's own
			// copy (plainTree or the round trip made it), never the caller's map; a new map per
			// level cost a rich decision four map allocations (docs/benchmarks-ledger.md).
			for k, e := range x {
				if r.secret(k) {
					x[k] = Redacted
				} else {
					x[k] = r.value(e)
				}
			}
			return x
		}
		out := make(map[string]any, len(x))
		// A key long enough to be cut may collide with another once cut: visit them in order, so
		// the numbering does not depend on map order.
		keys := slices.Values(slices.Sorted(maps.Keys(x)))
		for k := range keys {
			e := x[k]
			if r.secret(k) {
				e = Redacted
			} else {
				e = r.value(e)
			}
			nk := r.truncate(k)
			// Two long keys that share their first max bytes would collide once truncated;
			// number the later ones rather than silently drop a value.
			for i := 2; ; i++ {
				if _, taken := out[nk]; !taken {
					break
				}
				nk = fmt.Sprintf("%s#%d", r.truncate(k), i)
			}
			out[nk] = e
		}
		return out
	default:
		return v
	}
}

func (r redactor) anyLongKey(m map[string]any) bool {
	for k := range m {
		if len(k) > r.max {
			return true
		}
	}
	return false
}

// truncate cuts s to at most max bytes on a rune boundary and appends a marker saying how many
// bytes were cut, so a reader knows the value is incomplete.
func (r redactor) truncate(s string) string { return truncate(s, r.max) }

func truncate(s string, maxLen int) string {
	if len(s) <= maxLen {
		return s
	}
	cut := maxLen
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…[truncated " + strconv.Itoa(len(s)-cut) + " bytes]"
}
