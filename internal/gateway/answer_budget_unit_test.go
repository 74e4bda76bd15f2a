package gateway

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestAnAnswerHoldGivesItsSharesBackOnceItsLastHolderIsDone takes and gives back shares of a budget
// through one hold with two holders (an agent's request and its forwarded call): the budget gets
// back what the hold still has only when both are done.
func TestAnAnswerHoldGivesItsSharesBackOnceItsLastHolderIsDone(t *testing.T) {
	budget := newAnswerBudget(100)
	ctx, requestDone := withAnswerHold(context.Background(), budget)
	ctx, callDone := holdFrom(ctx, budget)
	share := answerShareOf(withAnswerShare(ctx))
	if err := share.take(ctx, 60); err != nil {
		t.Fatal(err)
	}
	if budget.sem.TryAcquire(50) {
		t.Fatal("the budget gave 50 of 100 with 60 held")
	}
	share.trim(40)
	if !budget.sem.TryAcquire(60) {
		t.Fatal("the 20 trimmed are not in the budget")
	}
	budget.sem.Release(60)
	if err := share.take(ctx, 40); err != nil || share.held != 40 {
		t.Fatalf("taking what the share holds already: %v, and it holds %d", err, share.held)
	}
	if err := share.take(ctx, 101); err == nil {
		t.Error("a share larger than the whole budget was taken")
	}
	callDone()
	if budget.sem.TryAcquire(61) {
		t.Fatal("the hold's 40 came back while the request still holds them")
	}
	requestDone()
	if !budget.sem.TryAcquire(100) {
		t.Fatal("the hold's share did not come back once its last holder was done")
	}
	budget.sem.Release(100)
	if err := share.take(ctx, 90); err != nil || !budget.sem.TryAcquire(100) {
		t.Errorf("a share taken after every holder was done is kept (%v): nothing would give it back", err)
	}
}

// TestTheCallsOfOneRequestDoNotWaitForEachOther gives two calls of one request (a JSON-RPC batch,
// which the request answers together) shares of one hold: the second, which does not fit beside
// the first, fails at once instead of waiting for a share that only the request's end gives back.
func TestTheCallsOfOneRequestDoNotWaitForEachOther(t *testing.T) {
	budget := newAnswerBudget(100)
	ctx, done := withAnswerHold(context.Background(), budget)
	defer done()
	first, second := answerShareOf(withAnswerShare(ctx)), answerShareOf(withAnswerShare(ctx))
	if err := first.take(ctx, 60); err != nil {
		t.Fatal(err)
	}
	if err := second.take(ctx, 50); err == nil { // a wait here would never end: ctx has no deadline
		t.Fatal("the second call's share was taken beside the first's, over the budget")
	}
	if err := second.take(ctx, 40); err != nil {
		t.Errorf("a share that fits beside the first was refused: %v", err)
	}
}

// TestAChunkedAnswerHoldsWhatItIsAndNoMore reads answers of no stated length through the bounded
// body with a hold: one within freeAnswerBytes takes nothing, a larger one takes its own size (the
// most it might have been, taken while it was read, given back down to what it was), and one over
// the limit is replaced by the call's error and holds nothing.
func TestAChunkedAnswerHoldsWhatItIsAndNoMore(t *testing.T) {
	const limit = 1 << 20
	for _, tc := range []struct {
		name string
		size int
		held int64
	}{
		{"small", freeAnswerBytes, 0},
		{"large", 300 << 10, 300 << 10},
		{"over the limit", limit + 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				for range tc.size / 1024 { // flushed as it goes: chunked, with no Content-Length
					_, _ = io.WriteString(w, strings.Repeat("x", 1024))
					w.(http.Flusher).Flush()
				}
				_, _ = io.WriteString(w, strings.Repeat("x", tc.size%1024))
			}))
			defer closeUpstream(server)
			req, share := heldCall(t, server.URL, limit)
			resp, err := limitAnswers(server.Client(), limit).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			if resp.ContentLength != -1 {
				t.Fatalf("the answer has a Content-Length (%d): the test needs one of no stated length", resp.ContentLength)
			}
			body, err := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if tc.size <= limit && len(body) != tc.size {
				t.Fatalf("read %d bytes of an answer of %d", len(body), tc.size)
			}
			if tc.size > limit && !bytes.Contains(body, []byte(`"id":7`)) {
				t.Fatalf("an answer over the limit is not replaced by the call's error: %.100s", body)
			}
			if held := share.held; held != tc.held {
				t.Errorf("the hold has %d bytes of the budget, want %d", held, tc.held)
			}
		})
	}
}

// TestAShareTrimmedAfterItsHoldIsDoneGivesNothingBackTwice trims a share whose hold was given back
// already, as a body still read after its call ended does: the budget is whole, once.
func TestAShareTrimmedAfterItsHoldIsDoneGivesNothingBackTwice(t *testing.T) {
	budget := newAnswerBudget(100)
	ctx, done := withAnswerHold(context.Background(), budget)
	share := answerShareOf(withAnswerShare(ctx))
	if err := share.take(ctx, 80); err != nil {
		t.Fatal(err)
	}
	done()
	share.trim(10) // a second release would panic: "semaphore: released more than held"
	if !budget.sem.TryAcquire(100) {
		t.Fatal("the budget is not whole once its only hold is done")
	}
}

// heldCall is a tools/call request (id 7) to url whose answer holds a share of a budget of limit
// bytes for answers held at once, as forward makes one, and that share; the hold is given back
// when the test ends.
func heldCall(t *testing.T, url string, limit int64) (*http.Request, *answerShare) {
	t.Helper()
	ctx, done := withAnswerHold(context.Background(), newAnswerBudget(limit))
	t.Cleanup(done)
	ctx = withAnswerShare(ctx)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url,
		bytes.NewReader([]byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read"}}`)))
	if err != nil {
		t.Fatal(err)
	}
	return req, answerShareOf(ctx)
}
