package ledger

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// Redacted replaces the value of every key that looks secret.
const Redacted = "[REDACTED]"

// defaultRedactKeys are the key substrings that always redact, matched case-insensitively.
var defaultRedactKeys = []string{"password", "token", "secret", "key", "auth", "credential"}

// redactor hides secret-looking values and shortens long strings before a record is written.
type redactor struct {
	keys   []string // lower-case substrings
	max    int      // longest string kept whole, in bytes
	values bool     // also redact credential-shaped values (RedactSecrets)
}

func newRedactor(extra []string, maxLen int) redactor {
	keys := append([]string(nil), defaultRedactKeys...)
	for _, k := range extra {
		if k = strings.ToLower(strings.TrimSpace(k)); k != "" {
			keys = append(keys, k)
		}
	}
	return redactor{keys: keys, max: maxLen, values: true}
}

// encode turns caller fields into canonical JSON: encoded with encoding/json (so structs, times
// and numbers encode as callers expect), decoded back into a plain tree, redacted, truncated and
// written canonically.
func (r redactor) encode(fields map[string]any) ([]byte, error) {
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

func (r redactor) secret(key string) bool {
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
		out := make(map[string]any, len(x))
		// Keys are visited in order only when one is long enough to be cut: then two may
		// collide, and the numbering must not depend on map order.
		keys := maps.Keys(x)
		if r.anyLongKey(x) {
			keys = slices.Values(slices.Sorted(keys))
		}
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
func (r redactor) truncate(s string) string {
	if len(s) <= r.max {
		return s
	}
	cut := r.max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s…[truncated %d bytes]", s[:cut], len(s)-cut)
}
