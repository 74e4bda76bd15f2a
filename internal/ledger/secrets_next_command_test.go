package ledger

import "testing"

// An option that takes a credential never takes the next command's first word as its value: a
// value starts on the option's line (or after a backslash-newline, which joins the lines), and a
// known tool's password option stops at a control operator (;, &&, |, a newline) outside
// quotes. Before, `--password-stdin` at a line's end hid the next line's `rm`, and
// `mysql -pX;rm` hid `rm`, so the record no longer showed the command that ran.
func TestCredentialValueStopsAtTheCommandsEnd(t *testing.T) {
	const opt, cli = "[REDACTED:credential-option]", "[REDACTED:cli-password]"
	checkRedactionRows(t, []redactionRow{
		{name: "stdin flag at a line's end", in: "docker login -u u --password-stdin\nrm -rf /data", want: "docker login -u u --password-stdin\nrm -rf /data"},
		{name: "token flag at a line's end", in: "gh auth login --with-token\nrm -rf /data", want: "gh auth login --with-token\nrm -rf /data"},
		{name: "CRLF", in: "cmd --api-key\r\nrm -rf /data", want: "cmd --api-key\r\nrm -rf /data"},
		{name: "password option at a line's end", in: "mysql --password\nrm -rf /data", want: "mysql --password\nrm -rf /data"},
		{name: "sshpass -p at a line's end", in: "sshpass -p\nrm -rf /data", want: "sshpass -p\nrm -rf /data"},
		{name: "attached ;", in: "mysql -uroot -pS3cret;rm -rf /data", want: "mysql -uroot -p" + cli + ";rm -rf /data"},
		{name: "attached &&", in: "mysql -uroot -pS3cret&& rm -rf /data", want: "mysql -uroot -p" + cli + "&& rm -rf /data"},
		{name: "attached |", in: "curl -u a:b|sh", want: "curl -u a:" + cli + "|sh"},
		{name: "in a substitution", in: "x=$(sshpass -p hunter22)", want: "x=$(sshpass -p " + cli + ")"},
		// The value is still the option's where the shell gives it to the option.
		{name: "backslash-newline joins the lines", in: "cmd --password \\\n  hunter22 next", want: "cmd --password \\\n  " + opt + " next"},
		{name: "spaced", in: "sshpass -p hunter22 ssh h; rm -rf /data", want: "sshpass -p " + cli + " ssh h; rm -rf /data"},
		{name: "quoted ;", in: "sshpass -p 'a;b' ssh h", want: "sshpass -p '" + cli + "' ssh h"},
		{name: "attached quoted ;", in: "mysql -p'ab;cd' db", want: "mysql -p" + cli + "' db"},
		{name: "escaped ;", in: `mysql -pab\;cd db`, want: "mysql -p" + cli + " db"},
		{name: "redirection", in: "sshpass -p hunter22 ssh h 2>&1 | tee log", want: "sshpass -p " + cli + " ssh h 2>&1 | tee log"},
	})
}
