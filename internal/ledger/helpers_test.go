package ledger

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable clock; tests move it to cross day boundaries and age segments.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock(t time.Time) *fakeClock { return &fakeClock{t: t} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

func (c *fakeClock) Add(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	return c.t
}

var day0 = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

func testConfig(t testing.TB, clock Clock) Config {
	t.Helper()
	return Config{Dir: t.TempDir(), Writer: "webhook-0", Clock: clock}
}

func mustOpen(t testing.TB, cfg Config) *Journal {
	t.Helper()
	j, err := Open(cfg)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = j.Close() })
	return j
}

func decision(i int) Record {
	return Record{Kind: "decision", Fields: map[string]any{
		"decision": "allow", "plan": "plan-a", "call": fmt.Sprintf("call-%d", i), "tool": "read_file",
		"requester": "system:serviceaccount:agents:coder", "snapshotHash": "sha256:abc",
	}}
}

func appendN(t testing.TB, j *Journal, n int) []Receipt {
	t.Helper()
	out := make([]Receipt, 0, n)
	for i := range n {
		r, err := j.Append(context.Background(), decision(i))
		if err != nil {
			t.Fatalf("Append %d: %v", i, err)
		}
		out = append(out, r)
	}
	return out
}

func mustVerify(t testing.TB, dir string) Report {
	t.Helper()
	rep, err := Verify(dir)
	if err != nil {
		t.Fatalf("Verify: %v\n%s", err, dumpChains(rep))
	}
	return rep
}

func dumpChains(rep Report) string {
	var b bytes.Buffer
	for _, c := range rep.Chains {
		fmt.Fprintln(&b, c)
	}
	return b.String()
}

// chainDirOf is where a test journal's files are.
func chainDirOf(cfg Config) string { return filepath.Join(cfg.Dir, cfg.Writer) }

// closedChain writes n records into a closed journal whose segments seal at maxSegmentBytes,
// and returns its config, its chain's directory and the segment files there, oldest first.
func closedChain(t testing.TB, maxSegmentBytes int64, n int) (Config, string, []string) {
	t.Helper()
	cfg := testConfig(t, newFakeClock(day0))
	cfg.MaxSegmentBytes = maxSegmentBytes
	j := mustOpen(t, cfg)
	appendN(t, j, n)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	dir := chainDirOf(cfg)
	return cfg, dir, segmentFiles(t, dir)
}

// segmentFiles lists a chain's segment files as named on disk, oldest first.
func segmentFiles(t testing.TB, dir string) []string {
	t.Helper()
	segs, err := listSegments(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(segs))
	for i, s := range segs {
		out[i] = s.file()
	}
	return out
}

// records reads every record of a chain, in order, from all its segments.
func records(t testing.TB, dir string) []parsed {
	t.Helper()
	segs, err := listSegments(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []parsed
	for _, s := range segs {
		rc, err := openSegment(dir, s)
		if err != nil {
			t.Fatal(err)
		}
		lr := newLineReader(rc)
		for {
			line, err := lr.Next()
			if err != nil {
				break
			}
			p, err := parseLine(line)
			if err != nil {
				t.Fatalf("%s line %d: %v", s.file(), lr.line, err)
			}
			p.Fields = p.decodeFields()
			out = append(out, p)
		}
		_ = rc.Close()
	}
	return out
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// segmentData is a plain segment file's data: without the unwritten (zero) space at its end.
func segmentData(t testing.TB, path string) []byte {
	t.Helper()
	b := readFile(t, path)
	return b[:dataEnd(b)]
}

func writeFile(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o640); err != nil {
		t.Fatal(err)
	}
}

// evidenceOnly skips t unless the environment variable env is 1: a review's evidence rows, which
// fail until what they show is fixed, run only when asked for.
func evidenceOnly(t *testing.T, env string) {
	t.Helper()
	if os.Getenv(env) != "1" {
		t.Skip("evidence rows: set " + env + "=1")
	}
}
