package ledger

import (
	"strings"
	"testing"
)

// Names that hold a credential's word but are a count, a name, a path or an id keep their
// values, whichever way the value reaches the ledger: under a key, as an assignment or an option
// in text, or as an option in a list. Names of credentials, however they are affixed, still hide
// theirs.
var (
	notCredentialNames = []string{"max_tokens", "maxTokens", "MAX-TOKENS", "num_tokens", "prompt_tokens",
		"completion_tokens", "token_count", "tokenizer", "secret_name", "secretName", "secret-ref", "secretKeyRef",
		"token_file", "tokenFile", "password_file", "PASSWORD_FILE", "key_path", "ssh_key_file", "private_key_path",
		"cookie_jar", "credentials_file", "api_key_id", "AWS_ACCESS_KEY_ID", "keyId", "next_token", "nextPageToken",
		"page_token", "primary_key", "sort_key", "public_key", "author", "authors", "authority", "keyboard", "keywords",
		"monkey", "secretary", "auth_type", "auth_url", "token_url", "token_endpoint", "token_ttl", "auth_token_ttl",
		"key", "keys", "Key", "PWD", "OLDPWD", "token_budget", "password_length", "passwordless", "credential_helper"}
	credentialNamesKept = []string{"password", "db_password", "DB_PASSWORD", "Pass_Word", "passwd", "token",
		"GITHUB_TOKEN", "githubToken", "authtoken", "auth_token", "refresh_token", "id_token", "sessionToken",
		"x-auth-token", "api_key", "apiKey", "apikey", "x-api-key", "client_secret", "clientSecret", "secret",
		"secret_key", "AWS_SECRET_ACCESS_KEY", "private_key", "tls.key", "credentials", "cookie", "password_hash",
		"tokens", "authorization", "X-Auth-Header", "csrf_token", "db_pwd"}
)

func TestNamesThatAreNotCredentials(t *testing.T) {
	for _, name := range notCredentialNames {
		if !notACredentialName(name) {
			t.Errorf("notACredentialName(%q) = false, want true", name)
		}
	}
	for _, name := range credentialNamesKept {
		if notACredentialName(name) {
			t.Errorf("notACredentialName(%q) = true, want false", name)
		}
	}
}

func TestKeysThatAreNotCredentialsKeepTheirValues(t *testing.T) {
	r := newRedactor([]string{"author"}, 1024) // an added key redacts as a substring, as configured
	for _, name := range notCredentialNames {
		want := !strings.Contains(name, "author")
		if got := !r.secret(name); got != want {
			t.Errorf("key %q kept = %v, want %v", name, got, want)
		}
		out, err := r.encode(map[string]any{name: "v1024"})
		if err != nil {
			t.Fatal(err)
		}
		if kept := strings.Contains(string(out), "v1024"); kept != want {
			t.Errorf("record of key %q = %s, kept = %v, want %v", name, out, kept, want)
		}
	}
	for _, name := range credentialNamesKept {
		out, err := r.encode(map[string]any{name: "v1024"})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), "v1024") {
			t.Errorf("record of key %q = %s, want its value redacted", name, out)
		}
	}
}

// A name the text rules hide the value of hides it under a key too, and in an entry or a pair it
// names: MYSQL_PWD=x in a command and {"MYSQL_PWD": x} in an MCP tool's arguments are the same
// credential. The shell's PWD and OLDPWD, a working directory, stay in each form.
func TestPwdNamesHideUnderKeysAsInText(t *testing.T) {
	r := newRedactor(nil, 1024)
	for _, name := range []string{"MYSQL_PWD", "db_pwd", "DB_PWD", "adminPwd", "smtp-pwd"} {
		if got := RedactSecrets(name + "=v1024"); strings.Contains(got, "v1024") {
			t.Errorf("RedactSecrets(%q) = %q, want the value redacted", name+"=v1024", got)
		}
		for _, fields := range []map[string]any{
			{name: "v1024"},
			{"env": map[string]any{name: "v1024"}},
			{"env": []any{map[string]any{"name": name, "value": "v1024"}}},
			{"headers": []any{[]any{name, "v1024"}}},
		} {
			out, err := r.encode(fields)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(out), "v1024") {
				t.Errorf("record %v = %s, want the value of %s redacted", fields, out, name)
			}
		}
	}
	for _, name := range []string{"PWD", "OLDPWD", "pwd"} {
		for _, fields := range []map[string]any{{name: "/work/v1024"}, {"env": []any{map[string]any{"name": name, "value": "/work/v1024"}}}} {
			out, err := r.encode(fields)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out), "/work/v1024") {
				t.Errorf("record %v = %s, want the working directory kept", fields, out)
			}
		}
	}
}

func TestAssignmentsAndOptionsThatAreNotCredentialsKeepTheirValues(t *testing.T) {
	for _, name := range notCredentialNames {
		for _, text := range []string{name + "=v1024", name + ": v1024", `"` + name + `": "v1024"`, "--" + name + " v1024",
			"cmd --" + name + "=v1024"} {
			if got := RedactSecrets(text); got != text {
				t.Errorf("RedactSecrets(%q) = %q, want it unchanged", text, got)
			}
		}
	}
	for _, name := range credentialNamesKept {
		if !credentialOption.MatchString(name) {
			continue // a key word the value rules do not take as a name (auth alone, X-Auth-Header)
		}
		for _, text := range []string{name + "=v1024", "--" + name + " v1024"} {
			if got := RedactSecrets(text); strings.Contains(got, "v1024") {
				t.Errorf("RedactSecrets(%q) = %q, want the value redacted", text, got)
			}
		}
	}
}

func TestACredentialInsideAValueThatIsNotOneIsStillFound(t *testing.T) {
	for text, want := range map[string]string{
		`max_tokens="PASSWORD=hunter22"`:    `max_tokens="PASSWORD=[REDACTED:credential-assignment]"`,
		`--token-file "--password=hunter2"`: `--token-file "--password=[REDACTED:credential-option]"`,
	} {
		if got := RedactSecrets(text); got != want {
			t.Errorf("RedactSecrets(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestListOptionsThatAreNotCredentialsKeepTheirValues(t *testing.T) {
	list := []any{"llm", "--max-tokens", "1024", "--token-file=/run/t", "--api-key", "k1", "--secret-name", "db"}
	if !redactArgv(list) {
		t.Fatalf("redactArgv(%q) changed nothing", list)
	}
	want := []any{"llm", "--max-tokens", "1024", "--token-file=/run/t", "--api-key", Redacted, "--secret-name", "db"}
	for i := range want {
		if list[i] != want[i] {
			t.Fatalf("redactArgv = %q, want %q", list, want)
		}
	}
}

// A name whose last word is pass names a password (DB_PASS, SMTP_PASS, userPass), in text, under
// a key and in an entry or a pair it names; pass as the letters of another word (bypass,
// passthrough, passed), as another word's first (pass_through, pass_rate) or alone (a test run's
// count of passes) names none, and the value stays.
func TestPassAsANamesLastWordHides(t *testing.T) {
	r := newRedactor(nil, 1024)
	record := func(fields map[string]any) string {
		out, err := r.encode(fields)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	forms := func(name string) []map[string]any {
		return []map[string]any{
			{name: "v1024"},
			{"env": []any{map[string]any{"name": name, "value": "v1024"}}},
			{"headers": []any{[]any{name, "v1024"}}},
		}
	}
	for _, text := range []string{"--db-pass v1024", "--smtp_pass=v1024", `{"ldap.pass": "v1024"}`} {
		if got := RedactSecrets(text); strings.Contains(got, "v1024") {
			t.Errorf("RedactSecrets(%q) = %q, want the value redacted", text, got)
		}
	}
	if out := record(map[string]any{"ldap": map[string]any{"bind.pass": "v1024"}}); strings.Contains(out, "v1024") {
		t.Errorf("record = %s, want the value of bind.pass redacted", out)
	}
	for _, name := range []string{"DB_PASS", "SMTP_PASS", "mysql_pass", "userPass", "adminPass", "smtp-pass", "REDIS_PASS"} {
		for _, text := range []string{name + "=v1024 ./run"} {
			if got := RedactSecrets(text); strings.Contains(got, "v1024") {
				t.Errorf("RedactSecrets(%q) = %q, want the value redacted", text, got)
			}
		}
		for _, fields := range forms(name) {
			if out := record(fields); strings.Contains(out, "v1024") {
				t.Errorf("record %v = %s, want the value of %s redacted", fields, out, name)
			}
		}
	}
	for _, name := range []string{"pass", "PASS", "bypass", "passthrough", "pass_through", "pass-rate", "passRate", "passed",
		"passes", "compass", "passenger", "pass_count", "num_pass"} {
		if text := name + "=v1024 ./run"; RedactSecrets(text) != text {
			t.Errorf("RedactSecrets(%q) = %q, want it unchanged", text, RedactSecrets(text))
		}
		for _, fields := range forms(name) {
			if out := record(fields); !strings.Contains(out, "v1024") {
				t.Errorf("record %v = %s, want the value of %s kept", fields, out, name)
			}
		}
	}
}
