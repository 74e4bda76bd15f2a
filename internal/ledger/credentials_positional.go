package ledger

import (
	"strings"
)

// Credentials a tool takes as a plain word rather than as an option's value: Oracle's logon
// (sqlplus scott/tiger@db), vault login's token, htpasswd's batch password (htpasswd -b FILE
// USER PASSWORD), a registry token set through a package manager's config (npm config set
// //registry/:_authToken X). argvScan hands each plain word after such a tool to its secret
// function; the option words before it tell which plain word is which.

// positionalTool is a tool that takes a credential as a plain word.
type positionalTool struct {
	// valued reports whether an option word (without "=") takes the next word as its value,
	// which is then no plain word; nil: none does.
	valued func(opt string) bool
	// secret is where plain word w holds a credential: the bytes [from, to) of w (to -1: to its
	// end), from -1 when it holds none.
	secret func(p *positionalScan, w string) (from, to int)
}

// positionalScan is what a positionalTool's secret knows of the words after the tool before w.
type positionalScan struct {
	plain int    // plain words before w
	flags uint64 // the letters of the single-dash options so far (htpasswd -nb): optionLetter
	stage int    // the tool's own progress (vault: login seen; npm: set seen, a key named)
}

// optionLetter is the bit of an ASCII letter in positionalScan.flags.
func optionLetter(c byte) uint64 {
	switch {
	case 'a' <= c && c <= 'z':
		return 1 << (c - 'a')
	case 'A' <= c && c <= 'Z':
		return 1 << (26 + c - 'A')
	}
	return 0
}

var positionalTools = map[string]positionalTool{
	"sqlplus":  {valued: oracleValued, secret: oracleLogon(false)},
	"expdp":    {secret: oracleLogon(true)},
	"impdp":    {secret: oracleLogon(true)},
	"sqlldr":   {secret: oracleLogon(true)},
	"rman":     {secret: rmanLogon},
	"vault":    {valued: vaultValued, secret: vaultToken},
	"htpasswd": {valued: func(opt string) bool { return opt == "-C" || opt == "-r" }, secret: htpasswdPassword},
	"npm":      {secret: configSetSecret},
	"pnpm":     {secret: configSetSecret},
	"yarn":     {secret: configSetSecret},
}

// oracleValued are sqlplus's options that take a value (-M "HTML ON", -R 3, -C 19.0.0).
func oracleValued(opt string) bool {
	return strings.EqualFold(opt, "-M") || strings.EqualFold(opt, "-R") || strings.EqualFold(opt, "-C")
}

// oracleLogon finds the password of an Oracle logon, user/password[@connect]: sqlplus's first
// plain word holding a slash before a script (@file; "/nolog" and "/ as sysdba" hold none); the
// data pump's and SQL*Loader's first plain word or userid=, their other plain words being
// name=value parameters (keyValue). A quoted password ("p@ss") ends at its quote, another at the
// first @ (the connect identifier stays).
func oracleLogon(keyValue bool) func(p *positionalScan, w string) (int, int) {
	return func(p *positionalScan, w string) (int, int) {
		logon := w
		if keyValue {
			name, value, ok := strings.Cut(w, "=")
			switch {
			case ok && strings.EqualFold(name, "userid"):
				logon = value
			case ok || p.plain > 0:
				return -1, -1
			}
		} else if p.stage > 0 || strings.HasPrefix(w, "@") {
			p.stage = 1 // the logon is behind, or a script and its arguments come
			return -1, -1
		}
		from, to, ok := logonPassword(w, logon)
		if ok {
			p.stage = 1
		}
		return from, to
	}
}

// logonPassword is where the password of logon, an Oracle logon user/password[@connect] at the
// end of word w, is in w (as a positionalTool's secret says it); ok says logon is one (it holds
// a slash), with a password or without ("/", "/@db": the operating system's).
func logonPassword(w, logon string) (from, to int, ok bool) {
	slash := strings.IndexByte(logon, '/')
	if slash < 0 {
		return -1, -1, false
	}
	at := len(w) - len(logon) + slash + 1
	if slash == 0 || at == len(w) {
		return -1, -1, true
	}
	if w[at] == '"' {
		if end := strings.IndexByte(w[at+1:], '"'); end > 0 {
			return at + 1, at + 1 + end, true
		}
		return at + 1, -1, true // closed in a later word: u/"p@ss w0rd"@db
	}
	if end := strings.IndexByte(w[at:], '@'); end >= 0 {
		if end == 0 {
			return -1, -1, true
		}
		return at, at + end, true
	}
	return at, -1, true
}

// rmanLogon finds the passwords of RMAN's connections: the word after TARGET, CATALOG or
// AUXILIARY (rman target u/X@db catalog rc/Y@rcat), or in their name=value form (target=u/X@db).
func rmanLogon(p *positionalScan, w string) (int, int) {
	if p.stage == 1 {
		p.stage = 0
		from, to, _ := logonPassword(w, w)
		return from, to
	}
	if name, value, ok := strings.Cut(w, "="); ok && rmanConnection(name) {
		from, to, _ := logonPassword(w, value)
		return from, to
	}
	if rmanConnection(w) {
		p.stage = 1
	}
	return -1, -1
}

// rmanConnection says word names one of RMAN's database connections.
func rmanConnection(word string) bool {
	return strings.EqualFold(word, "target") || strings.EqualFold(word, "catalog") || strings.EqualFold(word, "auxiliary")
}

// vaultValued are the vault CLI's options that take a value; its others (-no-print,
// -token-only, -non-interactive …) are switches, and an unknown one is read as a switch, so
// that the word after it is looked at as the token rather than passed over.
func vaultValued(opt string) bool {
	switch strings.TrimLeft(opt, "-") {
	case "method", "path", "address", "namespace", "ns", "ca-cert", "ca-path", "client-cert", "client-key",
		"tls-server-name", "wrap-ttl", "format", "field", "mfa", "header", "agent-address", "policy-override":
		return true
	}
	return false
}

// vaultToken is the token of "vault login TOKEN": the first plain word after login that is
// not a name=value pair (an auth method's parameters, username=u password=x, which the
// credential-assignment rule reads) nor "-" (read from stdin).
func vaultToken(p *positionalScan, w string) (int, int) {
	switch {
	case p.plain == 0:
		if w == wordLogin {
			p.stage = 1
		}
	case p.stage == 1 && w != "-" && !strings.Contains(w, "="):
		p.stage = 2
		return 0, -1
	}
	return -1, -1
}

// htpasswdPassword is htpasswd's password in batch mode (-b): its third plain word (FILE USER
// PASSWORD), or its second with -n (USER PASSWORD, the result printed).
func htpasswdPassword(p *positionalScan, w string) (int, int) {
	if p.flags&optionLetter('b') == 0 {
		return -1, -1
	}
	at := 2
	if p.flags&optionLetter('n') != 0 {
		at = 1
	}
	if p.plain == at {
		return 0, -1
	}
	return -1, -1
}

// configSetSecret is the value a package manager's "config set" (npm, pnpm, yarn; "npm set")
// gives a credential setting: "KEY VALUE" or "KEY=VALUE", the key naming a registry's
// credential (npmCredentialKey).
func configSetSecret(p *positionalScan, w string) (int, int) {
	const set, keyed = 1, 2
	switch p.stage {
	case 0:
		if w == "set" {
			p.stage = set
		}
	case keyed:
		p.stage = set
		return 0, -1
	default:
		key, value, hasValue := strings.Cut(w, "=")
		switch {
		case !npmCredentialKey(key):
		case !hasValue:
			p.stage = keyed
		case value != "":
			return len(key) + 1, -1
		}
	}
	return -1, -1
}

// npmCredentialKey reports whether a registry setting holds a credential: its name (after the
// registry's "//host/:" or a scope's "npmScopes.org.") is a credential's (_authToken, _password,
// npmAuthToken), npm's _auth (base64 user:password) or yarn's npmAuthIdent (user:password).
// always-auth, keyfile and certfile name no credential.
func npmCredentialKey(key string) bool {
	i := len(key)
	for i > 0 && (isWordByte(key[i-1]) || key[i-1] == '-') {
		i--
	}
	name := key[i:]
	if name == "" {
		return false
	}
	if credentialOptionName(name) {
		return true
	}
	var buf [4]string
	words := nameWords(name, buf[:0])
	n := len(words)
	return n == 1 && words[0] == wordAuth || n >= 2 && words[n-2] == wordAuth && words[n-1] == "ident"
}
