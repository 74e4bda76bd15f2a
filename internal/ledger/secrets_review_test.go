package ledger

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// redactionRow is a command line, as text and as a list of words, and what each is recorded as.
type redactionRow struct {
	name     string
	in, want string   // text: RedactSecrets
	argv     []any    // nil: the text's words
	wantArgv []string // nil: no list form checked
}

func checkRedactionRows(t *testing.T, rows []redactionRow) {
	t.Helper()
	r := newRedactor(nil, 1024)
	for _, tt := range rows {
		if diff := cmp.Diff(tt.want, RedactSecrets(tt.in)); diff != "" {
			t.Errorf("%s: RedactSecrets(%q) (-want +got)\n%s", tt.name, tt.in, diff)
		}
		if tt.wantArgv == nil {
			continue
		}
		got, err := r.encode(map[string]any{"argv": tt.argv})
		if err != nil {
			t.Fatal(err)
		}
		want, err := appendCanonical(nil, map[string]any{"argv": anySlice(tt.wantArgv)})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s: argv %q (-want +got)\n%s", tt.name, tt.argv, diff)
		}
	}
}

func anySlice(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

// A shell redirection or control operator after an option that takes a credential is not the
// option's value: "gh auth login --with-token < tok" reads the token from a file, and recording
// "<" as the token hid nothing and lost the file's name to the scan. The option then has no value
// on the line, and what follows is read as usual.
func TestRedirectionIsNoOptionValue(t *testing.T) {
	checkRedactionRows(t, []redactionRow{
		{name: "--with-token < file", in: `gh auth login --with-token < tok.txt`, want: `gh auth login --with-token < tok.txt`,
			argv: []any{"gh", "auth", "login", "--with-token", "<", "tok.txt"}, wantArgv: []string{"gh", "auth", "login", "--with-token", "<", "tok.txt"}},
		{name: "attached redirection", in: `gh auth login --with-token <tok.txt`, want: `gh auth login --with-token <tok.txt`},
		// A here-string is the command's input: what an option that reads stdin takes.
		{name: "here-string", in: `docker login --password-stdin <<< hunter22`, want: `docker login --password-stdin <<< [REDACTED:credential-option]`,
			argv: []any{"tool", "--password", "<<<", "hunter22"}, wantArgv: []string{"tool", "--password", "<<<", "[REDACTED]"}},
		{name: "here-string attached", in: `sshpass -p <<<hunter22 ssh h`, want: `sshpass -p <<<[REDACTED:cli-password] ssh h`},
		{name: "heredoc", in: "tool --token << EOF\nx\nEOF", want: "tool --token << EOF\nx\nEOF"},
		{name: "output", in: `tool --password > out.txt`, want: `tool --password > out.txt`,
			argv: []any{"tool", "--password", ">", "out.txt"}, wantArgv: []string{"tool", "--password", ">", "out.txt"}},
		{name: "append", in: `tool --password >> out.txt`, want: `tool --password >> out.txt`},
		{name: "stderr", in: `tool --token 2> err.txt`, want: `tool --token 2> err.txt`,
			argv: []any{"tool", "--token", "2>", "err.txt"}, wantArgv: []string{"tool", "--token", "2>", "err.txt"}},
		{name: "stderr attached", in: `tool --token 2>err.txt`, want: `tool --token 2>err.txt`},
		{name: "both", in: `tool --token &> all.txt`, want: `tool --token &> all.txt`},
		{name: "pipe", in: `tool --token | cat`, want: `tool --token | cat`,
			argv: []any{"tool", "--token", "|", "cat"}, wantArgv: []string{"tool", "--token", "|", "cat"}},
		{name: "and", in: `tool --token && echo ok`, want: `tool --token && echo ok`},
		{name: "a tool's password option", in: `sshpass -p < pw.txt ssh host`, want: `sshpass -p < pw.txt ssh host`},
		{name: "docker login -p then a pipe", in: `docker login -u bot -p | tee log`, want: `docker login -u bot -p | tee log`},
		{name: "mysql -p prompts, its input from a file", in: `mysql -u root -p < dump.sql`, want: `mysql -u root -p < dump.sql`},
		// Near misses: a value is still a value, quoted operators included.
		{name: "a value, then a redirection", in: `tool --token hunter22 > out.txt`, want: `tool --token [REDACTED:credential-option] > out.txt`,
			argv: []any{"tool", "--token", "hunter22", ">", "out.txt"}, wantArgv: []string{"tool", "--token", "[REDACTED]", ">", "out.txt"}},
		{name: "a quoted < is a value", in: `tool --password '<hunter22' -v`, want: `tool --password [REDACTED:credential-option] -v`},
		{name: "sshpass value then redirect", in: `sshpass -p hunter22 ssh host < cmds`, want: `sshpass -p [REDACTED:cli-password] ssh host < cmds`},
		{name: "a list element that starts with < is a value", in: `x`, want: `x`,
			argv: []any{"tool", "--password", "<hunter22>"}, wantArgv: []string{"tool", "--password", "[REDACTED]"}},
	})
}

// Credentials a tool takes as a plain word, not as an option's value: Oracle's logon
// (user/password@connect), vault login's token, htpasswd's batch password, a package manager's
// registry token set with "config set KEY VALUE", the value of a GitHub Actions secret. Only
// the password is hidden where the word holds more (the user and the database stay).
func TestPositionalCredentials(t *testing.T) {
	checkRedactionRows(t, []redactionRow{
		{name: "sqlplus user/password@db", in: `sqlplus scott/tiger123@db`, want: `sqlplus scott/[REDACTED:cli-password]@db`,
			argv: []any{"sqlplus", "scott/tiger123@db"}, wantArgv: []string{"sqlplus", "scott/[REDACTED]@db"}},
		{name: "sqlplus -s, easy connect", in: `sqlplus -s u/Xs3cret99@//host:1521/svc @run.sql`, want: `sqlplus -s u/[REDACTED:cli-password]@//host:1521/svc @run.sql`},
		{name: "sqlplus without a connect identifier", in: `/opt/oracle/bin/sqlplus u/Xs3cret99`, want: `/opt/oracle/bin/sqlplus u/[REDACTED:cli-password]`,
			argv: []any{"sqlplus", "-L", "u/Xs3cret99"}, wantArgv: []string{"sqlplus", "-L", "u/[REDACTED]"}},
		{name: "sqlplus quoted password with @", in: `sqlplus 'u/"p@ssw0rd"@db'`, want: `sqlplus 'u/"[REDACTED:cli-password]"@db'`},
		{name: "sqlplus after -R's value", in: `echo x | sqlplus -R 3 sys/Xs3cret99@db as sysdba`, want: `echo x | sqlplus -R 3 sys/[REDACTED:cli-password]@db as sysdba`},
		{name: "expdp logon and userid=", in: `expdp system/Xs3cret99@db directory=d && impdp directory=d userid=u/Ys3cret99@db`,
			want: `expdp system/[REDACTED:cli-password]@db directory=d && impdp directory=d userid=u/[REDACTED:cli-password]@db`},
		{name: "rman target and catalog", in: `rman target sys/Xs3cret99@prod catalog rc/Ys3cret99@rcat`,
			want:     `rman target sys/[REDACTED:cli-password]@prod catalog rc/[REDACTED:cli-password]@rcat`,
			argv:     []any{"rman", "TARGET", "sys/Xs3cret99@prod", "AUXILIARY", "u/Zs3cret99"},
			wantArgv: []string{"rman", "TARGET", "sys/[REDACTED]@prod", "AUXILIARY", "u/[REDACTED]"}},
		{name: "rman target=", in: `rman target=sys/Xs3cret99@prod cmdfile=b.rman`, want: `rman target=sys/[REDACTED:cli-password]@prod cmdfile=b.rman`},
		{name: "vault login token", in: `vault login mytoken123abc`, want: `vault login [REDACTED:cli-password]`,
			argv: []any{"vault", "login", "mytoken123abc"}, wantArgv: []string{"vault", "login", "[REDACTED]"}},
		{name: "vault login after valued options", in: `vault login -address https://v:8200 -method token mytoken123abc`,
			want: `vault login -address https://v:8200 -method token [REDACTED:cli-password]`},
		{name: "vault login userpass", in: `vault login -method=userpass username=u password=Xs3cret99`,
			want:     `vault login -method=userpass username=u password=[REDACTED:credential-assignment]`,
			argv:     []any{"vault", "login", "-method=userpass", "username=u", "password=Xs3cret99"},
			wantArgv: []string{"vault", "login", "-method=userpass", "username=u", "password=[REDACTED:credential-assignment]"}},
		{name: "htpasswd -b", in: `htpasswd -b /etc/nginx/.htpasswd alice Xs3cret99`, want: `htpasswd -b /etc/nginx/.htpasswd alice [REDACTED:cli-password]`,
			argv: []any{"htpasswd", "-b", "f", "alice", "Xs3cret99"}, wantArgv: []string{"htpasswd", "-b", "f", "alice", "[REDACTED]"}},
		{name: "htpasswd -bc and -B -C cost", in: `htpasswd -bcB -C 10 .htpasswd alice Xs3cret99`, want: `htpasswd -bcB -C 10 .htpasswd alice [REDACTED:cli-password]`},
		{name: "htpasswd -nb", in: `htpasswd -nb alice Xs3cret99 > h`, want: `htpasswd -nb alice [REDACTED:cli-password] > h`},
		{name: "htpasswd -n -b", in: `htpasswd -n -b alice Xs3cret99`, want: `htpasswd -n -b alice [REDACTED:cli-password]`},
		{name: "npm config set, space", in: `npm config set //registry.npmjs.org/:_authToken Xs3cret99`,
			want:     `npm config set //registry.npmjs.org/:_authToken [REDACTED:cli-password]`,
			argv:     []any{"npm", "config", "set", "//registry.npmjs.org/:_authToken", "Xs3cret99"},
			wantArgv: []string{"npm", "config", "set", "//registry.npmjs.org/:_authToken", "[REDACTED]"}},
		{name: "npm config set _auth, =", in: `npm config set _auth=dXNlcjpwYXNz`, want: `npm config set _auth=[REDACTED:cli-password]`},
		{name: "npm set _password", in: `npm set //r.example/:_password "Xs3cret99" --location=project`, want: `npm set //r.example/:_password "[REDACTED:cli-password]" --location=project`},
		{name: "yarn npmAuthToken", in: `yarn config set npmAuthToken Xs3cret99`, want: `yarn config set npmAuthToken [REDACTED:cli-password]`},
		{name: "yarn npmAuthIdent", in: `yarn config set npmScopes.org.npmAuthIdent alice:Xs3cret99`, want: `yarn config set npmScopes.org.npmAuthIdent [REDACTED:cli-password]`},
		{name: "pnpm", in: `pnpm config set -g //npm.pkg.github.com/:_authToken Xs3cret99`, want: `pnpm config set -g //npm.pkg.github.com/:_authToken [REDACTED:cli-password]`},
		{name: "gh secret set --body", in: `gh secret set API_KEY --body Xs3cret99`, want: `gh secret set API_KEY --body [REDACTED:cli-password]`,
			argv: []any{"gh", "secret", "set", "API_KEY", "--body", "Xs3cret99"}, wantArgv: []string{"gh", "secret", "set", "API_KEY", "--body", "[REDACTED]"}},
		{name: "gh secret set -b", in: `gh secret set API_KEY -b "Xs3cret99" --repo o/r`, want: `gh secret set API_KEY -b "[REDACTED:cli-password]" --repo o/r`},
		{name: "gh secret set --body=", in: `gh secret set -R o/r API_KEY --body=Xs3cret99`, want: `gh secret set -R o/r API_KEY --body=[REDACTED:cli-password]`},
		{name: "gh secret set -bX", in: `gh secret set API_KEY -bXs3cret99`, want: `gh secret set API_KEY -b[REDACTED:cli-password]`},
		// Near misses: the same tools where no word is a credential.
		{name: "sqlplus /nolog", in: `sqlplus /nolog @a/b.sql`, want: `sqlplus /nolog @a/b.sql`},
		{name: "sqlplus / as sysdba", in: `sqlplus / as sysdba`, want: `sqlplus / as sysdba`,
			argv: []any{"sqlplus", "/", "as", "sysdba"}, wantArgv: []string{"sqlplus", "/", "as", "sysdba"}},
		{name: "sqlplus user@db prompts", in: `sqlplus -s scott@db @scripts/a.sql x/y < in/put.sql`, want: `sqlplus -s scott@db @scripts/a.sql x/y < in/put.sql`},
		{name: "expdp parameters", in: `expdp directory=d logfile=/tmp/x.log`, want: `expdp directory=d logfile=/tmp/x.log`},
		{name: "rman with the system's logon", in: `rman target / nocatalog cmdfile=/tmp/x/b.rman`, want: `rman target / nocatalog cmdfile=/tmp/x/b.rman`},
		{name: "rman catalog prompts", in: `rman target /@prod catalog rc@rcat`, want: `rman target /@prod catalog rc@rcat`},
		{name: "vault login reads stdin", in: `vault login -method=token -`, want: `vault login -method=token -`},
		{name: "vault read", in: `vault read secret/data/app`, want: `vault read secret/data/app`},
		{name: "vault login userpass with a method's value", in: `vault login -method userpass username=u`, want: `vault login -method userpass username=u`},
		{name: "htpasswd prompts", in: `htpasswd -c .htpasswd alice`, want: `htpasswd -c .htpasswd alice`},
		{name: "htpasswd -D", in: `htpasswd -D .htpasswd alice`, want: `htpasswd -D .htpasswd alice`},
		{name: "npm config set registry", in: `npm config set registry https://r.example/ && npm config get _authToken`, want: `npm config set registry https://r.example/ && npm config get _authToken`},
		{name: "npm always-auth", in: `npm config set always-auth true`, want: `npm config set always-auth true`},
		{name: "npm keyfile", in: `npm config set //r/:keyfile /etc/k.pem`, want: `npm config set //r/:keyfile /etc/k.pem`},
		{name: "gh variable set is no secret", in: `gh variable set REGION --body eu-west-1`, want: `gh variable set REGION --body eu-west-1`,
			argv: []any{"gh", "variable", "set", "REGION", "--body", "eu-west-1"}, wantArgv: []string{"gh", "variable", "set", "REGION", "--body", "eu-west-1"}},
		{name: "gh pr create --body", in: `gh pr create --title t --body "fix the secret rotation"`, want: `gh pr create --title t --body "fix the secret rotation"`},
		{name: "gh secret set from a file", in: `gh secret set API_KEY < key.txt`, want: `gh secret set API_KEY < key.txt`},
	})
}

// A credential assignment percent-encoded: a query string or a form body inside another URL
// (a redirect's next=, a callback), or a JSON document sent as a query parameter. The encoded
// "=" (%3D) and a JSON key's encoded quotes and colon (%22token%22%3A%22) are read as the plain
// ones; the value ends at an encoded or plain & or quote, so the parameters after it stay.
func TestPercentEncodedCredentials(t *testing.T) {
	checkRedactionRows(t, []redactionRow{
		{name: "form body", in: `curl -d password%3Dhunter22 https://x`, want: `curl -d password%3D[REDACTED:credential-assignment] https://x`},
		{name: "nested query string", in: `open https://x/login?next=%2Fcb%3Ftoken%3DXs3cret99%26page%3D2`,
			want: `open https://x/login?next=%2Fcb%3Ftoken%3D[REDACTED:credential-assignment]%26page%3D2`},
		{name: "lower-case escapes, a plain & after", in: `https://x/?r=client_secret%3dXs3cret%2B99&page=2`,
			want: `https://x/?r=client_secret%3d[REDACTED:credential-assignment]&page=2`},
		{name: "encoded JSON", in: `curl 'https://x/?q=%7B%22token%22%3A%22Xs3cret99%22%2C%22n%22%3A1%7D'`,
			want: `curl 'https://x/?q=%7B%22token%22%3A%22[REDACTED:credential-assignment]%22%2C%22n%22%3A1%7D'`},
		{name: "encoded JSON with encoded spaces", in: `q=%7B%22api_key%22%3A%20%22Xs3cret99%22%7D`,
			want: `q=%7B%22api_key%22%3A%20%22[REDACTED:credential-assignment]%22%7D`},
		{name: "in a list", in: `x`, want: `x`,
			argv: []any{"curl", "--data", "user=a%26password%3Dhunter22"}, wantArgv: []string{"curl", "--data", "user=a%26password%3D[REDACTED:credential-assignment]"}},
		{name: "basic-auth url with an encoded @", in: `curl https://u:p%40ss12@host/x`, want: `curl https://u:[REDACTED:basic-auth-url]@host/x`},
		// Near misses: encoded names that hold no credential, and encoded text without a value.
		{name: "max_tokens", in: `https://x/?next=%2Fapi%3Fmax_tokens%3D1024`, want: `https://x/?next=%2Fapi%3Fmax_tokens%3D1024`},
		{name: "max_tokens in encoded JSON", in: `q=%7B%22max_tokens%22%3A%22512%22%7D`, want: `q=%7B%22max_tokens%22%3A%22512%22%7D`},
		{name: "token_file", in: `a=token_file%3D%2Frun%2Ft`, want: `a=token_file%3D%2Frun%2Ft`},
		{name: "an encoded URL", in: `redirect_uri=https%3A%2F%2Fexample.com%2Ftoken%2Fcallback`, want: `redirect_uri=https%3A%2F%2Fexample.com%2Ftoken%2Fcallback`},
		{name: "an empty value", in: `x?password%3D%26next%3D1`, want: `x?password%3D%26next%3D1`},
	})
}

// Percent-encoded twice or more (a query string inside a redirect URL inside another, a JSON
// document in a query parameter of an encoded URL), each % is written %25: %253D is =, %2522 a
// quote, %2526 an &. They are read as the once-encoded ones; a literal % in a value (%25, or
// %2525 twice encoded) is part of it.
func TestDoublePercentEncodedCredentials(t *testing.T) {
	checkRedactionRows(t, []redactionRow{
		{name: "twice", in: `open https://x/?u=password%253Dhunter22`, want: `open https://x/?u=password%253D[REDACTED:credential-assignment]`},
		{name: "three times", in: `u=token%25253DXs3cret99%252526page%25253D2`, want: `u=token%25253D[REDACTED:credential-assignment]%252526page%25253D2`},
		{name: "a nested query string, twice", in: `https://x/?next=%252Fcb%253Ftoken%253DXs3cret99%2526page%253D2`,
			want: `https://x/?next=%252Fcb%253Ftoken%253D[REDACTED:credential-assignment]%2526page%253D2`},
		{name: "encoded JSON, twice", in: `q=%257B%2522token%2522%253A%2522Xs3cret99%2522%252C%2522n%2522%253A1%257D`,
			want: `q=%257B%2522token%2522%253A%2522[REDACTED:credential-assignment]%2522%252C%2522n%2522%253A1%257D`},
		{name: "encoded spaces, twice", in: `q=%2522api_key%2522%253A%2520%2522Xs3cret99%2522`,
			want: `q=%2522api_key%2522%253A%2520%2522[REDACTED:credential-assignment]%2522`},
		{name: "a literal % in the value", in: `u=password%3D50%25off%26x%3D1`, want: `u=password%3D[REDACTED:credential-assignment]%26x%3D1`},
		{name: "a literal % in the value, twice", in: `u=password%253D50%2525off%2526x%253D1`, want: `u=password%253D[REDACTED:credential-assignment]%2526x%253D1`},
		{name: "in a list", in: `x`, want: `x`,
			argv: []any{"curl", "--data", "r=password%253Dhunter22"}, wantArgv: []string{"curl", "--data", "r=password%253D[REDACTED:credential-assignment]"}},
		// Near misses: names that hold no credential, twice encoded, and an encoded URL.
		{name: "max_tokens twice", in: `https://x/?next=%252Fapi%253Fmax_tokens%253D1024`, want: `https://x/?next=%252Fapi%253Fmax_tokens%253D1024`},
		{name: "max_tokens in JSON twice", in: `q=%257B%2522max_tokens%2522%253A%2522512%2522%257D`, want: `q=%257B%2522max_tokens%2522%253A%2522512%2522%257D`},
		{name: "token_file twice", in: `a=token_file%253D%252Frun%252Ft`, want: `a=token_file%253D%252Frun%252Ft`},
		{name: "an encoded URL twice", in: `r=https%253A%252F%252Fexample.com%252Ftoken%252Fcallback`, want: `r=https%253A%252F%252Fexample.com%252Ftoken%252Fcallback`},
		{name: "an empty value twice", in: `x?password%253D%2526next%253D1`, want: `x?password%253D%2526next%253D1`},
	})
}

// Base64 that holds a private key. A PEM block base64-encoded whole was hidden only up to its
// first line break, and base64(1) and openssl base64 wrap their output (76 and 64 columns), so
// the key's body was recorded. A key named as such (kubeconfig's client-key-data) hides its
// value whatever it holds; a certificate's and other base64 stay.
func TestBase64Keys(t *testing.T) {
	pemKey := "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat("MIIEowIBAAKCAQEAx7Yq", 12) + "\n-----END RSA PRIVATE KEY-----\n"
	pemCert := strings.ReplaceAll(pemKey, "RSA PRIVATE KEY", "CERTIFICATE")
	wrap := func(s string, width int) string {
		var lines []string
		for len(s) > width {
			lines, s = append(lines, s[:width]), s[width:]
		}
		return strings.Join(append(lines, s), "\n")
	}
	key := base64.StdEncoding.EncodeToString([]byte(pemKey))
	cert := base64.StdEncoding.EncodeToString([]byte(pemCert))
	raw := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("\x30\x82\x04\xa3\x02\x01", 12)))
	checkRedactionRows(t, []redactionRow{
		{name: "base64 wrapped at 76", in: "echo '" + wrap(key, 76) + "' | base64 -d > k", want: "echo '[REDACTED:private-key]' | base64 -d > k"},
		{name: "openssl base64, 64 columns, CRLF", in: strings.ReplaceAll(wrap(key, 64), "\n", "\r\n") + "\r\ndone",
			want: "[REDACTED:private-key]\r\ndone"},
		{name: "kubeconfig client-key-data, not PEM", in: "users:\n- name: u\n  user:\n    client-key-data: " + raw + "\n    token: abc",
			want: "users:\n- name: u\n  user:\n    client-key-data: [REDACTED:credential-assignment]\n    token: [REDACTED:credential-assignment]"},
		// Near misses: a certificate, wrapped or not, and base64 that names nothing.
		{name: "certificate wrapped", in: wrap(cert, 76) + "\ndone", want: wrap(cert, 76) + "\ndone"},
		{name: "client-certificate-data", in: "client-certificate-data: " + raw, want: "client-certificate-data: " + raw},
		{name: "a short last line ends the key", in: wrap(key, 76) + "\nQUJD", want: "[REDACTED:private-key]\nQUJD"},
		{name: "random base64", in: "echo " + raw + " | base64 -d", want: "echo " + raw + " | base64 -d"},
	})
}

// A quoted value with a space in it: the command line is split into words at spaces, and only
// the value's first word was hidden (curl --user "alice:s3cret pw" recorded "pw"). A value whose
// opening quote the word does not close runs to its closing quote.
func TestQuotedToolValuesWithSpaces(t *testing.T) {
	checkRedactionRows(t, []redactionRow{
		{name: "curl --user", in: `curl --user "alice:s3cret pw" https://x`, want: `curl --user "alice:[REDACTED:cli-password]" https://x`},
		{name: "sshpass -p", in: `sshpass -p 'hunter 22 x' ssh deploy@host`, want: `sshpass -p '[REDACTED:cli-password]' ssh deploy@host`},
		{name: "gh secret set -b", in: `gh secret set K -b "Xs3cret 99" --repo o/r`, want: `gh secret set K -b "[REDACTED:cli-password]" --repo o/r`},
		{name: "htpasswd -b", in: `htpasswd -b f alice "Xs3cret 99"`, want: `htpasswd -b f alice "[REDACTED:cli-password]"`},
		{name: "sqlplus quoted password with a space", in: `sqlplus 'u/"p@ss w0rd"@db'`, want: `sqlplus 'u/"[REDACTED:cli-password]'`},
		{name: "mysql attached", in: `mysql -u root "-phunter 22" db`, want: `mysql -u root "-p[REDACTED:cli-password]" db`},
		// Near misses: quotes around a whole command, and apostrophes in prose.
		{name: "a quoted command in a message", in: `command "mysql -phunter22" is blocked, don't`, want: `command "mysql -p[REDACTED:cli-password]" is blocked, don't`},
		{name: "apostrophes", in: `don't run sshpass -p hunter22 ssh h, it's bad`, want: `don't run sshpass -p [REDACTED:cli-password] ssh h, it's bad`},
	})
}

// npm's _auth (base64 user:password) written as an assignment: an .npmrc line, a registry's
// own, and npm's environment variable for it. Another name ending in auth (enable_auth,
// skip_auth) keeps its value, as before.
func TestNpmAuthAssignment(t *testing.T) {
	checkRedactionRows(t, []redactionRow{
		{name: ".npmrc", in: "echo '_auth=dXNlcjpwYXNz' >> ~/.npmrc", want: "echo '_auth=[REDACTED:credential-assignment]' >> ~/.npmrc"},
		{name: "a registry's", in: "//registry.example.com/:_auth=dXNlcjpwYXNz", want: "//registry.example.com/:_auth=[REDACTED:credential-assignment]"},
		{name: "environment", in: "NPM_CONFIG__AUTH=dXNlcjpwYXNz npm publish", want: "NPM_CONFIG__AUTH=[REDACTED:credential-assignment] npm publish"},
		{name: "in a list", in: "x", want: "x", argv: []any{"npm", "publish", "--_auth", "dXNlcjpwYXNz"},
			wantArgv: []string{"npm", "publish", "--_auth", "[REDACTED]"}},
		{name: "enable_auth stays", in: "enable_auth=true skip_auth: yes", want: "enable_auth=true skip_auth: yes",
			argv: []any{"run", "--enable_auth", "true"}, wantArgv: []string{"run", "--enable_auth", "true"}},
		{name: "npm_auth_type stays", in: "npm_config_auth_type=legacy", want: "npm_config_auth_type=legacy"},
	})
}

// HTTP basic authentication's user:password named basic_auth (Prometheus' scrape configs, many
// charts' values, an exporter's environment): auth is its only credential word, as in
// enable_auth, but the word before it says the value is a password.
func TestBasicAuthAssignment(t *testing.T) {
	checkRedactionRows(t, []redactionRow{
		{name: "text", in: "basic_auth=alice:Xs3cret99 ./exporter", want: "basic_auth=[REDACTED:credential-assignment] ./exporter"},
		{name: "environment", in: "PROXY_BASIC_AUTH=alice:Xs3cret99 curl x", want: "PROXY_BASIC_AUTH=[REDACTED:credential-assignment] curl x"},
		{name: "JSON in text", in: `{"basic_auth":"alice:Xs3cret99"}`, want: `{"basic_auth":[REDACTED:credential-assignment]}`},
		{name: "in a list", in: "x", want: "x", argv: []any{"exporter", "--basic_auth", "alice:Xs3cret99"},
			wantArgv: []string{"exporter", "--basic_auth", "[REDACTED]"}},
		{name: "about it stays", in: "basic_auth_enabled=true basic_auth_file=/etc/x", want: "basic_auth_enabled=true basic_auth_file=/etc/x"},
		{name: "another auth stays", in: "http_auth=none", want: "http_auth=none"},
		// camelCase, dashed, dotted and one-word spellings: Grafana's and many charts' basicAuth.
		{name: "camelCase", in: "basicAuth: alice:Xs3cret99", want: "basicAuth: [REDACTED:credential-assignment]"},
		{name: "camelCase with a prefix", in: "helm install x --set proxyBasicAuth=alice:Xs3cret99",
			want: "helm install x --set proxyBasicAuth=[REDACTED:credential-assignment]"},
		{name: "JSON camelCase", in: `curl -d '{"basicAuth":"alice:Xs3cret99"}' x`, want: `curl -d '{"basicAuth":[REDACTED:credential-assignment]}' x`},
		{name: "one word", in: "BASICAUTH=alice:Xs3cret99", want: "BASICAUTH=[REDACTED:credential-assignment]"},
		{name: "dotted", in: "grafana.basic.auth=alice:Xs3cret99", want: "grafana.basic.auth=[REDACTED:credential-assignment]"},
		{name: "an option, dashed", in: "exporter --basic-auth alice:Xs3cret99", want: "exporter --basic-auth [REDACTED:credential-option]",
			argv: []any{"exporter", "--basic-auth", "alice:Xs3cret99"}, wantArgv: []string{"exporter", "--basic-auth", "[REDACTED]"}},
		{name: "an option, camelCase, in a list", in: "x", want: "x", argv: []any{"exporter", "--basicAuth=alice:Xs3cret99"},
			wantArgv: []string{"exporter", "--basicAuth=[REDACTED]"}},
		{name: "other auths stay", in: "enableAuth: true httpAuth=none basicAuthEnabled: true basic-auth-file=/etc/x BASICAUTHENABLED=1",
			want:     "enableAuth: true httpAuth=none basicAuthEnabled: true basic-auth-file=/etc/x BASICAUTHENABLED=1",
			argv:     []any{"run", "--basicAuthEnabled", "true", "--enableAuth", "yes", "--httpAuth", "on"},
			wantArgv: []string{"run", "--basicAuthEnabled", "true", "--enableAuth", "yes", "--httpAuth", "on"}},
	})
}

// In a URL's query a credential's value ends at &: ?token=X&page=2 hid &page=2 with X. The
// parameters after it are read on, a quoted or spaced value is taken as outside a query, and a #
// is part of the value (libpq and JDBC read ?password=a#b as a#b, a form body's password may hold
// one): a URL's fragment after a credential is hidden with it.
func TestQueryParameterValues(t *testing.T) {
	const m = "[REDACTED:credential-assignment]"
	checkRedactionRows(t, []redactionRow{
		{name: "& ends it", in: "curl 'https://h/api?token=hunter22&page=2'", want: "curl 'https://h/api?token=" + m + "&page=2'"},
		{name: "# is the value's", in: "open https://h/cb?access_token=hunter22#state", want: "open https://h/cb?access_token=" + m},
		{name: "a fragment is hidden, & ends it", in: "https://h/?token=x#top&page=2", want: "https://h/?token=" + m + "&page=2"},
		{name: "a credential after it", in: "https://h/?token=hunter22&page=2&password=Xs3cret99&x=1",
			want: "https://h/?token=" + m + "&page=2&password=" + m + "&x=1"},
		{name: "after another parameter", in: "https://h/?a=1&api_key=hunter22&b=2", want: "https://h/?a=1&api_key=" + m + "&b=2"},
		{name: "an empty value hides nothing", in: "https://h/?token=&page=2#top", want: "https://h/?token=&page=2#top"},
		{name: "a quoted value", in: `x?token="a b"&page=2`, want: `x?token=` + m + `&page=2`},
		{name: "a spaced value", in: `x&password = hunter22&y`, want: `x&password = ` + m + `&y`},
		{name: "a form body's # is the value's", in: "curl -d 'user=bob&password=hun#ter22&x=1' h",
			want: "curl -d 'user=bob&password=" + m + "&x=1' h"},
		{name: "in a list", in: "x", want: "x", argv: []any{"curl", "https://h/?token=hunter22&page=2"},
			wantArgv: []string{"curl", "https://h/?token=" + m + "&page=2"}},
		// Near misses: outside a query a value takes its word; a name that is no credential's.
		// bash ends the assignment at & and runs the rest: the record keeps it (shellMask).
		{name: "outside a query", in: "PASSWORD=a&b ./run", want: "PASSWORD=" + m + "&b ./run"},
		{name: "max_tokens", in: "https://h/?max_tokens=5&page=2", want: "https://h/?max_tokens=5&page=2"},
	})
}

// Docker's (and Podman's) auth file holds a registry's login as "auth": base64 of
// user:password. Written from a command line (echo '{"auths":…}' > ~/.docker/config.json), the
// entry is hidden when its value decodes to user:password; other "auth" values stay.
func TestDockerConfigAuth(t *testing.T) {
	const m = "[REDACTED:docker-config-auth]"
	checkRedactionRows(t, []redactionRow{
		{name: "echo into config.json", in: `echo '{"auths":{"r.example.com":{"auth":"dXNlcjpwdw=="}}}' > ~/.docker/config.json`,
			want: `echo '{"auths":{"r.example.com":{"auth":"` + m + `"}}}' > ~/.docker/config.json`},
		{name: "escaped quotes", in: `sh -c "echo {\"auths\":{\"r\":{\"auth\":\"Ym9iOmh1bnRlcjIy\"}}} > /root/.docker/config.json"`,
			want: `sh -c "echo {\"auths\":{\"r\":{\"auth\":\"` + m + `\"}}} > /root/.docker/config.json"`},
		{name: "spaced, single quotes", in: `python -c "print({'auth' : 'Ym9iOmh1bnRlcjIy'})"`,
			want: `python -c "print({'auth' : '` + m + `'})"`},
		{name: "unpadded, upper-case key", in: `printf '{"AUTH":"dXNlcjpwdw"}'`, want: `printf '{"AUTH":"` + m + `"}'`},
		{name: "podman auth.json", in: "cat > ${XDG_RUNTIME_DIR}/containers/auth.json <<EOF\n{\"auths\": {\"quay.io\": {\"auth\": \"Ym9iOmh1bnRlcjIy\"}}}\nEOF",
			want: "cat > ${XDG_RUNTIME_DIR}/containers/auth.json <<EOF\n{\"auths\": {\"quay.io\": {\"auth\": \"" + m + "\"}}}\nEOF"},
		{name: "in a list", in: "x", want: "x", argv: []any{"sh", "-c", `echo '{"auths":{"r":{"auth":"dXNlcjpwdw=="}}}' > c.json`},
			wantArgv: []string{"sh", "-c", `echo '{"auths":{"r":{"auth":"` + m + `"}}}' > c.json`}},
		// Near misses: an auth value that is no user:password.
		{name: "a word", in: `curl -d '{"auth":"required"}' x`, want: `curl -d '{"auth":"required"}' x`},
		{name: "base64 without a colon", in: `echo '{"auth":"dXNlcg=="}'`, want: `echo '{"auth":"dXNlcg=="}'`},
		{name: "a boolean", in: `echo '{"auth": true, "auths": {}}'`, want: `echo '{"auth": true, "auths": {}}'`},
		{name: "another key", in: `echo '{"oauth":"dXNlcjpwdw=="}'`, want: `echo '{"oauth":"dXNlcjpwdw=="}'`},
	})
}

// A program in one field and its arguments in another are read as one command line: the
// arguments alone name no tool, so a tool's options and plain-word credentials in them were
// recorded verbatim. The map encoder (direct and tree) and the FieldWriter agree.
func TestProgramAndArgumentsFields(t *testing.T) {
	r := newRedactor(nil, 1024)
	for _, tt := range []struct {
		name   string
		fields map[string]any
		want   string
	}{
		{"npm's plain word", map[string]any{"command": "npm", "args": []any{"config", "set", "//r/:_authToken", "hunter22"}},
			`{"args":["config","set","//r/:_authToken","[REDACTED]"],"command":"npm"}`},
		{"mysql -p", map[string]any{"program": "mysql", "args": []any{"-phunter22"}}, `{"args":["-p[REDACTED]"],"program":"mysql"}`},
		{"a path, argv of strings", map[string]any{"cmd": "/usr/bin/sshpass", "argv": []string{"-p", "hunter22", "ssh", "h"}},
			`{"argv":["-p","[REDACTED]","ssh","h"],"cmd":"/usr/bin/sshpass"}`},
		{"a string of arguments", map[string]any{"command": "mysql", "args": "-u root -phunter22 db"},
			`{"args":"-u root -p[REDACTED:cli-password] db","command":"mysql"}`},
		{"a wrapper in the program", map[string]any{"Command": "sudo mysql", "Args": []any{"-phunter22"}},
			`{"Args":["-p[REDACTED]"],"Command":"sudo mysql"}`},
		{"the gateway's extra", map[string]any{"arguments": map[string]any{"command": "mysql", "extra": map[string]any{"args": []any{"-phunter22", "db"}}}},
			`{"arguments":{"command":"mysql","extra":{"args":["-p[REDACTED]","db"]}}}`},
		// Program fields that disagree leave it unknown which runs: the arguments are read alone,
		// as they were before programs were read, and a decoy program cannot take the real
		// command's words (secrets_review2_ledger29_test.go).
		{"two programs, neither read", map[string]any{"bin": "mysql", "cmd": "ls", "extra": map[string]any{"args": []any{"-phunter22"}}},
			`{"bin":"mysql","cmd":"ls","extra":{"args":["-phunter22"]}}`},
		{"two tools, neither read", map[string]any{"bin": "vault", "cmd": "mysql", "args": []any{"login", "-phunter22", "s.tok"}},
			`{"args":["login","-phunter22","s.tok"],"bin":"vault","cmd":"mysql"}`},
		{"one program under two keys, read", map[string]any{"bin": "mysql", "CMD": "mysql", "args": []any{"-phunter22"}},
			`{"CMD":"mysql","args":["-p[REDACTED]"],"bin":"mysql"}`},
		// Below a program, a program field of the arguments' own reads nothing (underProgram).
		{"a decoy in extra, below a program that is no tool", map[string]any{"command": "kubectl",
			"extra": map[string]any{"cmd": "sshpass -p", "args": []any{"delete", "ns", "prod"}}},
			`{"command":"kubectl","extra":{"args":["delete","ns","prod"],"cmd":"sshpass -p"}}`},
		{"args beside extra.args, both read", map[string]any{"arguments": map[string]any{"command": "mysql", "args": []any{"x"},
			"extra": map[string]any{"args": []any{"-phunter22"}}}},
			`{"arguments":{"args":["x"],"command":"mysql","extra":{"args":["-p[REDACTED]"]}}}`},
		{"a string beside extra's list", map[string]any{"cmd": "mysql", "args": "-u root -phunter22",
			"extra": map[string]any{"argv": []any{"-p", "db"}, "ARGS": "--password=s3cret99 db"}},
			`{"args":"-u root -p[REDACTED:cli-password]","cmd":"mysql","extra":{"ARGS":"--password=[REDACTED:credential-option] db","argv":["-p","db"]}}`},
		{"a container's command list", map[string]any{"containers": []any{map[string]any{"name": "c", "command": []any{"mysql"}, "args": []any{"-phunter22", "db"}}}},
			`{"containers":[{"args":["-p[REDACTED]","db"],"command":["mysql"],"name":"c"}]}`},
		{"a list with a wrapper", map[string]any{"command": []any{"sudo", "-u", "root", "/usr/bin/mysql"}, "args": "-phunter22"},
			`{"args":"-p[REDACTED:cli-password]","command":["sudo","-u","root","/usr/bin/mysql"]}`},
		{"execFile's file", map[string]any{"file": "mysql", "args": []any{"-phunter22"}}, `{"args":["-p[REDACTED]"],"file":"mysql"}`},
		// Near misses: the same letters are no password for other tools, and a mysql without one.
		{"a list naming no tool", map[string]any{"command": []any{"ls"}, "args": []any{"-p", "x"}}, `{"args":["-p","x"],"command":["ls"]}`},
		{"a file that is no tool", map[string]any{"file": "notes.txt", "args": []any{"-phunter22"}}, `{"args":["-phunter22"],"file":"notes.txt"}`},
		{"ls beside extra.args", map[string]any{"command": "ls", "args": []any{"-p"}, "extra": map[string]any{"args": []any{"-p", "x"}}},
			`{"args":["-p"],"command":"ls","extra":{"args":["-p","x"]}}`},
		{"ls -p", map[string]any{"command": "ls", "args": []any{"-p", "dir"}}, `{"args":["-p","dir"],"command":"ls"}`},
		{"docker run -p", map[string]any{"command": "docker", "args": []any{"run", "-p", "8080:80", "img"}},
			`{"args":["run","-p","8080:80","img"],"command":"docker"}`},
		{"mysql without a password", map[string]any{"command": "mysql", "args": []any{"-u", "root", "db"}},
			`{"args":["-u","root","db"],"command":"mysql"}`},
		{"no program field", map[string]any{"tool": "mysql", "args": []any{"-phunter22"}}, `{"args":["-phunter22"],"tool":"mysql"}`},
	} {
		tree, err := r.encodeTree(tt.fields)
		if err != nil {
			t.Fatal(err)
		}
		if string(tree) != tt.want {
			t.Errorf("%s: tree\n got %s\nwant %s", tt.name, tree, tt.want)
		}
		direct, err := r.encode(tt.fields)
		if err != nil {
			t.Fatal(err)
		}
		fixed, err := r.encodeFixed(&mapFixed{m: tt.fields})
		if err != nil {
			t.Fatal(err)
		}
		if string(direct) != tt.want || string(fixed) != tt.want {
			t.Errorf("%s: direct %s, fixed %s; want %s", tt.name, direct, fixed, tt.want)
		}
		// A JSON document in a string argument is redacted as fields, so the same.
		doc, err := json.Marshal(tt.fields)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := r.encode(map[string]any{"d": string(doc)}); strings.Contains(string(got), "hunter22") != strings.Contains(tt.want, "hunter22") {
			t.Errorf("%s: as a JSON string %s", tt.name, got)
		}
	}
}

// Rows the last round's review (ledger28) found regressed there, which hold on main and must
// keep holding: a word after an option that reads standard input, a password that begins with a
// dash after an option that takes one, and a quoted value that runs past a line.
func TestReviewLedger28Regressions(t *testing.T) {
	checkRedactionRows(t, []redactionRow{
		{name: "--password-stdin WORD", in: `docker login --password-stdin hunter22`,
			want: `docker login --password-stdin [REDACTED:credential-option]`,
			argv: []any{"docker", "login", "--password-stdin", "hunter22"}, wantArgv: []string{"docker", "login", "--password-stdin", Redacted}},
		{name: "--with-token WORD", in: `gh auth login --with-token hunter22`,
			want: `gh auth login --with-token [REDACTED:credential-option]`,
			argv: []any{"gh", "auth", "login", "--with-token", "hunter22"}, wantArgv: []string{"gh", "auth", "login", "--with-token", Redacted}},
		{name: "--password -Passkey99 db", in: `mysql --password -Passkey99 db`, want: `mysql --password [REDACTED:credential-option] db`,
			argv: []any{"mysql", "--password", "-Passkey99", "db"}, wantArgv: []string{"mysql", "--password", Redacted, "db"}},
		{name: "--password -Secret123", in: `tool --password -Secret123`, want: `tool --password [REDACTED:credential-option]`},
	})
	// Later command lines stay in the record, whatever came before them.
	for _, in := range []string{
		"mysql -u root --password <<EOF\nDROP DATABASE prod;\nEOF\nrm -rf /srv\nls",
		"bash -s -- --token <<EOF\nrm -rf /srv\nEOF\nls",
		"docker login --password-stdin -u bot reg $((1<<2))\nrm -rf /srv\nls",
		"curl 'https://h/?token=x&page=2\nrm -rf /srv\nls",
		"password: |\n  token=\"abc\nrm -rf /srv\nls",
	} {
		if got := RedactSecrets(in); !strings.Contains(got, "\nrm -rf /srv\n") || !strings.HasSuffix(got, "\nls") {
			t.Errorf("RedactSecrets(%q) = %q: a later command line is gone", in, got)
		}
	}
}
