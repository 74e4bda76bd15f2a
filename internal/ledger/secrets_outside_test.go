package ledger

import (
	"strings"
	"testing"
)

// Real-world credential shapes an outside tester tried, each found in agents' command lines
// (cloud storage, HTTP clients, Kubernetes Secrets, SSH): the secret must not survive
// RedactSecrets. Issue 17 names "a key in a URL" and "well-known key formats"; these are ones the
// rule table misses (the ones it catches — api_key=, access_token=, X-Amz-Security-Token=,
// --sas-token, --cookie, sshpass -p, mysql -p, basic-auth URLs, provider prefixes — were checked
// too and hold).
func TestRedactSecretsMoreRealWorldShapes(t *testing.T) {
	tests := []struct {
		name, in, secret string
	}{
		{"Azure SAS URL: its sig is the key to the blob",
			`curl -o f.txt "https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&srt=o&sp=r&se=2027-12-31&sig=q1w2e3r4t5y6u7i8o9p0AbCdEfGhIjKlMnOpQrStUv%3D"`,
			"q1w2e3r4t5y6u7i8o9p0AbCdEfGhIjKlMnOpQrStUv"},
		{"S3 pre-signed URL: the signature is a bearer credential until it expires",
			`curl "https://bucket.s3.amazonaws.com/key?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=604800&X-Amz-Signature=fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024"`,
			"fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024"},
		{"curl -b, the short form of --cookie",
			`curl -b "session=8f14e45fceea167a5a36dedd4bea2543" https://app.example.com/admin`,
			"8f14e45fceea167a5a36dedd4bea2543"},
		{"a PEM private key as a Kubernetes Secret's data holds it (base64)",
			`echo LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2UUlCQURBTkJna3Foa2lHOXcwQkFRRUZBQVNDQktjd2dnU2pBZ0VBQW9JQkFRQw== | base64 -d > tls.key`,
			"Ck1JSUV2UUlCQURBTkJna3Foa2lHOXcwQkFRRUZBQVND"},
		{"a .netrc line",
			`printf 'machine github.com login bob password hunter2hunter2\n' >> ~/.netrc`,
			"hunter2hunter2"},
		{"a Vault token of the format before 1.10 (gitleaks' vault-service-token)",
			`VAULT_ADDR=https://vault:8200 vault login s.Xv2NfY8kTq3bLm9ZpRw4HcJd`,
			"Xv2NfY8kTq3bLm9ZpRw4HcJd"},
		{"sshpass inside ssh's ProxyCommand option",
			`ssh -o "ProxyCommand=sshpass -p S3cr3tP4ssw0rd ssh -W %h:%p jump" db-host`,
			"S3cr3tP4ssw0rd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RedactSecrets(tt.in); strings.Contains(got, tt.secret) {
				t.Errorf("RedactSecrets kept the secret:\n  in:  %s\n  out: %s", tt.in, got)
			}
		})
	}
}

// Near misses of the shapes above: the same words and parameters where they hold no credential
// stay as they are (a ledger that hides them loses evidence and replay).
func TestRedactSecretsKeepsTheirNearMisses(t *testing.T) {
	for _, in := range []string{
		`git log --show-signature -1 3f2a9c1b7e4d5f60718293a4b5c6d7e8f9012345`,
		`curl "https://example.com/search?sigma=2&design=flat&signal=on"`,
		`gpg --verify release.tar.gz.sig && echo "signature verified"`,
		`curl -b cookies.txt -c cookies.txt https://app.example.com/`,
		`echo LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSURCVENDQWUyZ0F3SUJBZ0lVWA== | base64 -d > tls.crt`,
		`grep -r "machine learning password policy" docs/`,
		`vault kv get -field=user secret/data/s.config && vault status`,
		`ssh -o ProxyCommand="ssh -W %h:%p jump" -p 2222 db-host`,
		`docker run --name=mysql -e MYSQL_DATABASE=app -p 3306:3306 mysql:8`,
	} {
		if got := RedactSecrets(in); got != in {
			t.Errorf("RedactSecrets changed a string with no credential:\n  in:  %s\n  out: %s", in, got)
		}
	}
}
