package ledger

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// FuzzDirectEncoderMatchesTheTreePath: for any JSON object (numbers made integers where they
// are, lists of strings made []string and maps of strings map[string]string, so the direct
// encoder's every case is reached), encode gives the tree path's bytes, or both fail.
func FuzzDirectEncoderMatchesTheTreePath(f *testing.F) {
	seedObjects(f)
	f.Fuzz(func(t *testing.T, in []byte, maxLen uint8, values bool) {
		fields, redactors, ok := fuzzFields(in, maxLen, values)
		if !ok {
			return
		}
		for _, r := range redactors {
			got, err := r.encode(fields)
			want, werr := r.encodeTree(fields)
			if (err == nil) != (werr == nil) || !bytes.Equal(got, want) {
				t.Fatalf("fields %q:\nencode %s (%v)\ntree   %s (%v)", fields, got, err, want, werr)
			}
		}
	})
}

// plainify turns a decoded JSON tree into the types callers hand the journal.
func plainify(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		return x // a fraction or exponent: the direct encoder writes its text, as the round trip does
	case []any:
		strs := make([]string, 0, len(x))
		for i, e := range x {
			x[i] = plainify(e)
			if s, ok := x[i].(string); ok {
				strs = append(strs, s)
			}
		}
		if len(x) > 0 && len(strs) == len(x) {
			return strs
		}
		return x
	case map[string]any:
		strs := make(map[string]string, len(x))
		for k, e := range x {
			x[k] = plainify(e)
			if s, ok := x[k].(string); ok {
				strs[k] = s
			}
		}
		if len(x) > 0 && len(strs) == len(x) && len(x)%2 == 0 { // keep some as map[string]any
			return strs
		}
		return x
	}
	return v
}

// redactSecretsReference is RedactSecrets as defined before the keyword automaton: lower-cased
// copy, a substring search per keyword.
func redactSecretsReference(s string) string {
	if len(s) < 8 || hexLike(s) {
		return s
	}
	return redactSecretsLowered(s)
}

func TestRedactSecretsMatchesTheLoweredPath(t *testing.T) {
	for _, s := range []string{
		"AKIAABCDEFGHIJKLMNOP", "x AKIAABCDEFGHIJKLMNOP --token=abc", "Authorization: Bearer abcdefgh12345",
		"https://u:p4ssw0rd@h", "--api-\u212aey=abcdefgh", "PASSWORD=x TOKEN=y", "nothing to see here at all",
	} {
		if got, want := RedactSecrets(s), redactSecretsReference(s); got != want {
			t.Errorf("RedactSecrets(%q) = %q, the lowered path gives %q", s, got, want)
		}
	}
}

func FuzzRedactSecretsMatchesTheLoweredPath(f *testing.F) {
	f.Add("x AKIAABCDEFGHIJKLMNOP --token=abc")
	f.Add("curl -H 'Authorization: Bearer abcdefgh12345' https://u:pw@h/ -----BEGIN PRIVATE KEY-----")
	f.Add("--api-\u212aey=abcdefgh")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := RedactSecrets(s), redactSecretsReference(s); got != want {
			t.Fatalf("RedactSecrets(%q) = %q, the lowered path gives %q", s, got, want)
		}
	})
}

// FuzzKeywordSet: scan finds exactly the keywords strings.Contains finds in the lower-cased
// ASCII string, for the rules' keywords and for a redactor's key names.
func FuzzKeywordSet(f *testing.F) {
	f.Add("Authorization: bEaReR x://@ gHp_ sk-sk_ PRIVATE KEY")
	f.Add("aaakiaakia3tt passwd pwdtoken secretkeycred")
	f.Fuzz(func(t *testing.T, s string) {
		mask, ascii := ruleKeywords.scan(s)
		if ascii != isASCII(s) {
			t.Fatalf("ascii = %v for %q", ascii, s)
		}
		if !ascii {
			return
		}
		lower := strings.ToLower(s)
		var want uint64
		for i, r := range secretRules {
			if containsAny(lower, r.keywords) {
				want |= 1 << (2 * i)
			}
			if containsAny(lower, r.requires) {
				want |= 1 << (2*i + 1)
			}
		}
		if mask != want {
			t.Fatalf("scan(%q) = %b, want %b", s, mask, want)
		}
		red := newRedactor([]string{"sandbox", "ab", "aab"}, 64)
		// The definition: an added key as a substring, a default key word unless the name, read
		// by words, names no credential (000pAss is the words 000p and ass).
		defaultWord, extraKey := false, false
		for i, k := range red.keys {
			if strings.Contains(lower, k) {
				if i < len(defaultRedactKeys) {
					defaultWord = true
				} else {
					extraKey = true
				}
			}
		}
		wantSecret := extraKey || defaultWord && !notACredentialName(s)
		if red.secret(s) != wantSecret {
			t.Fatalf("secret(%q) = %v, want %v", s, !wantSecret, wantSecret)
		}
	})
}

// FuzzAnchoredRulesMatchTheirExpression: a rule tried only where its start words are finds
// exactly the matches its expression finds everywhere.
func FuzzAnchoredRulesMatchTheirExpression(f *testing.F) {
	f.Add(`curl -H "Authorization: Bearer abcdefghijklmnop0123" https://x && bearer  tokentokentoken`)
	f.Add("xauthorization=basic abcdefgh AUTHORIZATION:bearerabc_12345678 bearer short Bearer\tabcdefgh1")
	f.Add("authorization: bearer\u212a12345678")
	f.Add("Authorization:basicabcdefgh authorization = token short authorization:\f digest  x12345678 bearer\vabcdefgh")
	f.Add("Authorization:A0000000\r00000000 authorization:\vx\vabcdefgh1 bearer\u00a0abcdefgh2 bearer\u0085abcdefgh3")
	f.Add("authorization:bearer=abc authorization==abcdefgh xbearer abcdefghij authorization\t:\ttoken\tabcdefgh/+~=")
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range secretRules {
			if _, ok := anchoredRules[r.id]; !ok {
				continue
			}
			got, want := r.locate(s), r.re.FindAllStringSubmatchIndex(s, -1)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("rule %s on %q: located %v, the expression finds %v", r.id, s, got, want)
			}
		}
	})
}

// seedObjects seeds a fuzz target with directEncoderCases, at two string limits, with value
// redaction on and off.
func seedObjects(f *testing.F) {
	f.Helper()
	for _, fields := range directEncoderCases() {
		raw, err := json.Marshal(fields)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw, uint8(16), true)
		f.Add(raw, uint8(200), false)
	}
}

// fuzzFields reads a fuzz input as a JSON object made plain (plainify) and the redactors to
// encode it with: one with the input's settings and the internal one. ok is false for input
// that is no JSON object.
func fuzzFields(in []byte, maxLen uint8, values bool) (fields map[string]any, redactors []redactor, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(in))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil {
		return nil, nil, false
	}
	fields, _ = plainify(m).(map[string]any)
	r := newRedactor([]string{"extra", "é"}, int(maxLen))
	r.values = values
	return fields, []redactor{r, internalRedactor}, true
}
