package v1alpha1

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/types"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// A report is counted when it is admitted, before the API server stores it. A store that then
// fails (an etcd error, a timeout) leaves the call as it was, and the reporter sends the same
// report again; a store that finds the call changed meanwhile (the agent reporting its phase)
// asks the webhook again itself, with the changed call as the old one. Counted each time, the
// plan would be charged twice for one report. So each plan's counters remember, per call, the
// stored cost a report was counted from and the cost it counted. The stored cost only grows, and
// a counted report raises it: a report from the same stored cost finds the last one never
// stored, and counts only what it adds beyond it. A report from any other stored cost is a new
// one.
//
// The memory is bounded: entries older than reportMemoTTL go first once a plan holds
// maxReportMemo, and the whole of it goes with the plan's counters (idlePlanTTL, a change of the
// replica that decides). A report sent again after that is counted again: the plan is charged
// more, never less.
const (
	maxReportMemo = 4096
	reportMemoTTL = 10 * time.Minute
)

// countedReport is what a report of one call was counted as: from the call's stored cost up to
// cost.
type countedReport struct {
	from, cost safety.Money
	at         time.Time
}

// costReport is a report moving a call's cost from before, its stored cost, to after, for a call
// that reserved reserve when it was admitted (or what its hold recorded it reserved).
type costReport struct{ reserve, before, after safety.Money }

// settle counts report of call (nil: none) and, with release, ends what call held
// (heldCalls.release: what its admission made it hold, whatever the plan pins now, which after a
// re-lock may hold another amount or nothing), in one decision of the plan's counters: a decision refused for a re-lock
// (errSnapshotReplaced) is then refused before it counted anything, so the report made again
// with the plan read live is counted once, memo or not. A report is counted once for each stored
// cost of the call (the memo above). A plan being deleted still counts it until it is sealed
// (submitWith then refuses, errPlanSealed): its spend is settled only after the seal, and the
// report's release of the call's hold must not take the call's cost out of it.
func (c *usageCommitter) settle(ctx context.Context, plan *safetyv1alpha1.AgentPlan, call types.UID, report *costReport, release bool) error {
	_, err := c.submitWith(ctx, plan, func(p *planCounters) (outcome, error) {
		if report != nil {
			c.countReport(p, call, *report)
		}
		if release && p.held.release(call) {
			c.totals.observeHeld(plan, p.held.held())
		}
		return outcome{}, nil
	})
	return err
}

// countReport counts r, a report of call, in p. p.mu is held.
func (c *usageCommitter) countReport(p *planCounters, call types.UID, r costReport) {
	from, before, reserve := r.before, r.before, r.reserve
	p.held.noteReported(call, r.after)
	if admitted, ok := p.held.reserveOf(call); ok {
		reserve = admitted // what its admission reserved, whatever the plan pins now
	}
	if charged, ok := p.held.chargedFor(call); ok {
		reserve = reserve.SaturatingAdd(charged) // charged its ceiling when its hold ended unreported
	}
	if prev, ok := p.reports[call]; ok && prev.from.Cmp(before) == 0 {
		before = maxMoney(before, prev.cost) // counted already from this stored cost, and never stored
	}
	p.u.Report(reserve, before, r.after)
	p.rememberReport(call, countedReport{from: from, cost: maxMoney(before, r.after), at: c.nowFunc()})
}

// rememberReport records what a call's report was counted as, making room first if the plan
// holds maxReportMemo: the entries older than reportMemoTTL, else any. p.mu is held.
func (p *planCounters) rememberReport(call types.UID, r countedReport) {
	if p.reports == nil {
		p.reports = map[types.UID]countedReport{}
	}
	if _, ok := p.reports[call]; !ok {
		makeRoom(p.reports, maxReportMemo, r.at.Add(-reportMemoTTL), func(e countedReport) time.Time { return e.at })
	}
	p.reports[call] = r
}

// makeRoom makes room for one more entry in memo once it holds limit: the entries from before
// stale go first, then any.
func makeRoom[V any](memo map[types.UID]V, limit int, stale time.Time, at func(V) time.Time) {
	if len(memo) < limit {
		return
	}
	for uid, e := range memo {
		if at(e).Before(stale) {
			delete(memo, uid)
		}
	}
	for uid := range memo {
		if len(memo) < limit {
			return
		}
		delete(memo, uid)
	}
}

func maxMoney(a, b safety.Money) safety.Money {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}
