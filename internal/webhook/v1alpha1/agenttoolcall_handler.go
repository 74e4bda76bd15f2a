package v1alpha1

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
	kjson "sigs.k8s.io/json"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/metrics"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/internal/tracing"
)

// +kubebuilder:webhook:path=/validate-safety-toolgate-dev-v1alpha1-agenttoolcall,mutating=false,failurePolicy=fail,sideEffects=NoneOnDryRun,groups=safety.toolgate.dev,resources=agenttoolcalls;agenttoolcalls/status,verbs=create;update,versions=v1alpha1,name=vagenttoolcall-v1alpha1.toolgate.dev,admissionReviewVersions=v1,timeoutSeconds=5

// DecisionLog makes a decision durable; the webhook answers only after it returns.
type DecisionLog interface {
	RecordDecision(ctx context.Context, d audit.Decision) error
}

// AgentToolCallHandler is the gate: it admits or denies every AgentToolCall with a typed reason.
// It is a raw handler because it needs the request's identity and dry-run flag. Every fact that
// decides a check comes from the cluster, never from the call.
type AgentToolCallHandler struct {
	Reader  client.Reader
	Decoder admission.Decoder
	Clock   clock.PassiveClock
	// Ledger records every decision before the answer; nil records nothing.
	Ledger DecisionLog
	// Flood refuses denied calls beyond the AuditLedger's rate, RateLimited; nil refuses none.
	Flood *audit.FloodControl
	// denials counts denied calls into their plans' status; nil counts nothing.
	denials *denialCounter
	// approvals admits calls a person approved; nil admits none, so approval stays required.
	approvals *approvalGate
	// Live reads from the API server what the cache does not show yet; nil trusts the cache.
	Live client.Reader
	// Operator is the username the operator's controllers act as; only it may remove a call's usage
	// finalizer or write its completion annotation. Empty leaves those to RBAC.
	Operator string

	// pins pins tools' capabilities into plans at first use; nil reads them live from the registry.
	pins *toolPinner

	policies *policy.SnapshotCache
	loops    *safety.LoopDetector
	// usage decides against each plan's counters in memory and stores them behind the answers.
	usage *usageCommitter
	// totals is each namespace's spend, for maxTotalCost.
	totals *projectTotals
}

// NewAgentToolCallHandler returns a handler reading facts through c's reads and counting usage
// through its status writes (SetupWithManager gives it the manager's cache and client).
func NewAgentToolCallHandler(c client.Client, decoder admission.Decoder, clk clock.PassiveClock) *AgentToolCallHandler {
	totals := newProjectTotals(c)
	return &AgentToolCallHandler{
		Reader: c, Decoder: decoder, Clock: clk,
		policies: policy.NewSnapshotCache(), loops: safety.NewLoopDetector(clk, 0),
		totals: totals, usage: newUsageCommitter(c, c, totals, clk.Now),
	}
}

// outcome is a decision before it is recorded and answered.
type outcome struct {
	resp     admission.Response
	decision string // allow, deny, would_deny
	reason   string
	mode     string
	message  string
	snapshot string
	approval string // the ToolApproval used, namespace/name
	// What the record says the decision rested on (audit.Decision): nil/empty before the engine ran.
	rule  string
	class string
	tool  *audit.ToolPin
	facts *audit.Facts
	// plansAgent says the requester passed the identity checks (integrity): it is the plan's own
	// agent, so a denial counts against the plan. Set once and kept through finish's rewrites
	// (flood, ledger), so a stranger never moves the plan's counters whatever becomes of its answer.
	plansAgent bool
}

// Handle answers one admission request.
func (h *AgentToolCallHandler) Handle(ctx context.Context, req admission.Request) admission.Response {
	ctx = tracing.WithStart(ctx, time.Now()) // the decision span covers the decoding too
	call := &safetyv1alpha1.AgentToolCall{}
	if err := decodeCall(req.Object, call); err != nil {
		return h.finish(ctx, req, call, deny(denial{ReasonBadRequest, "", "cannot decode the AgentToolCall: " + err.Error()}))
	}
	var old *safetyv1alpha1.AgentToolCall
	if req.Operation == admissionv1.Update {
		old = &safetyv1alpha1.AgentToolCall{}
		if err := decodeCall(req.OldObject, old); err != nil {
			return h.finish(ctx, req, call, deny(denial{ReasonBadRequest, "", "cannot decode the old AgentToolCall: " + err.Error()}))
		}
	}
	return h.handleDecoded(ctx, req, call, old)
}

// handleDecoded answers a request whose call (and, for an update, old call) is decoded already:
// by Handle from the request's raw objects, or by callReviewServer in the review's one pass.
func (h *AgentToolCallHandler) handleDecoded(ctx context.Context, req admission.Request, call, old *safetyv1alpha1.AgentToolCall) admission.Response {
	ctx = tracing.WithStart(ctx, time.Now())
	start := h.Clock.Now()
	defer func() { metrics.HandlingSeconds.Observe(h.Clock.Since(start).Seconds()) }()
	switch req.Operation {
	case admissionv1.Update:
		return h.update(ctx, req, old, call)
	case admissionv1.Create:
		out, err := h.decide(ctx, req, call)
		if err != nil {
			return admission.Errored(http.StatusInternalServerError, err)
		}
		return h.finish(ctx, req, call, out)
	}
	return admission.Allowed("")
}

// decide runs request integrity, then the engine against the plan's locked snapshot. A decision
// refused for a plan read before a re-lock the counters know of (errSnapshotReplaced) is made
// once more: the plan is then read live (behind), and the call judged by the snapshot that
// replaced it.
func (h *AgentToolCallHandler) decide(ctx context.Context, req admission.Request, call *safetyv1alpha1.AgentToolCall) (outcome, error) {
	return againIfRelocked(func() (outcome, error) { return h.decideOnce(ctx, req, call) })
}

// againIfRelocked runs attempt, and once more when it was refused for a plan read before a
// re-lock the counters know of (errSnapshotReplaced); the next reads the plan live (behind). A
// decision and a cost report are retried by this one rule. The refused attempt changed nothing:
// the counters refuse before a decision runs, and what a decision or a report counts (the loop
// detector's occurrence, the report's cost and its hold's release) is counted in that one run.
func againIfRelocked[T any](attempt func() (T, error)) (T, error) {
	out, err := attempt()
	if errors.Is(err, errSnapshotReplaced) {
		out, err = attempt()
	}
	return out, err
}

// decideOnce is one attempt of decide.
func (h *AgentToolCallHandler) decideOnce(ctx context.Context, req admission.Request, call *safetyv1alpha1.AgentToolCall) (outcome, error) {
	plan, tool, d, err := h.integrity(ctx, req, call)
	if err != nil {
		return outcome{}, err
	}
	if d != nil {
		out := deny(d.denial)
		out.plansAgent = d.plansAgent
		return out, nil
	}
	out, err := h.decideFor(ctx, req, call, plan, tool)
	out.plansAgent = true
	return out, err
}

// decideFor decides a call of the plan's own agent: the arguments, then the engine against the
// plan's locked snapshot and its counters.
func (h *AgentToolCallHandler) decideFor(ctx context.Context, req admission.Request, call *safetyv1alpha1.AgentToolCall,
	plan *safetyv1alpha1.AgentPlan, tool *safetyv1alpha1.AgentTool) (outcome, error) {
	in, err := policy.ArgumentRuleInput(call)
	if err != nil {
		return deny(denial{ReasonBadRequest, policy.FieldExtra, err.Error()}), nil
	}
	snap := plan.Status.Snapshot
	compiled, err := h.policies.Get(snap)
	if err != nil {
		return deny(denial{ReasonPlanNotLocked, fieldPlan, fmt.Sprintf("the locked snapshot of plan %s does not compile: %v", plan.Name, err)}), nil
	}
	return h.admitCreate(ctx, req, call, plan, tool, compiled.Engine, argumentCheck{compiled.Args, in})
}

// trace emits the decision's span (tracing.Record), from the request's arrival to now.
func (h *AgentToolCallHandler) trace(ctx context.Context, req admission.Request, call *safetyv1alpha1.AgentToolCall, out outcome) {
	tracing.Record(ctx, tracing.Decision{
		Namespace: req.Namespace, Plan: call.Spec.Plan, Call: call.Name, CallUID: string(call.UID), Tool: call.Spec.Tool,
		Step: call.Spec.Step, Decision: out.decision, Reason: out.reason, Mode: out.mode, Snapshot: out.snapshot,
		Rule: out.rule, Traceparent: call.Annotations[tracing.TraceparentAnnotation],
	})
}

// finish records the decision in the ledger, durably, and then answers. A dry run records
// nothing. When the record cannot be made durable, the AuditLedger's failurePolicy decides: Fail
// (the default) denies LedgerUnavailable, Ignore answers as decided and counts the loss.
func (h *AgentToolCallHandler) finish(ctx context.Context, req admission.Request, call *safetyv1alpha1.AgentToolCall, out outcome) admission.Response {
	floodControlled := out.decision == decisionDeny && h.Flood != nil && !isDryRun(req)
	floodPod := "" // the window a denial counts in, and its record's charge (floodPod)
	if floodControlled {
		floodPod = h.floodPod(ctx, req)
	}
	if floodControlled && h.Flood.Refuse(ctx, audit.DeniedCall{
		Namespace: req.Namespace, Requester: req.UserInfo.Username, Pod: floodPod, Call: call.Name, Reason: out.reason,
		Bytes: audit.ArgumentBytes(call.Spec.Arguments)}) {
		// Counted in the window's flood record instead of a record of its own (audit.FloodControl).
		out = deny(denial{safetyv1alpha1.AuditLedgerRateLimitedReason, "", fmt.Sprintf(
			"too many denied calls from %s in namespace %s: refused until the window ends", req.UserInfo.Username, req.Namespace)})
		metrics.Decisions.WithLabelValues(out.decision, out.reason, out.mode).Inc()
		if req.Operation == admissionv1.Create {
			h.trace(ctx, req, call, out)
		}
		return out.resp
	}
	if h.Ledger != nil && !isDryRun(req) {
		err := h.Ledger.RecordDecision(ctx, audit.Decision{
			Decision: out.decision, Reason: out.reason, Message: out.message, Mode: out.mode,
			Namespace: req.Namespace, Plan: call.Spec.Plan, Call: call.Name, Tool: call.Spec.Tool, Step: call.Spec.Step,
			Requester: req.UserInfo.Username, RequesterPod: floodPod, SnapshotHash: out.snapshot, Approval: out.approval,
			RuleID: out.rule, Class: out.class, Request: audit.RequestOf(call), AgentTool: out.tool, Facts: out.facts,
		})
		if err != nil {
			metrics.LedgerFailures.Inc()
			if audit.FailurePolicyOf(ctx, h.Reader) != safetyv1alpha1.LedgerFailurePolicyIgnore {
				agent := out.plansAgent // whose request it was does not change with its answer
				out = deny(denial{ReasonLedgerUnavailable, "", "the decision could not be recorded durably, so it is not given: " + err.Error()})
				out.plansAgent = agent
			}
		}
	}
	metrics.Decisions.WithLabelValues(out.decision, out.reason, out.mode).Inc()
	if req.Operation == admissionv1.Create && !isDryRun(req) {
		h.trace(ctx, req, call, out)
	}
	// Only the plan's own agent's denials count: a refusal of another requester (another
	// ServiceAccount, a pod the plan is not bound to), of a plan that does not exist, or of a call
	// that could not be read is not counted in the plan's denials, which another agent could
	// otherwise raise at will. The ledger records them with their requester.
	if out.decision == decisionDeny && out.plansAgent && h.denials != nil && !isDryRun(req) && req.Operation == admissionv1.Create {
		h.denials.add(types.NamespacedName{Namespace: req.Namespace, Name: call.Spec.Plan})
	}
	return out.resp
}

// refusal is integrity's denial, and whether the requester had passed the identity checks by then.
type refusal struct {
	denial
	plansAgent bool
}

// integrity checks what must hold before the engine runs: first who is asking (identify), then
// what the plan's own agent may ask (admissible). A refusal says which of the two refused.
func (h *AgentToolCallHandler) integrity(ctx context.Context, req admission.Request, call *safetyv1alpha1.AgentToolCall) (
	*safetyv1alpha1.AgentPlan, *safetyv1alpha1.AgentTool, *refusal, error) {
	plan, d, err := h.identify(ctx, req, call)
	if d != nil || err != nil {
		return nil, nil, refused(d, false), err
	}
	tool, d, err := h.admissible(ctx, req, call, plan)
	if d != nil || err != nil {
		return nil, nil, refused(d, true), err
	}
	return plan, tool, nil, nil
}

func refused(d *denial, plansAgent bool) *refusal {
	if d == nil {
		return nil
	}
	return &refusal{*d, plansAgent}
}

// identify reads the call's plan and refuses a requester who is not its agent: not the plan's
// ServiceAccount, or a token the plan does not take (tokenBinding). Nothing of the plan is
// counted for a request it refuses.
func (h *AgentToolCallHandler) identify(ctx context.Context, req admission.Request, call *safetyv1alpha1.AgentToolCall) (
	*safetyv1alpha1.AgentPlan, *denial, error) {
	plan := &safetyv1alpha1.AgentPlan{}
	if err := h.getUnlessFlooding(ctx, &req, client.ObjectKey{Namespace: req.Namespace, Name: call.Spec.Plan}, plan, h.behind); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, &denial{ReasonPlanNotFound, fieldPlan, fmt.Sprintf("AgentPlan %q does not exist in namespace %s", call.Spec.Plan, req.Namespace)}, nil
		}
		return nil, nil, fmt.Errorf("reading plan %s: %w", call.Spec.Plan, err)
	}
	if want := serviceAccountUser(plan.Namespace, plan.Spec.ServiceAccountName); req.UserInfo.Username != want {
		return nil, &denial{ReasonAgentIdentityMismatch, fieldPlan, fmt.Sprintf(
			"plan %s accepts calls only from %s, not from %s", plan.Name, want, req.UserInfo.Username)}, nil
	}
	if d, err := h.tokenBinding(ctx, req, plan); d != nil || err != nil {
		return nil, d, err
	}
	return plan, nil, nil
}

// admissible checks, for the plan's own agent, what must hold before the engine runs: the plan is
// open (not being deleted, within its deadline) and locked, the call's metadata is the agent's to
// set, the tool is registered; the tool is then seen as the plan pinned it.
func (h *AgentToolCallHandler) admissible(ctx context.Context, req admission.Request, call *safetyv1alpha1.AgentToolCall,
	plan *safetyv1alpha1.AgentPlan) (*safetyv1alpha1.AgentTool, *denial, error) {
	if d := planOpen(plan, h.Clock.Now()); d != nil {
		return nil, d, nil
	}
	if d := createMetadata(call); d != nil {
		return nil, d, nil
	}
	if plan.Status.Snapshot == nil {
		return nil, &denial{ReasonPlanNotLocked, fieldPlan, fmt.Sprintf(
			"plan %s is not locked yet; retry shortly (%s)", plan.Name, lockMessage(plan))}, nil
	}
	tool := &safetyv1alpha1.AgentTool{}
	if err := h.getUnlessFlooding(ctx, &req, client.ObjectKey{Name: call.Spec.Tool}, tool, nil); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, &denial{ReasonToolNotRegistered, fieldTool, fmt.Sprintf("tool %q is not a registered AgentTool", call.Spec.Tool)}, nil
		}
		return nil, nil, fmt.Errorf("reading tool %s: %w", call.Spec.Tool, err)
	}
	tool, err := h.toolView(ctx, plan, tool, isDryRun(req))
	if errors.Is(err, errToolReplaced) {
		return nil, &denial{ReasonToolNotRegistered, fieldTool, fmt.Sprintf(
			"tool %q was deleted and registered again since plan %s first used it; re-lock the plan to use the new one",
			call.Spec.Tool, plan.Name)}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return tool, nil, nil
}

// get reads obj from the cache, and from the API server when the cache does not have it or stale
// says it may be behind: a plan or tool created a moment ago must not be refused as missing, nor a
// plan locked a moment ago as unlocked, just because this replica's informer has not caught up.
//
// A name no object can have (a plan's and a tool's are DNS subdomains: not "a/b", "..", "%2e" or
// "Plan", which spec.plan and spec.tool do not refuse) is found nowhere, without asking: the API
// server's client refuses some of them as a path ("invalid resource name"), an error that would
// refuse the call unrecorded, with no decision in the ledger and no flood control.
func (h *AgentToolCallHandler) get(ctx context.Context, key client.ObjectKey, obj client.Object, stale func(client.Object) bool) error {
	return h.getUnlessFlooding(ctx, nil, key, obj, stale)
}

// getUnlessFlooding is get for a request's requester (req, nil for none): once the requester's
// denials are past their rate (audit.FloodControl.Flooding), the cache's answer stands. A
// requester naming plans or tools that do not exist then costs the API server no more reads than
// its window records denials; a plan created a moment ago is refused as missing only to a
// requester that is being refused RateLimited anyway.
func (h *AgentToolCallHandler) getUnlessFlooding(ctx context.Context, req *admission.Request, key client.ObjectKey,
	obj client.Object, stale func(client.Object) bool) error {
	if len(validation.IsDNS1123Subdomain(key.Name)) > 0 {
		return apierrors.NewNotFound(schema.GroupResource{}, key.Name)
	}
	err := h.Reader.Get(ctx, key, obj)
	if h.Live == nil || (err == nil && (stale == nil || !stale(obj))) || (err != nil && !apierrors.IsNotFound(err)) {
		return err
	}
	if req != nil && h.Flood != nil && h.Flood.Flooding(ctx, req.Namespace, req.UserInfo.Username, h.floodPod(ctx, *req)) {
		return err
	}
	return h.Live.Get(ctx, key, obj)
}

// decodeCall decodes a review's AgentToolCall as the scheme's decoder does for a typed object
// (sigs.k8s.io/json, case-sensitive, integers kept), without its second parse of the whole object
// to find apiVersion and kind: the gate decodes every call, and that parse was a tenth of the
// manager's CPU under load. A call of more than maxCallValues JSON values is not decoded at all.
func decodeCall(raw runtime.RawExtension, call *safetyv1alpha1.AgentToolCall) error {
	if len(raw.Raw) == 0 {
		return errors.New("there is no content to decode")
	}
	if !withinValues(raw.Raw, maxCallValues) {
		return errTooManyValues
	}
	return kjson.UnmarshalCaseSensitivePreserveInts(raw.Raw, call)
}

// behind says a plan the cache shows may be behind the API server's: not locked yet, or locked
// with a snapshot that a re-lock this replica's counters know of has replaced (a decision with it
// would be refused errSnapshotReplaced).
func (h *AgentToolCallHandler) behind(o client.Object) bool {
	plan := o.(*safetyv1alpha1.AgentPlan)
	return plan.Status.Snapshot == nil || (h.usage != nil && h.usage.replaced(plan))
}

func deny(d denial) outcome {
	d.Message = audit.RedactSecrets(d.Message) // the agent and approvers see it; the hint is part of it
	return outcome{resp: d.response(), decision: decisionDeny, reason: d.Reason, message: d.Message}
}

func isDryRun(req admission.Request) bool { return req.DryRun != nil && *req.DryRun }

func serviceAccountUser(namespace, name string) string {
	return "system:serviceaccount:" + namespace + ":" + name
}

func lockMessage(plan *safetyv1alpha1.AgentPlan) string {
	for _, c := range plan.Status.Conditions {
		if c.Type == safetyv1alpha1.AgentPlanLockedCondition {
			return c.Message
		}
	}
	return "the operator has not resolved its profile yet"
}
