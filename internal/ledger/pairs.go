package ledger

import "strings"

// A list of settings often names each entry in one field and holds its value in another:
// Kubernetes' env ({"name": "DB_PASSWORD", "value": "x"}), HTTP headers as HAR files, Postman
// and fetch-style MCP tools write them ({"name"|"key": "Authorization", "value": "Token x"}),
// CloudFormation's {"ParameterKey": "DbPassword", "ParameterValue": "x"}. The value's own key
// says nothing, so key-name redaction alone records the secret; the entry's name says what it
// is. pairValueKey finds such an entry: a name field whose string is a credential name, read
// as a key is (secret: max_tokens, TOKEN_FILE and a bare key stay), and its value field.

// pairNameKeys and pairValueKeys are the field names of a named entry, matched ignoring case.
var (
	pairNameKeys  = []string{"name", "key", "parameterkey"}
	pairValueKeys = []string{"value", "parametervalue"}
)

// pairValueKey returns the key of m's value field when m is an entry whose name field names a
// credential; ok false otherwise. Only maps with both fields pay more than a length check.
func pairValueKey[V any](r redactor, m map[string]V) (key string, ok bool) {
	if len(m) < 2 {
		return "", false
	}
	named := false
	for k, v := range m {
		if s, isString := any(v).(string); isString && oneOf(k, pairNameKeys) && r.secret(s) {
			named = true
			break
		}
	}
	if !named {
		return "", false
	}
	for k := range m {
		if oneOf(k, pairValueKeys) {
			return k, true
		}
	}
	return "", false
}

func oneOf(k string, names []string) bool {
	for _, n := range names {
		if len(k) == len(n) && strings.EqualFold(k, n) {
			return true
		}
	}
	return false
}
