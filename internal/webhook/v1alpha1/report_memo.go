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

// submitReport counts a report moving call's cost from before, old's, to after, for a call that
// reserved reserve (or what its hold recorded it reserved, heldCalls.reserveOf), once for each
// stored cost of the call. A plan being deleted still counts it
// until it is sealed (submitWith then refuses, errPlanSealed): its spend is settled only after the
// seal, and the report's release of the call's hold must not take the call's cost out of it.
func (c *usageCommitter) submitReport(ctx context.Context, plan *safetyv1alpha1.AgentPlan, old *safetyv1alpha1.AgentToolCall,
	reserve, before, after safety.Money) error {
	_, err := c.submitWith(ctx, plan, func(p *planCounters) (outcome, error) {
		from := before
		p.held.noteReported(old.UID, after)
		if admitted, ok := p.held.reserveOf(old.UID); ok {
			reserve = admitted // what its admission reserved, whatever the plan pins now
		}
		if charged, ok := p.held.chargedFor(old.UID); ok {
			reserve = reserve.SaturatingAdd(charged) // charged its ceiling when its hold ended unreported
		}
		if prev, ok := p.reports[old.UID]; ok && prev.from.Cmp(before) == 0 {
			before = maxMoney(before, prev.cost) // counted already from this stored cost, and never stored
		}
		p.u.Report(reserve, before, after)
		p.rememberReport(old.UID, countedReport{from: from, cost: maxMoney(before, after), at: c.nowFunc()})
		return outcome{}, nil
	})
	return err
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
