package gateway

import (
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// DefaultMaxCallsPerCaller bounds the tools/calls one caller (a ServiceAccount) has in flight
// through one gateway replica. An admitted call runs to its answer even when its agent hangs up
// (forward says why), so without a bound an agent could open requests and drop them, each one
// holding an upstream call, a session's share and memory until its upstream answers or times out.
const DefaultMaxCallsPerCaller = 64

// CodeTooManyCalls is the JSON-RPC error code of a call refused because its caller has
// MaxCallsPerCaller calls in flight: a server error of the implementation-defined range.
const CodeTooManyCalls = -32029

// callsInFlight counts each caller's calls in flight (or, for bodiesArriving, its requests whose
// body is still arriving); a caller with none has no entry.
type callsInFlight struct {
	limit int
	// refusal is the error of a caller that has limit already.
	refusal func(caller string, limit int) error
	mu      sync.Mutex
	by      map[string]int
}

func newCallsInFlight(limit int) *callsInFlight {
	return &callsInFlight{limit: limit, by: map[string]int{}, refusal: func(caller string, limit int) error {
		return &jsonrpc.Error{Code: CodeTooManyCalls, Message: fmt.Sprintf(
			"%s has %d calls in flight through this gateway, its limit: call again once one has been answered",
			caller, limit)}
	}}
}

// acquire takes one of caller's slots, or refuses the call when all are taken; release gives it
// back, once.
func (c *callsInFlight) acquire(caller string) (release func(), err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.by[caller] >= c.limit {
		return nil, c.refusal(caller, c.limit)
	}
	c.by[caller]++
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.by[caller]--; c.by[caller] == 0 {
				delete(c.by, caller)
			}
		})
	}, nil
}
