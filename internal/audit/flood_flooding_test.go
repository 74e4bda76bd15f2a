package audit

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// Flooding predicts, without counting, what Refuse answers the requester's next denial: the
// webhook skips its live reads for a requester it says is flooding, so it must never say so of
// one whose next denial would still be recorded, nor of another requester, pod or window.
func TestFloodingSaysWhatTheNextDenialIsRefused(t *testing.T) {
	const perWindow = 3
	ctx := context.Background()
	f, clk, _ := floodFixture(t, perWindow)
	flooding := func(requester, pod string) bool { return f.Flooding(ctx, "ns", requester, pod) }
	for i := range perWindow + 2 {
		predicted := flooding("a", "")
		if again := flooding("a", ""); again != predicted {
			t.Fatalf("denial %d: Flooding changed its answer by being asked (%v, then %v)", i, predicted, again)
		}
		refused := f.Refuse(ctx, DeniedCall{Namespace: "ns", Requester: "a", Call: fmt.Sprint("c", i), Reason: "PlanNotFound"})
		if predicted != refused {
			t.Fatalf("denial %d: Flooding said %v, Refuse said %v", i, predicted, refused)
		}
		if want := i >= perWindow; refused != want {
			t.Fatalf("denial %d: refused %v, want %v", i, refused, want)
		}
	}
	if !flooding("a", "") {
		t.Fatal("the requester past its rate is not flooding")
	}
	for _, other := range [][2]string{{"b", ""}, {"a", "pod-0"}} {
		if flooding(other[0], other[1]) {
			t.Errorf("requester %q, pod %q, with no denials, is flooding", other[0], other[1])
		}
	}
	if f.Flooding(ctx, "other-ns", "a", "") {
		t.Error("the requester is flooding in a namespace it was never denied in")
	}
	clk.Add(time.Minute)
	if flooding("a", "") {
		t.Error("the requester is still flooding after its window ended")
	}
	off := &FloodControl{Log: f.Log, Settings: settings(0, time.Minute), Clock: clk}
	for i := range 5 {
		off.Refuse(ctx, DeniedCall{Namespace: "ns", Requester: "a", Call: fmt.Sprint("off", i)})
	}
	if off.Flooding(ctx, "ns", "a", "") {
		t.Error("flood control is off, yet the requester is flooding")
	}
}

// A window whose byte budget is spent floods too: its next denial, of any size, is refused.
func TestFloodingCountsTheByteBudget(t *testing.T) {
	ctx := context.Background()
	f, _, _ := floodFixture(t, 1000)
	f.Settings = func(context.Context) FloodSettings {
		return FloodSettings{DeniedPerWindow: 1000, Window: time.Minute, DeniedBytesPerMinute: 100}
	}
	if f.Refuse(ctx, DeniedCall{Namespace: "ns", Requester: "a", Call: "big", Bytes: 500}) {
		t.Fatal("the window's first denial is refused")
	}
	if !f.Flooding(ctx, "ns", "a", "") {
		t.Fatal("a window past its byte budget is not flooding")
	}
	if !f.Refuse(ctx, DeniedCall{Namespace: "ns", Requester: "a", Call: "small", Bytes: 1}) {
		t.Fatal("Flooding said the next denial is refused; Refuse recorded it")
	}
}
