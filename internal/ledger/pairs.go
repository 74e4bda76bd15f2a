package ledger

import "strings"

// A list of settings often names each entry in one field and holds its value in another:
// Kubernetes' env ({"name": "DB_PASSWORD", "value": "x"}), HTTP headers as HAR files, Postman
// and fetch-style MCP tools write them ({"name"|"key": "Authorization", "value": "Token x"}),
// CloudFormation's {"ParameterKey": "DbPassword", "ParameterValue": "x"}. The value's own key
// says nothing, so key-name redaction alone records the secret; the entry's name says what it
// is. pairValueKey finds such an entry: a name field whose string is a credential name, read
// as a key is (secret: max_tokens, TOKEN_FILE and a bare key stay), and its value field.

// pairValueKey returns the key of m's value field when m is an entry whose name field names a
// credential; ok false otherwise.
func pairValueKey[V any](r redactor, m map[string]V) (key string, ok bool) {
	if len(m) < 2 {
		return "", false
	}
	named := false
	for k, v := range m {
		if s, isString := any(v).(string); isString && isPairName(k) && r.secret(s) {
			named = true
			break
		}
	}
	if !named {
		return "", false
	}
	for k := range m {
		if isPairValue(k) {
			return k, true
		}
	}
	return "", false
}

// hasPairedSecret is pairValueKey's answer for the direct encoder's entries of a map, which it
// has collected already: a slice is cheaper to walk than the map again, on every map of every record.
func hasPairedSecret[V any](r redactor, ents []entry2[V]) bool {
	if len(ents) < 2 {
		return false
	}
	named, valued := false, false
	for i := range ents {
		k := ents[i].k
		switch {
		case isPairValue(k):
			valued = true
		case isPairName(k):
			s, isString := any(ents[i].v).(string)
			named = named || isString && r.secret(s)
		}
	}
	return named && valued
}

// isPairName and isPairValue are the field names of a named entry, matched ignoring case: "name",
// "key" or "ParameterKey", and "value" or "ParameterValue". A length and first-byte test first:
// every map of every record asks.
func isPairName(k string) bool {
	switch len(k) {
	case 3:
		return k[0]|0x20 == 'k' && strings.EqualFold(k, "key")
	case 4:
		return k[0]|0x20 == 'n' && strings.EqualFold(k, "name")
	case 12:
		return k[0]|0x20 == 'p' && strings.EqualFold(k, "parameterkey")
	}
	return false
}

func isPairValue(k string) bool {
	switch len(k) {
	case 5:
		return k[0]|0x20 == 'v' && strings.EqualFold(k, "value")
	case 14:
		return k[0]|0x20 == 'p' && strings.EqualFold(k, "parametervalue")
	}
	return false
}

// A header list as fetch's Headers init, undici, and curl-like or HAR-ish MCP tools write it
// holds each header as a [name, value] pair: [["Authorization", "Basic x"], ["Accept", "*/*"]].
// The value has no key of its own; the pair's first string names it, read as a key is (so
// ["token_count", "5"], ["key", "k"] and an argument vector such as ["ls", "-la"] stay).

// isCredentialPair reports whether list is such a pair: exactly two strings, the first naming a
// credential, the second not hidden yet. The name must be written as a header or a variable is
// (letters, digits, '-' and '_'): two paths (["auth/login.go", "auth/login_test.go"]) are no pair.
// Key-name redaction, not value redaction: it applies whatever r.values says, as pairValueKey does.
func isCredentialPair[V any](r redactor, list []V) bool {
	if len(list) != 2 {
		return false
	}
	name, ok := any2string(list[0])
	if !ok || !isHeaderLikeName(name) {
		return false
	}
	value, ok := any2string(list[1])
	return ok && value != Redacted && r.secret(name)
}

// isHeaderLikeName reports whether s could be a header or variable name: 1 to 128 ASCII letters,
// digits, '-' and '_'.
func isHeaderLikeName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		letter := 'a' <= s[i]|0x20 && s[i]|0x20 <= 'z'
		digit := '0' <= s[i] && s[i] <= '9'
		if !letter && !digit && s[i] != '-' && s[i] != '_' {
			return false
		}
	}
	return true
}
