package policy

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

func TestPlanActive(t *testing.T) {
	created := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	plan := func(deadline *int64, deleting bool) *safetyv1alpha1.AgentPlan {
		p := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{CreationTimestamp: metav1.NewTime(created)},
			Spec: safetyv1alpha1.AgentPlanSpec{ActiveDeadlineSeconds: deadline}}
		if deleting {
			p.DeletionTimestamp = new(metav1.NewTime(created))
		}
		return p
	}
	for _, tc := range []struct {
		name string
		plan *safetyv1alpha1.AgentPlan
		at   time.Duration
		want bool
	}{
		{"default deadline, a second before", plan(nil, false), 24*time.Hour - time.Second, true},
		{"default deadline, at it", plan(nil, false), 24 * time.Hour, false},
		{"one second, just after creation", plan(new(int64(1)), false), 0, true},
		{"one second, at it", plan(new(int64(1)), false), time.Second, false},
		{"being deleted", plan(nil, true), 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := PlanActive(tc.plan, created.Add(tc.at)); got != tc.want {
				t.Errorf("PlanActive = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestBindingConflict(t *testing.T) {
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	mk := func(name, sa, pod string, locked bool, age time.Duration) safetyv1alpha1.AgentPlan {
		p := safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("uid-" + name), CreationTimestamp: metav1.NewTime(now.Add(-age))},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: sa, PodName: pod}}
		if locked {
			p.Status.Snapshot = &safetyv1alpha1.PlanSnapshot{Epoch: 1}
		}
		return p
	}
	newPlan := mk("new", "agent", "", false, 0)
	for _, tc := range []struct {
		name       string
		plan       safetyv1alpha1.AgentPlan
		others     []safetyv1alpha1.AgentPlan
		lockedOnly bool
		want       string
	}{
		{"another active pod-less plan of the ServiceAccount", newPlan, []safetyv1alpha1.AgentPlan{mk("old", "agent", "", false, time.Hour)}, false, "old"},
		{"only locked ones count for the controller", newPlan, []safetyv1alpha1.AgentPlan{mk("old", "agent", "", false, time.Hour)}, true, ""},
		{"a locked one counts for the controller", newPlan, []safetyv1alpha1.AgentPlan{mk("old", "agent", "", true, time.Hour)}, true, "old"},
		{"itself", newPlan, []safetyv1alpha1.AgentPlan{newPlan}, false, ""},
		{"an expired plan", newPlan, []safetyv1alpha1.AgentPlan{mk("old", "agent", "", true, 25*time.Hour)}, false, ""},
		{"a pod-bound plan: a pod-less plan stands alone", newPlan, []safetyv1alpha1.AgentPlan{mk("old", "agent", "pod", true, time.Hour)}, false, "old"},
		{"an ended pod-bound plan", newPlan, []safetyv1alpha1.AgentPlan{mk("old", "agent", "pod", true, 25*time.Hour)}, false, ""},
		{"another ServiceAccount's", newPlan, []safetyv1alpha1.AgentPlan{mk("old", "other", "", true, time.Hour)}, false, ""},
		{"the new plan names a pod beside a pod-less one", mk("new", "agent", "pod", false, 0), []safetyv1alpha1.AgentPlan{mk("old", "agent", "", true, time.Hour)}, false, "old"},
		{"the new plan names a pod beside another ServiceAccount's pod-less one", mk("new", "agent", "pod", false, 0), []safetyv1alpha1.AgentPlan{mk("old", "other", "", true, time.Hour)}, false, ""},
		{"another active plan of the same pod", mk("new", "agent", "pod", false, 0), []safetyv1alpha1.AgentPlan{mk("old", "agent", "pod", false, time.Hour)}, false, "old"},
		{"a plan of another pod", mk("new", "agent", "pod", false, 0), []safetyv1alpha1.AgentPlan{mk("old", "agent", "pod-2", true, time.Hour)}, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if other := BindingConflict(&tc.plan, tc.others, now, tc.lockedOnly); other != nil {
				got = other.Name
			}
			if got != tc.want {
				t.Errorf("BindingConflict = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestProfileAllowed(t *testing.T) {
	sp := func(n string) *safetyv1alpha1.ProfileRef {
		return &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: n}
	}
	ap := func(n string) *safetyv1alpha1.ProfileRef { return &safetyv1alpha1.ProfileRef{Name: n} } // kind defaults to AutomationProfile
	allowed := []safetyv1alpha1.ProfileRef{*sp("sandboxed"), {Kind: safetyv1alpha1.ProfileKindAutomationProfile, Name: "careful"}}
	for _, tc := range []struct {
		name    string
		allowed []safetyv1alpha1.ProfileRef
		ref     *safetyv1alpha1.ProfileRef
		want    bool
	}{
		{"listed", allowed, sp("sandboxed"), true},
		{"listed, kind defaulted", allowed, ap("careful"), true},
		{"same name, other kind", allowed, ap("sandboxed"), false},
		{"not listed", allowed, sp("unrestricted"), false},
		{"no reference", allowed, nil, true},
		{"no ceiling", nil, sp("unrestricted"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ProfileAllowed(tc.allowed, tc.ref); got != tc.want {
				t.Errorf("ProfileAllowed = %v, want %v", got, tc.want)
			}
		})
	}
	spec := &safetyv1alpha1.ProjectPolicySpec{AllowedProfiles: allowed, ProfileRef: sp("unrestricted"),
		Actions: []safetyv1alpha1.ProjectAction{{Name: "ok", ProfileRef: sp("sandboxed")}, {Name: "bad", ProfileRef: ap("yolo")}}}
	errs := ValidateAllowedProfiles(spec, field.NewPath("spec"))
	fields := make([]string, 0, len(errs))
	for _, e := range errs {
		fields = append(fields, e.Field)
	}
	if len(fields) != 2 || fields[0] != "spec.profileRef" || fields[1] != "spec.actions[1].profileRef" {
		t.Errorf("fields = %v, want [spec.profileRef spec.actions[1].profileRef]", fields)
	}
}

func TestCallerPlanHoldsAPodToItsEndedPlan(t *testing.T) {
	now := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	mk := func(name, pod string, deadline int64) safetyv1alpha1.AgentPlan {
		return safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Name: name, CreationTimestamp: metav1.NewTime(now.Add(-time.Hour))},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "sa", PodName: pod, ActiveDeadlineSeconds: new(deadline)}}
	}
	ended, shared := mk("own", "p1", 60), mk("shared", "", 86400)
	if got, why := CallerPlan([]safetyv1alpha1.AgentPlan{ended, shared}, "sa", "p1", now); got != "" || why == "" {
		t.Errorf("CallerPlan = %q, %q; want none: the pod's plan ended", got, why)
	}
	if got, _ := CallerPlan([]safetyv1alpha1.AgentPlan{ended, shared}, "sa", "p2", now); got != "shared" {
		t.Errorf("CallerPlan for another pod = %q, want shared", got)
	}
	deleted := ended.DeepCopy()
	deleted.DeletionTimestamp = new(metav1.NewTime(now))
	if got, _ := CallerPlan([]safetyv1alpha1.AgentPlan{*deleted, shared}, "sa", "p1", now); got != "shared" {
		t.Errorf("CallerPlan after the pod's plan is deleted = %q, want shared", got)
	}
}
