package v1alpha1

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/types"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// A report is counted when it is admitted, before the API server stores it; a store that then
// fails (an etcd error, a timeout) leaves the call as it was, and the reporter sends the same
// report again from the same stored call. Counted twice, the plan would be charged twice for one
// report. So each plan's counters remember, per call, the stored state (resourceVersion) a report
// was counted from and the cost it counted: a report from that same state counts only what it
// adds beyond that. A report from any other state is a new one: the last was stored.
//
// The memory is bounded: entries older than reportMemoTTL go first once a plan holds
// maxReportMemo, and the whole of it goes with the plan's counters (idlePlanTTL, a change of the
// replica that decides). A report sent again after that is counted again: the plan is charged
// more, never less.
const (
	maxReportMemo = 4096
	reportMemoTTL = 10 * time.Minute
)

// countedReport is what a report of one call was counted as: from the call's stored state
// (its resourceVersion) up to cost.
type countedReport struct {
	from string
	cost safety.Money
	at   time.Time
}

// submitReport counts a report moving call's cost from old's to after, for a call that reserved
// reserve, once per stored state of the call.
func (c *usageCommitter) submitReport(ctx context.Context, plan *safetyv1alpha1.AgentPlan, old *safetyv1alpha1.AgentToolCall,
	reserve, before, after safety.Money) error {
	_, err := c.submitWith(ctx, plan, func(p *planCounters) (outcome, error) {
		if plan.DeletionTimestamp != nil {
			return outcome{}, nil
		}
		if prev, ok := p.reports[old.UID]; ok && prev.from == old.ResourceVersion && prev.cost.Cmp(before) > 0 {
			before = prev.cost // counted already, from this same stored state: its store failed
		}
		p.u.Report(reserve, before, after)
		p.rememberReport(old.UID, countedReport{from: old.ResourceVersion, cost: maxMoney(before, after), at: c.nowFunc()})
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
	if _, ok := p.reports[call]; !ok && len(p.reports) >= maxReportMemo {
		for uid, e := range p.reports {
			if r.at.Sub(e.at) > reportMemoTTL {
				delete(p.reports, uid)
			}
		}
		for uid := range p.reports {
			if len(p.reports) < maxReportMemo {
				break
			}
			delete(p.reports, uid)
		}
	}
	p.reports[call] = r
}

func maxMoney(a, b safety.Money) safety.Money {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}
