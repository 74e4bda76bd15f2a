package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
)

const explainLong = `Explain the profile an AgentPlan is locked to: which precedence level supplied it (plan > action >
project > global default > the specification's default) and why that level won, the objects it
was resolved from (with their uid, resourceVersion and generation at lock time, and whether they
changed since), the snapshot hash every decision on the plan is stamped with, the lock time and
epoch, the effective profile, whether the plan is still active (activeDeadlineSeconds), the pod it
is bound to, and the tool capabilities it pinned at its first use of each. The reasoning is derived
from the plan's spec and its locked snapshot, which holds a copy of the ProjectPolicy as it was at
lock time.

The plan is in -n NAMESPACE, else the kubeconfig context's namespace. -o json and yaml print the
explanation as an object (kind AgentPlanExplanation, made by the plugin, not stored in the
cluster); -o jsonpath=... and go-template=... select from it; -o name prints the plan's name.

Exit status: 0 the plan is locked, 1 it is not (the Locked condition's reason and message are
printed), 2 usage error, or the plan cannot be read.`

const explainExample = `  kubectl toolgate explain -n payments fix-rounding-bug
  kubectl toolgate explain fix-rounding-bug --context prod -o yaml
  kubectl toolgate explain fix-rounding-bug -o jsonpath='{.snapshotHash}'`

func newExplainCommand(c *cli) *cobra.Command {
	var output *objectOutput
	cmd := &cobra.Command{
		Use:               "explain PLAN",
		Short:             "explain the profile a plan is locked to, and why",
		Long:              explainLong,
		Example:           explainExample,
		ValidArgsFunction: c.completePlans,
		RunE: func(cmd *cobra.Command, args []string) error {
			return status(runExplain(cmd.Context(), c, output, args))
		},
	}
	output = addObjectOutput(cmd, "explained")
	return cmd
}

func runExplain(ctx context.Context, c *cli, output *objectOutput, args []string) int {
	stdout, stderr := c.stdout, c.stderr
	if len(args) != 1 {
		sayf(stderr, "explain: want one PLAN, got %d arguments\nRun 'kubectl toolgate explain -h' for usage.\n", len(args))
		return exitUsage
	}
	var problems []string
	for _, p := range []string{c.kube.namespaceFlagProblem(), nameProblem("PLAN", args[0], dnsSubdomain)} {
		if p != "" {
			problems = append(problems, p)
		}
	}
	printer, err := output.printer()
	if err != nil {
		problems = append(problems, err.Error())
	}
	if len(problems) > 0 {
		sayf(stderr, "explain: %s\nRun 'kubectl toolgate explain -h' for usage.\n", strings.Join(problems, "; "))
		return exitUsage
	}
	cl, ns, err := c.kube.client()
	if err != nil {
		sayln(stderr, "error:", err)
		return exitUsage
	}
	plan := &safetyv1alpha1.AgentPlan{}
	if err := cl.Get(ctx, client.ObjectKey{Namespace: ns, Name: args[0]}, plan); err != nil {
		sayf(stderr, "error: reading AgentPlan %s/%s: %v\n", ns, args[0], err)
		return exitUsage
	}
	ex := explainPlan(ctx, cl, plan)
	if printer == nil {
		ex.print(stdout)
	} else {
		var obj runtime.Object = ex
		if output.format() == "name" {
			plan.SetGroupVersionKind(safetyv1alpha1.GroupVersion.WithKind("AgentPlan"))
			obj = plan
		}
		if err := printer.PrintObj(obj, stdout); err != nil {
			sayln(stderr, "error:", err)
			return exitUsage
		}
	}
	if !ex.Locked {
		return exitFailed
	}
	return exitOK
}

// explanation is what `explain` answers; -o json and yaml print it as it is, an object of kind
// AgentPlanExplanation that only the plugin makes. Fields are added, never renamed or removed.
type explanation struct {
	metav1.TypeMeta `json:",inline"`
	Namespace       string `json:"namespace"`
	Plan            string `json:"plan"`
	Locked          bool   `json:"locked"`
	// Condition is the plan's Locked condition: why it is not locked, or what locked it.
	Condition *explainCondition `json:"condition,omitempty"`
	// Profile is the profile the plan is locked to; empty for the specification's default.
	Profile    resultProfile `json:"profile"`
	Provenance string        `json:"provenance,omitempty"`
	Level      string        `json:"level,omitempty"`
	Mode       string        `json:"mode,omitempty"`
	// Why says, sentence by sentence, why that level supplied the profile.
	Why          []string        `json:"why,omitempty"`
	SnapshotHash string          `json:"snapshotHash,omitempty"`
	LockedAt     *time.Time      `json:"lockedAt,omitempty"`
	Epoch        int32           `json:"epoch,omitempty"`
	Sources      []explainSource `json:"sources,omitempty"`
	// Effective is the locked safety profile, field by field.
	Effective []string `json:"effective,omitempty"`
	// Active says whether the plan is within its activeDeadlineSeconds; ActiveUntil is when it ends.
	Active      bool      `json:"active"`
	ActiveUntil time.Time `json:"activeUntil"`
	// Pod is the pod the plan is bound to (spec.podName), PodUID its UID recorded at lock.
	Pod    string `json:"pod,omitempty"`
	PodUID string `json:"podUID,omitempty"`
	// Tools are the tool capabilities the plan pinned at its first use of each.
	Tools []safetyv1alpha1.PinnedTool `json:"tools,omitempty"`
}

// explanationKind is the kind of explain's object output.
const explanationKind = "AgentPlanExplanation"

// DeepCopyObject makes an explanation a runtime.Object, which kubectl's printers print.
func (ex *explanation) DeepCopyObject() runtime.Object {
	out := *ex
	if ex.Condition != nil {
		out.Condition = new(*ex.Condition)
	}
	if ex.LockedAt != nil {
		out.LockedAt = new(*ex.LockedAt)
	}
	out.Why, out.Effective = slices.Clone(ex.Why), slices.Clone(ex.Effective)
	out.Sources = slices.Clone(ex.Sources)
	if ex.Tools != nil {
		out.Tools = make([]safetyv1alpha1.PinnedTool, len(ex.Tools))
		for i := range ex.Tools {
			ex.Tools[i].DeepCopyInto(&out.Tools[i])
		}
	}
	return &out
}

type explainCondition struct {
	Status  string `json:"status"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// What became of a source object since the lock.
const (
	nowUnchanged = "unchanged"
	nowUnknown   = "unknown"
)

// explainSource is an object the snapshot was resolved from, with what became of it since.
type explainSource struct {
	safetyv1alpha1.ObjectSource `json:",inline"`
	// Now is unchanged, changed, deleted, recreated or unknown (it could not be read).
	Now string `json:"now"`
	// Detail says what changed, or why it could not be read.
	Detail string `json:"detail,omitempty"`
}

func explainPlan(ctx context.Context, c client.Reader, plan *safetyv1alpha1.AgentPlan) *explanation {
	ex := &explanation{TypeMeta: metav1.TypeMeta{APIVersion: safetyv1alpha1.GroupVersion.String(), Kind: explanationKind},
		Namespace: plan.Namespace, Plan: plan.Name, Pod: plan.Spec.PodName, Tools: plan.Status.Tools,
		Active: policy.PlanActive(plan, time.Now()), ActiveUntil: policy.PlanDeadline(plan).UTC()}
	if cond := meta.FindStatusCondition(plan.Status.Conditions, safetyv1alpha1.AgentPlanLockedCondition); cond != nil {
		ex.Condition = &explainCondition{Status: string(cond.Status), Reason: cond.Reason, Message: cond.Message}
	}
	snap := plan.Status.Snapshot
	if snap == nil {
		return ex
	}
	ex.Locked, ex.PodUID = true, snap.PodUID
	ex.Provenance, ex.Level, ex.SnapshotHash, ex.Epoch = string(snap.Provenance), string(snap.Level), snap.Hash, snap.Epoch
	ex.Mode = string(snap.Safety.EnforcementMode)
	if !snap.LockedAt.IsZero() {
		t := snap.LockedAt.UTC()
		ex.LockedAt = &t
	}
	if snap.ProfileName != "" && len(snap.Sources) > 0 {
		ex.Profile = resultProfile{Kind: snap.Sources[0].Kind, Name: snap.ProfileName}
	}
	ex.Sources = make([]explainSource, 0, len(snap.Sources))
	inline := ""
	for _, s := range snap.Sources {
		src, obj := sourceNow(ctx, c, s)
		ex.Sources = append(ex.Sources, src)
		if ap, ok := obj.(*safetyv1alpha1.AutomationProfile); ok && src.Now == nowUnchanged && ap.Name == snap.ProfileName {
			inline = "its safety is inline (spec.safety)"
			if ap.Spec.Safety == nil && ap.Spec.SafetyProfileRef == nil {
				inline = "it sets no safety, so the specification's default profile applies"
			}
		}
	}
	ex.Why = why(plan, ex.Profile, ex.Sources, inline)
	ex.Effective = effective(&snap.Safety)
	return ex
}

// why re-derives the precedence decision from the plan's spec and its snapshot: the snapshot
// records the winning level and a copy of the ProjectPolicy as it was at lock time.
// inline says how an AutomationProfile without a SafetyProfile supplies its safety, when explain
// could read it unchanged since the lock.
func why(plan *safetyv1alpha1.AgentPlan, profile resultProfile, sources []explainSource, inline string) []string {
	snap := plan.Status.Snapshot
	project := "ProjectPolicy " + plan.Namespace + "/project"
	named := fmt.Sprintf("%s %q", profile.Kind, profile.Name)
	noPlanRef := "the plan has no spec.profileRef"
	noAction := noPlanRef + " and no spec.action"
	if plan.Spec.Action != "" {
		noAction = fmt.Sprintf("%s, and its spec.action %q names no profile in %s", noPlanRef, plan.Spec.Action, project)
	}
	noProject := "the namespace has no " + project
	if snap.Project != nil {
		noProject = project + " names no profile in spec.profileRef"
	}
	var out []string
	switch snap.Provenance {
	case safetyv1alpha1.ProvenancePlan:
		out = append(out, fmt.Sprintf("the plan's spec.profileRef names %s; the plan's own choice wins over its action, "+
			"the project and the global default", named))
	case safetyv1alpha1.ProvenanceAction:
		out = append(out, fmt.Sprintf("%s; its spec.action %q is an action of %s, which names %s; an action's profile "+
			"wins over the project's and the global default", noPlanRef, plan.Spec.Action, project, named))
	case safetyv1alpha1.ProvenanceProject:
		out = append(out, fmt.Sprintf("%s; %s names %s in spec.profileRef, which wins over the global default",
			noAction, project, named))
	case safetyv1alpha1.ProvenanceGlobal:
		out = append(out, fmt.Sprintf("%s; %s; %s is annotated %s=true, the cluster's global default",
			noAction, noProject, named, safetyv1alpha1.DefaultAutomationProfileAnnotation))
	default:
		out = append(out, fmt.Sprintf("%s; %s; and no AutomationProfile is annotated %s=true: the specification's "+
			"default profile applies", noAction, noProject, safetyv1alpha1.DefaultAutomationProfileAnnotation))
	}
	if profile.Kind == kindAutomationProfile {
		i := slices.IndexFunc(sources, func(s explainSource) bool { return s.Kind == kindSafetyProfile })
		if i >= 0 {
			out = append(out, fmt.Sprintf("AutomationProfile %q takes its safety from SafetyProfile %q (spec.safetyProfileRef)",
				profile.Name, sources[i].Name))
		} else {
			if inline == "" {
				inline = "its safety is inline (spec.safety), or the specification's default profile when it has none"
			}
			out = append(out, fmt.Sprintf("AutomationProfile %q names no SafetyProfile: %s", profile.Name, inline))
		}
	}
	if slices.ContainsFunc(sources, func(s explainSource) bool { return s.Now != nowUnchanged && s.Now != nowUnknown }) {
		out = append(out, fmt.Sprintf("objects changed since the lock; the plan keeps its snapshot until it is re-locked "+
			"(annotate it %s=<new token>)", safetyv1alpha1.RelockAnnotation))
	}
	return out
}

// sourceNow reads a source object as it is now and compares it with the version that was locked;
// it returns the object read, nil when it could not be read.
func sourceNow(ctx context.Context, c client.Reader, s safetyv1alpha1.ObjectSource) (explainSource, client.Object) {
	out := explainSource{ObjectSource: s}
	var obj client.Object
	switch s.Kind {
	case kindSafetyProfile:
		obj = &safetyv1alpha1.SafetyProfile{}
	case kindAutomationProfile:
		obj = &safetyv1alpha1.AutomationProfile{}
	case "ProjectPolicy":
		obj = &safetyv1alpha1.ProjectPolicy{}
	default:
		out.Now, out.Detail = nowUnknown, "not a kind explain reads"
		return out, nil
	}
	err := c.Get(ctx, client.ObjectKey{Namespace: s.Namespace, Name: s.Name}, obj)
	switch {
	case apierrors.IsNotFound(err):
		out.Now = "deleted"
		return out, nil
	case err != nil:
		out.Now, out.Detail = nowUnknown, err.Error()
		return out, nil
	case s.UID != "" && string(obj.GetUID()) != s.UID:
		out.Now, out.Detail = "recreated", "uid "+string(obj.GetUID())
	case obj.GetGeneration() != s.Generation:
		out.Now, out.Detail = "changed", fmt.Sprintf("generation %d now", obj.GetGeneration())
	default:
		out.Now = nowUnchanged
	}
	return out, obj
}

// effective lists the locked safety profile, field by field, in the spec's terms.
func effective(s *safetyv1alpha1.SafetyProfileSpec) []string {
	b := func(p *bool) string {
		if p == nil {
			return "unset"
		}
		return fmt.Sprint(*p)
	}
	list := func(l []string, empty string) string {
		if len(l) == 0 {
			return empty
		}
		return strings.Join(l, ",")
	}
	money := none
	if s.MaxCostPerPlan != nil {
		money = s.MaxCostPerPlan.String()
	}
	total := none
	if s.MaxTotalCost != nil {
		total = s.MaxTotalCost.String()
	}
	retries := "unset"
	if s.MaxRetriesPerStep != nil {
		retries = fmt.Sprint(*s.MaxRetriesPerStep)
	}
	return []string{
		"requireSandbox=" + b(s.RequireSandbox), "requireCheckpoints=" + b(s.RequireCheckpoints),
		"allowUnsafeTools=" + b(s.AllowUnsafeTools), "requireHumanApproval=" + b(s.RequireHumanApproval),
		"readOnly=" + b(s.ReadOnly), "allowedTools=" + list(s.AllowedTools, "any"),
		"deniedTools=" + list(s.DeniedTools, none), "allowedSkillCategories=" + list(s.AllowedSkillCategories, "any"),
		"maxCostPerPlan=" + money, "maxTotalCost=" + total, "maxRetriesPerStep=" + retries,
	}
}

func (ex *explanation) print(w io.Writer) {
	if !ex.Locked {
		sayf(w, "AgentPlan %s/%s is not locked", ex.Namespace, ex.Plan)
		if ex.Condition != nil {
			sayf(w, ": [%s] %s\n", policy.Visible(ex.Condition.Reason), policy.Visible(ex.Condition.Message))
		} else {
			sayln(w, ": the operator has not reconciled it yet")
		}
		sayln(w, "Every call of the plan is denied PlanNotLocked until it is.")
		ex.printBinding(w)
		return
	}
	at := ""
	if ex.LockedAt != nil {
		at = " at " + ex.LockedAt.Format(time.RFC3339)
	}
	sayf(w, "AgentPlan %s/%s is locked (epoch %d%s)\n", ex.Namespace, ex.Plan, ex.Epoch, at)
	profile := "the specification's default profile"
	if ex.Profile.Name != "" {
		profile = fmt.Sprintf("%s %q", ex.Profile.Kind, ex.Profile.Name)
	}
	sayf(w, "  profile:     %s\n", profile)
	sayf(w, "  provenance:  %s (autonomy %s, mode %s)\n", ex.Provenance, ex.Level, ex.Mode)
	for i, line := range ex.Why {
		label := "  why:         "
		if i > 0 {
			label = "               "
		}
		sayf(w, "%s%s\n", label, line)
	}
	sayf(w, "  snapshot:    %s\n", ex.SnapshotHash)
	if len(ex.Sources) == 0 {
		sayln(w, "  sources:     none")
	} else {
		sayln(w, "  sources:")
	}
	for _, s := range ex.Sources {
		name := s.Name
		if s.Namespace != "" {
			name = s.Namespace + "/" + s.Name
		}
		now := s.Now + " since the lock"
		if s.Now == nowUnknown {
			now = "not checked"
		}
		if s.Detail != "" {
			now += " (" + s.Detail + ")"
		}
		sayf(w, "    %s %s  uid %s, resourceVersion %s, generation %d: %s\n",
			s.Kind, name, s.UID, s.ResourceVersion, s.Generation, now)
	}
	sayf(w, "  effective:   %s\n", strings.Join(ex.Effective, ", "))
	ex.printBinding(w)
}

// printBinding prints whether the plan is active, whom it accepts calls from, and its pinned tools.
func (ex *explanation) printBinding(w io.Writer) {
	if ex.Active {
		sayf(w, "  active:      yes, until %s\n", ex.ActiveUntil.Format(time.RFC3339))
	} else {
		sayf(w, "  active:      no, ended at %s: every call is denied PlanExpired\n", ex.ActiveUntil.Format(time.RFC3339))
	}
	switch {
	case ex.Pod != "" && ex.PodUID != "":
		sayf(w, "  pod:         %s (uid %s): calls only from a token bound to it\n", ex.Pod, ex.PodUID)
	case ex.Pod != "":
		sayf(w, "  pod:         %s: calls only from a token bound to it, once the plan locks\n", ex.Pod)
	default:
		sayln(w, "  pod:         none: the only active plan of its ServiceAccount")
	}
	if len(ex.Tools) == 0 {
		sayln(w, "  tools:       none pinned yet (each is pinned at the plan's first call of it)")
		return
	}
	sayln(w, "  tools:       pinned at first use; later AgentTool edits apply only after a re-lock")
	for _, t := range ex.Tools {
		category := t.SkillCategory
		if category == "" {
			category = none
		}
		sayf(w, "    %s  writes=%t unsafe=%t checkpointable=%t class=%s category=%s  (generation %d, pinned %s, epoch %d)\n",
			t.Name, t.Writes, t.Unsafe, t.Checkpointable, t.ActionClass, category, t.Generation,
			t.PinnedAt.UTC().Format(time.RFC3339), t.Epoch)
	}
}
