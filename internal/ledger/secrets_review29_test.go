package ledger

import (
	"strings"
	"testing"
)

// A fifth-round review's rows (branch ledger29 at de8525b8). Each row names what must not be
// recorded (secret) and what must stay in the record (keep): a later command line, or the text
// a shell reads as no here-document at all.
type leakRow struct {
	name, in string
	secret   string   // must not appear in the record ("" for none)
	keep     []string // must appear in the record
}

func checkLeakRows(t *testing.T, rows []leakRow) {
	t.Helper()
	for _, tt := range rows {
		got := RedactSecrets(tt.in)
		if tt.secret != "" && strings.Contains(got, tt.secret) {
			t.Errorf("%s: RedactSecrets(%q) = %q records %q", tt.name, tt.in, got, tt.secret)
		}
		for _, k := range tt.keep {
			if !strings.Contains(got, k) {
				t.Errorf("%s: RedactSecrets(%q) = %q lost %q", tt.name, tt.in, got, k)
			}
		}
	}
}

// HIDDEN COMMANDS: a here-document scanner that reads a delimiter, a quote or an expansion other
// than bash does finds no delimiter line and hides every later line of the text (the review found
// these against the here-document rule, since dropped: no rule reads here-documents, and a
// here-document's body is not hidden). Each input was run through bash 5.2: the later lines run
// as commands (or the text holds no here-document at all), and the record must keep them.
func TestReview29HereDocumentHidesNoLaterCommand(t *testing.T) {
	checkLeakRows(t, []leakRow{
		// bash reads the delimiter as EOF; the scanner as EOF\n, $EOF, E\"OF, EO\nF.
		{name: "backslash-newline after the delimiter", in: "docker login --password-stdin <<EOF\\\n\nhunter22\nEOF\necho later\nrm -rf /data\n",
			keep: []string{"echo later", "rm -rf /data"}},
		{name: "backslash-newline inside the delimiter", in: "docker login --password-stdin <<EO\\\nF\nhunter22\nEOF\necho later\n",
			keep: []string{"echo later"}},
		{name: "ANSI-C quoted delimiter", in: "docker login --password-stdin <<$'EOF'\nhunter22\nEOF\necho later\n",
			keep: []string{"echo later"}},
		{name: "locale quoted delimiter", in: "docker login --password-stdin <<$\"EOF\"\nhunter22\nEOF\necho later\n",
			keep: []string{"echo later"}},
		{name: "escaped quote in a double-quoted delimiter", in: "docker login --password-stdin <<\"E\\\"OF\"\nhunter22\nE\"OF\necho later\n",
			keep: []string{"echo later"}},
		// No here-document at all in bash: the login is text inside a quote or an expansion.
		{name: "quotes nested in $( ) inside double quotes", in: "x=\"$(echo \"; docker login --password-stdin <<EOF\")\"\necho \"$x\"\nkubectl delete ns prod\n",
			keep: []string{"kubectl delete ns prod"}},
		{name: "ANSI-C quote with an escaped quote", in: "echo $'\\'; docker login --password-stdin <<EOF ' \\'\necho later\nkubectl delete ns prod\n",
			keep: []string{"kubectl delete ns prod"}},
		{name: "<< inside ${var//pattern/}", in: "docker login --password-stdin ${x//<<E/}\nkubectl delete ns prod\nrm -rf /data\n",
			keep: []string{"kubectl delete ns prod", "rm -rf /data"}},
		{name: "<< inside ${var#pattern}", in: "docker login --password-stdin ${a#<<EOF}\necho later\n",
			keep: []string{"echo later"}},
	})
}

// COST: each program field re-reads the arguments (redactProgramArgs), so case-spelled program
// keys multiply the work: 1368 keys ("command", "Command", ... "EXECUTABLE", each "mysql")
// beside 64 KiB of arguments took 2.4-3.0 s per record on the branch and 2 ms on main.
func BenchmarkReview29ProgramKeys(b *testing.B) {
	m := map[string]any{}
	for _, n := range []string{"executable", "command", "program", "binary", "cmd", "exe", "bin"} {
		for mask := 0; mask < 1<<len(n); mask++ {
			k := []byte(n)
			for i := range k {
				if mask&(1<<i) != 0 {
					k[i] -= 'a' - 'A'
				}
			}
			m[string(k)] = "mysql"
		}
	}
	m["args"] = strings.Repeat("-px ", 9000)
	enc := NewFieldEncoder(Config{})
	for b.Loop() {
		if _, err := enc.Encode(Record{Fields: map[string]any{"arguments": m}}); err != nil {
			b.Fatal(err)
		}
	}
}

// REGRESSION: main hid a query value whole; the branch ended the first parameter's value at #.
// libpq (conninfo_uri_parse_params) ends a value only at & or the string's end, so the password
// below is hunter#22 and the record kept its tail. A # never ends a value in a query: the whole
// password is hidden, and & still ends it.
func TestReview29QueryValueKeepsHash(t *testing.T) {
	const m = "[REDACTED:credential-assignment]"
	checkRedactionRows(t, []redactionRow{
		{name: "postgres URI", in: "psql 'postgresql://h/db?password=hunter#22'", want: "psql 'postgresql://h/db?password=" + m + "'"},
		{name: "postgres URI, more parameters", in: "psql 'postgres://h/db?password=hunter#22&sslmode=require'",
			want: "psql 'postgres://h/db?password=" + m + "&sslmode=require'"},
		{name: "jdbc", in: "jdbc:postgresql://h/db?password=hunter#22&ssl=true", want: "jdbc:postgresql://h/db?password=" + m + "&ssl=true"},
		{name: "a fragment after a token", in: "https://h/?token=x#top", want: "https://h/?token=" + m},
		// Near miss: & ends the value, and the parameters after it stay.
		{name: "& ends it", in: "https://h/?token=x&page=2", want: "https://h/?token=" + m + "&page=2"},
	})
}
