package main

import (
	"context"
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// offlineCluster holds the objects of `test` in memory and runs the operator's own plan controller
// on them, so a plan is locked offline exactly as the operator locks it in the cluster: the same
// precedence (plan > action > project > global > default), the same built-in SafetyProfiles, the
// same snapshot and hash, the same usage accounting from the plan's calls.
//
// The store is controller-runtime's in-memory client. Unlike the API server it neither defaults nor
// validates with the CRD schema; the plan controller converts profiles with the same defaults the
// schema applies, and rejects invalid ones the way it does in the cluster.
type offlineCluster struct {
	c client.Client
}

// newOfflineCluster stores objs (calls included, except the one under test), registers the
// operator's field indexes and writes the built-in SafetyProfiles as the manager does at start-up.
func newOfflineCluster(ctx context.Context, scheme *runtime.Scheme, objs []client.Object) (*offlineCluster, error) {
	// Pods only for standInPod; the files' core objects were skipped when they were read.
	if err := corev1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	b := fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).WithStatusSubresource(
		&safetyv1alpha1.AgentPlan{}, &safetyv1alpha1.AgentToolCall{}, &safetyv1alpha1.SafetyProfile{},
		&safetyv1alpha1.AutomationProfile{}, &safetyv1alpha1.ProjectPolicy{}, &safetyv1alpha1.AgentTool{},
		&safetyv1alpha1.ToolApproval{}).
		WithIndex(&safetyv1alpha1.AgentToolCall{}, controller.CallPlanIndex, controller.IndexCallPlan).
		// The fields the API server selects by (a ServiceAccount's plans, a plan's approvals): the
		// in-memory client selects by an index of the same name instead.
		WithIndex(&safetyv1alpha1.AgentPlan{}, safetyv1alpha1.AgentPlanServiceAccountField,
			controller.IndexPlanServiceAccount).
		WithIndex(&safetyv1alpha1.ToolApproval{}, safetyv1alpha1.ToolApprovalPlanField, controller.IndexApprovalPlan)
	if err := controller.SetupIndexes(ctx, builderIndexer{b}); err != nil {
		return nil, err
	}
	oc := &offlineCluster{c: b.Build()}
	if err := controller.EnsureBuiltins(ctx, oc.c); err != nil {
		return nil, err
	}
	return oc, nil
}

// builderIndexer registers the operator's field indexes (controller.SetupIndexes) with the
// in-memory client, so the plan controller lists a plan's calls the way it does with a cache.
type builderIndexer struct{ b *fake.ClientBuilder }

func (i builderIndexer) IndexField(_ context.Context, obj client.Object, field string, fn client.IndexerFunc) error {
	i.b.WithIndex(obj, field, fn)
	return nil
}

// lockPlans runs the plan controller once over every plan without a snapshot: it locks the plan
// (or records on its Locked condition why it cannot) and accounts its usage from its calls. Plans
// given with a snapshot are left as they are, as the operator leaves a locked plan.
func (oc *offlineCluster) lockPlans(ctx context.Context) error {
	var plans safetyv1alpha1.AgentPlanList
	if err := oc.c.List(ctx, &plans); err != nil {
		return err
	}
	r := &controller.AgentPlanReconciler{
		Client: oc.c, APIReader: oc.c, Clock: clock.RealClock{}, Recorder: discardEvents{},
	}
	for _, p := range plans.Items {
		if p.Status.Snapshot != nil {
			continue
		}
		if err := oc.standInPod(ctx, &p); err != nil {
			return err
		}
		if _, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(&p)}); err != nil {
			return fmt.Errorf("locking plan %s/%s as the operator does: %w", p.Namespace, p.Name, err)
		}
	}
	return oc.countCalls(ctx)
}

// countCalls gives every plan that comes without usage counters the counts the admission webhook
// would have kept for the calls given with it: one admitted call and attempt each, its tool's
// costPerCall reserved, and its status.cost as reported (offline, every report is trusted: the
// files are what the user says happened).
func (oc *offlineCluster) countCalls(ctx context.Context) error {
	var plans safetyv1alpha1.AgentPlanList
	if err := oc.c.List(ctx, &plans); err != nil {
		return err
	}
	for i := range plans.Items {
		p := &plans.Items[i]
		if p.Status.Usage.Calls > 0 {
			continue
		}
		var calls safetyv1alpha1.AgentToolCallList
		ofPlan := client.MatchingFields{controller.CallPlanIndex: p.Name}
		if err := oc.c.List(ctx, &calls, client.InNamespace(p.Namespace), ofPlan); err != nil {
			return err
		}
		if len(calls.Items) == 0 {
			continue
		}
		u, err := policy.UsageOf(p)
		if err != nil {
			return err
		}
		for j := range calls.Items {
			c := &calls.Items[j]
			reserve := safety.Money{}
			tool := &safetyv1alpha1.AgentTool{}
			if err := oc.c.Get(ctx, client.ObjectKey{Name: c.Spec.Tool}, tool); err == nil {
				if reserve, err = policy.CostPerCall(tool); err != nil {
					return err
				}
			}
			if err := u.CountStored(c.Spec.Step, reserve, c.Status.Cost); err != nil {
				return inputErrorf("AgentToolCall %s/%s: status.cost: %v", c.Namespace, c.Name, err)
			}
		}
		u.Into(&p.Status.Usage)
		if err := oc.c.Status().Update(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// standInPod stores the pod a plan names (spec.podName) unless the files hold it: which pod a
// call comes from is identity, which `test` does not model, so the call is evaluated as if it came
// from the plan's pod, running as the plan's ServiceAccount.
func (oc *offlineCluster) standInPod(ctx context.Context, plan *safetyv1alpha1.AgentPlan) error {
	if plan.Spec.PodName == "" {
		return nil
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: plan.Namespace, Name: plan.Spec.PodName,
		UID: offlineUID("Pod", plan.Namespace, plan.Spec.PodName)},
		Spec: corev1.PodSpec{ServiceAccountName: plan.Spec.ServiceAccountName}}
	if err := oc.c.Create(ctx, pod); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("standing in for Pod %s/%s of plan %s: %w", plan.Namespace, plan.Spec.PodName, plan.Name, err)
	}
	return nil
}

// lockFailure explains, from its Locked condition, why the plan controller did not lock a plan.
func lockFailure(plan *safetyv1alpha1.AgentPlan) error {
	c := meta.FindStatusCondition(plan.Status.Conditions, safetyv1alpha1.AgentPlanLockedCondition)
	if c == nil {
		return inputErrorf("AgentPlan %s/%s was not locked, and says nothing about why", plan.Namespace, plan.Name)
	}
	return inputErrorf("AgentPlan %s/%s cannot be locked: [%s] %s (in the cluster every call of the plan is denied %s "+
		"until it is)", plan.Namespace, plan.Name, c.Reason, c.Message, "PlanNotLocked")
}

// discardEvents drops the plan controller's events: offline there is nobody to read them, and the
// Locked condition carries what they say.
type discardEvents struct{}

func (discardEvents) Eventf(runtime.Object, runtime.Object, string, string, string, string, ...any) {}

func (discardEvents) AnnotatedEventf(runtime.Object, runtime.Object, map[string]string,
	string, string, string, string, ...any) {
}

// input is what `test` read, sorted by role.
type input struct {
	call    *safetyv1alpha1.AgentToolCall
	callAt  *inputObject
	plan    *safetyv1alpha1.AgentPlan // nil when the files hold none
	stored  []client.Object           // everything else, as it would be stored in the cluster
	profile []*inputObject            // SafetyProfiles and AutomationProfiles, in input order
	notes   []string
}

// sortInput picks the call under test (--call, or the last AgentToolCall), puts every namespaced
// object without a namespace into the call's namespace (or --namespace, or "default"), names the
// calls that have only a generateName and rejects duplicates and objects the operator would ignore.
func sortInput(objs []*inputObject, opts *testOptions) (*input, error) {
	in := &input{}
	var err error
	if in.callAt, err = pickCall(objs, opts); err != nil {
		return nil, err
	}
	in.call = in.callAt.obj.(*safetyv1alpha1.AgentToolCall)
	ns := opts.namespace
	if ns == "" {
		ns = in.call.Namespace
	}
	if ns == "" {
		ns = "default"
	}
	if in.call.Namespace != "" && in.call.Namespace != ns {
		return nil, inputErrorf("%s is in namespace %s, not in --namespace %s", in.callAt.where(), in.call.Namespace, ns)
	}
	if err := checkCall(in.callAt); err != nil {
		return nil, err
	}
	seen := map[string]*inputObject{}
	for i, o := range objs {
		if err := place(o, ns, i); err != nil {
			return nil, err
		}
		key := o.kind + " " + o.obj.GetName()
		if o.obj.GetNamespace() != "" {
			key = o.kind + " " + o.obj.GetNamespace() + "/" + o.obj.GetName()
		}
		if first, dup := seen[key]; dup {
			return nil, inputErrorf("%s: %s is also in %s, document %d", o.where(), key, first.file, first.doc)
		}
		seen[key] = o
		if err := in.add(o); err != nil {
			return nil, err
		}
	}
	return in, nil
}

func pickCall(objs []*inputObject, opts *testOptions) (*inputObject, error) {
	var calls []*inputObject
	for _, o := range objs {
		if o.kind == "AgentToolCall" {
			calls = append(calls, o)
		}
	}
	switch {
	case len(calls) == 0:
		return nil, inputErrorf("no AgentToolCall in %s: give the call to test", strings.Join(opts.files, ", "))
	case opts.call != "":
		i := slices.IndexFunc(calls, func(o *inputObject) bool { return o.obj.GetName() == opts.call })
		if i < 0 {
			return nil, inputErrorf("--call %s: no AgentToolCall of that name in the files", opts.call)
		}
		return calls[i], nil
	}
	return calls[len(calls)-1], nil
}

// add files one placed object under its role.
func (in *input) add(o *inputObject) error {
	switch p := o.obj.(type) {
	case *safetyv1alpha1.ProjectPolicy:
		if p.Name != controller.ProjectPolicyName {
			return inputErrorf("%s: the operator reads only the ProjectPolicy named %q of a namespace; name it %q",
				o.where(), controller.ProjectPolicyName, controller.ProjectPolicyName)
		}
	case *safetyv1alpha1.SafetyProfile:
		if _, builtin := safety.Builtin(p.Name); builtin {
			in.notes = append(in.notes, fmt.Sprintf("%s is a built-in profile; the operator restores built-ins, "+
				"so the built-in spec applies, not this one", o.where()))
		}
		in.profile = append(in.profile, o)
	case *safetyv1alpha1.AutomationProfile:
		in.profile = append(in.profile, o)
	case *safetyv1alpha1.AgentPlan:
		if p.Namespace == in.call.Namespace && p.Name == in.call.Spec.Plan {
			in.plan = p
			return nil
		}
	}
	if o != in.callAt {
		in.stored = append(in.stored, o.obj)
	}
	return nil
}

func checkCall(o *inputObject) error {
	call := o.obj.(*safetyv1alpha1.AgentToolCall)
	var missing []string
	fields := map[string]string{"spec.plan": call.Spec.Plan, "spec.tool": call.Spec.Tool, "spec.step": call.Spec.Step}
	for field, v := range fields {
		if v == "" {
			missing = append(missing, field)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		verb := " are required"
		if len(missing) == 1 {
			verb = " is required"
		}
		return inputErrorf("%s: %s", o.where(), strings.Join(missing, " and ")+verb)
	}
	return nil
}

// place puts a namespaced object into ns when it has no namespace, clears the namespace of a
// cluster-scoped one, gives an object with only a generateName a name, every object a uid and the
// schema's defaults, as storing it in the cluster would.
func place(o *inputObject, ns string, i int) error {
	obj := o.obj
	if testKinds[o.kind] {
		if obj.GetNamespace() == "" {
			obj.SetNamespace(ns)
		}
	} else {
		obj.SetNamespace("")
	}
	if obj.GetName() == "" {
		if obj.GetGenerateName() == "" {
			return inputErrorf("%s, document %d: %s: metadata.name is required", o.file, o.doc, o.kind)
		}
		obj.SetName(fmt.Sprintf("%s%d", obj.GetGenerateName(), i))
	}
	if obj.GetUID() == "" {
		obj.SetUID(offlineUID(o.kind, obj.GetNamespace(), obj.GetName()))
	}
	schemaDefaults(obj)
	return nil
}

// planFor returns the plan under test: the one in the files, or, when there is none, the plan the
// call names with the profile chosen by choosePlanProfile. --profile and --action replace the plan's
// own choice (and so make the plan be locked afresh); --read-only and --require-checkpoints set its
// flags.
func planFor(in *input, opts *testOptions) (*safetyv1alpha1.AgentPlan, error) {
	plan := in.plan
	if plan == nil {
		plan = &safetyv1alpha1.AgentPlan{
			ObjectMeta: metav1.ObjectMeta{Namespace: in.call.Namespace, Name: in.call.Spec.Plan},
			Spec:       safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "agent"},
		}
		plan.SetUID(offlineUID("AgentPlan", plan.Namespace, plan.Name))
		ref, err := choosePlanProfile(in, opts)
		if err != nil {
			return nil, err
		}
		plan.Spec.ProfileRef = ref
	} else if opts.profile != "" {
		ref, err := profileRef(in, opts.profile)
		if err != nil {
			return nil, err
		}
		plan.Spec.ProfileRef, plan.Status.Snapshot = ref, nil
	}
	if opts.action != "" {
		plan.Spec.Action, plan.Status.Snapshot = opts.action, nil
		if in.plan == nil && opts.profile == "" {
			plan.Spec.ProfileRef = nil
		}
	}
	plan.Spec.ReadOnly = plan.Spec.ReadOnly || opts.readOnly
	plan.Spec.RequireCheckpoints = plan.Spec.RequireCheckpoints || opts.requireCheckpoints
	return plan, nil
}

// choosePlanProfile is the profileRef of a plan the files do not hold: the profile --profile names;
// otherwise the one profile of the files that nothing else names (an AutomationProfile's
// SafetyProfile, the ProjectPolicy's profiles and the default AutomationProfile are already
// reachable by precedence); otherwise none, and precedence decides.
func choosePlanProfile(in *input, opts *testOptions) (*safetyv1alpha1.ProfileRef, error) {
	if opts.profile != "" {
		return profileRef(in, opts.profile)
	}
	named := map[string]bool{}
	for _, o := range in.stored {
		switch p := o.(type) {
		case *safetyv1alpha1.AutomationProfile:
			if p.Spec.SafetyProfileRef != nil {
				named["SafetyProfile/"+p.Spec.SafetyProfileRef.Name] = true
			}
			if p.Annotations[safetyv1alpha1.DefaultAutomationProfileAnnotation] == "true" {
				named["AutomationProfile/"+p.Name] = true
			}
		case *safetyv1alpha1.ProjectPolicy:
			refs := []*safetyv1alpha1.ProfileRef{p.Spec.ProfileRef}
			for _, a := range p.Spec.Actions {
				refs = append(refs, a.ProfileRef)
			}
			for _, r := range refs {
				if r != nil {
					named[refKey(r)] = true
				}
			}
		}
	}
	var candidates []*inputObject
	for _, o := range in.profile {
		if !named[o.kind+"/"+o.obj.GetName()] {
			candidates = append(candidates, o)
		}
	}
	switch len(candidates) {
	case 0:
		return nil, nil
	case 1:
		c := candidates[0]
		return &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKind(c.kind), Name: c.obj.GetName()}, nil
	}
	names := make([]string, 0, len(candidates))
	for _, c := range candidates {
		names = append(names, c.kind+"/"+c.obj.GetName())
	}
	return nil, inputErrorf("the files hold %d profiles the call's plan could use (%s) and no AgentPlan %q; "+
		"choose one with --profile", len(candidates), strings.Join(names, ", "), in.call.Spec.Plan)
}

func refKey(r *safetyv1alpha1.ProfileRef) string {
	kind := r.Kind
	if kind == "" {
		kind = safetyv1alpha1.ProfileKindAutomationProfile
	}
	return string(kind) + "/" + r.Name
}

// profileRef resolves --profile: KIND/NAME, or a NAME that is an AutomationProfile or a
// SafetyProfile of the files, or a built-in SafetyProfile.
func profileRef(in *input, arg string) (*safetyv1alpha1.ProfileRef, error) {
	kind, name, hasKind := strings.Cut(arg, "/")
	if hasKind {
		switch k := safetyv1alpha1.ProfileKind(kind); k {
		case safetyv1alpha1.ProfileKindSafetyProfile, safetyv1alpha1.ProfileKindAutomationProfile:
			return &safetyv1alpha1.ProfileRef{Kind: k, Name: name}, nil
		}
		return nil, inputErrorf("--profile %s: the kind must be SafetyProfile or AutomationProfile", arg)
	}
	name = kind
	var kinds []string
	for _, o := range in.profile {
		if o.obj.GetName() == name {
			kinds = append(kinds, o.kind)
		}
	}
	if _, ok := safety.Builtin(name); ok && !slices.Contains(kinds, "SafetyProfile") {
		kinds = append(kinds, "SafetyProfile")
	}
	switch len(kinds) {
	case 0:
		return nil, inputErrorf("--profile %s: no SafetyProfile or AutomationProfile of that name in the files, "+
			"and no built-in (%s)", name, strings.Join(safety.BuiltinNames(), ", "))
	case 1:
		return &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKind(kinds[0]), Name: name}, nil
	}
	return nil, inputErrorf("--profile %s: both an AutomationProfile and a SafetyProfile have that name; "+
		"say which with KIND/NAME", name)
}

// getStored reads an object of the in-memory store; false when the files do not hold it.
func getStored(ctx context.Context, c client.Reader, key client.ObjectKey, obj client.Object) (bool, error) {
	err := c.Get(ctx, key, obj)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}

// offlineUID is the uid of an object read without one: derived from its kind, namespace and name,
// so the same files give the same output every time.
func offlineUID(kind, namespace, name string) types.UID {
	h := sha256.Sum256([]byte(kind + "/" + namespace + "/" + name))
	return types.UID(fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16]))
}
