package ledger

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Shapes an agent's command lines carry that the first rule table missed: a secret set through
// the AWS CLI's configure command, redis-cli's long password option, Databricks' tokens. Made-up
// values of the documented forms.
func TestRedactSecretsMoreShapes(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"aws configure set secret key", `aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`,
			`aws configure set aws_secret_access_key [REDACTED:aws-configure-set]`},
		{"aws configure set session token, profile-qualified and quoted",
			`aws configure set profile.ci.aws_session_token "IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJH" && aws s3 ls`,
			`aws configure set profile.ci.aws_session_token [REDACTED:aws-configure-set] && aws s3 ls`},
		{"aws configure set with options first", `aws --profile ci configure set aws_secret_access_key abcdEFGH1234/xyz`,
			`aws --profile ci configure set aws_secret_access_key [REDACTED:aws-configure-set]`},
		{"redis-cli --pass", `redis-cli -h cache --pass s3cretpw PING`, `redis-cli -h cache --pass [REDACTED:cli-password] PING`},
		{"ldapsearch -w", `ldapsearch -x -D cn=admin,dc=example,dc=org -w s3cretpw -b dc=example,dc=org`,
			`ldapsearch -x -D cn=admin,dc=example,dc=org -w [REDACTED:cli-password] -b dc=example,dc=org`},
		{"ldapwhoami -w attached", `ldapwhoami -x -D cn=admin -ws3cretpw`, `ldapwhoami -x -D cn=admin -w[REDACTED:cli-password]`},
		{"ldappasswd old and new", `ldappasswd -x -D cn=u -w bindpw1 -a oldpw123 -s newpw123`,
			`ldappasswd -x -D cn=u -w [REDACTED:cli-password] -a [REDACTED:cli-password] -s [REDACTED:cli-password]`},
		{"ldapsearch -s is a scope", `ldapsearch -x -s sub -b dc=example,dc=org uid=alice`, `ldapsearch -x -s sub -b dc=example,dc=org uid=alice`},
		{"grep -w is a word", `grep -w needle haystack.txt`, `grep -w needle haystack.txt`},
		{"smbclient -U user%password", `smbclient //host/share -U admin%s3cretpw -c ls`, `smbclient //host/share -U admin%[REDACTED:cli-password] -c ls`},
		{"smbclient -U attached", `smbclient -L host -Uadmin%s3cretpw`, `smbclient -L host -Uadmin%[REDACTED:cli-password]`},
		{"rpcclient --user", `rpcclient --user admin%s3cretpw host`, `rpcclient --user admin%[REDACTED:cli-password] host`},
		{"smbclient -U without a password", `smbclient //host/share -U admin -c ls`, `smbclient //host/share -U admin -c ls`},
		{"valkey-cli --pass", `valkey-cli --pass s3cretpw --no-auth-warning`, `valkey-cli --pass [REDACTED:cli-password] --no-auth-warning`},
		{"databricks token", `curl -H "X-Databricks-Token: dapi0123456789abcdef0123456789abcdef" https://x`,
			`curl -H "X-Databricks-Token: [REDACTED:databricks-api-token]" https://x`},
		{"databricks token alone", `export DATABRICKS_HOST=x DATABRICKS_TOKEN_VALUE_IS dapi0123456789abcdef0123456789abcdef-2`,
			`export DATABRICKS_HOST=x DATABRICKS_TOKEN_VALUE_IS [REDACTED:databricks-api-token]`},
		// Near misses: the same words where they hold no secret.
		{"aws configure set region stays", `aws configure set region eu-west-1`, `aws configure set region eu-west-1`},
		{"aws configure get stays", `aws configure get aws_secret_access_key`, `aws configure get aws_secret_access_key`},
		{"aws key id name stays", `aws configure set aws_access_key_id_is_public yes`, `aws configure set aws_access_key_id_is_public yes`},
		{"--pass elsewhere stays", `pytest --pass-through --pass 3 tests`, `pytest --pass-through --pass 3 tests`},
		{"dapi in a word stays", `curl https://example.com/dapi/v2/items`, `curl https://example.com/dapi/v2/items`},
	} {
		if diff := cmp.Diff(tt.want, RedactSecrets(tt.in)); diff != "" {
			t.Errorf("%s (-want +got)\n%s", tt.name, diff)
		}
	}
	// The same in a list of words, as an MCP tool passes argv.
	r := newRedactor(nil, 1024)
	got, err := r.encode(map[string]any{"argv": []any{"redis-cli", "--pass", "s3cretpw", "PING"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"argv":["redis-cli","--pass","[REDACTED]","PING"]}`; string(got) != want {
		t.Errorf("argv: got %s, want %s", got, want)
	}
}
