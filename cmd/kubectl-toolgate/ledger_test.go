package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate/internal/ledger"
)

// writeLedger produces a ledger the way the webhook does, with sealed gzip segments and a live one.
func writeLedger(t *testing.T) (string, *ledger.Journal) {
	t.Helper()
	dir := t.TempDir()
	j, err := ledger.Open(ledger.Config{Dir: dir, Writer: "webhook-0", MaxSegmentBytes: 2048, Compress: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	for i := range 20 {
		appendDecision(t, j, i)
	}
	if _, err := j.Maintain(time.Now()); err != nil {
		t.Fatal(err)
	}
	appendDecision(t, j, 20)
	return dir, j
}

func appendDecision(t *testing.T, j *ledger.Journal, i int) {
	t.Helper()
	if _, err := j.Append(context.Background(), ledger.Record{Kind: "decision", Fields: map[string]any{
		"decision": "deny", "reason": "ToolSafetyViolationError", "call": fmt.Sprintf("call-%d", i),
	}}); err != nil {
		t.Fatal(err)
	}
}

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestLedgerVerify(t *testing.T) {
	dir, _ := writeLedger(t)
	// The live segment ends in its preallocated zeros, which verify must take for unwritten space.
	live, _ := filepath.Glob(filepath.Join(dir, "webhook-0", "*.jsonl"))
	if len(live) != 1 {
		t.Fatalf("live segments %v", live)
	}
	if b, _ := os.ReadFile(live[0]); len(b) == 0 || b[len(b)-1] != 0 {
		t.Fatalf("the live segment (%d bytes) has no zero tail: this test shows nothing about one", len(b))
	}
	code, out, errOut := runCLI(t, "ledger", "verify", dir)
	// Without the public key and the published heads it says what it cannot prove.
	if code != exitOK || !strings.HasPrefix(out, "ok: 1 chains, ") || strings.Count(out, "\ncannot prove: ") != 2 ||
		errOut != "" {
		t.Fatalf("verify: exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}

	// Flags after DIR work too; -v lists the chain.
	code, out, _ = runCLI(t, "ledger", "verify", dir, "-v")
	if code != exitOK || !strings.Contains(out, "writer webhook-0:") {
		t.Fatalf("verify -v: exit %d %q", code, out)
	}
	// -o json, as kubectl spells it, and --json, the first spelling, print the same report.
	code, out, _ = runCLI(t, "ledger", "verify", "--json", dir)
	var rep ledger.Report
	if code != exitOK || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Chains) != 1 || rep.Chains[0].Records == 0 {
		t.Fatalf("verify --json: exit %d %q", code, out)
	}
	for _, o := range [][]string{{"-o", "json"}, {"-ojson"}, {"--output=json"}, {"--json", "-o", "json"}} {
		if code, same, _ := runCLI(t, append([]string{"ledger", "verify", dir}, o...)...); code != exitOK || same != out {
			t.Fatalf("verify %q: exit %d, output differs from --json's:\n%s", o, code, same)
		}
	}

	// One changed byte in the live segment: exit 1, and the summary names the file and line.
	segs, _ := filepath.Glob(filepath.Join(dir, "webhook-0", "*.jsonl"))
	if len(segs) != 1 {
		t.Fatalf("live segments %v", segs)
	}
	b, _ := os.ReadFile(segs[0])
	i := bytes.Index(b, []byte(`"call-20"`))
	if i < 0 {
		t.Fatal("call-20 is not in the live segment")
	}
	line := bytes.Count(b[:i], []byte("\n")) + 1
	b[i+len(`"call-2`)] = '1'
	if err := os.WriteFile(segs[0], b, 0o640); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI(t, "ledger", "verify", dir)
	want := fmt.Sprintf("BROKEN: writer webhook-0: %s line %d ", filepath.Base(segs[0]), line)
	if code != exitFailed || !strings.HasPrefix(out, want) || !strings.Contains(out, "hash mismatch") {
		t.Fatalf("verify of a tampered ledger: exit %d %q, want it to start %q", code, out, want)
	}
}

func TestLedgerTail(t *testing.T) {
	dir, _ := writeLedger(t)
	for _, args := range [][]string{{"ledger", "tail", dir, "-n", "3"}, {"ledger", "tail", "-n", "3", dir}} {
		code, out, errOut := runCLI(t, args...)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if code != exitOK || len(lines) != 3 || errOut != "" {
			t.Fatalf("%v: exit %d, %d lines %q %q", args, code, len(lines), out, errOut)
		}
		var last struct {
			Kind   string            `json:"kind"`
			Fields map[string]string `json:"fields"`
		}
		if err := json.Unmarshal([]byte(lines[2]), &last); err != nil || last.Fields["call"] != "call-20" {
			t.Fatalf("last line %q (%v)", lines[2], err)
		}
	}
}

func TestLedgerTailFollow(t *testing.T) {
	dir, j := writeLedger(t)
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"ledger", "tail", dir, "-n", "1", "--follow", "--interval", "10ms"}, out, out)
	}()
	waitFor(t, func() bool { return strings.Contains(out.String(), `"call-20"`) })
	appendDecision(t, j, 99)
	waitFor(t, func() bool { return strings.Contains(out.String(), `"call-99"`) })
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("exit %d: %q", code, out.String())
	}
	if lines := strings.Count(out.String(), "\n"); lines != 2 {
		t.Fatalf("printed %d lines, want the newest record and the new one: %q", lines, out.String())
	}
}

func TestUsageErrors(t *testing.T) {
	dir, _ := writeLedger(t)
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"no command", nil, exitUsage},
		{"unknown command", []string{"frobnicate"}, exitUsage},
		{"help", []string{"--help"}, exitOK},
		{"ledger without a subcommand", []string{"ledger"}, exitUsage},
		{"unknown ledger subcommand", []string{"ledger", "rewrite", dir}, exitUsage},
		{"verify without DIR", []string{"ledger", "verify"}, exitUsage},
		{"verify with two DIRs", []string{"ledger", "verify", dir, dir}, exitUsage},
		{"verify a directory that is no ledger", []string{"ledger", "verify", t.TempDir()}, exitUsage},
		{"verify a missing directory", []string{"ledger", "verify", filepath.Join(dir, "nope")}, exitUsage},
		{"tail with a bad flag", []string{"ledger", "tail", dir, "-n", "many"}, exitUsage},
		{"tail with a negative count", []string{"ledger", "tail", dir, "-n", "-1"}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code, out, errOut := runCLI(t, tt.args...); code != tt.want {
				t.Fatalf("exit %d, want %d\nstdout %q\nstderr %q", code, tt.want, out, errOut)
			}
		})
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
