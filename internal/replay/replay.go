package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// Report is what a replay found.
type Report struct {
	Ledger string `json:"ledger"`
	// Verified says whether the ledger verified (ledger.VerifyWith, against the anchors given);
	// VerifySummary is its summary.
	Verified      bool   `json:"verified"`
	VerifySummary string `json:"verifySummary"`
	// VerifyLimits say what the verification could not prove, for want of the public key or of
	// the published heads (ledger.Report.Limits): "verified" means no more than the anchors given.
	VerifyLimits []string `json:"verifyLimits,omitempty"`
	// VerifyError is why the ledger does not verify (the first break), when it does not.
	VerifyError string `json:"verifyError,omitempty"`
	// Candidates says what the decisions were replayed under: "recorded snapshots", or the
	// candidate objects.
	Candidates []string `json:"candidates"`
	// Decisions counts the decision records read; Replayed those decided again; Unchanged those
	// that came out as recorded.
	Decisions int `json:"decisions"`
	Replayed  int `json:"replayed"`
	Unchanged int `json:"unchanged"`
	// Flips are the decisions that came out differently: deny→allow first, then allow→deny, then
	// the rest (would_deny), each group in ledger order.
	Flips []Flip `json:"flips"`
	// RuleChanged are the denials (and would_deny) that came out with the recorded verdict but
	// another reason or rule, in ledger order (at most MaxUnreplayableListed). Under the recorded
	// snapshots there are none: one means the record does not hold the facts its rule decided on.
	// They are not flips (the answer is the same), and do not change Run's exit status.
	RuleChanged []Flip `json:"ruleChanged,omitempty"`
	// ByRule counts replayed decisions and flips by the rule that decided: the replay's rule, or
	// the recorded one when the replay admitted the call; "" is a call every check admitted.
	ByRule map[string]RuleCount `json:"byRule"`
	// Unreplayable are the decision records that could not be decided again, with why (at most
	// MaxUnreplayableListed; UnreplayableByWhy counts them all).
	Unreplayable      []Unreplayable `json:"unreplayable"`
	UnreplayableByWhy map[string]int `json:"unreplayableByWhy"`
}

// MaxUnreplayableListed bounds Report.Unreplayable; the counts cover the rest.
const MaxUnreplayableListed = 1000

// RuleCount counts the decisions one rule decided in a replay.
type RuleCount struct {
	Replayed int `json:"replayed"`
	Flipped  int `json:"flipped"`
}

// Ref names a decision record and its call.
type Ref struct {
	Writer    string `json:"writer"`
	Seq       uint64 `json:"seq"`
	Time      string `json:"time"`
	Namespace string `json:"namespace"`
	Plan      string `json:"plan"`
	Call      string `json:"call"`
	UID       string `json:"uid,omitempty"`
	Tool      string `json:"tool"`
}

// Flip is one decision that a replay decided differently.
type Flip struct {
	Ref
	From           string `json:"from"`
	To             string `json:"to"`
	RecordedReason string `json:"recordedReason,omitempty"`
	RecordedRule   string `json:"recordedRule,omitempty"`
	Reason         string `json:"reason,omitempty"`
	Rule           string `json:"rule,omitempty"`
	Message        string `json:"message,omitempty"`
}

// Unreplayable is one decision record a replay could not decide again.
type Unreplayable struct {
	Ref
	Why string `json:"why"`
}

// Reasons a decision cannot be replayed (Unreplayable.Why starts with one of them).
const (
	WhyBeforeEngine   = "decided before the engine ran"
	WhyNoArguments    = "no arguments recorded"
	WhyArgsAltered    = "arguments redacted or truncated in the record"
	WhyUnknownTool    = "unknown tool"
	WhyNoSnapshot     = "no lock record holds the snapshot"
	WhySnapshotBroken = "the recorded snapshot is redacted or truncated"
	WhyNoPlan         = "no record of the plan"
	WhyCannotLock     = "the candidates cannot lock the plan"
	WhyBadFacts       = "facts unreadable"
)

// Replay decides every decision under ledgerDir again. Without candidates each decision is
// replayed under the snapshot its plan was locked with (from the ledger's lock records): that
// must reproduce every decision. With candidates (SafetyProfile, AutomationProfile,
// ProjectPolicy, AgentPlan objects) each plan is resolved again, as the plan controller would
// lock it, from the configuration the ledger records as of the decision with the candidates in
// place of the objects of the same kind and name; a candidate AgentPlan that carries
// status.snapshot is used as it is.
//
// The ledger is verified without anchors: ReplayAnchored checks it against the public keys and
// published heads, as ledger verify does.
func Replay(ctx context.Context, ledgerDir string, candidates []client.Object) (Report, error) {
	return ReplayAnchored(ctx, ledgerDir, ledger.VerifyOptions{}, candidates)
}

// ReplayAnchored is Replay with the ledger verified against anchors (ledger.VerifyWith): a ledger
// that does not verify under them (a foreign signature, records cut from the end, a re-hashed
// chain) is reported not Verified, and Run refuses it.
func ReplayAnchored(ctx context.Context, ledgerDir string, anchors ledger.VerifyOptions, candidates []client.Object) (Report, error) {
	rep := Report{Ledger: ledgerDir, ByRule: map[string]RuleCount{}, UnreplayableByWhy: map[string]int{}}
	vr, verr := ledger.VerifyWith(ledgerDir, anchors)
	rep.Verified, rep.VerifySummary, rep.VerifyLimits = verr == nil && vr.OK(), vr.Summary(), vr.Limits
	switch {
	case verr != nil:
		rep.VerifyError = verr.Error()
	case !rep.Verified:
		rep.VerifyError = vr.Summary()
	}
	if verr != nil && !errors.Is(verr, ledger.ErrBroken) {
		return rep, verr
	}
	lines, err := readLedger(ledgerDir)
	if err != nil {
		return rep, err
	}
	r, err := newReplayer(candidates)
	if err != nil {
		return rep, err
	}
	rep.Candidates = r.describe()
	var flips flipGroups
	for _, l := range lines {
		if l.Kind != audit.KindDecision {
			if err := r.hist.apply(l); err != nil {
				return rep, fmt.Errorf("record %s/%d: %w", l.Writer, l.Seq, err)
			}
			continue
		}
		rep.Decisions++
		var d audit.DecisionFields
		if err := json.Unmarshal(l.Fields, &d); err != nil {
			rep.skip(refOf(l, d), WhyBadFacts+": "+err.Error())
			continue
		}
		ref := refOf(l, d)
		got, why := r.decide(ctx, d)
		if why != "" {
			rep.skip(ref, why)
			continue
		}
		rep.tally(ref, d, got, &flips)
	}
	rep.Flips = slices.Concat(flips.toAllow, flips.toDeny, flips.other)
	return rep, nil
}

// flipGroups are the flips in the order the report lists them: deny→allow, allow→deny, the rest.
type flipGroups struct{ toAllow, toDeny, other []Flip }

// tally counts one replayed decision: unchanged (noting a denial now made by another rule), or a
// flip in its group.
func (rep *Report) tally(ref Ref, d audit.DecisionFields, got safety.Decision, flips *flipGroups) {
	rep.Replayed++
	to := verdict(got)
	rule := got.RuleID
	if got.Allowed() && !got.WouldDeny {
		rule = d.RuleID
	}
	c := rep.ByRule[rule]
	c.Replayed++
	if to == d.Decision {
		if to != decisionAllow && (got.Reason != d.Reason || got.RuleID != d.RuleID) && len(rep.RuleChanged) < MaxUnreplayableListed {
			rep.RuleChanged = append(rep.RuleChanged, flipOf(ref, d, got, to))
		}
		rep.Unchanged++
		rep.ByRule[rule] = c
		return
	}
	c.Flipped++
	rep.ByRule[rule] = c
	f := flipOf(ref, d, got, to)
	switch {
	case d.Decision == decisionDeny && to != decisionDeny:
		flips.toAllow = append(flips.toAllow, f)
	case to == decisionDeny:
		flips.toDeny = append(flips.toDeny, f)
	default:
		flips.other = append(flips.other, f)
	}
}

func flipOf(ref Ref, d audit.DecisionFields, got safety.Decision, to string) Flip {
	return Flip{Ref: ref, From: d.Decision, To: to, RecordedReason: d.Reason, RecordedRule: d.RuleID,
		Reason: got.Reason, Rule: got.RuleID, Message: audit.RedactSecrets(got.Message)}
}

func (rep *Report) skip(ref Ref, why string) {
	key, _, _ := strings.Cut(why, ":")
	rep.UnreplayableByWhy[key]++
	if len(rep.Unreplayable) < MaxUnreplayableListed {
		rep.Unreplayable = append(rep.Unreplayable, Unreplayable{Ref: ref, Why: why})
	}
}

func refOf(l line, d audit.DecisionFields) Ref {
	return Ref{Writer: l.Writer, Seq: l.Seq, Time: l.Time, Namespace: d.Namespace, Plan: d.Plan, Call: d.Call, UID: d.UID, Tool: d.Tool}
}

// Decisions as the webhook records them.
const (
	decisionAllow     = "allow"
	decisionDeny      = "deny"
	decisionWouldDeny = "would_deny"
)

// verdict names an engine decision as the webhook records it.
func verdict(d safety.Decision) string {
	switch {
	case !d.Allowed():
		return decisionDeny
	case d.WouldDeny:
		return decisionWouldDeny
	}
	return decisionAllow
}

// replayer holds what a replay decides with: the history read so far, the candidates, and the
// policies compiled from them.
type replayer struct {
	hist       *history
	candidates map[objKey]client.Object
	compiled   map[string]*policy.LockedPolicy // by snapshot hash
	// resolved caches the snapshot hash (or the reason there is none) a plan resolves to under
	// one version of the history.
	resolved map[resolvedKey]resolution
}

type resolvedKey struct {
	plan    objKey
	version int
	// spec is the plan as the ledger records it (nil: none): a plan created again under the same
	// name resolves anew, whatever order its records and its lock arrived in.
	spec *safetyv1alpha1.AgentPlan
}

type resolution struct {
	hash string
	why  string
}

func newReplayer(candidates []client.Object) (*replayer, error) {
	r := &replayer{hist: newHistory(), candidates: map[objKey]client.Object{}, compiled: map[string]*policy.LockedPolicy{},
		resolved: map[resolvedKey]resolution{}}
	for _, c := range candidates {
		k := keyOf(c)
		if k.kind == "" {
			return nil, fmt.Errorf("candidate %T %s is not a SafetyProfile, AutomationProfile, ProjectPolicy or AgentPlan", c, c.GetName())
		}
		if k.kind == kindProjectPolicy && k.namespace == "" {
			return nil, fmt.Errorf("candidate ProjectPolicy %s names no namespace", c.GetName())
		}
		r.candidates[k] = c
	}
	return r, nil
}

func (r *replayer) describe() []string {
	if len(r.candidates) == 0 {
		return []string{"recorded snapshots"}
	}
	var out []string
	for k := range r.candidates {
		out = append(out, strings.TrimSuffix(k.kind+"/"+k.namespace, "/")+"/"+k.name)
	}
	slices.Sort(out)
	return out
}

// decide decides one recorded decision again, or says why it cannot.
func (r *replayer) decide(ctx context.Context, d audit.DecisionFields) (safety.Decision, string) {
	switch {
	case d.Facts == nil:
		return safety.Decision{}, WhyBeforeEngine + ": " + d.Reason
	case d.AgentTool == nil:
		return safety.Decision{}, WhyUnknownTool + ": " + d.Tool
	case d.Arguments == nil:
		return safety.Decision{}, WhyNoArguments
	case policy.ArgumentsDigest(*d.Arguments) != d.ArgumentsDigest || sandboxUnknown(d.SandboxID):
		return safety.Decision{}, WhyArgsAltered
	}
	p, why := r.policyFor(ctx, d)
	if why != "" {
		return safety.Decision{}, why
	}
	// The argument rules' input from the recorded arguments, as the webhook builds it from the call.
	in, err := policy.ArgumentRuleInput(&safetyv1alpha1.AgentToolCall{Spec: safetyv1alpha1.AgentToolCallSpec{
		Tool: d.Tool, Arguments: *d.Arguments}})
	if err != nil {
		return safety.Decision{}, WhyArgsAltered + ": " + err.Error()
	}
	return p.Decide(engineCall(d), in), ""
}

// sandboxUnknown says whether the record cannot tell what the engine read of the sandbox id: only
// whether it is blank (safety's require-sandbox check). Redaction replaces non-blank text by a
// marker and a cut keeps a prefix, so only a cut whose kept part is blank hides it. Looking for
// markers instead let an agent make all its calls unreplayable by naming its sandbox
// "sbx-[REDACTED:jwt]", which no digest tells from a redaction.
func sandboxUnknown(s string) bool {
	kept, _, cut := strings.Cut(s, "…[truncated ")
	return cut && strings.TrimSpace(kept) == ""
}

// engineCall is the engine's input as the record gives it: the same fields policy.EngineCall
// fills from the cluster.
func engineCall(d audit.DecisionFields) safety.Call {
	t, f := d.AgentTool, d.Facts
	return safety.Call{
		Tool: safety.Tool{Name: d.Tool, Writes: t.Writes, Unsafe: t.Unsafe, Checkpointable: t.Checkpointable,
			ActionClass: safety.ActionClass(t.ActionClass), SkillCategory: t.SkillCategory, HasSkillCategory: t.SkillCategory != ""},
		Context: safety.Context{ReadOnlyPlan: f.ReadOnlyPlan, RequireCheckpoints: f.RequireCheckpoints, SandboxID: d.SandboxID,
			HumanApproved: f.HumanApproved, AccumulatedCost: f.AccumulatedCost, TotalCost: f.TotalCost, HeldCost: f.HeldCost,
			StepRetryCount: f.EarlierAttempts, Repeats: f.Repeats},
		Args: safety.Arguments{Command: d.Arguments.Command, Paths: d.Arguments.Paths, Cwd: d.Arguments.Cwd,
			ProjectDir: d.Arguments.ProjectDir},
	}
}

// policyFor is the policy a decision is replayed under.
func (r *replayer) policyFor(ctx context.Context, d audit.DecisionFields) (*policy.LockedPolicy, string) {
	planKey := objKey{kindPlan, d.Namespace, d.Plan}
	if len(r.candidates) == 0 {
		snap, ok := r.hist.snapshots[d.SnapshotHash]
		if !ok {
			return nil, WhyNoSnapshot + ": " + d.SnapshotHash
		}
		return r.compile(snap)
	}
	if c, ok := r.candidates[planKey]; ok && c.(*safetyv1alpha1.AgentPlan).Status.Snapshot != nil {
		return r.compile(c.(*safetyv1alpha1.AgentPlan).Status.Snapshot)
	}
	key := resolvedKey{planKey, r.hist.asLocked(planKey).version, r.hist.plans[planKey]}
	res, ok := r.resolved[key]
	if !ok {
		res = r.resolve(ctx, planKey)
		r.resolved[key] = res
	}
	if res.why != "" {
		return nil, res.why
	}
	return r.compiled[res.hash], ""
}

// resolve locks the plan again, as the plan controller would, from the history with the
// candidates in place.
func (r *replayer) resolve(ctx context.Context, planKey objKey) resolution {
	plan, ok := r.hist.plans[planKey]
	if c, cand := r.candidates[planKey]; cand {
		plan, ok = c.(*safetyv1alpha1.AgentPlan), true
	}
	if !ok {
		return resolution{why: WhyNoPlan + ": " + planKey.namespace + "/" + planKey.name}
	}
	objects := maps.Clone(r.hist.asLocked(planKey).objects)
	maps.Copy(objects, r.candidates)
	snap, err := controller.ResolveSnapshot(ctx, memReader{objects: objects}, plan)
	if err != nil {
		return resolution{why: WhyCannotLock + ": " + err.Error()}
	}
	if _, why := r.compile(snap); why != "" {
		return resolution{why: why}
	}
	return resolution{hash: snap.Hash}
}

// compile compiles a snapshot once, after checking that it is the policy its hash names: a
// snapshot the journal redacted or cut would decide differently from the one the plan locked.
func (r *replayer) compile(snap *safetyv1alpha1.PlanSnapshot) (*policy.LockedPolicy, string) {
	if p, ok := r.compiled[snap.Hash]; ok {
		return p, ""
	}
	profile, errs := policy.ProfileFromSpec(&snap.Safety, field.NewPath("snapshot", "safety"))
	if len(errs) > 0 {
		return nil, WhySnapshotBroken + ": " + errs.ToAggregate().Error()
	}
	if h, err := policy.SnapshotHash(profile, snap.Level, snap.Project); err != nil || h != snap.Hash {
		return nil, WhySnapshotBroken + ": " + snap.Hash
	}
	p, err := policy.CompileLocked(snap)
	if err != nil {
		return nil, WhySnapshotBroken + ": " + err.Error()
	}
	r.compiled[snap.Hash] = p
	return p, ""
}
