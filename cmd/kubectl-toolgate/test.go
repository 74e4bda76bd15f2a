package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

const testLong = `Decide an AgentToolCall offline, as the admission webhook would: the plan is locked by the
operator's own plan controller from the profiles, ProjectPolicy and plan in the files (plan >
action > project > global default > the specification's default), the call is evaluated by the
same engine against that snapshot, with the same facts, and the answer carries the same reason
and message as the webhook's denial. No cluster is needed, and none is contacted.

The files hold YAML or JSON documents (several per file, or a List as 'kubectl get -o yaml'
prints) of these kinds: AgentToolCall, AgentTool, SafetyProfile, AutomationProfile,
ProjectPolicy, AgentPlan, ToolApproval. Other objects (a Namespace, a ServiceAccount) are skipped
with a note on standard error.

  - The call under test is the last AgentToolCall (or the one --call names). The other
    AgentToolCalls are the plan's earlier calls, as stored in the cluster: their status.cost adds
    up to the plan's accumulated cost, those of the same step count as earlier attempts.
  - Without an AgentPlan named by the call, the plan is made up: its profileRef is --profile, or
    the one profile in the files that no other object names, or none (precedence decides).
  - An AgentPlan with status.snapshot (as 'kubectl get agentplan -o yaml' shows a locked plan) is
    evaluated against that snapshot and its status.usage, as the webhook would.
  - Built-in SafetyProfiles (unrestricted, read-only, sandboxed) exist without being given.
  - Namespaced objects without a namespace are in the call's namespace, else -n NAMESPACE, else
    "default"; with -n, every namespaced object must be in it.
  - What cannot be known offline is not checked: who submits the call (the webhook denies any
    identity but the plan's ServiceAccount) and loop repeats, unless --repeats says.

-o json prints the decision (not a Kubernetes object) as one JSON document.

Exit status: 0 the call is admitted (also would_deny under a Warn or Audit profile), 1 it is
denied, 2 the input is wrong or incomplete (the message names the file and the field).`

const testExample = `  kubectl toolgate test -f profiles.yaml -f call.yaml
  kubectl get agentplan fix-rounding-bug -o yaml | kubectl toolgate test -f - -f call.yaml -o json`

// testOptions are the flags of `test`.
type testOptions struct {
	files              []string
	namespace          string
	call               string
	profile            string
	action             string
	readOnly           bool
	requireCheckpoints bool
	accumulatedCost    string
	totalCost          string
	attempts           int  // -1 unless given: counted from the files
	attemptsGiven      bool // --attempts was given (any negative value is then a usage error)
	repeats            int
	approved           bool
	approvalFiles      []string
	output             string
	namespaceProblem   string // what is wrong with -n, "" when nothing is
}

func newTestCommand(c *cli) *cobra.Command {
	opts := &testOptions{}
	cmd := &cobra.Command{
		Use:     "test -f FILE [-f FILE ...] [flags]",
		Short:   "decide an AgentToolCall offline, from YAML, as the admission webhook would",
		Long:    testLong,
		Example: testExample,
		RunE: func(cmd *cobra.Command, args []string) error {
			// -n is kubectl's --namespace, a global flag; offline it places objects that name none.
			opts.namespace = c.kube.namespaceFlag()
			opts.namespaceProblem = c.kube.namespaceFlagProblem()
			opts.attemptsGiven = cmd.Flags().Changed("attempts")
			if !checkTestOptions(opts, args, c.stderr) {
				return exitStatus(exitUsage)
			}
			return status(runTest(cmd.Context(), opts, c.stdin, c.stdout, c.stderr))
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&opts.files, "filename", "f", nil,
		"a YAML or JSON `FILE` of objects; repeat for more; - is standard input")
	f.StringVar(&opts.call, "call", "", "the AgentToolCall `NAME` to test when the files hold several "+
		"(default: the last one; the others are earlier calls)")
	f.StringVar(&opts.profile, "profile", "", "the plan's spec.profileRef, `[KIND/]NAME`: "+
		"an AutomationProfile or SafetyProfile")
	f.StringVar(&opts.action, "action", "", "the plan's spec.action, an action `NAME` of the ProjectPolicy "+
		"(--profile and --action replace the plan's own, and lock it afresh)")
	f.BoolVar(&opts.readOnly, "read-only", false, "the plan's spec.readOnly")
	f.BoolVar(&opts.requireCheckpoints, "require-checkpoints", false, "the plan's spec.requireCheckpoints")
	f.StringVar(&opts.accumulatedCost, "accumulated-cost", "", "the plan's accumulated cost, an exact `AMOUNT` "+
		"such as 9.50 "+
		"(default: the plan's status.usage, or its earlier calls' status.cost)")
	f.StringVar(&opts.totalCost, "total-cost", "", "the total accumulated cost of the namespace's plans, an `AMOUNT` "+
		"(default: the sum over the plans in the files)")
	f.IntVar(&opts.attempts, "attempts", -1, "`N` earlier attempts of the call's step; unless given, counted from the "+
		"plan's earlier calls, or its status.usage.stepAttempts")
	f.IntVar(&opts.repeats, "repeats", 0, "`N` times the same call was seen within the loop window, this one "+
		"included (0: not counted, as for a dry run)")
	f.StringArrayVar(&opts.approvalFiles, "approval", nil, "a `FILE` of ToolApprovals (also accepted in -f files), "+
		"matched against the call as the webhook matches them; offline they are read, never used up")
	f.BoolVar(&opts.approved, "approved", false, "a person approved the call, as a matching ToolApproval does")
	f.StringVarP(&opts.output, "output", "o", outputText, "output `FORMAT`: text or json")
	f.Lookup("attempts").DefValue = "counted"
	return cmd
}

// checkTestOptions says on stderr everything wrong with the flags and arguments of test.
func checkTestOptions(opts *testOptions, pos []string, stderr io.Writer) bool {
	var problems []string
	if len(pos) > 0 {
		problems = append(problems, fmt.Sprintf("unexpected arguments %q: give files with -f", pos))
	}
	if len(opts.files) == 0 && len(opts.approvalFiles) == 0 {
		problems = append(problems, "no files: give at least one -f FILE")
	}
	if err := checkReportFormat(opts.output); err != nil {
		problems = append(problems, err.Error())
	}
	if opts.repeats < 0 {
		problems = append(problems, fmt.Sprintf("--repeats %d: must not be negative", opts.repeats))
	}
	if opts.namespaceProblem != "" {
		problems = append(problems, opts.namespaceProblem)
	}
	// -1 is the flag's "counted" default, but given it is a negative count like any other.
	if opts.attemptsGiven && opts.attempts < 0 {
		problems = append(problems, fmt.Sprintf("--attempts %d: must not be negative", opts.attempts))
	}
	if len(problems) > 0 {
		sayf(stderr, "test: %s\nRun 'kubectl toolgate test -h' for usage.\n", strings.Join(problems, "; "))
		return false
	}
	return true
}

func runTest(ctx context.Context, opts *testOptions, stdin io.Reader, stdout, stderr io.Writer) int {
	res, err := testCall(ctx, opts, stdin)
	if err != nil {
		sayln(stderr, "error:", err)
		return exitUsage
	}
	if opts.output == outputJSON {
		if err := writeJSON(stdout, res); err != nil {
			sayln(stderr, "error:", err)
			return exitUsage
		}
	} else {
		res.print(stdout)
	}
	for _, n := range res.Notes {
		sayln(stderr, "note:", n)
	}
	if res.Decision == decisionDeny {
		return exitFailed
	}
	return exitOK
}

// none is how the text output says that a list or a limit is empty.
const none = "none"

// Decisions, as the ledger records them.
const (
	decisionAllow     = "allow"
	decisionDeny      = "deny"
	decisionWouldDeny = "would_deny"
)

// testResult is what `test` answers; -o json prints it as it is. The shape is stable: fields are
// added, never renamed or removed.
type testResult struct {
	// Decision is allow, deny or would_deny (a Warn or Audit profile admitted a failing call).
	Decision string `json:"decision"`
	// Reason is the reason code of the failing check, as the webhook's denial carries it in
	// status.details.causes[0].type; empty when every check passed.
	Reason string `json:"reason,omitempty"`
	// Message is the denial's message without the "[Reason] " prefix: the webhook's
	// status.details.causes[0].message.
	Message string `json:"message,omitempty"`
	// RuleID names the rule that decided.
	RuleID string `json:"ruleId,omitempty"`
	// Mode is the enforcement mode of the locked profile.
	Mode string `json:"mode"`
	// Class is the action class the engine assigned to the call.
	Class        string                        `json:"class,omitempty"`
	Call         resultCall                    `json:"call"`
	Profile      resultProfile                 `json:"profile"`
	Provenance   string                        `json:"provenance"`
	Level        string                        `json:"level"`
	SnapshotHash string                        `json:"snapshotHash"`
	Sources      []safetyv1alpha1.ObjectSource `json:"sources,omitempty"`
	Facts        resultFacts                   `json:"facts"`
	// Notes are remarks about the input (a built-in profile given with another spec, say).
	Notes []string `json:"notes,omitempty"`
}

type resultCall struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Plan      string `json:"plan"`
	Tool      string `json:"tool"`
	Step      string `json:"step"`
}

type resultProfile struct {
	Kind string `json:"kind,omitempty"`
	Name string `json:"name,omitempty"`
}

type resultFacts struct {
	AccumulatedCost string `json:"accumulatedCost"`
	TotalCost       string `json:"totalCost"`
	EarlierAttempts int32  `json:"earlierAttempts"`
	Repeats         int    `json:"repeats"`
	HumanApproved   bool   `json:"humanApproved"`
	// Approval is the ToolApproval (namespace/name) that admitted the call, or "--approved".
	Approval string `json:"approval,omitempty"`
}

// testCall reads the files and decides the call.
func testCall(ctx context.Context, opts *testOptions, stdin io.Reader) (*testResult, error) {
	scheme := runtime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	objs, skipped, err := readObjects(opts.files, stdin, scheme)
	if err != nil {
		return nil, err
	}
	approvals, _, err := readObjects(opts.approvalFiles, stdin, scheme)
	if err != nil {
		return nil, err
	}
	for _, a := range approvals {
		if a.kind != "ToolApproval" {
			return nil, inputErrorf("%s: --approval files hold ToolApprovals only", a.where())
		}
	}
	objs = append(objs, approvals...)
	in, err := sortInput(objs, opts)
	if err != nil {
		return nil, err
	}
	in.notes = append(skipped, in.notes...)
	plan, err := planFor(in, opts)
	if err != nil {
		return nil, err
	}
	oc, err := newOfflineCluster(ctx, scheme, append(slices.Clone(in.stored), plan))
	if err != nil {
		return nil, err
	}
	if err := oc.lockPlans(ctx); err != nil {
		return nil, err
	}
	if err := oc.c.Get(ctx, client.ObjectKeyFromObject(plan), plan); err != nil {
		return nil, err
	}
	if plan.Status.Snapshot == nil {
		return nil, lockFailure(plan)
	}
	call := in.call
	tool := &safetyv1alpha1.AgentTool{}
	if found, err := getStored(ctx, oc.c, client.ObjectKey{Name: call.Spec.Tool}, tool); err != nil {
		return nil, err
	} else if !found {
		return nil, inputErrorf("%s: spec.tool names AgentTool %q, which is not in the files "+
			"(the webhook denies ToolNotRegistered when the cluster has no such AgentTool)", in.callAt.where(), call.Spec.Tool)
	}
	// The capabilities the plan pinned at its first use of the tool, when the plan given has any.
	tool = policy.ToolAsPinned(plan, tool)
	if !plan.CreationTimestamp.IsZero() && !policy.PlanActive(plan, time.Now()) {
		return nil, inputErrorf("AgentPlan %s/%s ended at %s (activeDeadlineSeconds): "+
			"the webhook denies every call of it PlanExpired",
			plan.Namespace, plan.Name, policy.PlanDeadline(plan).UTC().Format(time.RFC3339))
	}
	facts, err := oc.facts(ctx, plan, call, opts)
	if err != nil {
		return nil, err
	}
	engineCall := policy.EngineCall(call, plan, tool, facts)
	engineCall.Context.Repeats = opts.repeats
	compiled, d, err := evaluateSnapshot(plan, call, engineCall, in.callAt.where())
	if err != nil {
		return nil, err
	}
	approval := ""
	if d.Reason == safety.ReasonToolHumanApprovalRequired {
		if d, approval, err = oc.approvalGate(ctx, call, compiled, engineCall, d, opts.approved, time.Now()); err != nil {
			return nil, err
		}
	}
	return newResult(d, call, plan.Status.Snapshot, facts, engineCall.Context.Repeats, approval, in.notes), nil
}

// facts are the cluster's facts about the call: the plan's accumulated cost and the namespace's
// total, as the controllers keep them and the webhook reads them, and the earlier attempts of the
// call's step; each flag replaces the computed value.
func (oc *offlineCluster) facts(ctx context.Context, plan *safetyv1alpha1.AgentPlan, call *safetyv1alpha1.AgentToolCall,
	opts *testOptions) (policy.CallFacts, error) {
	if opts.accumulatedCost != "" {
		m, err := safety.ParseMoney(opts.accumulatedCost)
		if err != nil {
			return policy.CallFacts{}, inputErrorf("--accumulated-cost %s: %v", opts.accumulatedCost, err)
		}
		plan.Status.Usage.AccumulatedCost = m.String()
		if err := oc.c.Status().Update(ctx, plan); err != nil {
			return policy.CallFacts{}, err
		}
	}
	accumulated, err := policy.AccumulatedCost(plan)
	if err != nil {
		return policy.CallFacts{}, inputErrorf("AgentPlan %s/%s: status.usage.accumulatedCost: %v",
			plan.Namespace, plan.Name, err)
	}
	f := policy.CallFacts{AccumulatedCost: accumulated}
	if opts.totalCost != "" {
		if f.TotalCost, err = safety.ParseMoney(opts.totalCost); err != nil {
			return policy.CallFacts{}, inputErrorf("--total-cost %s: %v", opts.totalCost, err)
		}
	} else {
		pp := &safetyv1alpha1.ProjectPolicy{}
		key := client.ObjectKey{Namespace: plan.Namespace, Name: controller.ProjectPolicyName}
		if err := oc.c.Get(ctx, key, pp); client.IgnoreNotFound(err) != nil {
			return policy.CallFacts{}, err
		}
		pp.Namespace = plan.Namespace
		if f.TotalCost, _, _, err = controller.ProjectTotalCost(ctx, oc.c, pp); err != nil {
			return policy.CallFacts{}, inputErrorf("total cost of namespace %s: %v", plan.Namespace, err)
		}
	}
	if opts.attempts >= 0 {
		f.EarlierAttempts = int32(min(opts.attempts, 1<<30))
	} else {
		f.EarlierAttempts = policy.StepAttempts(plan, call.Spec.Step)
	}
	return f, nil
}

func newResult(d safety.Decision, call *safetyv1alpha1.AgentToolCall, snap *safetyv1alpha1.PlanSnapshot,
	f policy.CallFacts, repeats int, approval string, notes []string) *testResult {
	r := &testResult{
		Decision: decisionAllow, Reason: d.Reason, Message: d.Message, RuleID: d.RuleID,
		Mode: string(d.Mode), Class: string(d.Class),
		Call: resultCall{
			Namespace: call.Namespace, Name: call.Name, Plan: call.Spec.Plan, Tool: call.Spec.Tool, Step: call.Spec.Step,
		},
		Provenance: string(snap.Provenance), Level: string(snap.Level), SnapshotHash: snap.Hash, Sources: snap.Sources,
		Facts: resultFacts{AccumulatedCost: f.AccumulatedCost.String(), TotalCost: f.TotalCost.String(),
			EarlierAttempts: f.EarlierAttempts, Repeats: repeats, HumanApproved: approval != "", Approval: approval},
		Notes: notes,
	}
	if snap.ProfileName != "" && len(snap.Sources) > 0 {
		r.Profile = resultProfile{Kind: snap.Sources[0].Kind, Name: snap.ProfileName}
	}
	switch {
	case !d.Allowed():
		r.Decision = decisionDeny
	case d.WouldDeny:
		r.Decision = decisionWouldDeny
	}
	return r
}

// print writes the result for a person: the decision first, as the webhook words it. The call and
// the message hold the agent's text, written visibly as the webhook writes it (policy.Visible).
func (r *testResult) print(w io.Writer) {
	v := policy.Visible
	switch r.Decision {
	case decisionDeny:
		sayf(w, "deny: [%s] %s\n", r.Reason, v(r.Message))
	case decisionWouldDeny:
		how := "silently, recording would_deny in the ledger"
		if r.Mode == string(safety.ModeWarn) {
			how = "with this admission warning"
		}
		sayf(w, "would_deny: [%s] %s\n  (mode %s: the webhook admits the call %s)\n", r.Reason, v(r.Message), r.Mode, how)
	default:
		sayln(w, "allow: every check passed")
	}
	c := r.Call
	sayf(w, "  call:      %s/%s (plan %s, tool %s, step %s)\n", v(c.Namespace), v(c.Name), v(c.Plan), v(c.Tool), v(c.Step))
	profile := "the specification's default profile"
	if r.Profile.Name != "" {
		profile = fmt.Sprintf("%s %q", r.Profile.Kind, r.Profile.Name)
	}
	sayf(w, "  profile:   %s (provenance %s, autonomy %s, mode %s)\n", profile, r.Provenance, r.Level, r.Mode)
	sayf(w, "  snapshot:  %s\n", r.SnapshotHash)
	f := r.Facts
	repeats := "not counted"
	if f.Repeats > 0 {
		repeats = strconv.Itoa(f.Repeats)
	}
	approval := none
	if f.HumanApproved {
		approval = "granted (" + f.Approval + ")"
	}
	sayf(w, "  facts:     accumulated cost %s, total cost %s, earlier attempts of step %s %d, "+
		"repeats %s, human approval %s\n", f.AccumulatedCost, f.TotalCost, v(c.Step), f.EarlierAttempts, repeats, v(approval))
}

// evaluateSnapshot compiles the plan's locked snapshot and runs the engine, then the snapshot's
// argument rules, as the webhook does.
func evaluateSnapshot(plan *safetyv1alpha1.AgentPlan, call *safetyv1alpha1.AgentToolCall, engineCall safety.Call,
	where string) (*safety.Policy, safety.Decision, error) {
	compiled, err := policy.CompileSnapshot(plan.Status.Snapshot)
	if err != nil {
		return nil, safety.Decision{}, inputErrorf("the snapshot of AgentPlan %s/%s does not compile "+
			"(the webhook denies PlanNotLocked): %v", plan.Namespace, plan.Name, err)
	}
	rules, err := policy.CompileArgumentRules(plan.Status.Snapshot)
	if err != nil {
		return nil, safety.Decision{}, inputErrorf("the argument rules of AgentPlan %s/%s do not compile "+
			"(the webhook denies PlanNotLocked): %v", plan.Namespace, plan.Name, err)
	}
	ruleInput, err := policy.ArgumentRuleInput(call)
	if err != nil {
		return nil, safety.Decision{}, inputErrorf("%s: %s: %v (the webhook denies BadRequest)",
			where, policy.FieldExtra, err)
	}
	d := safety.Evaluate(compiled, engineCall)
	return compiled, policy.WithArgumentRules(d, rules, ruleInput, compiled.Mode()), nil
}
