package ledger

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Redacted replaces the value of every key that looks secret.
const Redacted = "[REDACTED]"

// defaultRedactKeys are the key substrings that always redact, matched case-insensitively.
// passwd, passphrase and cookie are not covered by the others; pass names a credential only as
// a whole word of a longer name (DB_PASS, smtp-pass, userPass), never as the letters of another
// word ("passthrough", "bypass", "passed") nor as the bare "pass" (a test run's count of
// passes): credentialWord. A header map's Cookie and Set-Cookie values are credentials as
// much as its Authorization. pwd is the credential-assignment rule's name too (MYSQL_PWD=x,
// DB_PWD=x): under a key ({"MYSQL_PWD": x}, an env entry named so) it hides as much as in text,
// and the shell's bare PWD and OLDPWD stay (notACredentialName). Password and passphrase are
// also written as two words (Pass_Word, pass-phrase, "PASS WORD"), with each separator a key
// name uses.
var defaultRedactKeys = append([]string{"password", "passwd", "passphrase", wordPass, wordPwd, wordToken, wordSecret, wordKey, wordAuth, "credential", wordCookie},
	separatedSpellings("pass", "word", "phrase")...)

// separatedSpellings are first+sep+second for each second word and each separator key names use.
func separatedSpellings(first string, seconds ...string) []string {
	seps := []string{"_", "-", ".", " "}
	out := make([]string, 0, len(seps)*len(seconds))
	for _, second := range seconds {
		for _, sep := range seps {
			out = append(out, first+sep+second)
		}
	}
	return out
}

// redactor hides secret-looking values and shortens long strings before a record is written.
type redactor struct {
	keys   []string    // lower-case substrings
	keySet *keywordSet // keys, compiled; nil when there are none
	max    int         // longest string kept whole, in bytes
	values bool        // also redact credential-shaped values (RedactSecrets)
	// underProgram is set below a map's arguments (its args and extra members) when the map has a
	// program field: only that map's program reads them (redactProgramArgs), never a program field
	// they hold themselves, which a decoy ({"command": "kubectl", "extra": {"cmd": "sshpass -p",
	// "args": ["delete", ...]}}) would otherwise use to hide the real command's words.
	underProgram bool
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
		bits[i] = keyNameBit
		if i >= len(defaultRedactKeys) {
			bits[i] = extraKeyBit
		}
	}
	rw, rb, _ := ruleWords()
	return redactor{keys: keys, keySet: newKeywordSet(slices.Concat(keys, rw), slices.Concat(bits, rb)), max: maxLen, values: true}
}

// keyNameBit is the bit of the redactor's key set that says a key holds a default key word,
// extraKeyBit that it holds a key the AuditLedger added; the others are the redaction rules'
// (ruleWords), for keys that hold a credential.
const (
	keyNameBit  = 1 << 63
	extraKeyBit = 1 << 62
)

// secretScanned is secret for a key whose scan of the key set gave mask and ascii. A default
// key word names a secret unless the key, read by words, names none (notACredentialName: a
// max_tokens, an author); a key the AuditLedger added is a substring, as configured.
func (r redactor) secretScanned(key string, mask uint64, ascii bool) bool {
	if !ascii {
		return r.secret(key)
	}
	return mask&extraKeyBit != 0 || mask&keyNameBit != 0 && !notACredentialName(key)
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
	tree, err := jsonTree(fields)
	if err != nil {
		return nil, err
	}
	return appendCanonical(nil, r.value(tree))
}

// jsonTree is fields as encoding/json reads them back (maps, slices, strings, json.Number, bools
// and nils): the only shapes the redactor and appendCanonical walk.
func jsonTree(fields map[string]any) (any, error) {
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
	return tree, nil
}

// secret reports whether a key names a secret: it holds one of r.keys, ignoring case. ASCII keys
// (nearly all) are one pass of the compiled set; others are lower-cased as Unicode, which is
// the definition.
func (r redactor) secret(key string) bool {
	if r.keySet == nil {
		return false
	}
	if mask, ascii := r.keySet.scan(key); ascii {
		return r.secretScanned(key, mask, true)
	}
	k := foldKey(key)
	defaultWord := false
	for i, s := range r.keys {
		if strings.Contains(k, s) {
			if i >= len(defaultRedactKeys) {
				return true
			}
			defaultWord = true
		}
	}
	return defaultWord && !notACredentialName(k)
}

// foldKey is a non-ASCII key name as it reads: lower case, fullwidth letters and digits as
// their ASCII selves (ＰＡＳＳＷＯＲＤ), and without the format characters that do not show
// (a zero-width space, a soft hyphen: pass\u200bword reads "password").
func foldKey(key string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case 0xFF01 <= r && r <= 0xFF5E:
			r -= 0xFEE0
		case unicode.Is(unicode.Cf, r):
			return -1
		}
		return unicode.ToLower(r)
	}, key)
}

func (r redactor) value(v any) any {
	switch x := v.(type) {
	case string:
		if r.values {
			x = r.redactString(x) // before truncation, so a cut never leaves half a secret readable
		}
		return r.truncate(x)
	case []any:
		return r.list(x, true)
	case map[string]any:
		pair, paired := pairValueKey(r, x) // {"name": "DB_PASSWORD", "value": "x"}: hide the value
		if r.values && !r.underProgram {
			redactProgramArgs(x) // {"command": "mysql", "args": ["-pX"]}: one command line
		}
		args := r
		args.underProgram = r.values && hasProgramField(x)
		if !r.anyKeyRewritten(x) {
			// No key is cut, so none can collide: redact in place. The tree is the encoder's own
			// copy (plainTree or the round trip made it), never the caller's map; a new map per
			// level cost a rich decision four map allocations (docs/benchmarks-ledger.md).
			for k, e := range x {
				if r.secret(k) || paired && k == pair {
					x[k] = Redacted
				} else {
					x[k] = r.argsOrNot(args, k).member(k, e)
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
			if r.secret(k) || paired && k == pair {
				e = Redacted
			} else {
				e = r.argsOrNot(args, k).member(k, e)
			}
			nk := r.rewriteKey(k)
			// Two long keys that share their first max bytes would collide once truncated, two
			// credentials once redacted; number the later ones rather than silently drop a value.
			for i := 2; ; i++ {
				if _, taken := out[nk]; !taken {
					break
				}
				nk = fmt.Sprintf("%s#%d", r.rewriteKey(k), i)
			}
			out[nk] = e
		}
		return out
	default:
		return v
	}
}

// list redacts x in place; pairs says whether x may be a header's [name, value] pair.
func (r redactor) list(x []any, pairs bool) []any {
	if r.values {
		redactArgv(x) // ["--password", "x"]: the option's value is the next element
	}
	if pairs && isCredentialPair(r, x) {
		x[1] = Redacted // ["Authorization", "Basic x"]: a header as a [name, value] pair
	}
	for i := range x {
		x[i] = r.value(x[i])
	}
	return x
}

// member is the redaction of a map's member k, e. A list under "paths" (a call's, or an MCP
// tool's argument of that name) holds files, never a header pair: ["auth", "status"] are two of
// them, and hiding the second would lose what the call touched and make its decision unreplayable.
// argsOrNot is args for a map's arguments member (args, argv, arguments, extra), r for another.
func (r redactor) argsOrNot(args redactor, k string) redactor {
	if k == extraKey || isArgsKey(k) {
		return args
	}
	return r
}

func (r redactor) member(k string, e any) any {
	if l, ok := e.([]any); ok && k == "paths" {
		return r.list(l, false)
	}
	return r.value(e)
}

// anyKeyRewritten reports whether a key of m is not written as it is: cut, or holding a
// credential ({"ghp_…": "alice"}, a map keyed by tokens).
func (r redactor) anyKeyRewritten(m map[string]any) bool {
	for k := range m {
		if len(k) > r.max || r.values && keyHidesSecret(k) {
			return true
		}
	}
	return false
}

// rewriteKey is what a key is written as: its credentials redacted (by value, as a string is),
// then cut.
func (r redactor) rewriteKey(k string) string {
	if r.values {
		k = RedactSecrets(k)
	}
	return r.truncate(k)
}

// keyHidesSecret reports whether RedactSecrets changes key k.
func keyHidesSecret(k string) bool { return len(k) >= 8 && !hexLike(k) && RedactSecrets(k) != k }

// redactString is a string value redacted: a JSON document in it as the record's own fields
// are (keys and values, at any depth), then credential shapes in the text.
func (r redactor) redactString(s string) string {
	if looksLikeJSON(s) {
		if out, ok := r.redactJSONText(s); ok {
			s = out
		}
	}
	return RedactSecrets(s)
}

// looksLikeJSON reports whether s starts, after white space, as a JSON object or array: a
// document an MCP client passed as a string argument ({"password": "x"}), where neither a key
// name nor a credential shape of the text rules is seen.
// An array must start like one too: "[ToolSafetyViolation] …", a denial message, does not.
func looksLikeJSON(s string) bool {
	// Every string of a record comes here: a byte loop, not strings.TrimLeft, which builds its
	// cut set on each call.
	i := skipJSONSpace(s, 0)
	if i == len(s) || s[i] != '{' && s[i] != '[' {
		return false
	}
	if s[i] == '{' {
		return true
	}
	i = skipJSONSpace(s, i+1)
	if i == len(s) {
		return false
	}
	switch c := s[i]; {
	case c == '"' || c == '{' || c == '[' || c == ']' || c == '-' || '0' <= c && c <= '9':
		return true
	}
	rest := s[i:]
	return strings.HasPrefix(rest, "true") || strings.HasPrefix(rest, "false") || strings.HasPrefix(rest, "null")
}

func skipJSONSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// redactJSONText redacts the JSON document s as a record's fields and returns it re-encoded
// canonically, if that changed anything; a string that is not one JSON document is left to
// the text rules (ok false).
func (r redactor) redactJSONText(s string) (string, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return "", false
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", false // more after the document: not one
	}
	before, err := appendCanonical(nil, tree)
	if err != nil {
		return "", false
	}
	after, err := appendCanonical(nil, r.value(tree))
	if err != nil || bytes.Equal(before, after) {
		return "", false
	}
	return string(after), true
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
