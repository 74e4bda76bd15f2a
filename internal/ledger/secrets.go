package ledger

import (
	"encoding/base64"
	"regexp"
	"strings"
	"unicode"
)

// Redaction by value: a credential inside a free-text value (a command line, a URL, a denial
// message) is replaced by "[REDACTED:<rule>]", whatever key it sits under.
//
// The rule table is ours, small and tested, rather than a detector library. The maintained
// rule sets were considered: gitleaks (github.com/zricethezav/gitleaks/v8) keeps its ~200 rules
// as generator code inside a CLI module that pulls viper, cobra and zerolog, and tunes them for
// scanning repositories (entropy thresholds, allowlists of paths); the Go ports of Yelp's
// detect-secrets register their detectors globally at init and include entropy detectors that
// would hide the sha256 digests every record carries. The shapes below follow gitleaks'
// published rules for the same providers (ids match where one exists). Each rule has
// keywords, checked before its regular expression (as gitleaks does), so a value without any
// costs one pass of an automaton over its bytes (ruleKeywords, keywords.go).
type secretRule struct {
	id       string
	keywords []string // lower case; the rule runs only if one occurs
	requires []string // and, when set, only if one of these occurs too
	re       *regexp.Regexp
	group    int // the submatch that is the secret; 0 is the whole match
	// redact, when set, is the rule instead of re: for what a regular expression cannot say
	// (which tool an option belongs to).
	redact func(string, *shellGuard) (string, bool)
}

var secretRules = []secretRule{
	// A PEM private key, and one base64-encoded whole (as a Kubernetes Secret's data holds it:
	// "-----BEGIN " is LS0tLS1CRUdJTi), which is a key only if its BEGIN line says PRIVATE KEY (a
	// certificate's is public and stays).
	{"private-key", []string{"private key", base64Begin}, nil, nil, 0, redactPrivateKeys},
	{"jwt", []string{"eyj"}, nil, regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`), 0, nil},
	{"aws-access-token", []string{"akia", "asia", "abia", "acca", "a3t"}, nil, regexp.MustCompile(`\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b`), 0, nil},
	{"github-pat", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, nil,
		regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{60,255})\b`), 0, nil},
	// Personal, deploy, runner, trigger, feed, incoming-mail, service-account, OAuth, CI-job,
	// agent and SCIM tokens: one shape, one prefix each.
	{"gitlab-pat", gitlabPrefixes, nil, regexp.MustCompile(`\b(?:` + strings.Join(gitlabPrefixes, "|") + `)[A-Za-z0-9_-]{20,}`), 0, nil},
	{"huggingface-access-token", []string{"hf_"}, nil, regexp.MustCompile(`\bhf_[A-Za-z]{34}\b`), 0, nil},
	{"pypi-upload-token", []string{"pypi-ageichlwas5vcmc"}, nil, regexp.MustCompile(`\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`), 0, nil},
	{"docker-hub-pat", []string{"dckr_pat_"}, nil, regexp.MustCompile(`\bdckr_pat_[A-Za-z0-9_-]{27,}`), 0, nil},
	{"digitalocean-pat", []string{"dop_v1_", "doo_v1_", "dor_v1_"}, nil, regexp.MustCompile(`\bdo[por]_v1_[a-f0-9]{64}\b`), 0, nil},
	{"sendgrid-api-token", []string{"sg."}, nil, regexp.MustCompile(`\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b`), 0, nil},
	// Vault's tokens since 1.10 (hvs., hvb., hvr.) and before (s. and 24 letters and digits, as
	// gitleaks' vault-service-token; looked for only where "vault" occurs, as "s." is everywhere).
	{"vault-service-token", []string{"hvs.", "hvb.", "hvr.", "vault"}, nil,
		regexp.MustCompile(`\b(?:hv[sbr]\.[A-Za-z0-9_-]{24,}|s\.[A-Za-z0-9]{24}\b)`), 0, nil},
	// An OAuth access token (ya29.) and an OAuth client's secret (GOCSPX-).
	{"gcp-oauth-token", []string{"ya29.", "gocspx-"}, nil, regexp.MustCompile(`\b(?:ya29\.[A-Za-z0-9_-]{20,}|GOCSPX-[A-Za-z0-9_-]{28})`), 0, nil},
	{"shopify-token", []string{"shpat_", "shpss_", "shpca_", "shppa_"}, nil, regexp.MustCompile(`\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b`), 0, nil},
	{"slack-token", []string{"xox"}, nil, regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`), 0, nil},
	{"slack-webhook-url", []string{"hooks.slack.com"}, nil, regexp.MustCompile(`hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9+/_-]{20,}`), 0, nil},
	{"stripe-access-token", []string{"sk_", "rk_"}, nil, regexp.MustCompile(`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}`), 0, nil},
	{"gcp-api-key", []string{"aiza"}, nil, regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`), 0, nil},
	{"openai-api-key", []string{"sk-"}, nil, regexp.MustCompile(`\bsk-(?:proj-|ant-[a-z0-9]+-)?[A-Za-z0-9_-]{20,}`), 0, nil},
	{"npm-access-token", []string{"npm_"}, nil, regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}\b`), 0, nil},
	{"databricks-api-token", []string{"dapi"}, nil, regexp.MustCompile(`\bdapi[a-f0-9]{32}(?:-\d)?\b`), 0, nil},
	// aws configure set aws_secret_access_key X (or a profile's, profile.ci.aws_session_token X):
	// the AWS CLI stores a secret given as a plain word after its setting's name.
	{"aws-configure-set", awsSecretSettings, []string{"configure"}, regexp.MustCompile(`(?i)\bconfigure\s+set\s+(?:[A-Za-z0-9_.-]*\.)?(?:` +
		strings.Join(awsSecretSettings, "|") + `)\s+("[^"]*"|'[^']*'|[^\s"';&|]+)`), 1, nil},
	// "Authorization: Bearer x", "Authorization: ApiKey x" (any scheme word: SSWS, Negotiate, a
	// vendor's own), "Authorization: x" (none), "bearer x".
	// Between the header's name, its scheme and its value any white space separates (headerSpace):
	// a server splitting the value on white space (strings.Fields) reads Bearer\vx as Bearer x; a
	// newline only before a blank (a folded header), so the next line's command is no token.
	{authorizationRule, authorizationWords, nil,
		regexp.MustCompile(`(?i)(?:\bauthorization` + headerSpace + `*[:=]` + headerSpace + `*(?:[a-z][a-z0-9-]*` + headerSpace + `+)?|\bbearer` + headerSpace + `+)([A-Za-z0-9._~+/=-]{8,})`), 1, nil},
	// A signed URL's signature, a bearer credential until it expires: Azure SAS (sig=), S3 and
	// GCS pre-signed URLs (X-Amz-Signature=, X-Goog-Signature=), and signature= — as a query
	// parameter only (after ? or &), so "--show-signature" and prose stay.
	{"url-signature", []string{"sig=", "signature="}, nil,
		regexp.MustCompile(`(?i)[?&](?:sig|signature|x-amz-signature|x-goog-signature)=([^&\s"'#]+)`), 1, nil},
	// A .netrc entry: machine host login user password secret (the password word alone is prose).
	{"netrc-password", []string{"password"}, []string{wordLogin},
		regexp.MustCompile(`(?i)\bmachine\s+\S+\s+(?:login\s+\S+\s+)?password\s+([^\s'"\\]+)`), 1, nil},
	// "Cookie: a=b; c=d" (and Set-Cookie), a header in a command line or a message: the whole value.
	{cookieHeaderRule, []string{wordCookie}, nil, regexp.MustCompile(`(?i)\b(?:set-)?cookie\s*:\s*([^\r\n"']+)`), 1, nil},
	// Docker's config.json (and Podman's auth.json) in a command line: "auths":{"registry":
	// {"auth":"dXNlcjpwdw=="}}, the base64 of user:password (only a value that decodes to one:
	// "auth": "required" stays). Its quotes may be escaped (a JSON document in a shell word). The
	// same entry in containerd's config.toml (auth = "dXNlcjpwdw==") and in YAML (auth: dXNl...):
	// the key unquoted, the value quoted or not.
	{dockerAuthRule, []string{`auth"`, `auth\"`, `auth'`, "auth:", "auth=", "auth :", "auth ="}, nil,
		regexp.MustCompile(`(?i)(?:\\?["']auth\\?["']|(?:^|[^a-z0-9_.\\"'-])auth)[ \t]*[:=][ \t]*\\?["']?([A-Za-z0-9+/]+={0,2})`), 1, nil},
	// mysql -pSECRET, sshpass -p x, curl -u user:pass: a known tool's password options
	// (credentials.go), which mean other things for other tools.
	{cliPasswordRule, toolWords, toolGateWords, nil, 0, redactCommandLine},
	// https://user:password@host, redis://:password@host (no user), and a password with @ in
	// it: URL parsers end the user information at the authority's last @, so the password runs
	// to there (the authority ends at /, ?, # or a space).
	{"basic-auth-url", []string{"://"}, []string{"@"}, regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@?#]*:([^/\s?#"']+)@`), 1, nil},
	// --password=x, --api-key x, -token=x: an option, so the value may follow a space.
	{credentialOptionRule, credentialKeywords, nil,
		regexp.MustCompile(optionName + optionTail), 1, nil},
	// PASSWORD=x, client_secret: x, password = x (a config file), $env:TOKEN = "x": an
	// assignment needs = or :, so prose ("the token expired") stays. Spaces around = stay on the
	// line, so "x=" at a line's end does not take the next line. In a URL's query (?token=x&page=2)
	// the value ends at & (queryOrAssignment); a # is part of it, as libpq and JDBC read it.
	{credentialAssignmentRule, credentialKeywords, nil,
		regexp.MustCompile(queryOrAssignment), 1, nil},
	// "password":"x" and \"password\": \"x\" (a JSON body in a command, its quotes escaped or
	// not), 'api_key': 'x': a quoted key takes a quoted value, so a quoted name followed by prose
	// (damage-control rule "aws-prints-credential": it prints …) stays.
	{credentialAssignmentRule, credentialKeywords, nil,
		regexp.MustCompile(affixedName + quotedKeyTail), 1, nil},
}

// base64Begin is "-----BEGIN " base64-encoded from the start of the text (its first 14 letters).
const base64Begin = "ls0tls1crudjti"

var (
	pemPrivateKey    = regexp.MustCompile(`-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|$)`)
	base64PEM        = regexp.MustCompile(`LS0tLS1CRUdJTi[A-Za-z0-9+/]*={0,2}`)
	privateKeyMarker = "[REDACTED:private-key]"
)

// redactPrivateKeys hides PEM private keys, as text and base64-encoded whole.
func redactPrivateKeys(s string, g *shellGuard) (string, bool) {
	out := s
	if locs := pemPrivateKey.FindAllStringIndex(out, -1); locs != nil {
		out = replaceSpans(out, locs, nil, g)
	}
	if locs := base64PEM.FindAllStringIndex(out, -1); locs != nil {
		for _, l := range locs {
			l[1] = wrappedBase64End(out, l[0], l[1])
		}
		out = replaceSpans(out, locs, func(m string) bool {
			// The BEGIN line is within the first 64 bytes: decode them and read it (a wrapped
			// first line is 64 columns or more, so its break comes after them).
			head, _, _ := strings.Cut(m, "\n")
			head = strings.TrimSuffix(head, "\r")
			b, err := base64.StdEncoding.DecodeString(head[:min(len(head), 88)&^3])
			line, _, _ := strings.Cut(string(b), "\n")
			return err == nil && strings.Contains(line, "PRIVATE KEY")
		}, g)
	}
	return out, out != s
}

// wrappedBase64End is where base64 that begins at start and runs to end on its line ends, if
// it was wrapped: base64(1) breaks its output every 76 columns, openssl base64 every 64, and
// the lines after the first hold the rest of the key. A full line (60 columns or more, no
// padding) continues on the next if that line is base64 and nothing else; a shorter one ends it.
func wrappedBase64End(s string, start, end int) int {
	lineStart := start
	for end-lineStart >= 60 && s[end-1] != '=' {
		next := end
		if next < len(s) && s[next] == '\r' {
			next++
		}
		if next == len(s) || s[next] != '\n' {
			break
		}
		next++
		e := next
		for e < len(s) && isBase64Byte(s[e]) {
			e++
		}
		for pad := 0; pad < 2 && e < len(s) && s[e] == '='; pad++ {
			e++
		}
		if e == next || e < len(s) && s[e] != '\n' && s[e] != '\r' && s[e] != '\'' && s[e] != '"' {
			break // not a line of base64 alone
		}
		lineStart, end = next, e
	}
	return end
}

// isBase64Byte is [A-Za-z0-9+/].
func isBase64Byte(c byte) bool { return isLetter(c) || '0' <= c && c <= '9' || c == '+' || c == '/' }

// replaceSpans replaces each span of s that keep (nil: every one) accepts by the private-key
// marker. A span that is a key's shape and nothing else (keyShaped) is replaced whole; any other
// ends before a boundary the shell reads (shellGuard): -----BEGIN RSA PRIVATE KEY-----; rm
// -rf /data keeps the command.
func replaceSpans(s string, locs [][]int, keep func(string) bool, g *shellGuard) string {
	var b strings.Builder
	last := 0
	for _, l := range locs {
		if keep != nil && !keep(s[l[0]:l[1]]) {
			continue
		}
		end := l[1]
		if !keyShaped(s[l[0]:l[1]]) {
			if end = g.cut(l[0], l[0], end, maskBoundary, false); end == l[0] {
				continue
			}
		}
		b.WriteString(s[last:l[0]])
		b.WriteString(privateKeyMarker)
		g.replaced(l[0], end, len(privateKeyMarker))
		last = end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	out := b.String()
	g.commit(out)
	return out
}

// quotedValue is a quoted string, its quotes escaped with backslashes (as in JSON inside a
// double-quoted shell word) or not; credentialValue is that or a word: the value of a credential
// option or assignment. An escaped string is tried first: as a word its backslash alone would be
// the value. A bracket or parenthesis before a quoted string (basicAuth=['u:x'], a list or a
// call) takes the string with it: as a word the bracket alone would be. A word goes on over a
// line continuation (a backslash before a newline), as bash joins it: --password=hunt\<newline>er2
// is the password hunter2.
const (
	quotedValue     = `(\\"(?:[^"\\]|\\[^"])*\\"|"[^"]*"|'[^']*')`
	credentialValue = `(\\"(?:[^"\\]|\\[^"])*\\"|"[^"]*"|'[^']*'|[\[(][ \t]*(?:"[^"]*"|'[^']*')|(?:\\\n)*[^\s"'=](?:\\\n|[^\s"'])*)`
)

// What follows a credential's name in an option (= or spaces and a value, or a here-string's
// input: --password-stdin <<< x) and in the two
// credential-assignment forms: = or : and a value (PASSWORD=x, password = x, client_secret: x),
// or a closing quote, = or : and a quoted value ("password":"x", \"password\": \"x\"). Each
// begins with a byte no name holds, which is what lets affixedRule find the name's end without
// the expression (secrets_affixed.go).
//
// An assignment may be percent-encoded, as a query string or a form body inside another URL
// (next=%2Fcb%3Ftoken%3DX) or a JSON document sent as a query parameter
// (%22token%22%3A%22X%22): %3D is its =, and a quoted key's encoded quotes (%22, %27) around an
// encoded : or = (spaces as %20 or +) take a value too; encoded twice or more, each % is %25
// (password%253DX, %2522token%2522%253A%2522X). An encoded value ends at a plain or encoded &
// or quote (encodedValue: no %22, %26 or %27, nor %2522, %2526, %2527 ...), so the parameters
// after it stay; another % (a literal one in the value, %25) is part of it. A value in encoded
// quotes after %3D (password%3D%22X%22) is the text inside them.
const (
	optionTail    = `(?:=|(?:[ \t]|\\\r?\n)+)(?:<<<[ \t]*)?` + credentialValue
	quotedKeyTail = `\\?["'][ \t]*[:=][ \t]*` + quotedValue
	encodedValue  = `((?:[^\s"'&%]|` + encodedPercent + `(?:[013-9A-F][0-9A-F]|2[013489A-F]|[^\s"'&%2]))+)`
	// encodedPercent is a percent sign, percent-encoded any number of times: a document encoded
	// twice (a query string inside a redirect URL inside another) writes = as %253D.
	encodedPercent = `%(?:25)*`
)

// assignmentTails are the assignment tail's alternatives, plain and encoded: affixedRule runs
// them one by one, as one expression is too large for regexp's backtracker on a long text.
var (
	assignmentTails = []string{`(?:[ \t]*=[ \t]*|[ \t]*:\s*)` + credentialValue,
		encodedPercent + `(?:3D(?:` + encodedPercent + `2[27])?|2[27](?:` + encodedPercent + `20|\+)*` + encodedPercent + `3[AD](?:` + encodedPercent + `20|\+)*` +
			encodedPercent + `2[27])` + encodedValue}
	assignmentTail = `(?:` + strings.Join(assignmentTails, "|") + `)`
)

// awsSecretSettings are the AWS CLI's settings that hold a secret.
var awsSecretSettings = []string{"aws_secret_access_key", "aws_session_token", "aws_security_token"}

// gitlabPrefixes begin GitLab's tokens (its "token prefixes" documentation).
var gitlabPrefixes = []string{"glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glimt-", "glsoat-", "gloas-", "glcbt-", "glagent-", "glsc-"}

// The names an option or assignment of a credential has. Azure's storage AccountKey and API
// Management's Subscription-Key are keys by name alone, and so is key data (kubeconfig's
// client-key-data, a private key whatever its encoding; client-certificate-data is public);
// "key" by itself is not (sort --key=2, --key-file=path). npm's _auth is a credential only as
// itself (.npmrc's _auth=, //host/:_auth=, NPM_CONFIG__AUTH=: npmAuthName) and as basic
// authentication's in any spelling (basic_auth, basicAuth, proxyBasicAuth, --basic-auth,
// BASICAUTH: basicAuthName), not as any name ending in auth (enable_auth=true, enableAuth,
// httpAuth): the keyword scan looks for each spelling, as a camelCase name holds no "_auth".
const credentialNames = `(?:pass[_.-]?word|passwd|pass[_.-]?phrase|pass|pwd|token|secret|api[_-]?key|access[_-]?key|private[_-]?key|account[_-]?key|subscription[_-]?key|key[_.-]data|_auth|basic[_.-]?auth|credentials?|cookie)`

var credentialKeywords = []string{wordPass, wordPwd, wordToken, "secret", wordKey, "cred", wordCookie, "_" + wordAuth,
	"basicauth", "basic-auth", "basic.auth"}

// The rules that find a credential by its name.
const (
	credentialOptionRule     = "credential-option"
	credentialAssignmentRule = "credential-assignment"
)

// wordToken is a keyword of several rules and a default redaction key.
const (
	wordToken  = "token"
	wordCookie = "cookie"
	wordKey    = "key"
	wordPwd    = "pwd"
	wordPass   = "pass"
	wordAuth   = "auth"
)

// RedactSecrets replaces every credential-shaped part of s by "[REDACTED:<rule>]". The
// webhook applies it to denial messages and approval hints; the journal applies it to every
// string value of a record.
func RedactSecrets(s string) string {
	if len(s) < 8 || hexLike(s) {
		return s
	}
	mask, ascii := ruleKeywords.scan(s)
	if !ascii {
		return redactSecretsLowered(s)
	}
	return redactScanned(s, mask)
}

// redactScanned is RedactSecrets for an ASCII s of 8 bytes or more, not hex-like, whose
// ruleKeywords mask is known (the encoder takes it while quoting s).
func redactScanned(s string, mask uint64) string {
	g := newShellGuard(s)
	for i, r := range secretRules {
		if !ruleTriggered(mask, i) {
			continue
		}
		if out, changed := r.apply(s, g); changed {
			// A replacement can bring keywords of later rules ("[REDACTED:aws-access-token]"
			// holds "token"): scan again, as the lower-cased copy was taken again before.
			s = out
			mask, _ = ruleKeywords.scan(s)
		}
	}
	return s
}

// redactSecretsLowered is RedactSecrets' definition, with strings.ToLower and a substring
// search per keyword: the path for non-ASCII text, where Unicode lower-casing can make a
// keyword the ASCII scan does not see.
func redactSecretsLowered(s string) string {
	lower := strings.ToLower(s)
	g := newShellGuard(s)
	for _, r := range secretRules {
		if !containsAny(lower, r.keywords) || r.requires != nil && !containsAny(lower, r.requires) {
			continue
		}
		if out, changed := r.apply(s, g); changed {
			s, lower = out, strings.ToLower(out)
		}
	}
	return s
}

// ruleKeywords finds every rule's keywords and requires strings in one pass; bit 2i is "a
// keyword of rule i occurs", bit 2i+1 "one of rule i's requires strings occurs".
var ruleKeywords, anyRuleKeyword = compileRuleKeywords()

func compileRuleKeywords() (*keywordSet, uint64) {
	words, bits, all := ruleWords()
	return newKeywordSet(words, bits), all
}

// ruleWords are the rules' keywords and requires strings with their bits; a redactor's key set
// holds them too (keyNameBit apart), so one scan of a key answers both questions.
func ruleWords() (words []string, bits []uint64, all uint64) {
	if 2*len(secretRules) > 62 { // bits 62 and 63 are the redactor's (keyNameBit, extraKeyBit)
		panic("ledger: more secret rules than keyword bits")
	}
	for i, r := range secretRules {
		for _, w := range r.keywords {
			words, bits = append(words, w), append(bits, 1<<(2*i))
		}
		all |= 1 << (2 * i)
		for _, w := range r.requires {
			words, bits = append(words, w), append(bits, 1<<(2*i+1))
		}
	}
	return words, bits, all
}

// ruleTriggered reports whether rule i runs on a string with scan mask mask: one of its keywords
// occurs and, when it has them, one of its requires strings too.
func ruleTriggered(mask uint64, i int) bool {
	return mask&(1<<(2*i)) != 0 && (secretRules[i].requires == nil || mask&(1<<(2*i+1)) != 0)
}

// apply is the rule on s, whose shell reading g holds: no match hides a byte g marks at the
// rule's level (maskLevel), and a match that would is cut before it.
func (r secretRule) apply(s string, g *shellGuard) (string, bool) {
	if r.redact != nil {
		return r.redact(s, g)
	}
	out, changed := r.replace(s, g, 0)
	if changed {
		g.commit(out)
	}
	return out, changed
}

// maskLevel is the shell mask's level at which the rule's matches end: a rule that finds a
// value by its name stops at a command's first word too (password:<newline>rm -rf /data), a
// token's shape only at a boundary (a whole value that is one token is a command's first word).
func (r secretRule) maskLevel() byte {
	switch r.id {
	case credentialOptionRule, credentialAssignmentRule, cliPasswordRule, "netrc-password", "aws-configure-set",
		cookieHeaderRule, authorizationRule:
		return maskCommand
	}
	return maskBoundary
}

// replace is apply on s, which is g's text from base on, without committing.
func (r secretRule) replace(s string, g *shellGuard, base int) (string, bool) {
	locs := r.locate(s)
	if locs == nil {
		return s, false
	}
	var b strings.Builder
	b.Grow(len(s) + 32*len(locs)) // room for the markers: one allocation
	last := 0
	for _, m := range locs {
		start, end := m[2*r.group], m[2*r.group+1]
		for g := r.group + 1; start < 0 && 2*g < len(m); g++ {
			start, end = m[2*g], m[2*g+1] // a tail's other alternative (an encoded assignment)
		}
		if r.holdsNone(s, start, end) {
			continue
		}
		from := m[0]
		if r.id == credentialAssignmentRule && strings.IndexByte(queryParameterByte, s[from]) >= 0 {
			from++ // a query parameter's match begins at its ? or &
		}
		if r.byName() && !namesCredential(encodedNameAt(s, from, start)) {
			// max_tokens=1024, --token-file=/x: the value is not a credential, but it may hold
			// one (max_tokens="PASSWORD=x") that this match, taking it whole, kept the rule from
			// seeing.
			if inner, changed := r.replace(s[start:end], g, base+start); changed {
				b.WriteString(s[last:start])
				b.WriteString(inner)
				last = end
			}
			continue
		}
		gap, level := start, r.maskLevel()
		if level == maskCommand {
			gap = valueGap(s, m[0], start)
		}
		dataSeps := level == maskCommand && !ownQuotes(s, start) && (r.id != cookieHeaderRule || !cookiesOnly(s[start:end]))
		cut := g.cut(base+gap, base+start, base+end, level, dataSeps) - base
		if cut == start {
			continue
		}
		marker := "[REDACTED:" + r.id + "]"
		b.WriteString(s[last:start])
		b.WriteString(marker)
		g.replaced(base+start, base+cut, len(marker))
		last = cut
	}
	if last == 0 {
		return s, false
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// holdsNone reports whether a match whose value is s[start:end] (-1: none) hides nothing: no
// value or an empty one, a marker already, the scheme word before a marker, a Docker "auth"
// that is no user:password, or an option's "value" that is a redirection (--with-token < f).
func (r secretRule) holdsNone(s string, start, end int) bool {
	return start == end || alreadyRedacted(s[start:end]) || r.id == authorizationRule && schemeOfRedacted(s[end:]) ||
		r.id == dockerAuthRule && !base64UserPassword(s[start:end]) ||
		r.id == credentialOptionRule && shellOperatorLen(s[start:end]) > 0
}

// dockerAuthRule is the rule of Docker's and Podman's "auth" entries; cookieHeaderRule the
// Cookie: header's (a header's value, whose ; separates cookies: cookiesOnly).
const (
	dockerAuthRule   = "docker-config-auth"
	cookieHeaderRule = "cookie-header"
)

// base64UserPassword reports whether v is base64 (padded or not) of printable text holding a
// colon: user:password, as Docker's and Podman's auth files keep a registry's login.
func base64UserPassword(v string) bool {
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		if b, err = base64.RawStdEncoding.DecodeString(v); err != nil {
			return false
		}
	}
	colon := -1
	for i, c := range b {
		if c < 0x20 || c >= 0x7f {
			return false
		}
		if c == ':' && colon < 0 {
			colon = i
		}
	}
	// A user and a password, each of one character at least: a short word that decodes to
	// ":yr" (auth: Only) is no login.
	return colon > 0 && colon < len(b)-1
}

// encodedNameAt is nameAt of the match s[from:to], without the hex digits of a percent-escape
// before it (%22max_tokens%22%3A and %2522max_tokens%2522%253A are max_tokens).
func encodedNameAt(s string, from, to int) string {
	name := nameAt(s[from:to])
	if from == 0 || s[from-1] != '%' {
		return name
	}
	for len(name) > 2 && isHexDigit(name[0]) && isHexDigit(name[1]) {
		pair := name[:2]
		name = name[2:]
		if pair != "25" {
			break // %2522max_tokens: an encoded %, then the escape's own digits
		}
	}
	return name
}

func isHexDigit(c byte) bool { return hexOrDash[c] && c != '-' }

// byName reports whether the rule finds a credential by the name before it (an option or an
// assignment), which notACredentialName may overrule.
func (r secretRule) byName() bool {
	return r.id == credentialOptionRule || r.id == credentialAssignmentRule
}

// schemeOfRedacted reports whether what follows a match of the authorization rule is a space and
// that rule's marker: the match is the scheme word of a value already redacted ("Authorization:
// A0000000 [REDACTED:authorization]"), which the rule reads, once the value is no token, as a
// token without a scheme; redacting it again made redaction depend on how often it ran.
func schemeOfRedacted(after string) bool {
	// The same white space the rule skips before a token (Authorization:X\r[REDACTED:...] was
	// read again as the token X when only spaces and tabs were skipped here).
	rest := strings.TrimLeftFunc(after, unicode.IsSpace)
	return len(rest) < len(after) && strings.HasPrefix(rest, "[REDACTED:"+authorizationRule+"]")
}

// alreadyRedacted reports whether a match is a marker, bare or quoted ("password":"[REDACTED]"
// from a JSON document redacted as fields): replacing it again would only lose its quotes.
func alreadyRedacted(m string) bool {
	return strings.HasPrefix(strings.TrimLeft(m, `\"'`), "[REDACTED")
}

// hexLike reports whether s is only hex digits and dashes (a UID, a digest, optionally after
// "sha256:"): records carry several, none is a credential any rule matches, and skipping
// them keeps redaction off the hot path.
func hexLike(s string) bool {
	s = strings.TrimPrefix(s, "sha256:")
	for i := 0; i < len(s); i++ {
		if !hexOrDash[s[i]] {
			return false
		}
	}
	return true
}

// hexOrDash marks hex digits (either case) and the dash: one lookup per byte, as the encoder
// asks it of every string it writes.
var hexOrDash = func() (t [256]bool) {
	for _, c := range "0123456789abcdefABCDEF-" {
		t[c] = true
	}
	return t
}()

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// cookiesOnly reports whether a Cookie: header's value is name=value pairs separated by ; and
// blanks and nothing else: a shell reading it again (it sits in quoted data) runs no command in
// it, so its ; does not end it (curl -H "Cookie: a=1; b=2" hides both). Anything else there
// (a=1; rm -rf /data) ends at the ;.
func cookiesOnly(v string) bool {
	for part := range strings.SplitSeq(v, ";") {
		name, value, ok := strings.Cut(strings.Trim(part, " \t"), "=")
		if !ok || name == "" || strings.ContainsAny(value, " \t\n&|<>()`$\\\"'") {
			return false
		}
		for i := 0; i < len(name); i++ {
			if c := name[i]; !isWordByte(c) && c != '-' && c != '.' {
				return false
			}
		}
	}
	return true
}
