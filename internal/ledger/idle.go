package ledger

import (
	"errors"
	"fmt"
	"time"
)

// IdleResult is what MaintainIdle did to one idle writer's chain.
type IdleResult struct {
	Writer string
	MaintainResult
	// Err is why this chain could not be maintained (it is left as it was found, or as far as
	// maintenance got). A chain another journal holds is not idle and gets no result.
	Err error
}

// MaintainIdle maintains the chains of the other writers under the ledger's root that no journal
// holds: the chains of replaced pods, which no process maintains otherwise, since a journal
// seals, compresses and retains its own chain only. Each is opened with j's settings (rotation,
// compression, retention, signing key, clock) and its own writer name, which takes the chain's
// lock, so it is never maintained while its writer (or another maintainer) holds it: a live
// writer is skipped, and two replicas maintaining at once each get the chains the other does
// not hold. An idle chain's live segment is sealed if it holds records (no writer will seal it),
// and then retention and compression apply as for j's own chain: retention records in the chain
// excuse what is deleted, so it still verifies. The lock is held only while one chain is
// maintained; a writer reopening its chain meanwhile gets ErrWriterInUse and should retry.
func (j *Journal) MaintainIdle(now time.Time) ([]IdleResult, error) {
	j.maintMu.Lock()
	cfg := j.cfg
	closed := j.isClosed()
	j.maintMu.Unlock()
	if closed {
		return nil, ErrClosed
	}
	cfg.ObserveCommit = nil // the metrics describe the decision path, not maintenance
	chains, err := chainDirs(cfg.Dir)
	if errors.Is(err, errNoChains) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []IdleResult
	for _, c := range chains {
		if c.writer == cfg.Writer || c.dir == cfg.Dir {
			continue
		}
		idle := cfg
		idle.Writer = c.writer
		res, err := maintainIdle(idle, now)
		if errors.Is(err, ErrWriterInUse) {
			continue
		}
		out = append(out, IdleResult{Writer: c.writer, MaintainResult: res, Err: err})
	}
	return out, nil
}

// maintainIdle opens an idle writer's chain, seals its live segment, maintains it and closes it.
func maintainIdle(cfg Config, now time.Time) (res MaintainResult, err error) {
	o, err := Open(cfg)
	if err != nil {
		return res, err
	}
	defer func() {
		if cerr := o.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("ledger: closing idle writer %s: %w", cfg.Writer, cerr)
		}
	}()
	o.idle = true
	return o.Maintain(now)
}
