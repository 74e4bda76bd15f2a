package ledger

import (
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
