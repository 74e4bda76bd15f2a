package audit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/ledger/tmpfs"
)

// closedJournalCovers names the test that covers the loss account where no tmpfs can be mounted.
const closedJournalCovers = "TestLossAccountIsBounded still covers the account with a closed journal"

// chainRecord is one record as stored, for assertions.
type chainRecord struct {
	Seq    uint64         `json:"seq"`
	Kind   string         `json:"kind"`
	Fields map[string]any `json:"fields"`
}

// chain reads every record under dir in sequence order (one writer).
func chain(t *testing.T, dir string) []chainRecord {
	t.Helper()
	lines, err := ledger.Tail(dir, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]chainRecord, len(lines))
	for i, l := range lines {
		if err := json.Unmarshal(l, &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	slices.SortFunc(out, func(a, b chainRecord) int { return int(a.Seq) - int(b.Seq) })
	return out
}

func verify(t *testing.T, dir string) ledger.Report {
	t.Helper()
	rep, err := ledger.Verify(dir)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	return rep
}

func decision(call string) Decision {
	return Decision{Decision: "allow", Reason: "", Mode: "Enforce", Namespace: "ns", Plan: "p", Call: call, Tool: "write",
		Requester: "system:serviceaccount:ns:coder", Message: strings.Repeat("m", 200)}
}

func ignore(context.Context) safetyv1alpha1.LedgerFailurePolicy {
	return safetyv1alpha1.LedgerFailurePolicyIgnore
}

// A real full volume: decisions fail with ENOSPC and go into the loss account; once space is
// freed the next decision is preceded by one loss record with the right count and every lost
// call named, and the ledger verifies.
func TestLossRecordAfterARealFullVolume(t *testing.T) {
	dir := tmpfs.Mount(t, "128k", closedJournalCovers)
	j, err := ledger.Open(Config(nil, dir, "webhook-0", nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	log := &Log{Journal: j, FailurePolicy: ignore}
	free := tmpfs.Fill(t, dir)

	var lost []string
	var err1 error
	for i := 0; len(lost) < 6; i++ {
		call := fmt.Sprintf("call-%d", i)
		if err := log.RecordDecision(context.Background(), decision(call)); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("%s: %v, want ENOSPC", call, err)
			}
			if err1 == nil {
				err1 = err
			}
			lost = append(lost, call)
		} else if len(lost) > 0 {
			t.Fatalf("%s was recorded while %d earlier losses were not", call, len(lost))
		}
	}
	if st := log.LossStats(); st.Unrecorded != 6 || st.LossRecords != 0 {
		t.Fatalf("LossStats %+v, want 6 unrecorded", st)
	}
	free()

	if err := log.RecordDecision(context.Background(), decision("after")); err != nil {
		t.Fatal(err)
	}
	recs := chain(t, dir)
	loss, after := recs[len(recs)-2], recs[len(recs)-1]
	if loss.Kind != ledger.KindLoss || after.Fields["call"] != "after" {
		t.Fatalf("the chain ends in %s, %s: want the loss record, then the next decision", loss.Kind, after.Kind)
	}
	if loss.Fields["lost"] != float64(6) || loss.Fields["sampleOmitted"] != float64(0) {
		t.Fatalf("loss record %v", loss.Fields)
	}
	if diff := cmp.Diff(map[string]any{"Ignore": float64(6)}, loss.Fields["byFailurePolicy"]); diff != "" {
		t.Fatalf("byFailurePolicy (-want +got)\n%s", diff)
	}
	sample := loss.Fields["sample"].([]any)
	sampled := make([]string, 0, len(sample))
	for _, e := range sample {
		e := e.(map[string]any)
		sampled = append(sampled, e["call"].(string))
		if e["decision"] != "allow" || e["namespace"] != "ns" || e["plan"] != "p" || e["kind"] != "decision" ||
			!strings.Contains(e["error"].(string), "no space left on device") {
			t.Fatalf("sample entry %v", e)
		}
	}
	if diff := cmp.Diff(lost, sampled); diff != "" {
		t.Fatalf("lost calls (-want +got)\n%s", diff)
	}
	for _, r := range recs {
		if r.Kind == KindDecision && slices.Contains(lost, r.Fields["call"].(string)) {
			t.Fatalf("lost call %s is on the chain", r.Fields["call"])
		}
	}
	rep := verify(t, dir)
	if ls := rep.Chains[0].Losses; len(ls) != 1 || ls[0].Lost != 6 {
		t.Fatalf("Verify reports losses %v", ls)
	}
	if st := log.LossStats(); st != (LossStats{Recorded: 6, LossRecords: 1}) {
		t.Fatalf("LossStats %+v", st)
	}
	t.Logf("first loss: %v; %s", err1, rep.Summary())
}

// With no decision after the outage, the LossFlusher writes the loss record on its schedule.
func TestLossFlusherRecordsWithoutAnotherDecision(t *testing.T) {
	dir := tmpfs.Mount(t, "128k", closedJournalCovers)
	j, err := ledger.Open(Config(nil, dir, "webhook-0", nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	var policy atomic.Value
	policy.Store(safetyv1alpha1.LedgerFailurePolicyFail)
	log := &Log{Journal: j, FailurePolicy: func(context.Context) safetyv1alpha1.LedgerFailurePolicy {
		return policy.Load().(safetyv1alpha1.LedgerFailurePolicy)
	}}
	free := tmpfs.Fill(t, dir)
	for i := 0; log.LossStats().Unrecorded < 3; i++ {
		if i == 1000 {
			t.Fatal("the volume never filled")
		}
		_ = log.RecordDecision(context.Background(), decision(fmt.Sprint(i)))
		if log.LossStats().Unrecorded == 2 {
			policy.Store(safetyv1alpha1.LedgerFailurePolicyIgnore)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- (&LossFlusher{Log: log, Interval: 5 * time.Millisecond}).Start(ctx) }()
	time.Sleep(30 * time.Millisecond)
	if st := log.LossStats(); st.LossRecords != 0 || st.Unrecorded != 3 {
		t.Fatalf("while the volume is full: %+v", st)
	}
	free()
	// Wait for the flusher's record, however slow the machine: a fixed few seconds could end first
	// and leave the check below reading a chain the flusher had not yet written to.
	for deadline := time.Now().Add(time.Minute); log.LossStats().LossRecords == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the LossFlusher wrote no loss record in a minute after the volume was freed: %+v", log.LossStats())
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	recs := chain(t, dir)
	loss := recs[len(recs)-1]
	if loss.Kind != ledger.KindLoss || loss.Fields["lost"] != float64(3) {
		t.Fatalf("last record %+v", loss)
	}
	// Under Fail the client was denied LedgerUnavailable, under Ignore answered as decided: the
	// record says which, per policy and per entry.
	if diff := cmp.Diff(map[string]any{"Fail": float64(2), "Ignore": float64(1)}, loss.Fields["byFailurePolicy"]); diff != "" {
		t.Fatalf("byFailurePolicy (-want +got)\n%s", diff)
	}
	verify(t, dir)
}

// Many appenders while the volume fills and empties again: every decision is either on the
// chain or counted in a loss record, never both and never neither.
func TestNoDecisionIsSilentlyDroppedUnderConcurrentFailures(t *testing.T) {
	// Large enough that the decisions written between fills (a few MB on a fast machine) never
	// fill it themselves: only the filler may, or the final flush could find no room.
	dir := tmpfs.Mount(t, "64m", closedJournalCovers)
	j, err := ledger.Open(Config(nil, dir, "webhook-0", nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	log := &Log{Journal: j, FailurePolicy: ignore}
	var failed atomic.Int64
	var attempts atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				attempts.Add(1)
				if log.RecordDecision(context.Background(), decision(fmt.Sprintf("w%d-%d", w, i))) != nil {
					failed.Add(1)
				}
			}
		})
	}
	for range 6 {
		// The journal writes into space it preallocated, so a full volume fails appends only
		// once that space is used up: keep it full until one has failed (a fixed 20 ms was not
		// always long enough under load).
		before := failed.Load()
		free := tmpfs.Fill(t, dir)
		for deadline := time.Now().Add(time.Minute); failed.Load() == before && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		free()
		time.Sleep(20 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if err := log.FlushLosses(context.Background()); err != nil {
		t.Fatal(err)
	}
	if failed.Load() == 0 {
		t.Fatal("no append failed: the volume never filled")
	}
	decisions, lost := 0, 0
	for _, r := range chain(t, dir) {
		switch r.Kind {
		case KindDecision:
			decisions++
		case ledger.KindLoss:
			lost += int(r.Fields["lost"].(float64))
		}
	}
	if int64(lost) != failed.Load() || int64(decisions+lost) != attempts.Load() {
		t.Fatalf("%d attempts, %d failed; the chain holds %d decisions and loss records for %d", attempts.Load(), failed.Load(), decisions, lost)
	}
	rep := verify(t, dir)
	t.Logf("%d attempts, %d failed: %s", attempts.Load(), failed.Load(), rep.Summary())
}

// Without root: a closed journal fails every append. The account counts every loss but
// describes only the first MaxLossSample; the loss record appears once a journal can take it.
func TestLossAccountIsBounded(t *testing.T) {
	dir := t.TempDir()
	j, err := ledger.Open(Config(nil, dir, "webhook-0", nil))
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	log := &Log{Journal: j}
	for i := range 150 {
		if err := log.RecordDecision(context.Background(), decision(fmt.Sprint(i))); !errors.Is(err, ledger.ErrClosed) {
			t.Fatalf("decision %d on a closed journal: %v", i, err)
		}
	}
	if err := log.FlushLosses(context.Background()); !errors.Is(err, ledger.ErrClosed) {
		t.Fatalf("FlushLosses: %v", err)
	}
	if st := log.LossStats(); st.Unrecorded != 150 {
		t.Fatalf("LossStats %+v", st)
	}
	if n := len(log.losses.cur.sample); n != MaxLossSample {
		t.Fatalf("the account holds %d entries, want at most %d", n, MaxLossSample)
	}
	// The manager's next start opens the same chain again; here the Log is pointed at it.
	j2, err := ledger.Open(Config(nil, dir, "webhook-0", nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j2.Close() })
	log.Journal = j2
	if err := log.FlushLosses(context.Background()); err != nil {
		t.Fatal(err)
	}
	recs := chain(t, dir)
	loss := recs[len(recs)-1]
	if loss.Fields["lost"] != float64(150) || loss.Fields["sampleOmitted"] != float64(50) || len(loss.Fields["sample"].([]any)) != 100 ||
		loss.Fields["byFailurePolicy"].(map[string]any)["unknown"] != float64(150) {
		t.Fatalf("loss record lost=%v omitted=%v sample=%d byFailurePolicy=%v", loss.Fields["lost"], loss.Fields["sampleOmitted"],
			len(loss.Fields["sample"].([]any)), loss.Fields["byFailurePolicy"])
	}
	if e := loss.Fields["sample"].([]any)[0].(map[string]any); e["call"] != "0" || e["error"] != ledger.ErrClosed.Error() {
		t.Fatalf("first sample entry %v", e)
	}
	verify(t, dir)
}

// A waiting append gives up when its context ends, and its decision is counted too.
func TestCancelledWaitForTheLossRecordIsALoss(t *testing.T) {
	dir := t.TempDir()
	j, err := ledger.Open(Config(nil, dir, "webhook-0", nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	log := &Log{Journal: j}
	log.lose(context.Background(), KindDecision, map[string]any{"call": "earlier"}, errors.New("disk full"))
	log.losses.sem() <- struct{}{} // a loss record is in flight
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if err := log.RecordDecision(ctx, decision("impatient")); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("RecordDecision: %v, want the context's error", err)
	}
	<-log.losses.sem()
	if err := log.RecordDecision(context.Background(), decision("next")); err != nil {
		t.Fatal(err)
	}
	recs := chain(t, dir)
	if recs[len(recs)-2].Kind != ledger.KindLoss || recs[len(recs)-2].Fields["lost"] != float64(2) {
		t.Fatalf("records %+v", recs)
	}
	verify(t, dir)
}
