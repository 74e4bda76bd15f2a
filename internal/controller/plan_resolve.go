package controller

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// ProjectPolicyName is the name of the one ProjectPolicy a namespace may hold.
const ProjectPolicyName = "project"

// lockError explains why a plan cannot be locked. The plan stays unlocked (calls are denied
// PlanNotLocked) and its Locked condition carries Reason and the message: toolgate fails closed.
type lockError struct {
	Reason  string
	Message string
}

func (e *lockError) Error() string { return e.Message }

func lockErrorf(reason, format string, args ...any) *lockError {
	return &lockError{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// levelProfile is what one precedence level named, read from the cluster.
type levelProfile struct {
	profile *safety.Profile
	level   safetyv1alpha1.AutonomyLevel
	name    string
	sources []safetyv1alpha1.ObjectSource
}

// resolver reads what a plan's precedence levels name. It reads live from the API server, not
// from the cache: a lock happens once per plan, and a stale cache could silently pick a lower level.
type resolver struct {
	reader client.Reader
}

// snapshot resolves plan > action > project > global and returns the snapshot to lock (without
// lock time and epoch), or a *lockError saying why the plan cannot be locked.
func (r resolver) snapshot(ctx context.Context, plan *safetyv1alpha1.AgentPlan) (*safetyv1alpha1.PlanSnapshot, error) {
	project, projectSource, err := r.project(ctx, plan.Namespace)
	if err != nil {
		return nil, err
	}
	if err := ceiling(project, plan); err != nil {
		return nil, err
	}
	var levels [4]*levelProfile // plan, action, project, global
	if levels[0], err = r.ref(ctx, plan.Spec.ProfileRef, "spec.profileRef of the plan"); err != nil {
		return nil, err
	}
	if levels[0] == nil && plan.Spec.Action != "" {
		if levels[1], err = r.action(ctx, project, plan.Spec.Action); err != nil {
			return nil, err
		}
	}
	if levels[0] == nil && levels[1] == nil && project != nil {
		if levels[2], err = r.ref(ctx, project.Spec.ProfileRef, "spec.profileRef of ProjectPolicy "+plan.Namespace+"/project"); err != nil {
			return nil, err
		}
	}
	if levels[0] == nil && levels[1] == nil && levels[2] == nil {
		if levels[3], err = r.global(ctx); err != nil {
			return nil, err
		}
	}
	resolved := safety.Resolve(levels[0].get(), levels[1].get(), levels[2].get(), levels[3].get())
	winner := &levelProfile{level: safetyv1alpha1.AutonomyLevelDefault}
	provenance := safetyv1alpha1.ProvenanceDefault
	if !resolved.Default {
		winner = levels[map[safety.Provenance]int{
			safety.ProvenancePlan: 0, safety.ProvenanceAction: 1, safety.ProvenanceProject: 2, safety.ProvenanceGlobal: 3,
		}[resolved.Provenance]]
		provenance = safetyv1alpha1.Provenance(resolved.Provenance)
	}
	var projectSpec *safetyv1alpha1.ProjectPolicySpec
	sources := winner.sources
	if project != nil {
		projectSpec = project.Spec.DeepCopy()
		sources = append(sources, projectSource)
	}
	hash, err := policy.SnapshotHash(resolved.Profile, winner.level, projectSpec)
	if err != nil {
		return nil, err
	}
	return &safetyv1alpha1.PlanSnapshot{
		Provenance:  provenance,
		ProfileName: winner.name,
		Level:       winner.level,
		Safety:      policy.SpecFromProfile(resolved.Profile),
		Project:     projectSpec,
		Sources:     sources,
		Hash:        hash,
	}, nil
}

func (l *levelProfile) get() *safety.Profile {
	if l == nil {
		return nil
	}
	return l.profile
}

func (r resolver) project(ctx context.Context, namespace string) (*safetyv1alpha1.ProjectPolicy, safetyv1alpha1.ObjectSource, error) {
	pp := &safetyv1alpha1.ProjectPolicy{}
	err := r.reader.Get(ctx, client.ObjectKey{Namespace: namespace, Name: ProjectPolicyName}, pp)
	if apierrors.IsNotFound(err) {
		return nil, safetyv1alpha1.ObjectSource{}, nil
	}
	if err != nil {
		return nil, safetyv1alpha1.ObjectSource{}, fmt.Errorf("reading ProjectPolicy %s/%s: %w", namespace, ProjectPolicyName, err)
	}
	if errs := policy.ValidateProjectRules(&pp.Spec, field.NewPath("spec")); len(errs) > 0 {
		return nil, safetyv1alpha1.ObjectSource{}, lockErrorf(safetyv1alpha1.AgentPlanProjectInvalidReason,
			"ProjectPolicy %s/%s is invalid: %v", namespace, ProjectPolicyName, errs.ToAggregate())
	}
	return pp, sourceOf("ProjectPolicy", pp), nil
}

func (r resolver) action(ctx context.Context, project *safetyv1alpha1.ProjectPolicy, name string) (*levelProfile, error) {
	if project == nil {
		return nil, lockErrorf(safetyv1alpha1.AgentPlanActionNotFoundReason,
			"spec.action %q names an action, but the namespace has no ProjectPolicy %q", name, ProjectPolicyName)
	}
	for _, a := range project.Spec.Actions {
		if a.Name == name {
			return r.ref(ctx, a.ProfileRef, fmt.Sprintf("action %q of ProjectPolicy %s/project", name, project.Namespace))
		}
	}
	return nil, lockErrorf(safetyv1alpha1.AgentPlanActionNotFoundReason,
		"spec.action %q is not an action of ProjectPolicy %s/%s", name, project.Namespace, ProjectPolicyName)
}

func (r resolver) global(ctx context.Context) (*levelProfile, error) {
	var list safetyv1alpha1.AutomationProfileList
	if err := r.reader.List(ctx, &list); err != nil {
		return nil, fmt.Errorf("listing AutomationProfiles: %w", err)
	}
	var found *safetyv1alpha1.AutomationProfile
	for i := range list.Items {
		if !policy.IsDefaultAutomationProfile(&list.Items[i]) {
			continue
		}
		if found != nil {
			return nil, lockErrorf(safetyv1alpha1.AgentPlanAmbiguousDefaultReason,
				"AutomationProfiles %q and %q are both annotated as the default; keep one", found.Name, list.Items[i].Name)
		}
		found = &list.Items[i]
	}
	if found == nil {
		return nil, nil
	}
	return r.automationProfile(ctx, found, "the default AutomationProfile")
}

// ref reads the profile a reference names; a nil reference names nothing.
func (r resolver) ref(ctx context.Context, ref *safetyv1alpha1.ProfileRef, where string) (*levelProfile, error) {
	if ref == nil {
		return nil, nil
	}
	if ref.Kind == safetyv1alpha1.ProfileKindSafetyProfile {
		return r.safetyProfile(ctx, ref.Name, where)
	}
	ap := &safetyv1alpha1.AutomationProfile{}
	if err := r.reader.Get(ctx, client.ObjectKey{Name: ref.Name}, ap); err != nil {
		return nil, notFoundOr(err, "AutomationProfile", ref.Name, where)
	}
	return r.automationProfile(ctx, ap, where)
}

func (r resolver) automationProfile(ctx context.Context, ap *safetyv1alpha1.AutomationProfile, where string) (*levelProfile, error) {
	level := ap.Spec.Level
	if level == "" {
		level = safetyv1alpha1.AutonomyLevelDefault
	}
	lp := &levelProfile{level: level, name: ap.Name, sources: []safetyv1alpha1.ObjectSource{sourceOf("AutomationProfile", ap)}}
	switch {
	case ap.Spec.SafetyProfileRef != nil:
		sp, err := r.safetyProfile(ctx, ap.Spec.SafetyProfileRef.Name, "spec.safetyProfileRef of AutomationProfile "+ap.Name)
		if err != nil {
			return nil, err
		}
		lp.profile, lp.sources = sp.profile, append(lp.sources, sp.sources...)
	case ap.Spec.Safety != nil:
		p, errs := policy.CheckedProfileFromSpec(ap.Spec.Safety, field.NewPath("spec", "safety"))
		if len(errs) > 0 {
			return nil, lockErrorf(safetyv1alpha1.AgentPlanProfileInvalidReason,
				"AutomationProfile %q named by %s is invalid: %v", ap.Name, where, errs.ToAggregate())
		}
		lp.profile = p
	default:
		lp.profile = safety.DefaultProfile()
	}
	return lp, nil
}

func (r resolver) safetyProfile(ctx context.Context, name, where string) (*levelProfile, error) {
	sp := &safetyv1alpha1.SafetyProfile{}
	if err := r.reader.Get(ctx, client.ObjectKey{Name: name}, sp); err != nil {
		return nil, notFoundOr(err, "SafetyProfile", name, where)
	}
	p, errs := policy.CheckedProfileFromSpec(&sp.Spec, field.NewPath("spec"))
	if len(errs) > 0 {
		return nil, lockErrorf(safetyv1alpha1.AgentPlanProfileInvalidReason,
			"SafetyProfile %q named by %s is invalid: %v", name, where, errs.ToAggregate())
	}
	return &levelProfile{profile: p, level: safetyv1alpha1.AutonomyLevelDefault, name: name,
		sources: []safetyv1alpha1.ObjectSource{sourceOf("SafetyProfile", sp)}}, nil
}

func notFoundOr(err error, kind, name, where string) error {
	if apierrors.IsNotFound(err) {
		return lockErrorf(safetyv1alpha1.AgentPlanProfileNotFoundReason, "%s %q named by %s does not exist", kind, name, where)
	}
	return fmt.Errorf("reading %s %q: %w", kind, name, err)
}

func sourceOf(kind string, o client.Object) safetyv1alpha1.ObjectSource {
	return safetyv1alpha1.ObjectSource{
		Kind: kind, Namespace: o.GetNamespace(), Name: o.GetName(), UID: string(o.GetUID()),
		ResourceVersion: o.GetResourceVersion(), Generation: o.GetGeneration(),
	}
}

// ResolveSnapshot is the snapshot plan would be locked with from the objects r holds: the same
// resolution (plan > action > project > global, allowedProfiles ceiling) the plan controller
// runs. internal/replay calls it with the ledger's configuration history and candidate policies.
// An error that only says why the plan cannot be locked reads like the Locked condition.
func ResolveSnapshot(ctx context.Context, r client.Reader, plan *safetyv1alpha1.AgentPlan) (*safetyv1alpha1.PlanSnapshot, error) {
	return resolver{reader: r}.snapshot(ctx, plan)
}
