package ledger

import "testing"

// TestReviewRV31Ledger holds the rows of the attacker's review of c631b871 and 424d993e.
func TestReviewRV31Ledger(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		// commandWords opens a quote where bash opens none, and then reads the newline after it as
		// quoted: the next line's command word is the password option's value again.
		{"ANSI-C quote with an escaped quote", "echo $'it\\'s'; sshpass -p\nrm -rf /data", "echo $'it\\'s'; sshpass -p\nrm -rf /data"},
		{"ANSI-C quote, mysql -pX&&rm", "echo $'\\''; mysql -pX&&rm -rf /data", "echo $'\\''; mysql -p[REDACTED:cli-password]&&rm -rf /data"},
		{"apostrophe in a comment", "echo hi # don't\nsshpass -p\nrm -rf /data", "echo hi # don't\nsshpass -p\nrm -rf /data"},
		{"apostrophe in a here-document's body", "cat <<EOF\ndon't\nEOF\nsshpass -p\nrm -rf /data", "cat <<EOF\ndon't\nEOF\nsshpass -p\nrm -rf /data"},
		{"quotes nested in $( ) inside double quotes", "echo \"$(echo \"'\")\"; sshpass -p\nrm -rf /data", "echo \"$(echo \"'\")\"; sshpass -p\nrm -rf /data"},
		// The reverse: a ; inside $'..' (quoted to bash) ends the password, whose rest is recorded
		// (hidden whole on c631b871's parent).
		{"ANSI-C quoted password with ; after an escaped quote", "mysql -p$'a\\'b;c' db; rm -rf /data", "mysql -p[REDACTED:cli-password]' db; rm -rf /data"},
		// An Authorization header's value never continues on the next line unless that line starts
		// with a space or tab (obs-fold): the next line's command word is no token. (Since before
		// 424d993e: \s matched \n. Conflicts with the "\n" row of TestAuthorizationWhiteSpaceSeparates.)
		{"authorization: then the next line's program", "# authorization:\n/usr/bin/rm -rf /data", "# authorization:\n/usr/bin/rm -rf /data"},
		{"bearer then the next line's program", "echo Authorization: Bearer\n/usr/bin/shred -u /data/db", "echo Authorization: Bearer\n/usr/bin/shred -u /data/db"},
		{"authorization: token, a blank line, a program", "Authorization: token\n\n/usr/bin/rm -rf /data", "Authorization: token\n\n/usr/bin/rm -rf /data"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if out := RedactSecrets(tc.in); out != tc.want {
				t.Errorf("%q: got %q, want %q", tc.in, out, tc.want)
			}
		})
	}
}
