package ledger

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgate/toolgate/internal/cputime"
)

// benchDir is where benchmark ledgers go: LEDGER_BENCH_DIR (to measure a particular disk, such
// as a mounted PersistentVolume) or the test's temporary directory.
func benchDir(b *testing.B) string {
	b.Helper()
	root := os.Getenv("LEDGER_BENCH_DIR")
	if root == "" {
		return b.TempDir()
	}
	dir, err := os.MkdirTemp(root, "ledger-bench-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// BenchmarkAppend measures durable records per second: every Append returns only after its
// record is fsynced. group-commit is the journal as shipped; fsync-per-record gives every
// record its own write and fsync (Config.syncEach), on the same disk, as the baseline.
func BenchmarkAppend(b *testing.B) {
	for _, mode := range []struct {
		name string
		each bool
	}{{"group-commit", false}, {"fsync-per-record", true}} {
		for _, appenders := range []int{1, 64} {
			b.Run(fmt.Sprintf("%s/appenders=%d", mode.name, appenders), func(b *testing.B) {
				fs := newFaultFS() // counts fsyncs; injects nothing
				j, err := Open(Config{Dir: benchDir(b), Writer: "bench", openFile: fs.open, syncEach: mode.each})
				if err != nil {
					b.Fatal(err)
				}
				defer func() { _ = j.Close() }()
				rec := decision(0)
				var next atomic.Int64
				var wg sync.WaitGroup
				b.ResetTimer()
				cpu0 := processCPU(b)
				start := time.Now()
				for range appenders {
					wg.Go(func() {
						for next.Add(1) <= int64(b.N) {
							if _, err := j.Append(context.Background(), rec); err != nil {
								b.Error(err)
								return
							}
						}
					})
				}
				wg.Wait()
				elapsed := time.Since(start)
				b.StopTimer()
				_, syncs := fs.counts()
				b.ReportMetric(float64(b.N)/elapsed.Seconds(), "records/s")
				// records/fsync counts the syncs that make a batch durable (fdatasyncs since
				// segments are preallocated): records per batch.
				b.ReportMetric(float64(b.N)/float64(syncs), "records/fsync")
				b.ReportMetric(float64((processCPU(b)-cpu0).Microseconds())/float64(b.N), "cpu-us/record")
			})
		}
	}
}

// BenchmarkEncodeRecord is the CPU cost of preparing one decision (encode, redact, truncate),
// paid by the caller's goroutine outside the commit path.
func BenchmarkEncodeRecord(b *testing.B) {
	r := newRedactor(nil, DefaultMaxStringLength)
	fields := decision(0).Fields
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.encode(fields); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerify is verification throughput over gzip segments, in decompressed bytes.
func BenchmarkVerify(b *testing.B) {
	cfg := Config{Dir: b.TempDir(), Writer: "w", MaxSegmentBytes: 1 << 20, Compress: true}
	j, err := Open(cfg)
	if err != nil {
		b.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() { appendN(b, j, 200) })
	}
	wg.Wait()
	if _, err := j.Maintain(time.Now()); err != nil {
		b.Fatal(err)
	}
	_ = j.Close()
	var size int64
	for _, p := range records(b, chainDirOf(cfg)) {
		size += int64(len(mustCanonicalB(b, p))) // approximate: fields re-encoded
	}
	b.SetBytes(size)
	for b.Loop() {
		if _, err := Verify(cfg.Dir); err != nil {
			b.Fatal(err)
		}
	}
}

func mustCanonicalB(b *testing.B, p parsed) []byte {
	fields, err := appendCanonical(nil, p.Fields)
	if err != nil {
		b.Fatal(err)
	}
	return appendBody(p.Seq, p.Time, p.Writer, p.Kind, fields, p.PrevHash)
}

// richDecision is a decision as audit.RecordDecision writes it (issue 17): the call's UID, its
// arguments (a command line with a bearer token, which redaction by value hides), their digest,
// the pinned tool, the facts the engine used, its class and the deciding rule.
func richDecision(i int) Record {
	return Record{Kind: "decision", Fields: map[string]any{
		"decision": "deny", "reason": "ToolSafetyViolation", "ruleId": "damage-control:git-push-force", "mode": "Enforce",
		"message": "[ToolSafetyViolation] git push --force is not allowed", "class": "git_destructive",
		"plan": "plan-a", "namespace": "team-a", "call": fmt.Sprintf("c-%d", i), "uid": "0b9f6a2e-8c1d-4f5e-9a7b-3c2d1e0f4a5b",
		"tool": "shell", "step": "build", "requester": "system:serviceaccount:team-a:coder",
		"snapshotHash": "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"arguments": map[string]any{
			"command": `curl -H "Authorization: Bearer abcdefghijklmnop0123" https://api.example.com && git push --force origin main`,
			"cwd":     "/workspace/repo", "paths": []string{"/workspace/repo/.git"},
		},
		"argumentsDigest": "sha256:b4354fc70f06a7e5cc2d2e4b8ab5f8c0e0d1f2a3b4c5d6e7f8091a2b3c4d5e6f",
		"sandboxId":       "sbx-1234",
		"agentTool": map[string]any{"uid": "5d7c0e1a-2b3c-4d5e-8f9a-0b1c2d3e4f5a", "generation": int64(3), "writes": true,
			"unsafe": false, "checkpointable": true, "actionClass": "execute", "skillCategory": ""},
		"facts": map[string]any{"accumulatedCost": "1.25", "totalCost": "40.1", "earlierAttempts": int32(3), "repeats": 1,
			"humanApproved": false, "readOnlyPlan": false, "requireCheckpoints": false},
	}}
}

// BenchmarkAppendSigned compares, in one run and at 32 appenders, the journal as shipped with
// the richer records (encode, redact by key and value, truncate) and signing on, against the
// bare group-commit floor: pre-encoded records handed straight to the committer, no signing.
// docs/benchmarks-ledger.md requires signed-rich to stay at 90% of bare or better.
func BenchmarkAppendSigned(b *testing.B) {
	enc, err := newRedactor(nil, DefaultMaxStringLength).encode(richDecision(0).Fields)
	if err != nil {
		b.Fatal(err)
	}
	// unsigned-rich is the same Append without this change's signing and value redaction, so
	// signed-rich/unsigned-rich is what they cost. The rich records are written as audit writes a
	// decision, through a FieldWriter (richFixed); signed-rich-map is signed-rich with the same
	// record as a map, as audit built it before.
	for _, mode := range []string{"bare-group-commit", "unsigned-rich", "signed-rich", "signed-rich-map"} {
		b.Run(mode+"/appenders=32", func(b *testing.B) {
			cfg := Config{Dir: benchDir(b), Writer: "bench"}
			if strings.HasPrefix(mode, "signed-rich") {
				cfg.SigningKey = testKey(7)
				cfg.SignEvery = time.Second // more often than the default, to include its cost
			}
			j, err := Open(cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer func() { _ = j.Close() }()
			if mode == "unsigned-rich" {
				red := newRedactor(nil, DefaultMaxStringLength)
				red.values = false
				j.red.Store(&red)
			}
			var next atomic.Int64
			var wg sync.WaitGroup
			b.ResetTimer()
			cpu0 := processCPU(b)
			start := time.Now()
			for range 32 {
				wg.Go(func() {
					for i := next.Add(1); i <= int64(b.N); i = next.Add(1) {
						var err error
						switch mode {
						case "bare-group-commit":
							_, err = j.enqueue(context.Background(), "decision", time.Now(), enc)
						case "signed-rich-map":
							_, err = j.Append(context.Background(), richDecision(int(i)))
						default:
							_, err = j.Append(context.Background(), richFixedDecision(int(i)))
						}
						if err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "records/s")
			// CPU time of the whole process (appenders, committer, GC) per record: unlike
			// records/s it hardly depends on how much of the machine other processes take.
			b.ReportMetric(float64((processCPU(b)-cpu0).Microseconds())/float64(b.N), "cpu-us/record")
		})
	}
}

// BenchmarkEncodeRichRecord is BenchmarkEncodeRecord for the richer decision (redaction by
// value included): built as a map and encoded, or written through a FieldWriter.
func BenchmarkEncodeRichRecord(b *testing.B) {
	r := newRedactor(nil, DefaultMaxStringLength)
	b.Run("map", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := r.encode(richDecision(1).Fields); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fixed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := r.encodeRecord(richFixedDecision(1)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// processCPU is the user and system CPU time this process has used.
func processCPU(b *testing.B) time.Duration {
	d, err := cputime.Process()
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// BenchmarkRedactSecrets measures RedactSecrets on command text that names credentials: an 8 KiB
// command line of ordinary shape, and 64 KiB (an AgentToolCall's argument bound) of the words
// the credential rules key on, in three spellings, the worst case an agent can send per record.
func BenchmarkRedactSecrets(b *testing.B) {
	for _, tc := range []struct{ name, text string }{
		{"command-8KiB", strings.Repeat("git commit -m 'fix: handle the token refresh when password = x fails' && curl -H 'Authorization: Bearer abc' https://example.com/api?x=1 ", 60)},
		{"words-64KiB", strings.Repeat("password_token_secret ", 3000)},
		{"quoted-64KiB", strings.Repeat(`"password" `, 6000)},
		{"colons-64KiB", strings.Repeat(`password: `, 6500)},
		{"options-64KiB", strings.Repeat(`--password-token `, 3800)},
		// A URL's query, whose values end at & (a review's rows: the last round's re-read of
		// each parameter's rest took 12 to 35 s on them).
		{"query-params-64KiB", "curl 'https://h/?a=1" + strings.Repeat("&token=x", 8190) + "'"},
		{"query-empty-64KiB", strings.Repeat("?token=&", 8192)},
		{"query-fragment-64KiB", strings.Repeat("?token=#", 8192)},
		{"query-chain-64KiB", "?token=" + strings.Repeat("&token=", 9360)},
		{"form-fragments-64KiB", strings.Repeat("&token=x#", 7281)},
		{"query-spaces-64KiB", "?" + strings.Repeat("token", 6000) + strings.Repeat(" ", 35000)},
		// Docker's "auth" entries, each read by the expression and decoded.
		{"docker-auth-64KiB", strings.Repeat(`{"auth":"dXNlcjpwdw=="} `, 2730)},
		{"docker-auth-open-64KiB", strings.Repeat(`"auth":"`, 8192)},
		{"docker-auth-yaml-64KiB", strings.Repeat("auth: dXNlcjpwdw==\n", 3450)},
		{"auth-words-64KiB", strings.Repeat("auth= x ", 8192)},
		{"encoded-quotes-64KiB", strings.Repeat("token%3D%22", 5958)},
		{"bracket-quotes-64KiB", strings.Repeat(`password=["x `, 5041)},
		{"bracket-open-64KiB", strings.Repeat(`password=[" `, 5461) + strings.Repeat(`password=['`, 20)},
		// Percent-encoded assignments encoded many times over: each tail reads its %25s once.
		{"encoded-twice-64KiB", strings.Repeat("token%2525", 6554)},
		{"encoded-deep-64KiB", "password%" + strings.Repeat("25", 32760) + "3D"},
		{"encoded-json-64KiB", strings.Repeat("%2522token%2522%253A%2520", 2730)},
	} {
		b.Run(tc.name, func(b *testing.B) { benchRedactCPU(b, tc.text) })
	}
}

// BenchmarkRedactShellShapes measures RedactSecrets where the shell reading (shellMask) runs on
// every call: a 1 MB record of mixed lines (commands with passwords, quotes, $( ), here-documents,
// JSON, YAML), and one 240 KiB line full of quotes and $( around credentials. The reverted
// d0dadce9 took 565 s on 1 MB; docs/benchmarks.md compares it with the code before.
func BenchmarkRedactShellShapes(b *testing.B) {
	lines := []string{
		`mysql -u root -p'pa&ss' db -e "select 1"; echo done`,
		`curl -H "Authorization: Bearer abcdefgh12345678" -d '{"password":"a;b"}' https://x/?token=t&page=2`,
		`export DB_PASSWORD="p@ss;w0rd" && ./run --password=$(cat /run/secret) | tee log`,
		`cat > .env <<'EOF'`, `API_TOKEN='t0k&en'`, `EOF`,
		`  password: "a;b&c"`, `{"alias": "db", "password": "s3cr3t&x", "cmd": "echo $(date)"}`,
		"sshpass -p 'x y' ssh h \"mysql -pX; echo `date`\" # it's done",
	}
	var mixed strings.Builder
	for mixed.Len() < 1<<20 {
		for _, l := range lines {
			mixed.WriteString(l)
			mixed.WriteByte('\n')
		}
	}
	for _, tc := range []struct{ name, text string }{
		{"mixed-1MB", mixed.String()},
		{"quotes-line-240KiB", strings.Repeat(`echo "$(mysql -p'a;b' "x")" 'PASSWORD="y' $(z) `, 5000)},
		// Shapes that make a careless reading quadratic (they were TestLedger40LinearTime's):
		// a match per word or line, deep nesting (no byte walks the stack of open constructs, no
		// body is read per level), and lines "a[" (a subscript's ] looked for to the text's end).
		{"assignments-line", "X=1 " + strings.Repeat("PASSWORD=\"a;b\" ", 16000)},
		{"assignment-lines", strings.Repeat("PASSWORD=\"a;b\"\n", 16000)},
		{"escaped-json", strings.Repeat("{\\\"password\\\":\\\"a;b\\\"}", 11000)},
		{"substitutions-backquotes", strings.Repeat("echo \"$(mysql -p'a;b' \"x\")\" `", 8000)},
		{"heredocs-open-substitution", strings.Repeat("cat <<EOF\n$(x\nEOF\n", 10000)},
		{"nested-substitutions", strings.Repeat("$(", 60000) + strings.Repeat("` '", 60000) + " PASSWORD=x"},
		{"nested-heredocs", strings.Repeat("$(cat <<E\n", 30000) + " PASSWORD=x" + strings.Repeat("\nE\n)", 30000)},
		{"nested-params", strings.Repeat("\"${x:-", 50000) + "PASSWORD=x"},
		{"subscripts-1MB", "PASSWORD=abcdefgh\n" + strings.Repeat("a[\n", 1<<20/3)},
		// A data program's keyed options whose values hold an escaped quote (review rl46: each
		// value was read to the text's end, 1 MB in 2 min 22 s).
		{"keyed-options-1MB", "docker run " + strings.Repeat(`--overrides "\"" --metadata=x"\"" --overrides $'\'' `, 1<<20/50)},
	} {
		b.Run(tc.name, func(b *testing.B) { benchRedactCPU(b, tc.text) })
	}
}

// benchRedactCPU measures RedactSecrets on text, reporting its CPU time per call too: steadier
// than wall time on a shared machine.
func benchRedactCPU(b *testing.B, text string) {
	b.SetBytes(int64(len(text)))
	cpu0, err := cputime.Process()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = RedactSecrets(text)
	}
	cpu1, err := cputime.Process()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
}
