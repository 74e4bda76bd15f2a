package audit

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/cputime"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/safety"
)

// BenchmarkRecordDecision is the webhook's own path for a denied call's record, at 32 callers
// into one signed journal: RecordDecision builds the record (the arguments' digest included)
// and the journal encodes, redacts and commits it. ledger's BenchmarkAppendSigned measures the
// journal alone, against the bare group-commit floor; this is what a decision costs end to end.
func BenchmarkRecordDecision(b *testing.B) {
	j, err := ledger.Open(ledger.Config{Dir: b.TempDir(), Writer: "bench", SigningKey: benchKey(), SignEvery: time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = j.Close() }()
	l := &Log{Journal: j}
	args := safetyv1alpha1.ToolArguments{Cwd: "/workspace/repo", Paths: []string{"/workspace/repo/.git"},
		Command: `curl -H "Authorization: Bearer abcdefghijklmnop0123" https://api.example.com && git push --force origin main`}
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	cpu0 := processCPU(b)
	start := time.Now()
	for range 32 {
		wg.Go(func() {
			for i := next.Add(1); i <= int64(b.N); i = next.Add(1) {
				d := Decision{Decision: "deny", Reason: "ToolSafetyViolation", RuleID: "damage-control:git-push-force", Mode: "Enforce",
					Message: "[ToolSafetyViolation] git push --force is not allowed", Class: "git_destructive", Plan: "plan-a",
					Namespace: "team-a", Call: fmt.Sprintf("c-%d", i), Tool: "shell", Step: "build", Requester: "system:serviceaccount:team-a:coder",
					SnapshotHash: "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
					Request:      &CallRequest{UID: "0b9f6a2e-8c1d-4f5e-9a7b-3c2d1e0f4a5b", Arguments: args, SandboxID: "sbx-1234"},
					AgentTool:    &ToolPin{UID: "5d7c0e1a-2b3c-4d5e-8f9a-0b1c2d3e4f5a", Generation: 3, Writes: true, Checkpointable: true, ActionClass: "execute"},
					Facts: &Facts{AccumulatedCost: safety.MustParseMoney("1.25"), TotalCost: safety.MustParseMoney("40.1"), EarlierAttempts: 3,
						Repeats: 1}}
				if err := l.RecordDecision(context.Background(), d); err != nil {
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
	b.ReportMetric(float64((processCPU(b)-cpu0).Microseconds())/float64(b.N), "cpu-us/record")
}

// benchKey is a fixed Ed25519 key.
func benchKey() ed25519.PrivateKey {
	return ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
}

// processCPU is the user and system CPU time this process has used.
func processCPU(b *testing.B) time.Duration {
	d, err := cputime.Process()
	if err != nil {
		b.Fatal(err)
	}
	return d
}
