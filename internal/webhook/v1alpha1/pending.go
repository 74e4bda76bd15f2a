package v1alpha1

import (
	"hash/fnv"
	"sync"
	"time"
)

// pendingTTL bounds how long an admitted call is counted before the cache shows it. A call whose
// create failed after admission is over-counted for at most this long: the safe direction.
const pendingTTL = 30 * time.Second

// pendingCalls remembers calls this process admitted that the informer cache may not show yet, so
// a burst of submissions for one step cannot slip past the retry limit while the cache catches up.
// Admissions of one plan hold its lock from counting to recording, so concurrent submissions are
// counted in turn. Plans are striped over planLocks, so a slow admission (one that reads and uses
// a ToolApproval from the API server) holds up only calls of plans that share its stripe, never the
// whole replica.
type pendingCalls struct {
	mu    sync.Mutex                      // guards calls
	calls map[string]map[string]time.Time // plan/step -> call name -> admitted at
	plans [planLocks]sync.Mutex
}

// planLocks is the number of stripes plans' admissions are serialised on.
const planLocks = 256

// lockPlan serialises the admissions of one plan and returns the unlock.
func (p *pendingCalls) lockPlan(namespace, plan string) (unlock func()) {
	h := fnv.New32a()
	_, _ = h.Write([]byte(namespace + "/" + plan))
	m := &p.plans[h.Sum32()%planLocks]
	m.Lock()
	return m.Unlock
}

func newPendingCalls() *pendingCalls {
	return &pendingCalls{calls: map[string]map[string]time.Time{}}
}

// count returns how many admitted calls for key the cache does not show yet, forgetting those it
// shows and those older than pendingTTL. The caller holds the plan's lock.
func (p *pendingCalls) count(key string, inCache func(name string) bool, now time.Time) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	for name, at := range p.calls[key] {
		if inCache(name) || now.Sub(at) > pendingTTL {
			delete(p.calls[key], name)
		}
	}
	if len(p.calls[key]) == 0 {
		delete(p.calls, key)
	}
	return len(p.calls[key])
}

// add records an admitted call. The caller holds the plan's lock.
func (p *pendingCalls) add(key, name string, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.calls[key] == nil {
		p.calls[key] = map[string]time.Time{}
	}
	p.calls[key][name] = now
}
