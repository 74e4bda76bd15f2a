package ledger

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A caller's loss record is an ordinary record on the chain: Verify passes and reports it.
func TestVerifyReportsLossRecords(t *testing.T) {
	cfg := testConfig(t, newFakeClock(day0))
	j := mustOpen(t, cfg)
	appendN(t, j, 2)
	r, err := j.Append(context.Background(), Record{Kind: KindLoss, Fields: map[string]any{
		FieldLost: 7, FieldFirstLost: "2026-11-30T09:00:00Z", FieldLastLost: "2026-11-30T09:30:00Z", "sample": []any{},
	}})
	if err != nil {
		t.Fatal(err)
	}
	appendN(t, j, 1)
	rep := mustVerify(t, cfg.Dir)
	want := []Loss{{Writer: cfg.Writer, File: "2026-11-30.00000001.jsonl", Seq: r.Seq, Lost: 7,
		FirstLost: "2026-11-30T09:00:00Z", LastLost: "2026-11-30T09:30:00Z"}}
	if diff := cmp.Diff(want, rep.Chains[0].Losses); diff != "" {
		t.Fatalf("losses (-want +got)\n%s", diff)
	}
	if s := rep.Summary(); !strings.Contains(s, "7 records lost by writers (in 1 loss records)") {
		t.Fatalf("summary %q", s)
	}
	if s := rep.Chains[0].String(); !strings.Contains(s, "loss: writer webhook-0: 7 records lost between") {
		t.Fatalf("chain report %q", s)
	}
}
