package ledger

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The shapes are the providers' documented examples or made-up values of the documented form;
// none is a live credential.
func TestRedactSecrets(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"bearer header in curl",
			`curl -H "Authorization: Bearer abcDEF123456789.xyz" https://api.example.com/v1`,
			`curl -H "Authorization: Bearer [REDACTED:authorization]" https://api.example.com/v1`},
		{"basic header", `Authorization: Basic dXNlcjpwYXNzd29yZA==`, `Authorization: Basic [REDACTED:authorization]`},
		{"github token header", `-H "Authorization: token 0123456789abcdef0123"`, `-H "Authorization: token [REDACTED:authorization]"`},
		// Any scheme: the credential follows the scheme word, whatever the scheme is called.
		{"apikey scheme", `curl -H "Authorization: ApiKey s3cr3tvalue12345" https://x`, `curl -H "Authorization: ApiKey [REDACTED:authorization]" https://x`},
		{"okta SSWS scheme", `curl -H 'Authorization: SSWS 00aBcDeFgHiJkLmNoP' https://x`, `curl -H 'Authorization: SSWS [REDACTED:authorization]' https://x`},
		{"negotiate scheme", `Authorization: Negotiate YIIGhgYGKwYBBQUCoIIG`, `Authorization: Negotiate [REDACTED:authorization]`},
		{"token without a scheme", `Authorization: s3cr3tvalue12345`, `Authorization: [REDACTED:authorization]`},
		{"proxy authorization", `Proxy-Authorization: Basic dXNlcjpwYXNzd29yZA==`, `Proxy-Authorization: Basic [REDACTED:authorization]`},
		{"basic-auth url", `git clone https://deploy:s3cr3tpass@git.example.com/repo.git`,
			`git clone https://deploy:[REDACTED:basic-auth-url]@git.example.com/repo.git`},
		{"url with an empty user", `redis-cli -u redis://:s3cr3tpass@cache:6379/0`, `redis-cli -u redis://:[REDACTED:basic-auth-url]@cache:6379/0`},
		{"url password with @ in it", `git clone https://deploy:p@ss@w0rd@git.example.com/r.git`,
			`git clone https://deploy:[REDACTED:basic-auth-url]@git.example.com/r.git`},
		{"url with a port and @ in the path stays", `curl https://example.com:8443/users/@me`, `curl https://example.com:8443/users/@me`},
		{"ssh url with a user stays", `git clone ssh://git@example.com:22/r.git`, `git clone ssh://git@example.com:22/r.git`},
		{"--password=", `mysql --user=root --password=hunter22 db`, `mysql --user=root --password=[REDACTED:credential-option] db`},
		{"--token space", `vault login --token s.abcdefgh12345678`, `vault login --token [REDACTED:credential-option]`},
		{"--api-key quoted", `tool --api-key "my key value"`, `tool --api-key [REDACTED:credential-option]`},
		{"env assignment", `DB_PASSWORD=hunter22 ./run.sh`, `DB_PASSWORD=[REDACTED:credential-assignment] ./run.sh`},
		{"yaml-ish", `client_secret: abcdef123`, `client_secret: [REDACTED:credential-assignment]`},
		{"aws access key id", `export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE`, `export AWS_ACCESS_KEY_ID=[REDACTED:aws-access-token]`},
		{"aws key in text", `key AKIAIOSFODNN7EXAMPLE leaked`, `key [REDACTED:aws-access-token] leaked`},
		{"github classic pat", `echo ghp_` + strings.Repeat("a1B2", 9) + ` | gh auth login`,
			`echo [REDACTED:github-pat] | gh auth login`},
		{"github fine-grained pat", `github_pat_11ABCDEFG0` + strings.Repeat("x", 72), `[REDACTED:github-pat]`},
		{"gitlab pat", `glpat-abcdefghij0123456789`, `[REDACTED:gitlab-pat]`},
		{"slack bot token", `SLACK=xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx`, `SLACK=[REDACTED:slack-token]`},
		{"slack webhook", `curl https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX`,
			`curl https://[REDACTED:slack-webhook-url]`},
		{"jwt", `id eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U ok`,
			`id [REDACTED:jwt] ok`},
		{"stripe", `sk_live_4eC39HqLyjWDarjtT1zdp7dc`, `[REDACTED:stripe-access-token]`},
		{"google api key", `AIzaSyD-abcdefghijklmnopqrstuvwxyz01234`, `[REDACTED:gcp-api-key]`},
		{"openai key", `OPENAI=sk-proj-abcdefghijklmnopqrstuvwxyz012345`, `OPENAI=[REDACTED:openai-api-key]`},
		{"npm token", `//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789`,
			`//registry.npmjs.org/:_authToken=[REDACTED:npm-access-token]`},
		{"private key block", "key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\ndone",
			"key:\n[REDACTED:private-key]\ndone"},
		{"private key cut short", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA", "[REDACTED:private-key]"},
		// Credential assignments in the syntaxes a command line carries them in: JSON bodies
		// (quoted keys, escaped quotes inside a double-quoted argument), config files written
		// by the command (spaces around =), PowerShell.
		{"json body in single quotes", `curl -d '{"username":"a","password":"hunter22"}' https://x/login`,
			`curl -d '{"username":"a","password":[REDACTED:credential-assignment]}' https://x/login`},
		{"json body with escaped quotes", `curl -d "{\"user\":\"a\",\"password\": \"hunter22\"}" https://x`,
			`curl -d "{\"user\":\"a\",\"password\": [REDACTED:credential-assignment]}" https://x`},
		{"single-quoted key", `{'api_key': 'abc123def'}`, `{'api_key': [REDACTED:credential-assignment]}`},
		{"escaped quoted value", `PASSWORD=\"hunter22\" ./run`, `PASSWORD=[REDACTED:credential-assignment] ./run`},
		{"--password with escaped quotes", `sh -c "mysql --password=\"hunter22\" db"`, `sh -c "mysql --password=[REDACTED:credential-option] db"`},
		{"config file, spaces around =", "printf '[pypi]\\nusername = __token__\\npassword = hunter22\\n' > ~/.pypirc",
			// printf's \n is a newline: the value ends before it (shellMask's escaped separators).
			"printf '[pypi]\\nusername = __token__\\npassword = [REDACTED:credential-assignment]\\n' > ~/.pypirc"},
		{"config file lines", "[pypi]\nusername = __token__\npassword = hunter22\n", "[pypi]\nusername = __token__\npassword = [REDACTED:credential-assignment]\n"},
		{"toml", `token = "abc123def"`, `token = [REDACTED:credential-assignment]`},
		{"powershell", `$env:API_TOKEN = "abc123def"`, `$env:API_TOKEN = [REDACTED:credential-assignment]`},
		// bash runs hunter22 with an empty PASSWORD: a command's name, recorded (shellMask).
		{"= then a space", `PASSWORD= hunter22 ./run`, `PASSWORD= hunter22 ./run`},
		{"= at a line's end does not take the next line", "PASSWORD=\nnext line", "PASSWORD=\nnext line"},
		// More providers' token shapes: git hosts, registries, clouds.
		{"gitlab deploy token", `git clone https://x:gldt-abcdefghij0123456789@gitlab.com/r`, `git clone https://x:[REDACTED:gitlab-pat]@gitlab.com/r`},
		{"gitlab runner token", `RUNNER=glrt-abcdefghij0123456789ab`, `RUNNER=[REDACTED:gitlab-pat]`},
		{"gitlab pipeline trigger", `curl -F token=glptt-abcdefghij0123456789ab x`, `curl -F token=[REDACTED:gitlab-pat] x`},
		{"hugging face", `huggingface-cli login hf_abcdefghijklmnopqrstuvwxyzABCDEFGH`, `huggingface-cli login [REDACTED:huggingface-access-token]`},
		{"pypi upload token", `twine upload -p pypi-AgEIcHlwaS5vcmc` + strings.Repeat("Ab1_", 16) + ` dist/*`, `twine upload -p [REDACTED:pypi-upload-token] dist/*`},
		{"docker hub pat", `echo dckr_pat_abcdefghijklmnopqrstuvwxyz0 | docker login`, `echo [REDACTED:docker-hub-pat] | docker login`},
		{"digitalocean pat", `doctl auth init -t dop_v1_` + strings.Repeat("0a", 32), `doctl auth init -t [REDACTED:digitalocean-pat]`},
		{"sendgrid", `SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG`, `[REDACTED:sendgrid-api-token]`},
		{"vault service token", `vault login hvs.` + strings.Repeat("CAESIabcdefgh", 8), `vault login [REDACTED:vault-service-token]`},
		{"google oauth access token", `curl -H "X-Goog-User-Project: p" "https://x?access=ya29.a0AfH6SMBabcdefghijklmnop"`, `curl -H "X-Goog-User-Project: p" "https://x?access=[REDACTED:gcp-oauth-token]"`},
		{"google oauth client secret", `echo GOCSPX-abcdefghijklmnopqrstuvwxyz01 > secret.txt`, `echo [REDACTED:gcp-oauth-token] > secret.txt`},
		{"shopify", `shpat_0123456789abcdef0123456789abcdef`, `[REDACTED:shopify-token]`},
		{"azure storage connection string", `AZ=DefaultEndpointsProtocol=https;AccountName=x;AccountKey=abcdEFGH1234+/==;EndpointSuffix=core.windows.net`,
			// Unquoted, bash ends the value at ; (shellMask): the key alone is hidden.
			`AZ=DefaultEndpointsProtocol=https;AccountName=x;AccountKey=[REDACTED:credential-assignment];EndpointSuffix=core.windows.net`},
		{"azure subscription key header", `curl -H 'Ocp-Apim-Subscription-Key: 0123456789abcdef0123' x`, `curl -H 'Ocp-Apim-Subscription-Key: [REDACTED:credential-assignment]' x`},
		// A known tool's password options, which the generic option rule does not know.
		{"mysql -p attached", `mysql -uroot -pS3cretPw db`, `mysql -uroot -p[REDACTED:cli-password] db`},
		{"mysql in a pipeline", `cat dump.sql | sudo /usr/bin/mysql -h db -phunter22`, `cat dump.sql | sudo /usr/bin/mysql -h db -p[REDACTED:cli-password]`},
		{"mysql -p prompts", `mysql -u root -p mydb`, `mysql -u root -p mydb`},
		{"sshpass -p", `sshpass -p 'hunter22' ssh deploy@host`, `sshpass -p '[REDACTED:cli-password]' ssh deploy@host`},
		{"curl -u", `curl -u alice:s3cretpw https://api.example.com`, `curl -u alice:[REDACTED:cli-password] https://api.example.com`},
		{"curl --user quoted", `curl --user "alice:s3cret pw" https://x`, `curl --user "alice:[REDACTED:cli-password]" https://x`},
		{"docker login -p", `docker login -u bot -p s3cretpw registry.example.com`, `docker login -u bot -p [REDACTED:cli-password] registry.example.com`},
		{"openssl pass:", `openssl pkcs12 -export -passin pass:hunter22 -passout pass:hunter23 -in c.pem`,
			`openssl pkcs12 -export -passin pass:[REDACTED:cli-password] -passout pass:[REDACTED:cli-password] -in c.pem`},
		{"openssl enc -pass and -k", `openssl enc -aes256 -pass pass:hunter22 -in a && openssl enc -k hunter23 -in b`,
			`openssl enc -aes256 -pass pass:[REDACTED:cli-password] -in a && openssl enc -k [REDACTED:cli-password] -in b`},
		{"openssl -pass from a file stays", `openssl enc -pass stdin -in a`, `openssl enc -pass stdin -in a`},
		{"ssh-keygen passphrases", `ssh-keygen -t ed25519 -N hunter22 -f k && ssh-keygen -p -P old12345 -N new12345 -f k`,
			`ssh-keygen -t ed25519 -N [REDACTED:cli-password] -f k && ssh-keygen -p -P [REDACTED:cli-password] -N [REDACTED:cli-password] -f k`},
		{"az login -p", `az login -u me@example.com -p hunter22`, `az login -u me@example.com -p [REDACTED:cli-password]`},
		{"docker run -p is a port", `docker run -p 8080:80 nginx`, `docker run -p 8080:80 nginx`},
		{"ssh -p is a port", `ssh -p 2222 deploy@host`, `ssh -p 2222 deploy@host`},
		{"redis-cli -a", `redis-cli -h cache -a s3cretpw PING`, `redis-cli -h cache -a [REDACTED:cli-password] PING`},
		{"--cli-password", `tool --cli-password s3cretpw --verbose`, `tool --cli-password [REDACTED:credential-option] --verbose`},
		{"--client-secret", `az login --client-secret abcdef123 --tenant t`, `az login --client-secret [REDACTED:credential-option] --tenant t`},
		{"--passphrase", `gpg --batch --passphrase hunter22 -d f.gpg`, `gpg --batch --passphrase [REDACTED:credential-option] -d f.gpg`},
		{"curl --cookie", `curl --cookie session=abc123def https://x`, `curl --cookie [REDACTED:credential-option] https://x`},
		// Cookie headers: the whole value, every cookie in it.
		{"cookie header", `curl -H "Cookie: session=abc123; csrf=def456" https://x`, `curl -H "Cookie: [REDACTED:cookie-header]" https://x`},
		// Unquoted, bash reads ; as a command's end (shellMask): the value ends there.
		{"set-cookie line", "HTTP/1.1 200 OK\r\nSet-Cookie: sid=abcdef0123; HttpOnly\r\n", "HTTP/1.1 200 OK\r\nSet-Cookie: [REDACTED:cookie-header]; HttpOnly\r\n"},
		// What must stay readable: ordinary commands, paths, digests.
		{"plain command", `git push origin main`, `git push origin main`},
		{"sha256 digest", `sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08`,
			`sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08`},
		{"url without credentials", `https://example.com/path?q=1`, `https://example.com/path?q=1`},
		{"keyword without a value", `rotate the password`, `rotate the password`},
		{"prose about tokens", `[ToolSafetyViolationError] token budget exceeded: 12 of 10`, `[ToolSafetyViolationError] token budget exceeded: 12 of 10`},
		{"gh auth login", `gh auth login --web`, `gh auth login --web`},
		{"a quoted rule id in a denial message", `command "aws sts get-session-token" is blocked by damage-control rule "aws-prints-credential": it prints a credential`,
			`command "aws sts get-session-token" is blocked by damage-control rule "aws-prints-credential": it prints a credential`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, RedactSecrets(tt.in)); diff != "" {
				t.Errorf("RedactSecrets(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestRecordsRedactSecretValues(t *testing.T) {
	j := mustOpen(t, testConfig(t, newFakeClock(day0)))
	if _, err := j.Append(t.Context(), Record{Kind: "decision", Fields: map[string]any{
		"args":    map[string]any{"command": `curl -u admin:pw -H "Authorization: Bearer abcdefgh12345678" https://x`},
		"message": "denied: git clone https://bot:hunter22@git.example.com/r.git",
	}}); err != nil {
		t.Fatal(err)
	}
	recs := records(t, chainDirOf(j.cfg))
	got := recs[len(recs)-1].decodeFields()
	if s := got["message"].(string); strings.Contains(s, "hunter22") || !strings.Contains(s, "[REDACTED:basic-auth-url]") {
		t.Errorf("message %q", s)
	}
	if s := got["args"].(map[string]any)["command"].(string); strings.Contains(s, "abcdefgh12345678") {
		t.Errorf("command %q", s)
	}
	// The journal's own records are never rewritten by value rules.
	for _, r := range recs {
		if r.Kind == KindSegment && strings.Contains(string(r.rawFields), "REDACTED") {
			t.Errorf("segment header redacted: %s", r.rawFields)
		}
	}
}

func FuzzRedactSecrets(f *testing.F) {
	f.Add(`--password=x Authorization: Bearer abcdefgh1234 https://u:p@h`)
	f.Add("-----BEGIN PRIVATE KEY-----\nabc")
	f.Add("Authorization:A0000000\r00000000 Authorization: Bearer\u00a0abcdefgh1\v bearer\u0085abcdefgh2")
	f.Fuzz(func(t *testing.T, s string) {
		out := RedactSecrets(s)
		if again := RedactSecrets(out); again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, out, again)
		}
	})
}

func TestHexLikeValuesAreNotCredentials(t *testing.T) {
	// Every rule that could match a hex string needs a letter past f or punctuation, so
	// skipping hex-like values loses nothing: each of these passes through every rule unchanged.
	for _, s := range []string{"0b9f6a2e-8c1d-4f5e-9a7b-3c2d1e0f4a5b", "sha256:" + strings.Repeat("acca", 16), strings.Repeat("ABCDEF0123", 8)} {
		if !hexLike(s) {
			t.Fatalf("%q is hex-like", s)
		}
		for _, r := range secretRules {
			if out, changed := r.apply(s, newShellGuard(s)); changed {
				t.Errorf("rule %s changes the hex-like %q to %q", r.id, s, out)
			}
		}
	}
}

// encode's fast paths write exactly what the encoding/json round trip writes, and leave the
// caller's fields as they were: the direct encoder (encodeDirect) and the tree path's plainTree.
func TestPlainTreeMatchesTheRoundTrip(t *testing.T) {
	r := newRedactor([]string{"sandbox"}, 64)
	for i, fields := range directEncoderCases() {
		before := fmt.Sprint(fields)
		fast, err := r.encode(fields)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := r.encodeTree(fields)
		if err != nil {
			t.Fatal(err)
		}
		slow, err := r.encodeRoundTrip(fields)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(slow), string(tree)); diff != "" {
			t.Errorf("fields %d: plainTree path differs (-roundtrip +tree):\n%s", i, diff)
		}
		if diff := cmp.Diff(string(tree), string(fast)); diff != "" {
			t.Errorf("fields %d: encode differs (-tree +encode):\n%s", i, diff)
		}
		if fmt.Sprint(fields) != before {
			t.Errorf("fields %d were changed by encode", i)
		}
	}
}

// directEncoderCases are fields every encoder path must agree on: the rich decision, escapes,
// non-ASCII text (the Kelvin sign lower-cases to "k", so "to\u212aen" is a token by Unicode
// rules), secrets in keys, values, lists and string maps, strings cut by truncation, and keys
// long enough to be cut (the direct encoder leaves those to the tree path).
func directEncoderCases() []map[string]any {
	return []map[string]any{
		richDecision(1).Fields,
		decision(2).Fields,
		{"n": int64(-3), "u": uint64(7), "i32": int32(5), "list": []string{"a", "--password=x"}, "m": map[string]string{"sandboxId": "s", "x": "y"}, "nil": nil},
		{strings.Repeat("k", 80) + "1": "a", strings.Repeat("k", 80) + "2": "b"},
		{"ctl": "a\x00b\x1f\"q\"\\\n\r\t\u007f", "é": "café --pass=wörd ok", "api-\u212aey": "v", "x": "--to\u212aen=abcdefgh123"},
		{"cmd": "ghp_" + strings.Repeat("a", 36) + " AKIAABCDEFGHIJKLMNOP " + strings.Repeat("x", 70), "u": "https://u:pa55word@h/x"},
		{"Authorization": map[string]any{"f": 1, "l": []any{"x", true}}, "Sandbox": []string{"s"}, "nested": []any{map[string]any{"Secret": nil}, map[string]string{"tokenX": "t", "y": "Bearer abcdefgh12345"}}},
		{"long": strings.Repeat("é", 40) + "--password=hunter22", "k": "-----BEGIN RSA PRIVATE KEY-----\nMIIabc\n-----END RSA PRIVATE KEY-----"},
		{"empty": map[string]any{}, "": ""},
		{"argv": []string{"mysql", "-pS3cret", "--token", "t"}, "l": []any{"sshpass", "-p", "x", "ssh", 1}, "body": `{"password":"x","n":1.5}`,
			"m": map[string]any{"ghp_" + strings.Repeat("b", 36): "v", "Cookie: a=b": "c"}, "msg": "[Denied] curl -u a:b -H 'Cookie: s=1'"},
		// A program and its arguments in separate fields (credentials_program.go).
		{"command": "npm", "args": []any{"config", "set", "//r/:_authToken", "hunter22"}, "x": map[string]any{"program": "mysql", "argv": "-phunter22 db"}},
		{"arguments": map[string]any{"bin": "mysql", "cmd": "ls", "extra": map[string]any{"args": []any{"-phunter22"}}}, "exe": "/usr/bin/sshpass", "argv": []string{"-p", "x", "ssh"}},
	}
}

// A nil map or slice inside the fields is written as {} or [] (plainTree copies it into an empty
// one), where encoding/json writes null: that is how the journal has written them since
// plainTree, and the direct encoder keeps it.
func TestNilContainersAreWrittenEmpty(t *testing.T) {
	got, err := newRedactor(nil, 64).encode(map[string]any{"m": map[string]any(nil), "l": []any(nil), "s": []string(nil), "ms": map[string]string(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"l":[],"m":{},"ms":{},"s":[]}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// The direct encoder must take the common records itself, or the speed-up is gone silently.
func TestDirectEncoderTakesPlainRecords(t *testing.T) {
	r := newRedactor(nil, DefaultMaxStringLength)
	for _, fields := range []map[string]any{richDecision(1).Fields, decision(2).Fields} {
		if _, ok := r.encodeDirect(fields); !ok {
			t.Errorf("direct encoder gave up on %v", fields)
		}
	}
	// And leave what it cannot do byte for byte to the tree path.
	for _, fields := range []map[string]any{{"f": 1.5}, {"password": 1.5}, {"s": "\xff"}, {"\xff": "s"}, {strings.Repeat("k", 2*DefaultMaxStringLength): 1}} {
		if _, ok := r.encodeDirect(fields); ok {
			t.Errorf("direct encoder took %q", fields)
		}
	}
}
