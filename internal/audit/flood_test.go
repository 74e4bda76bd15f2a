package audit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
)

type floodClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *floodClock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *floodClock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }
func newFloodClock() *floodClock {
	return &floodClock{t: time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)}
}
func settings(n int, w time.Duration) func(context.Context) FloodSettings {
	return func(context.Context) FloodSettings { return FloodSettings{DeniedPerWindow: n, Window: w} }
}

func floodFixture(t *testing.T, n int) (*FloodControl, *floodClock, string) {
	t.Helper()
	dir := t.TempDir()
	clk := newFloodClock()
	j, err := ledger.Open(Config(nil, dir, "webhook-0", clk))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	return &FloodControl{Log: &Log{Journal: j}, Settings: settings(n, time.Minute), Clock: clk}, clk, dir
}

// denyAll plays the webhook: a denial over the rate is answered RateLimited and not recorded;
// the others are recorded one by one. It returns how many were refused.
func denyAll(t *testing.T, f *FloodControl, ns, requester string, n int, clk *floodClock) int {
	t.Helper()
	refused := 0
	for i := range n {
		d := DeniedCall{Namespace: ns, Requester: requester, Call: fmt.Sprintf("%s-%03d", strings.Repeat("x", 240), i), Reason: []string{"PathDenied", "DamageControl"}[i%2]}
		if f.Refuse(context.Background(), d) {
			refused++
		} else if err := f.Log.RecordDecision(context.Background(), Decision{Decision: "deny", Reason: d.Reason, Namespace: ns, Requester: requester, Call: d.Call}); err != nil {
			t.Fatal(err)
		}
		clk.Add(10 * time.Millisecond)
	}
	return refused
}

func TestFloodControlAggregatesAWindowOfDenials(t *testing.T) {
	f, clk, dir := floodFixture(t, 3)
	if got := denyAll(t, f, "ns-a", "system:serviceaccount:ns-a:agent", 1000, clk); got != 997 {
		t.Fatalf("refused %d of 1000, want all but the first 3", got)
	}
	// Another requester, and the same requester in another namespace, are not affected.
	if got := denyAll(t, f, "ns-a", "system:serviceaccount:ns-a:other", 3, clk); got != 0 {
		t.Fatalf("another requester was refused %d times", got)
	}
	if got := denyAll(t, f, "ns-b", "system:serviceaccount:ns-a:agent", 3, clk); got != 0 {
		t.Fatalf("the requester in another namespace was refused %d times", got)
	}
	if err := f.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if floods := kinds(t, dir)[KindFlood]; floods != 0 {
		t.Fatalf("%d flood records before the window ended", floods)
	}
	clk.Add(time.Minute)
	if err := f.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := f.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	recs := chain(t, dir)
	var flood []chainRecord
	for _, r := range recs {
		if r.Kind == KindFlood {
			flood = append(flood, r)
		}
	}
	if len(flood) != 1 {
		t.Fatalf("%d flood records, want one for the window", len(flood))
	}
	got := flood[0].Fields
	want := map[string]any{"refused": "997", "denied": "1000", "requester": "system:serviceaccount:ns-a:agent", "namespace": "ns-a",
		"reason": safetyv1alpha1.AuditLedgerRateLimitedReason}
	for k, v := range want {
		if fmt.Sprint(got[k]) != v {
			t.Errorf("flood record %s = %v, want %v", k, got[k], v)
		}
	}
	if diff := cmp.Diff(map[string]any{"DamageControl": "499", "PathDenied": "498"}, stringify(got["reasons"])); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	first, last := got["first"].(map[string]any), got["last"].(map[string]any)
	if !strings.HasSuffix(fmt.Sprint(first["call"]), "-003") || !strings.HasSuffix(fmt.Sprint(last["call"]), "-999") {
		t.Errorf("first %v last %v, want calls 003 and 999", first["call"], last["call"])
	}
	// 3+3+3 decisions and one flood record, whatever the flood's size.
	if k := kinds(t, dir); k["decision"] != 9 || k[KindFlood] != 1 {
		t.Errorf("records by kind %v", k)
	}
	if rep := verify(t, dir); !rep.OK() {
		t.Fatal(rep.Summary())
	}
	// A new window starts fresh.
	if got := denyAll(t, f, "ns-a", "system:serviceaccount:ns-a:agent", 4, clk); got != 1 {
		t.Fatalf("refused %d in the next window, want 1", got)
	}
}

// The ledger's growth under a flood is bounded by windows: 20 windows of 500 denials each with
// 250-byte names cost about as much as 20 windows of 10.
func TestFloodCostsBytesPerWindow(t *testing.T) {
	size := func(n int) int64 {
		f, clk, dir := floodFixture(t, 5)
		for range 20 {
			denyAll(t, f, "ns", "system:serviceaccount:ns:agent", n, clk)
			clk.Add(time.Minute)
			if err := f.Flush(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		var total int64
		_ = filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() {
				total += info.Size()
			}
			return nil
		})
		return total
	}
	small, big := size(10), size(500)
	if big > small*11/10 {
		t.Fatalf("500 denials per window cost %d bytes, 10 cost %d: growth is not bounded by windows", big, small)
	}
}

func TestFloodControlOff(t *testing.T) {
	f, clk, _ := floodFixture(t, 0)
	if got := denyAll(t, f, "ns", "u", 50, clk); got != 0 {
		t.Fatalf("refused %d with flood control off", got)
	}
	n := int32(0)
	if s := FloodSettingsOf(&safetyv1alpha1.AuditLedgerSpec{FloodControl: safetyv1alpha1.LedgerFloodControl{DeniedPerWindow: &n, WindowSeconds: 5}}); s.DeniedPerWindow != 0 || s.Window != 5*time.Second {
		t.Fatalf("settings %+v", s)
	}
	if s := FloodSettingsOf(nil); s.DeniedPerWindow != DefaultDeniedPerWindow || s.Window != DefaultFloodWindow {
		t.Fatalf("defaults %+v", s)
	}
}

func kinds(t *testing.T, dir string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, r := range chain(t, dir) {
		out[r.Kind]++
	}
	return out
}

func stringify(v any) map[string]any {
	m, _ := v.(map[string]any)
	out := map[string]any{}
	for k, x := range m {
		out[k] = fmt.Sprint(x)
	}
	return out
}

// Agents sharing a ServiceAccount, each in its own pod, have a window each; requests of the same
// pod, or of tokens bound to no pod, share theirs.
func TestFloodWindowIsPerPod(t *testing.T) {
	f, _, _ := floodFixture(t, 2)
	ctx := context.Background()
	const sa = "system:serviceaccount:ns:shared"
	refuse := func(pod string) bool {
		return f.Refuse(ctx, DeniedCall{Namespace: "ns", Requester: sa, Pod: pod, Call: "c", Reason: "PathDenied"})
	}
	for range 2 {
		if refuse("agent-a") {
			t.Fatal("refused within the rate")
		}
	}
	if !refuse("agent-a") {
		t.Error("the flooding pod was not refused past the rate")
	}
	if refuse("agent-b") {
		t.Error("another pod of the same ServiceAccount was refused for the first pod's flood")
	}
	for range 2 {
		_ = refuse("")
	}
	if !refuse("") {
		t.Error("tokens bound to no pod do not share their ServiceAccount's window")
	}
}
