package audit

import (
	"bytes"
	"context"
	"encoding/json"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// Decision is what the webhook records for every admission it answers: enough to say what the
// call asked for, on which facts it was decided and by which rule, and to decide it again
// (internal/replay) after the AgentToolCall itself is gone.
type Decision struct {
	Decision  string // allow, deny, would_deny
	Reason    string
	Message   string
	Mode      string
	Namespace string
	Plan      string
	Call      string
	Tool      string
	Step      string
	Requester string
	// RequesterPod is the pod of the denial's flood window (DeniedCall.Pod): the pod the
	// requester's token is bound to when a plan holds that pod, else empty. Not recorded (the
	// record's requester is the ServiceAccount), it matches the record to its flood window.
	RequesterPod string
	SnapshotHash string
	// Approval names the ToolApproval that admitted the call ("namespace/name"), if one did.
	Approval string
	// RuleID names the rule that decided (safety.Decision.RuleID, e.g. "path-policy:zeroAccess");
	// empty when every check passed or the request was refused before the engine ran.
	RuleID string
	// Class is the action class the engine assigned; empty when the engine did not run.
	Class string
	// Request is the call as the agent sent it; nil when it could not be decoded.
	Request *CallRequest
	// AgentTool is the tool as the plan pinned it; nil when no registered tool was found.
	AgentTool *ToolPin
	// Facts are the trusted facts the engine decided on; nil when it did not run.
	Facts *Facts
}

// CallRequest is what the agent asked for. The record holds the arguments after redaction (key
// names and credential-shaped values) and truncation; ArgumentsDigest is taken over the full
// arguments first, so a reader can tell a recorded argument list from a cut or redacted one.
type CallRequest struct {
	UID       string
	Arguments safetyv1alpha1.ToolArguments
	SandboxID string
}

// ToolPin is the AgentTool a decision used: its identity and the capabilities the engine saw.
type ToolPin struct {
	UID            string `json:"uid"`
	Generation     int64  `json:"generation"`
	Writes         bool   `json:"writes"`
	Unsafe         bool   `json:"unsafe"`
	Checkpointable bool   `json:"checkpointable"`
	ActionClass    string `json:"actionClass"`
	SkillCategory  string `json:"skillCategory"`
}

// Facts are the facts the engine used besides the arguments, as the cluster supplied them.
type Facts struct {
	AccumulatedCost    safety.Money `json:"accumulatedCost"`
	TotalCost          safety.Money `json:"totalCost"`
	HeldCost           safety.Money `json:"heldCost"`
	EarlierAttempts    int32        `json:"earlierAttempts"`
	Repeats            int          `json:"repeats"`
	HumanApproved      bool         `json:"humanApproved"`
	ReadOnlyPlan       bool         `json:"readOnlyPlan"`
	RequireCheckpoints bool         `json:"requireCheckpoints"`
}

// DecisionFields is a decision record's fields as read back (internal/replay): the same names
// RecordDecision writes.
type DecisionFields struct {
	Decision        string                        `json:"decision"`
	Reason          string                        `json:"reason"`
	Mode            string                        `json:"mode"`
	Namespace       string                        `json:"namespace"`
	Plan            string                        `json:"plan"`
	Call            string                        `json:"call"`
	UID             string                        `json:"uid"`
	Tool            string                        `json:"tool"`
	Step            string                        `json:"step"`
	Requester       string                        `json:"requester"`
	SnapshotHash    string                        `json:"snapshotHash"`
	Approval        string                        `json:"approval"`
	RuleID          string                        `json:"ruleId"`
	Class           string                        `json:"class"`
	Arguments       *safetyv1alpha1.ToolArguments `json:"arguments"`
	ArgumentsDigest string                        `json:"argumentsDigest"`
	SandboxID       string                        `json:"sandboxId"`
	AgentTool       *ToolPin                      `json:"agentTool"`
	Facts           *Facts                        `json:"facts"`
}

// RequestOf is the request part of a decision record for call.
func RequestOf(call *safetyv1alpha1.AgentToolCall) *CallRequest {
	return &CallRequest{UID: string(call.UID), Arguments: call.Spec.Arguments, SandboxID: call.Spec.SandboxID}
}

// PinOf is the tool part of a decision record: tool (already the plan's view of it, see
// policy.ToolAsPinned) with the UID and generation the plan pinned, or the live ones when the
// plan has not pinned the tool yet (this call pins them).
func PinOf(plan *safetyv1alpha1.AgentPlan, tool *safetyv1alpha1.AgentTool) *ToolPin {
	uid, gen := string(tool.UID), tool.Generation
	if pin := policy.PinnedTool(plan, tool.Name); pin != nil && pin.UID != "" {
		uid, gen = pin.UID, pin.Generation
	}
	return &ToolPin{UID: uid, Generation: gen, Writes: tool.Spec.Writes, Unsafe: tool.Spec.Unsafe,
		Checkpointable: tool.Spec.Checkpointable, ActionClass: string(tool.Spec.ActionClass), SkillCategory: tool.Spec.SkillCategory}
}

// FactsOf is the facts part of a decision record: the engine's input c, as decided (approved
// says a person's approval was applied).
func FactsOf(c safety.Call, approved bool) *Facts {
	return &Facts{AccumulatedCost: c.Context.AccumulatedCost, TotalCost: c.Context.TotalCost, HeldCost: c.Context.HeldCost,
		EarlierAttempts: c.Context.StepRetryCount, Repeats: c.Context.Repeats, HumanApproved: approved || c.Context.HumanApproved,
		ReadOnlyPlan: c.Context.ReadOnlyPlan, RequireCheckpoints: c.Context.RequireCheckpoints}
}

// Field names of decision records that internal/replay reads back.
const (
	FieldUID             = "uid"
	FieldRuleID          = "ruleId"
	FieldArguments       = "arguments"
	FieldArgumentsDigest = "argumentsDigest"
	FieldSandboxID       = "sandboxId"
	FieldAgentTool       = "agentTool"
	FieldFacts           = "facts"
)

// RecordDecision appends one decision record, after a loss record if earlier records failed. On
// error the decision is in the loss account (see Log).
func (l *Log) RecordDecision(ctx context.Context, d Decision) error {
	rec := newDecisionRecord(d)
	receipt, err := l.appendReceipt(ctx, ledger.Record{Kind: KindDecision, Fixed: rec}, rec)
	if f := l.flood.Load(); f != nil && d.Decision == decisionDeny {
		f.charge(d.Namespace, d.Requester, d.RequesterPod, d.Call, receipt.Bytes) // 0 bytes if it failed: the reservation goes
	}
	return err
}

// decisionDeny is the decision flood control limits.
const decisionDeny = "deny"

// decisionRecord is a decision record's content. It writes itself (WriteFields): a decision is
// the record the webhook writes for every call, and building its maps for the journal to sort
// and walk was a third of the record's CPU (docs/benchmarks-ledger.md). Fields is the same
// content as maps, the definition WriteFields is held to (TestDecisionWritesItsFieldsMap,
// FuzzDecisionWritesItsFieldsMap) and what the journal encodes when the writer gives up.
type decisionRecord struct {
	d      Decision
	digest string // policy.ArgumentsDigest of the request's arguments; empty without a request
	extra  any    // the request's extra arguments as JSON values (extraValue)
}

func newDecisionRecord(d Decision) *decisionRecord {
	rec := &decisionRecord{d: d}
	if r := d.Request; r != nil {
		rec.digest = policy.ArgumentsDigest(r.Arguments)
		rec.extra = extraValue(r.Arguments)
	}
	return rec
}

// ident names the decision in a loss entry by these fields only (no message, arguments or
// facts), so the account stays small however large the calls were.
func (rec *decisionRecord) ident() map[string]any {
	d := rec.d
	ident := map[string]any{
		fieldDecision: d.Decision, fieldReason: d.Reason, "mode": d.Mode,
		fieldNamespace: d.Namespace, fieldPlan: d.Plan, fieldCall: d.Call, fieldTool: d.Tool, fieldStep: d.Step,
		fieldRequester: d.Requester,
	}
	if d.Approval != "" {
		ident["approval"] = d.Approval
	}
	if d.Request != nil {
		ident[FieldUID] = d.Request.UID
	}
	return ident
}

// Fields is the record's content: the identifying fields plus everything else.
func (rec *decisionRecord) Fields() map[string]any {
	d := rec.d
	f := rec.ident()
	f["message"], f["snapshotHash"] = d.Message, d.SnapshotHash
	if d.RuleID != "" {
		f[FieldRuleID] = d.RuleID
	}
	if d.Class != "" {
		f["class"] = d.Class
	}
	// Plain maps, not the structs above: the journal encodes plain values without an
	// encoding/json round trip. DecisionFields reads them back; TestDecisionRecordReadsBack holds
	// the two to the same names.
	if r := d.Request; r != nil {
		args := make(map[string]any, 4) // command, paths, cwd, projectDir: redacted and truncated by the journal
		if a := r.Arguments; a.Command != "" {
			args["command"] = a.Command
		}
		if len(r.Arguments.Paths) > 0 {
			args["paths"] = r.Arguments.Paths
		}
		if r.Arguments.Cwd != "" {
			args["cwd"] = r.Arguments.Cwd
		}
		if r.Arguments.ProjectDir != "" {
			args["projectDir"] = r.Arguments.ProjectDir
		}
		if rec.extra != nil {
			args["extra"] = rec.extra
		}
		f[FieldArguments] = args
		f[FieldArgumentsDigest] = rec.digest
		if r.SandboxID != "" {
			f[FieldSandboxID] = r.SandboxID
		}
	}
	if t := d.AgentTool; t != nil {
		f[FieldAgentTool] = map[string]any{FieldUID: t.UID, "generation": t.Generation, "writes": t.Writes, "unsafe": t.Unsafe,
			"checkpointable": t.Checkpointable, "actionClass": t.ActionClass, "skillCategory": t.SkillCategory}
	}
	if x := d.Facts; x != nil {
		facts := map[string]any{"accumulatedCost": x.AccumulatedCost.String(), "totalCost": x.TotalCost.String(),
			"earlierAttempts": x.EarlierAttempts, "repeats": x.Repeats, "humanApproved": x.HumanApproved,
			"readOnlyPlan": x.ReadOnlyPlan, "requireCheckpoints": x.RequireCheckpoints}
		if !x.HeldCost.IsZero() { // absent when nothing is held, as in records written before holds
			facts["heldCost"] = x.HeldCost.String()
		}
		f[FieldFacts] = facts
	}
	return f
}

// WriteFields writes what Fields holds, keys in byte order at every level.
func (rec *decisionRecord) WriteFields(w *ledger.FieldWriter) {
	d := rec.d
	if t := d.AgentTool; t != nil {
		w.Object(FieldAgentTool)
		w.String("actionClass", t.ActionClass)
		w.Bool("checkpointable", t.Checkpointable)
		w.Int("generation", t.Generation)
		w.String("skillCategory", t.SkillCategory)
		w.String(FieldUID, t.UID)
		w.Bool("unsafe", t.Unsafe)
		w.Bool("writes", t.Writes)
		w.End()
	}
	if d.Approval != "" {
		w.String("approval", d.Approval)
	}
	r := d.Request
	if r != nil {
		a := &r.Arguments
		w.Object(FieldArguments)
		if a.Command != "" {
			w.String("command", a.Command)
		}
		if a.Cwd != "" {
			w.String("cwd", a.Cwd)
		}
		if rec.extra != nil {
			w.Value("extra", rec.extra)
		}
		if len(a.Paths) > 0 {
			w.Strings("paths", a.Paths)
		}
		if a.ProjectDir != "" {
			w.String("projectDir", a.ProjectDir)
		}
		w.End()
		w.String(FieldArgumentsDigest, rec.digest)
	}
	w.String(fieldCall, d.Call)
	if d.Class != "" {
		w.String("class", d.Class)
	}
	w.String(fieldDecision, d.Decision)
	if x := d.Facts; x != nil {
		w.Object(FieldFacts)
		w.String("accumulatedCost", x.AccumulatedCost.String())
		w.Int("earlierAttempts", int64(x.EarlierAttempts))
		if !x.HeldCost.IsZero() {
			w.String("heldCost", x.HeldCost.String())
		}
		w.Bool("humanApproved", x.HumanApproved)
		w.Bool("readOnlyPlan", x.ReadOnlyPlan)
		w.Int("repeats", int64(x.Repeats))
		w.Bool("requireCheckpoints", x.RequireCheckpoints)
		w.String("totalCost", x.TotalCost.String())
		w.End()
	}
	w.String("message", d.Message)
	w.String("mode", d.Mode)
	w.String(fieldNamespace, d.Namespace)
	w.String(fieldPlan, d.Plan)
	w.String(fieldReason, d.Reason)
	w.String(fieldRequester, d.Requester)
	if d.RuleID != "" {
		w.String(FieldRuleID, d.RuleID)
	}
	if r != nil && r.SandboxID != "" {
		w.String(FieldSandboxID, r.SandboxID)
	}
	w.String("snapshotHash", d.SnapshotHash)
	w.String(fieldStep, d.Step)
	w.String(fieldTool, d.Tool)
	if r != nil {
		w.String(FieldUID, r.UID)
	}
}

// extraValue is a call's extra arguments as a JSON value the journal can redact key by key and
// value by value, numbers kept as written (json.Number) so the record's arguments still hash to
// argumentsDigest; nil when there are none or they are not JSON (the webhook refused those).
func extraValue(a safetyv1alpha1.ToolArguments) any {
	if a.Extra == nil || len(a.Extra.Raw) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(a.Extra.Raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}
