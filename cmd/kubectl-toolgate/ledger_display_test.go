package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/policy"
)

// ledger tail prints records a person reads in a terminal, and a record holds the agent's text:
// encoding/json escapes the controls below 0x20 but writes DEL, C1 controls (U+009B is a CSI to
// many terminals) and bidi and zero-width characters as they are. tail writes them as JSON escapes,
// so the line shows what is there and still decodes to the same record.
func TestLedgerTailShowsHiddenText(t *testing.T) {
	dir := t.TempDir()
	j, err := ledger.Open(ledger.Config{Dir: dir, Writer: "webhook-0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	command := "ls\x7f \u009b2K\u202e\u2066x\u2069\u200b\u2028\u00a0\U000E0041 \x1b[8m"
	if _, err := j.Append(context.Background(), ledger.Record{Kind: "decision", Fields: map[string]any{
		"decision": "deny", "command": command}}); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "ledger", "tail", dir)
	if code != exitOK {
		t.Fatalf("tail: exit %d %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	line := lines[len(lines)-1] // after the segment's first record
	if policy.Visible(out) != strings.ReplaceAll(out, "\n", `\n`) {
		t.Errorf("tail printed characters that do not show as themselves: %q", line)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(line), &rec); err != nil {
		t.Fatalf("tail printed no JSON: %v: %s", err, line)
	}
	fields, _ := rec["fields"].(map[string]any)
	if got, _ := fields["command"].(string); got != command {
		t.Errorf("the record's command reads back as %q, want %q (the record: %s)", got, command, line)
	}
}

func TestVisibleJSONKeepsValues(t *testing.T) {
	in := []byte("{\"a\":\"x\x7f\u009b\u202e\U0001F600\U000E0041\xff\",\"b\":\"plain ✓\"}\n")
	out := policy.VisibleJSON(in)
	want := "{\"a\":\"x\\u007F\\u009B\\u202E\U0001F600\\uDB40\\uDC41\\uFFFD\",\"b\":\"plain ✓\"}\n"
	if string(out) != want {
		t.Errorf("VisibleJSON = %s, want %s", out, want)
	}
	plain := []byte(`{"a":"plain ✓"}`)
	if got := policy.VisibleJSON(plain); &got[0] != &plain[0] {
		t.Error("VisibleJSON copied a line that needed no escapes")
	}
}

// What verify prints names files and writers from the volume, which whoever can write the volume
// names: a writer directory called "\r\x1b[2Kok: …" printed as it is would overwrite the BROKEN
// line in a terminal with an "ok". Every line verify prints (and its errors) shows such
// characters as escapes.
func TestLedgerVerifyShowsHiddenNames(t *testing.T) {
	dir, j := writeLedger(t)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	forged := "webhook-0\r\x1b[2Kok: 1 chains, 30 records in 3 segments\u202e"
	if err := os.Rename(filepath.Join(dir, "webhook-0"), filepath.Join(dir, forged)); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"ledger", "verify", dir}, {"ledger", "verify", dir, "-v"}} {
		code, out, errOut := runCLI(t, args...)
		if code != exitFailed || !strings.HasPrefix(out, "BROKEN: ") {
			t.Fatalf("%v: exit %d\nstdout %q\nstderr %q", args, code, out, errOut)
		}
		if !shownAsIs(out) || !shownAsIs(errOut) {
			t.Errorf("%v printed characters that do not show as themselves:\n%q", args, out)
		}
	}
	// A symbolic link is refused by name, on stderr: that name too.
	if err := os.Symlink("elsewhere", filepath.Join(dir, forged, "\x1b[8mhidden")); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, "ledger", "verify", dir)
	if code != exitUsage || !shownAsIs(errOut) {
		t.Errorf("verify with a symlink: exit %d, stderr %q", code, errOut)
	}
}

// shownAsIs reports whether every character of the lines of s shows as itself.
func shownAsIs(s string) bool { return policy.Visible(s) == strings.ReplaceAll(s, "\n", `\n`) }
