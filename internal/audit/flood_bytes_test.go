package audit

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// Issue 17: "An agent can flood the ledger with denied calls ... until the volume fills, and
// then every call in the cluster is refused LedgerUnavailable." Flood control bounds the denials
// recorded per window by count (60 a minute by default), not by bytes, and a denial record holds
// the call's arguments: up to 8 KiB of command, 32 paths of 1 KiB, 1 KiB of cwd and 16 KiB of
// extra arguments (the CRD's bounds), about 60 KB a record. One agent that sends only maximal,
// incompressible denied calls therefore writes about 3.4 MB a minute, ~5 GB a day, at the
// default rate: it fills the chart's default 10 GiB ledger volume in two to four days (gzip halving it at best), far inside
// the default 90-day retention, and then every call in the cluster is refused. A flood must
// cost bytes in proportion to windows with a bound on the bytes too, so that one agent cannot
// fill the default volume before retention frees it.
func TestOneAgentCannotFillTheDefaultVolumeWithinRetention(t *testing.T) {
	f, clk, _ := floodFixture(t, 0)
	f.Settings = nil // the defaults, as for an AuditLedger without floodControl
	const (
		ns        = "team-a"
		requester = "system:serviceaccount:team-a:coder"
		windows   = 5
		perWindow = 200 // attempts a window: far past the rate, as a flood is
	)
	ctx := t.Context()
	before := f.Log.Journal.Stats().Bytes
	for w := range windows {
		for i := range perWindow {
			call := maximalCall(t)
			d := DeniedCall{Namespace: ns, Requester: requester, Pod: "coder-0", Call: fmt.Sprintf("c-%d-%d", w, i), Reason: "ToolSafetyViolation"}
			if !f.Refuse(ctx, d) {
				if err := f.Log.RecordDecision(ctx, Decision{Decision: "deny", Reason: d.Reason, Mode: "Enforce",
					Message:   "[ToolSafetyViolation] path-policy zeroAccess: the call reads a denied path",
					Namespace: ns, Plan: "p", Call: d.Call, Tool: "shell", Step: "s", Requester: requester,
					RequesterPod: d.Pod, Request: RequestOf(call), Facts: &Facts{}}); err != nil {
					t.Fatal(err)
				}
			}
			clk.Add(time.Minute / perWindow)
		}
	}
	clk.Add(time.Minute)
	if err := f.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	written := f.Log.Journal.Stats().Bytes - before
	perDay := float64(written) / windows * float64(24*time.Hour/DefaultFloodWindow)
	const (
		defaultVolume    = 10 << 30 // dist/chart values: ledger.size 10Gi
		defaultRetention = 90       // AuditLedger spec.retention.maxAgeDays default
		gzipCredit       = 2        // sealed segments are gzipped; random hex halves at best
	)
	daysToFill := defaultVolume * gzipCredit / perDay
	t.Logf("one agent at the default rate: %d bytes in %d windows, %.1f GB a day; the default volume is full in %.1f days",
		written, windows, perDay/1e9, daysToFill)
	if daysToFill < defaultRetention {
		t.Errorf("one agent's maximal denials at the default flood rate fill the default %d GiB ledger volume in %.1f days "+
			"(%.1f GB a day, even counting gzip at 2x), inside the default %d-day retention: the flood is bounded in records, not bytes",
			defaultVolume>>30, daysToFill, perDay/1e9, defaultRetention)
	}
}

func maximalCall(t *testing.T) *safetyv1alpha1.AgentToolCall {
	t.Helper()
	rnd := func(n int) string {
		b := make([]byte, n/2)
		if _, err := rand.Read(b); err != nil {
			t.Fatal(err)
		}
		return hex.EncodeToString(b)
	}
	paths := make([]string, 32)
	for i := range paths {
		paths[i] = "/" + rnd(1022)
	}
	var extra strings.Builder
	extra.WriteString("{")
	for i := range 200 {
		if i > 0 {
			extra.WriteString(",")
		}
		fmt.Fprintf(&extra, `"k%03d":%q`, i, rnd(60))
	}
	extra.WriteString("}")
	return &safetyv1alpha1.AgentToolCall{Spec: safetyv1alpha1.AgentToolCallSpec{SandboxID: "sbx-1",
		Arguments: safetyv1alpha1.ToolArguments{Command: "cat " + rnd(8186), Paths: paths, Cwd: "/" + rnd(1022),
			Extra: &runtime.RawExtension{Raw: []byte(extra.String())}}}}
}

// With the arguments' size reserved up front (as the webhook does), a window records one maximal
// denial, not two, and concurrent maximal denials cannot all pass before any record is charged:
// the worst flood then lasts past the default retention on the default volume even without
// counting gzip.
func TestDenialBytesAreReservedBeforeTheyAreRecorded(t *testing.T) {
	f, clk, _ := floodFixture(t, 0)
	f.Settings = nil
	ctx := t.Context()
	call := maximalCall(t)
	d := DeniedCall{Namespace: "ns", Requester: "sa", Call: "c", Reason: "ToolSafetyViolation", Bytes: ArgumentBytes(call.Spec.Arguments)}
	passed := 0
	for range DefaultDeniedPerWindow { // all at once: none recorded yet
		if !f.Refuse(ctx, d) {
			passed++
		}
	}
	if passed != 1 {
		t.Fatalf("%d concurrent maximal denials passed the byte budget before any was recorded; want 1", passed)
	}
	if err := f.Log.RecordDecision(ctx, Decision{Decision: "deny", Reason: d.Reason, Namespace: "ns", Requester: "sa", Call: "c",
		Request: RequestOf(call), Facts: &Facts{}}); err != nil {
		t.Fatal(err)
	}
	// Small denials still fit beside it only within the budget, and the next window starts anew.
	clk.Add(time.Minute)
	before := f.Log.Journal.Stats().Bytes
	for i := range 200 {
		d.Call = fmt.Sprintf("c-%d", i)
		if !f.Refuse(ctx, d) {
			if err := f.Log.RecordDecision(ctx, Decision{Decision: "deny", Reason: d.Reason, Namespace: "ns", Requester: "sa", Call: d.Call,
				Request: RequestOf(call), Facts: &Facts{}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	clk.Add(time.Minute)
	if err := f.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	perWindow := f.Log.Journal.Stats().Bytes - before
	days := float64(10<<30) / (float64(perWindow) * 24 * 60)
	t.Logf("one window of maximal denials with reservations: %d bytes; the default volume lasts %.0f days without gzip", perWindow, days)
	if days < 90 {
		t.Errorf("the worst flood fills the default volume in %.0f days, without counting gzip", days)
	}
}
