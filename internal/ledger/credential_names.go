package ledger

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Names that hold a credential's word but do not name a credential. A key, an option or an
// assignment is redacted by its name when the name holds a credential's word (token, secret,
// key, auth, password ...), which is right for DB_PASSWORD, x-api-key and client.secret, and
// wrong for max_tokens, tokenizer, secret_name, --token-file, author, keyboard and
// AWS_ACCESS_KEY_ID: there the value is a count, a name, a path or an id, and hiding it takes
// evidence from the ledger (a model's max_tokens is in most agents' tool calls) and from replay
// (an argument rule that reads it cannot be checked). The defaults cannot be taken back by the
// AuditLedger's spec (extraKeys only adds), so they are read by words here, not as substrings.
//
// A name is read as words: split at every byte that is no letter or digit and where a lower-case
// letter meets an upper-case one (maxTokens, secretKeyRef). A word that holds a credential's
// word (authtoken, apikey, DB_PASSWORD's password) names a credential unless
//   - it is another word that holds the letters (tokenizer, author, keyboard, secretary), or
//   - the first word after it (and after any credential words next to it: secret_key_ref) says
//     what about the credential the value is (file, path, name, id, count, ttl, url ...), or
//   - the word before it counts or locates (max_tokens, next_token, primary_key, public_key).
// The name is no credential's when none of its words names one; the bare names key and keys
// (a key-value store's key, sort --key), pass (a test run's count of passes) and the shell's
// PWD and OLDPWD are not credentials'. pass is a credential's word only as a whole word, and the
// name's last (DB_PASS, userPass): bypass, passthrough and passed hold its letters, and in
// pass_through, pass_rate and pass_fail it is no credential's.

// credentialWords are the words whose presence in a word makes it a credential's: the default
// key words, pwd among them (pass_word and pass-phrase are joined by nameWords).
var credentialWords = defaultRedactKeys

// otherWords hold a credential word's letters and mean something else.
var otherWords = setOf("tokenizer", "tokenizers", "tokenize", "tokenized", "tokenizes", "tokenizing",
	"tokenization", "detokenize", "detokenizer", "secretary", "secretaries", "keyboard", "keyboards",
	"keyword", "keywords", "keynote", "keyframe", "keyframes", "keystroke", "keystrokes", "keypad",
	"keyspace", "keyspaces", "monkey", "donkey", "turkey", "hockey", "jockey", "whiskey", "author",
	"authors", "authored", "authoring", "authorship", "authority", "authorities", "passwordless",
	"tokenless", "keyless", "cookiecutter")

// aboutWords, after a credential's word, make the value something about the credential.
var aboutWords = setOf("file", "files", "path", "paths", "dir", "directory", "name", "names", "id", "ids",
	"count", "counts", "ttl", "type", "types", "kind", "len", "length", "size", "bits", "limit", "limits",
	"budget", "expiry", "expires", "expiration", "lifetime", "age", "url", "uri", "endpoint", "env", "var",
	"ref", "refs", "jar", "format", "version", "algorithm", "algo", "usage", "rotation",
	"prefix", "hint", "policy", "source", "mount", "provider", "label", "index", "field", "param",
	"method", "mode", "scheme", "enabled", "disabled", "required", "command", "cmd", "helper")

// countingWords, before a credential's word, make it a count or a locator: an LLM's token
// counts, a pagination cursor, a database's or a map's key, a key that is public.
var countingWords = setOf("max", "min", "num", "number", "total", "prompt", "completion", "input",
	"output", "cached", "reasoning", "remaining", "used", "estimated", "next", "page", "continuation",
	"pagination", "primary", "foreign", "sort", "partition", "cache", "idempotency", "object", "hash",
	"range", "public", "lookup", "routing", "shard", "row", "group", "dedup", "unique", "composite")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// notACredentialName reports whether name, which holds a credential's word somewhere, names no
// credential by the reading above. It runs on every credential-named match and key, so it
// allocates at most the lower-cased name.
func notACredentialName(name string) bool {
	var buf [16]string
	words := nameWords(name, buf[:0])
	if len(words) == 1 {
		switch words[0] {
		case wordKey, "keys", wordPwd, "oldpwd", wordPass:
			return true
		}
	}
	for i := 0; i < len(words); {
		if !credentialWord(words[i]) {
			i++
			continue
		}
		j := i
		for j < len(words) && credentialWord(words[j]) {
			j++
		}
		// words[i:j] are credential words next to each other (secret_key, api_key's key).
		if words[j-1] == wordPass && j < len(words) {
			i = j // pass names a credential as a name's last word only: pass_through, pass_rate
			continue
		}
		about := j < len(words) && aboutWords[words[j]]
		counted := i > 0 && countingWords[words[i-1]]
		if !about && !counted {
			return false
		}
		i = j
	}
	return true
}

// namesCredential reports whether a name that credentialNames matches names a credential:
// read by words (notACredentialName), and, where auth is its only credential word, only as
// npm's _auth (npmAuthName) or a basic authentication's user:password (basicAuthName):
// credentialNames holds _auth for them, and enable_auth or auth_mode stay as they were.
func namesCredential(name string) bool {
	if notACredentialName(name) {
		return false
	}
	if !holdsAuth(name) {
		return true // most: DB_PASSWORD, --token
	}
	var buf [16]string
	for _, w := range nameWords(name, buf[:0]) {
		// A word that holds auth (authtoken, authstring); a one-word basic auth
		// (BASICAUTH, BASICAUTHENABLED) only by what follows it, as basic_auth_enabled is read.
		if w != wordAuth && credentialWord(strings.TrimPrefix(w, "basicauth")) {
			return true
		}
	}
	return npmAuthName(name) || basicAuthName(name)
}

// basicAuthName reports whether name ends in the words basic auth (basic_auth, BASIC_AUTH,
// basicAuth, proxyBasicAuth, --basic-auth) or the one word basicauth (BASICAUTH): the value is
// HTTP basic authentication's user:password, as Prometheus' and many charts' basic_auth and
// Grafana's basicAuth settings hold it.
func basicAuthName(name string) bool {
	var buf [16]string
	words := nameWords(name, buf[:0])
	n := len(words)
	return n >= 1 && words[n-1] == "basicauth" || n >= 2 && words[n-2] == "basic" && words[n-1] == wordAuth
}

// holdsAuth reports whether name holds "auth" in any ASCII case.
func holdsAuth(name string) bool {
	for i := 0; i+4 <= len(name); i++ {
		if name[i]|0x20 == 'a' && name[i+1]|0x20 == 'u' && name[i+2]|0x20 == 't' && name[i+3]|0x20 == 'h' {
			return true
		}
	}
	return false
}

// npmAuthName reports whether name is npm's _auth: _auth itself (.npmrc, //host/:_auth, npm
// --_auth) or its environment variable, npm_config__auth (NPM_CONFIG__AUTH).
func npmAuthName(name string) bool {
	name = strings.TrimLeft(name, "-")
	return strings.EqualFold(name, "_auth") || len(name) > 6 && strings.EqualFold(name[len(name)-6:], "__auth")
}

// credentialWord reports whether a word names a credential: it holds a credential's word and
// is not another word that holds its letters.
func credentialWord(w string) bool {
	if otherWords[w] {
		return false
	}
	for _, c := range credentialWords {
		if c == wordPass {
			if w == wordPass { // a word of its own: DB_PASS, userPass; not bypass or passed
				return true
			}
		} else if strings.Contains(w, c) {
			return true
		}
	}
	return false
}

// nameWords appends to words the name's lower-case words, split at non-alphanumerics and
// lower-to-upper case changes; pass followed by word or phrase is one word (Pass_Word,
// pass-phrase).
func nameWords(name string, words []string) []string {
	lower := strings.ToLower(name)
	if len(lower) != len(name) { // a letter whose lower case is longer: split the lowered name
		name = lower
	}
	add := func(from, to int) {
		w := lower[from:to]
		if n := len(words); n > 0 && words[n-1] == "pass" && (w == "word" || w == "phrase") {
			words[n-1] = "pass" + w
			return
		}
		words = append(words, w)
	}
	start := -1
	var prev rune
	for i, r := range name {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case !alnum:
			if start >= 0 {
				add(start, i)
			}
			start = -1
		case start < 0:
			start = i
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			add(start, i)
			start = i
		}
		prev = r
	}
	if start >= 0 {
		add(start, len(name))
	}
	return words
}

// nameAt is the name a credential-option or credential-assignment match begins with: its
// leading space, quote, parenthesis and dashes left out, up to the first byte no name holds.
func nameAt(m string) string {
	m = strings.TrimLeft(m, " \t\n\f\r\"'(\\-")
	for i := 0; i < len(m); {
		r, size := utf8.DecodeRuneInString(m[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '.' && r != '-' {
			return m[:i]
		}
		i += size
	}
	return m
}
