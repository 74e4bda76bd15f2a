package gateway

import (
	"context"
	"fmt"
	"sync"

	"golang.org/x/sync/semaphore"
)

// freeAnswerBytes is how much of one upstream answer (a JSON body, or one event of a stream) the
// gateway reads without its answer budget: most answers are smaller, and take no turn.
const freeAnswerBytes = 64 << 10

// answerBudget bounds the bytes of upstream answers the gateway holds at once, beyond
// freeAnswerBytes each. An answer is held several times over while it passes through: read,
// decoded by the SDK's client, encoded again by its server and written to the agent (an answer of
// 16 MiB cost a plain SDK relay about 60 MiB at its peak), so without a bound a few agents
// reading large files at once would take the gateway past its memory limit, and every agent's
// calls with it. An answer over freeAnswerBytes waits for its share (the most it may be: its
// Content-Length, else the bound on one message) before the gateway reads more of it; meanwhile
// it stays in the connection, unread. Its share is held until the agent's request has been
// answered (answerHold), so an agent that reads its answers slowly holds the budget, not memory
// beyond it. A waiter holds none of the budget, so waiting cannot deadlock.
type answerBudget struct {
	sem  *semaphore.Weighted
	size int64
}

func newAnswerBudget(size int64) *answerBudget {
	return &answerBudget{sem: semaphore.NewWeighted(size), size: size}
}

// answerHold is what one agent request's answers hold of the budget: released when the last of
// its holders is done, the request (Handler) and the call forwarded for it (forward), which
// outlives a request whose agent hung up.
type answerHold struct {
	budget    *answerBudget
	mu        sync.Mutex
	held      int64
	refs      int
	taking    int  // calls of the request taking a share now (a batch's run at once)
	givenBack bool // every holder is done, and what was held is given back: shares give back nothing more
}

type answerHoldKey struct{}

// withAnswerHold is ctx with a new hold on budget, and its done.
func withAnswerHold(ctx context.Context, budget *answerBudget) (context.Context, func()) {
	h := &answerHold{budget: budget, refs: 1}
	return context.WithValue(ctx, answerHoldKey{}, h), h.done
}

// holdFrom is ctx's hold with one more holder, whose done the caller calls; ctx with a hold of its
// own (on budget) when it has none.
func holdFrom(ctx context.Context, budget *answerBudget) (context.Context, func()) {
	h, _ := ctx.Value(answerHoldKey{}).(*answerHold)
	if h == nil {
		return withAnswerHold(ctx, budget)
	}
	h.mu.Lock()
	h.refs++
	h.mu.Unlock()
	return ctx, h.done
}

// answerShare is what one call's answers hold of its request's hold: a call's answers come one
// after another (a stream resumed after it broke is the same answer's), so a call needs no more
// than its largest.
type answerShare struct {
	hold *answerHold
	held int64 // of hold.held
}

type answerShareKey struct{}

// withAnswerShare is ctx, the context of one call forwarded for the request whose hold ctx has,
// with that call's share; ctx as it is when there is no hold.
func withAnswerShare(ctx context.Context) context.Context {
	h, _ := ctx.Value(answerHoldKey{}).(*answerHold)
	if h == nil {
		return ctx
	}
	return context.WithValue(ctx, answerShareKey{}, &answerShare{hold: h})
}

// answerShareOf is the share of a request to an upstream, nil for one made for no agent's call
// (a connect, a tools/list): those answers are the ToolServer's, not an agent's to inflate.
func answerShareOf(ctx context.Context) *answerShare {
	s, _ := ctx.Value(answerShareKey{}).(*answerShare)
	return s
}

// take makes the share at least n bytes of the budget, waiting for them until ctx ends. It does
// not wait while its request holds some of the budget already: another call's share (a batch,
// which the request answers together, so it would wait for itself), or its own, when an answer
// read grows as it is encoded (holdEncoded): two calls each holding part and waiting for more
// would wait for each other. The call fails instead. A waiter so holds none, and waiting cannot
// deadlock.
func (s *answerShare) take(ctx context.Context, n int64) error {
	h := s.hold
	if n > h.budget.size {
		return fmt.Errorf("an answer of up to %d bytes does not fit the gateway's budget of %d bytes for answers held at once", n, h.budget.size)
	}
	h.mu.Lock()
	need, holding := n-s.held, h.held > 0 || h.taking > 0
	if need > 0 {
		h.taking++
	}
	h.mu.Unlock()
	if need <= 0 {
		return nil
	}
	defer func() {
		h.mu.Lock()
		h.taking--
		h.mu.Unlock()
	}()
	if holding {
		if !h.budget.sem.TryAcquire(need) {
			return fmt.Errorf("%d more bytes of the gateway's budget of %d bytes for answers held at once are not free now, "+
				"and this request holds some of it already, so it cannot wait for them", need, h.budget.size)
		}
	} else if err := h.budget.sem.Acquire(ctx, need); err != nil {
		return fmt.Errorf("waiting for %d bytes of the gateway's budget for answers held at once: %w", need, err)
	}
	h.mu.Lock()
	if h.givenBack { // every holder is done: nothing would give it back
		h.mu.Unlock()
		h.budget.sem.Release(need)
		return nil
	}
	s.held += need
	h.held += need
	h.mu.Unlock()
	return nil
}

// trim gives back what the share holds over n, once an answer turned out smaller than its share.
func (s *answerShare) trim(n int64) {
	h := s.hold
	h.mu.Lock()
	over := max(s.held-n, 0)
	s.held -= over
	released := h.givenBack // given back already, with the rest of the hold
	if !released {
		h.held -= over
	}
	h.mu.Unlock()
	if over > 0 && !released {
		h.budget.sem.Release(over)
	}
}

func (h *answerHold) done() {
	h.mu.Lock()
	h.refs--
	last, held := h.refs == 0, h.held
	if last {
		h.held, h.givenBack = 0, true
	}
	h.mu.Unlock()
	if last && held > 0 {
		h.budget.sem.Release(held)
	}
}
