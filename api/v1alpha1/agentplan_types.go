/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// AgentPlanSpec describes a unit of agent work. It is immutable: a plan's policy is fixed when it
// starts.
// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="spec is immutable; create a new AgentPlan instead",reason=FieldValueForbidden
type AgentPlanSpec struct {
	// serviceAccountName is the ServiceAccount, in the plan's namespace, whose token the agent uses.
	// Calls from any other identity are denied.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$`
	// +required
	ServiceAccountName string `json:"serviceAccountName"`

	// profileRef is the plan's own profile; it outranks the action's, the project's and the global one.
	// +optional
	ProfileRef *ProfileRef `json:"profileRef,omitempty"`

	// action names one of the project's ProjectPolicy actions; its profile outranks the project's.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// +optional
	Action string `json:"action,omitempty"`

	// readOnly, when true, denies every tool that writes, whatever the profile says.
	// +optional
	ReadOnly bool `json:"readOnly,omitempty"`

	// requireCheckpoints, when true, requires checkpointable writing tools even when the profile does not.
	// +optional
	RequireCheckpoints bool `json:"requireCheckpoints,omitempty"`

	// description says what the plan is for.
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	Description string `json:"description,omitempty"`

	// podName binds the plan to one Pod of its namespace, the agent's: calls are then admitted
	// only from a token bound to that Pod (a projected ServiceAccount token, whose claims carry
	// the Pod's name and UID), and the plan locks only once the Pod exists and runs as
	// serviceAccountName. The Pod's UID is recorded when the plan locks (status.snapshot.podUID),
	// so a Pod recreated under the same name is not the plan's. A plan without podName is the
	// only active pod-less plan its ServiceAccount may have in the namespace.
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$`
	// +optional
	PodName string `json:"podName,omitempty"`

	// activeDeadlineSeconds is how long the plan is active, counted from its creation (like a
	// Job's): afterwards every call is denied PlanExpired and the Active condition is False.
	// Default 86400 (one day).
	// +kubebuilder:default=86400
	// +kubebuilder:validation:Minimum=1
	// +optional
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty"`
}

// DefaultActiveDeadlineSeconds is a plan's active deadline when spec.activeDeadlineSeconds is unset.
const DefaultActiveDeadlineSeconds int64 = 86400

// Provenance is the precedence level that supplied a plan's profile.
// +kubebuilder:validation:Enum=Plan;Action;Project;Global;Default
type Provenance string

const (
	ProvenancePlan    Provenance = "Plan"
	ProvenanceAction  Provenance = "Action"
	ProvenanceProject Provenance = "Project"
	ProvenanceGlobal  Provenance = "Global"
	// ProvenanceDefault means no level named a profile and the specification's default applied
	// (Global provenance in the specification's terms).
	ProvenanceDefault Provenance = "Default"
)

// PlanSnapshot is the effective policy locked into a plan when it started.
type PlanSnapshot struct {
	// provenance is the level that supplied the profile.
	// +required
	Provenance Provenance `json:"provenance"`

	// profileName is the name of the profile that level named; empty for the default.
	// +kubebuilder:validation:MaxLength=253
	// +optional
	ProfileName string `json:"profileName,omitempty"`

	// level is the autonomy level in effect.
	// +required
	Level AutonomyLevel `json:"level"`

	// safety is the effective safety profile, with every default filled in.
	// +required
	Safety SafetyProfileSpec `json:"safety"`

	// project is the project policy in effect, copied when the plan locked; unset when the
	// namespace has none.
	// +optional
	Project *ProjectPolicySpec `json:"project,omitempty"`

	// sources are the objects the snapshot was resolved from, exactly as they were read.
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=8
	// +optional
	Sources []ObjectSource `json:"sources,omitempty"`

	// hash is "sha256:" and the hex digest of the canonical encoding of the effective policy.
	// Equal policies have equal hashes.
	// +kubebuilder:validation:MaxLength=80
	// +required
	Hash string `json:"hash"`

	// lockedAt is when the snapshot was taken.
	// +required
	LockedAt metav1.Time `json:"lockedAt"`

	// epoch counts locks of this plan: 1 for the first, incremented by each authorised re-lock.
	// +kubebuilder:validation:Minimum=1
	// +required
	Epoch int32 `json:"epoch"`

	// relockToken is the value of the safety.toolgate.dev/relock annotation this lock answered.
	// +kubebuilder:validation:MaxLength=253
	// +optional
	RelockToken string `json:"relockToken,omitempty"`

	// podUID is the UID of the Pod spec.podName named when the plan locked; calls must come
	// from a token bound to a Pod with this UID. Empty for a plan without podName.
	// +kubebuilder:validation:MaxLength=128
	// +optional
	PodUID string `json:"podUID,omitempty"`
}

// PinnedTool is what a plan sees of one AgentTool: its capabilities as they were when the plan
// first used the tool. Later edits of the AgentTool apply to new plans and to a re-lock, which
// clears every pin, never silently to a running plan.
type PinnedTool struct {
	// name of the AgentTool.
	// +kubebuilder:validation:MaxLength=253
	// +required
	Name string `json:"name"`
	// uid of the AgentTool when it was pinned.
	// +kubebuilder:validation:MaxLength=128
	// +optional
	UID string `json:"uid,omitempty"`
	// generation of the AgentTool when it was pinned.
	// +optional
	Generation int64 `json:"generation,omitempty"`
	// writes is the AgentTool's spec.writes as pinned.
	// +required
	Writes bool `json:"writes"`
	// unsafe is the AgentTool's spec.unsafe as pinned.
	// +optional
	Unsafe bool `json:"unsafe,omitempty"`
	// checkpointable is the AgentTool's spec.checkpointable as pinned.
	// +optional
	Checkpointable bool `json:"checkpointable,omitempty"`
	// actionClass is the AgentTool's spec.actionClass as pinned.
	// +required
	ActionClass ActionClass `json:"actionClass"`
	// skillCategory is the AgentTool's spec.skillCategory as pinned.
	// +kubebuilder:validation:MaxLength=63
	// +optional
	SkillCategory string `json:"skillCategory,omitempty"`
	// pinnedAt is when the plan first used the tool.
	// +required
	PinnedAt metav1.Time `json:"pinnedAt"`
	// epoch is the snapshot epoch the pin belongs to.
	// +kubebuilder:validation:Minimum=1
	// +required
	Epoch int32 `json:"epoch"`
}

// MaxPinnedTools is how many distinct tools one plan may use (status.tools).
const MaxPinnedTools = 256

// StepUsage counts the attempts one step of a plan has made.
type StepUsage struct {
	// step is the step's identifier as calls give it.
	// +kubebuilder:validation:MaxLength=253
	// +required
	Step string `json:"step"`
	// attempts is the number of admitted calls for the step.
	// +required
	Attempts int32 `json:"attempts"`
}

// UsageFinalizer is the finalizer the plan controller puts on every AgentToolCall it counts. It
// holds a deleted call until the call's cost and attempt have been moved into its plan's
// status.usage.settled, so that deleting a call (by its TTL or by hand) never gives a plan back
// budget it has spent.
const UsageFinalizer = "safety.toolgate.dev/usage"

// MaxStepsPerPlan is how many distinct steps one plan may use; the webhook refuses a call for a
// new step beyond it (StepLimitExceeded), so usage.steps (at most 1024 entries) always fits.
const MaxStepsPerPlan = 1000

// MaxSettlingCalls bounds status.usage.settled.uids: the settled calls whose objects still exist.
const MaxSettlingCalls = 1024

// SettledUsage is the part of a plan's usage whose AgentToolCalls have been deleted (by the ledger
// controller after finishedCallTTLSeconds, or by hand). Each call is moved here exactly once, when
// it is deleted, so usage never goes down when calls go away. It only ever grows.
// +kubebuilder:validation:XValidation:rule="self.calls >= oldSelf.calls",message="settled calls never decrease",reason=FieldValueForbidden
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.accumulatedCost) || (has(self.accumulatedCost) && quantity(self.accumulatedCost).compareTo(quantity(oldSelf.accumulatedCost)) >= 0)",message="settled cost never decreases",reason=FieldValueForbidden
// +kubebuilder:validation:XValidation:rule="!has(self.uids) || size(self.uids) <= self.calls",message="every uid in settled.uids is a settled call"
type SettledUsage struct {
	// accumulatedCost is the exact sum of the cost of the settled calls, in US dollars, as a plain
	// decimal ("0.25"). It is included in usage.accumulatedCost.
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^[0-9]+(\.[0-9]{1,9})?$`
	// +optional
	AccumulatedCost string `json:"accumulatedCost,omitempty"`

	// calls is the number of settled calls. It is included in usage.calls.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Calls int64 `json:"calls,omitempty"`

	// steps counts the settled attempts per step. They are included in usage.steps, and the
	// admission webhook counts them against maxRetriesPerStep.
	// +listType=map
	// +listMapKey=step
	// +kubebuilder:validation:MaxItems=1024
	// +optional
	Steps []StepUsage `json:"steps,omitempty"`

	// uids are the UIDs of settled calls whose AgentToolCall objects still existed when the plan
	// was last reconciled (their finalizer was being released). Those calls are counted here and
	// not again from the cluster. A uid is dropped once its object is gone.
	// +listType=set
	// +kubebuilder:validation:MaxItems=1024
	// +kubebuilder:validation:items:MaxLength=128
	// +optional
	UIDs []string `json:"uids,omitempty"`
}

// PlanUsage is what the plan has really done, counted by the operator from AgentToolCalls. Each
// total is the settled part (calls already deleted) plus the calls that exist.
// +kubebuilder:validation:XValidation:rule="!has(self.settled) || self.calls >= self.settled.calls",message="calls include the settled calls"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.settled) || has(self.settled)",message="settled usage is never removed",reason=FieldValueForbidden
type PlanUsage struct {
	// accumulatedCost is the exact sum of the cost reported by the plan's calls, in US dollars, as a
	// plain decimal ("10.01"), so it reads as money in kubectl rather than as a quantity ("10010m").
	// It includes the cost of deleted (settled) calls.
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^[0-9]+(\.[0-9]{1,9})?$`
	// +optional
	AccumulatedCost string `json:"accumulatedCost,omitempty"`
	// calls is the number of admitted calls, deleted (settled) ones included.
	// +optional
	Calls int64 `json:"calls,omitempty"`
	// denials is the number of denied calls.
	// +optional
	Denials int64 `json:"denials,omitempty"`
	// steps counts attempts per step, deleted (settled) calls included.
	// +listType=map
	// +listMapKey=step
	// +kubebuilder:validation:MaxItems=1024
	// +optional
	Steps []StepUsage `json:"steps,omitempty"`
	// settled is the part of the usage above whose calls have been deleted. A call's cost and
	// attempt move here when it is deleted, so the totals never go down.
	// +optional
	Settled *SettledUsage `json:"settled,omitempty"`
}

// AgentPlanStatus is the observed state of an AgentPlan: its locked snapshot and its usage.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.tools) || (has(self.snapshot) && has(oldSelf.snapshot) && self.snapshot.epoch != oldSelf.snapshot.epoch) || oldSelf.tools.all(t, has(self.tools) && self.tools.exists(u, u == t))",message="a pinned tool never changes or goes away until the plan is re-locked",fieldPath=".tools",reason=FieldValueForbidden
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.snapshot) || (has(self.snapshot) && (self.snapshot == oldSelf.snapshot || self.snapshot.epoch == oldSelf.snapshot.epoch + 1))",message="the locked snapshot is immutable; only an authorised re-lock may replace it",fieldPath=".snapshot",reason=FieldValueForbidden
type AgentPlanStatus struct {
	// observedGeneration is the generation the controller last processed.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// snapshot is the policy locked into the plan. Until it is set, calls are denied PlanNotLocked.
	// +optional
	Snapshot *PlanSnapshot `json:"snapshot,omitempty"`

	// usage counts cost, calls, denials and attempts.
	// +optional
	Usage PlanUsage `json:"usage,omitzero"`

	// tools are the capabilities of every tool the plan has used, pinned at its first use of
	// each (by the admission webhook, with an optimistic lock, so the first writer wins).
	// Cleared by a re-lock.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=256
	// +optional
	Tools []PinnedTool `json:"tools,omitempty"`

	// conditions: Locked says whether the snapshot is set, and if not, why; Active whether the
	// plan is within its activeDeadlineSeconds.
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=plan,categories=toolgate
// +kubebuilder:printcolumn:name="Profile",type=string,JSONPath=`.status.snapshot.profileName`
// +kubebuilder:printcolumn:name="Provenance",type=string,JSONPath=`.status.snapshot.provenance`
// +kubebuilder:printcolumn:name="Snapshot",type=string,JSONPath=`.status.snapshot.hash`,priority=1
// +kubebuilder:printcolumn:name="Locked",type=string,JSONPath=`.status.conditions[?(@.type=="Locked")].status`
// +kubebuilder:printcolumn:name="Active",type=string,JSONPath=`.status.conditions[?(@.type=="Active")].status`
// +kubebuilder:printcolumn:name="Pod",type=string,JSONPath=`.spec.podName`,priority=1
// +kubebuilder:printcolumn:name="Cost",type=string,JSONPath=`.status.usage.accumulatedCost`
// +kubebuilder:printcolumn:name="Calls",type=integer,JSONPath=`.status.usage.calls`
// +kubebuilder:printcolumn:name="Denied",type=integer,JSONPath=`.status.usage.denials`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// AgentPlan is a unit of agent work. When it starts, the operator resolves its profile (plan >
// action > project > global) and locks the result into status.snapshot; later profile edits never
// change a running plan.
type AgentPlan struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitzero"`

	// spec describes the work.
	// +required
	Spec AgentPlanSpec `json:"spec"`

	// status holds the locked snapshot and usage.
	// +optional
	Status AgentPlanStatus `json:"status,omitzero"`
}

// +kubebuilder:object:root=true

// AgentPlanList contains a list of AgentPlan.
type AgentPlanList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []AgentPlan `json:"items"`
}

func init() {
	SchemeBuilder.Register(func(s *runtime.Scheme) error {
		s.AddKnownTypes(SchemeGroupVersion, &AgentPlan{}, &AgentPlanList{})
		return nil
	})
}
