package v1alpha1

import (
	"sync"
	"time"
)

// pendingTTL bounds how long an admitted call is counted before the cache shows it. A call whose
// create failed after admission is over-counted for at most this long: the safe direction.
const pendingTTL = 30 * time.Second

// pendingCalls remembers calls this process admitted that the informer cache may not show yet, so
// a burst of submissions for one step cannot slip past the retry limit while the cache catches up.
// Admit holds the lock from counting to recording, so concurrent submissions are counted in turn;
// Evaluate takes microseconds, so one lock costs nothing measurable.
type pendingCalls struct {
	sync.Mutex
	calls map[string]map[string]time.Time // plan/step -> call name -> admitted at
}

func newPendingCalls() *pendingCalls {
	return &pendingCalls{calls: map[string]map[string]time.Time{}}
}

// count returns how many admitted calls for key the cache does not show yet, forgetting those it
// shows and those older than pendingTTL. The caller holds the lock.
func (p *pendingCalls) count(key string, inCache func(name string) bool, now time.Time) int {
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

// add records an admitted call. The caller holds the lock.
func (p *pendingCalls) add(key, name string, now time.Time) {
	if p.calls[key] == nil {
		p.calls[key] = map[string]time.Time{}
	}
	p.calls[key][name] = now
}
