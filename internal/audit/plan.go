package audit

import (
	"context"
	"maps"

	"github.com/toolgate/toolgate/internal/ledger"
)

// KindPlan is the kind of the records of AgentPlan creations and re-lock requests: who asked for
// which plan, and whether it was accepted.
const KindPlan = "plan"

// Field names of plan records that other kinds' records use too.
const (
	fieldDecision  = "decision"
	fieldRequester = "requester"
	fieldReason    = "reason"
)

// Plan operations.
const (
	PlanCreate = "create"
	PlanRelock = "relock"
)

// Plan is what the AgentPlan webhook records for every plan creation and re-lock request it
// answers, accepted or refused.
type Plan struct {
	Decision  string // allow or deny
	Reason    string // why it was refused; empty when allowed
	Operation string // create or relock
	Namespace string
	Name      string
	UID       string
	// ServiceAccount is the agent the plan is for; Pod the pod it is bound to, if any.
	ServiceAccount string
	Pod            string
	// Profile is the plan's own profile reference ("Kind/name"), empty when it names none.
	Profile               string
	Action                string
	ReadOnly              bool
	ActiveDeadlineSeconds int64
	RelockToken           string // the relock annotation's value ("relock": a key named token would be redacted)
	Requester             string
}

// PlanLog makes plan records durable; the webhook answers only after it returns.
type PlanLog interface {
	RecordPlan(ctx context.Context, p Plan) error
}

// RecordPlan appends one plan record, after a loss record if earlier records failed.
func (l *Log) RecordPlan(ctx context.Context, p Plan) error {
	fields := map[string]any{
		fieldDecision: p.Decision, fieldReason: p.Reason, "operation": p.Operation, fieldNamespace: p.Namespace,
		fieldPlan: p.Name, "uid": p.UID, "serviceAccount": p.ServiceAccount, "pod": p.Pod, "profile": p.Profile,
		"action": p.Action, "readOnly": p.ReadOnly, "activeDeadlineSeconds": p.ActiveDeadlineSeconds,
		"relock": p.RelockToken, fieldRequester: p.Requester,
	}
	return l.append(ctx, ledger.Record{Kind: KindPlan, Fields: fields}, identMap(maps.Clone(fields)))
}
