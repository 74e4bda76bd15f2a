package ledger

import "testing"

// TestReviewRV32Ledger holds the rows of the attacker's review of 4e806d0e: a password word with
// an escaped quote (a\'b, one quote to quotedEnd) is stretched to the next such quote anywhere
// after it, across ; and newlines, hiding the commands between; a backslash-newline between
// -p and its value is a line continuation to bash, so the next word is the password.
func TestReviewRV32Ledger(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"escaped quote in the password, then ; rm", "mysql -pa\\'b; rm -rf /data; echo 'done'", "mysql -p[REDACTED:cli-password]; rm -rf /data; echo 'done'"},
		{"escaped quote in the password, then the next line's rm", "mysql -pa\\'b\nrm -rf /data\necho 'done'", "mysql -p[REDACTED:cli-password]\nrm -rf /data\necho 'done'"},
		{"sshpass -p, escaped quote, && rm", "sshpass -p a\\'b ssh h && rm -rf /data && echo 'x'", "sshpass -p [REDACTED:cli-password] ssh h && rm -rf /data && echo 'x'"},
		{"backslash-newline before the password", "sshpass -p \\\nhunter2secret ssh host", "sshpass -p \\\n[REDACTED:cli-password] ssh host"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if out := RedactSecrets(tc.in); out != tc.want {
				t.Errorf("%q: got %q, want %q", tc.in, out, tc.want)
			}
		})
	}
}
