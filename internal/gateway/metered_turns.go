package gateway

import (
	"context"
	"fmt"
	"sync"
)

// maxMeteredWaiting bounds the calls of one plan that wait for its metered turn: the rest are
// refused at once rather than queued without end behind a slow upstream.
const maxMeteredWaiting = 64

// meteredTurns gives a plan's metered calls (a tool whose upstream states its cost, reportsCost,
// for a plan that names the gateway as its cost reporter) one turn at a time, from before the
// AgentToolCall is created until its cost is reported.
//
// Such a call reserves only its tool's costPerCall at admission; what it costs is counted when
// the upstream answers. Were an agent's concurrent metered calls admitted together, each would be
// judged before any of the others' stated costs, and together they could overspend the plan's
// budget by as many times the difference as the agent made calls at once. In turns, each is judged
// with every earlier one's cost counted, so the budget is exceeded by at most the last admitted
// call's stated cost less its reservation. The bound holds per gateway replica (docs/gateway.md).
type meteredTurns struct {
	mu     sync.Mutex
	byPlan map[string]*planTurn
}

type planTurn struct {
	token chan struct{} // holds one value while a call has the turn
	users int           // calls that have the turn or wait for it; the entry goes with the last
}

// wait takes plan key's turn, waiting for it until ctx ends; the caller runs the returned release.
func (m *meteredTurns) wait(ctx context.Context, key string) (release func(), err error) {
	m.mu.Lock()
	if m.byPlan == nil {
		m.byPlan = map[string]*planTurn{}
	}
	t := m.byPlan[key]
	if t == nil {
		t = &planTurn{token: make(chan struct{}, 1)}
		m.byPlan[key] = t
	}
	if t.users > maxMeteredWaiting { // one has the turn, and maxMeteredWaiting wait
		m.mu.Unlock()
		return nil, fmt.Errorf("%d metered calls of the plan are already waiting for the one in progress", maxMeteredWaiting)
	}
	t.users++
	m.mu.Unlock()
	leave := func() {
		m.mu.Lock()
		if t.users--; t.users == 0 {
			delete(m.byPlan, key)
		}
		m.mu.Unlock()
	}
	select {
	case t.token <- struct{}{}:
		return func() { <-t.token; leave() }, nil
	case <-ctx.Done():
		leave()
		return nil, context.Cause(ctx)
	}
}

// turn is one call's hold on its plan's metered turn; a nil turn is a call that needs none. It
// belongs to the goroutine of the call that took it, which ends it or hands it to holdWhile.
type turn struct {
	release func()
	once    sync.Once
	held    bool // by holdWhile, which releases it
}

// pass passes the turn on, once however often it is called.
func (t *turn) pass() { t.once.Do(t.release) }

// end passes the turn on, unless holdWhile holds it.
func (t *turn) end() {
	if t != nil && !t.held {
		t.pass()
	}
}

// holdWhile keeps the turn from end, and passes it on once work, run on a goroutine of its own,
// returns.
func (t *turn) holdWhile(work func()) {
	t.held = true
	go func() {
		defer t.pass()
		work()
	}()
}
