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
	"k8s.io/apimachinery/pkg/api/resource"
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
	// only active plan its ServiceAccount may have in the namespace, pod-bound or not.
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$`
	// +optional
	PodName string `json:"podName,omitempty"`

	// activeDeadlineSeconds is how long the plan is active, counted from its creation (like a
	// Job's): afterwards every call is denied PlanExpired and the Active condition is False.
	// Default 86400 (one day), at most 31536000 (a year: unbounded, a value past 292 years
	// overflowed the deadline into the past, or to any moment).
	// +kubebuilder:default=86400
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=31536000
	// +optional
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty"`
	// steps, when set, are the only step names the plan's calls may give in spec.step; a call
	// naming any other step is denied StepNotInPlan. Unset, the plan may use at most its profile's
	// maxStepsPerPlan distinct steps (StepLimitExceeded beyond them). Each is a DNS label, like
	// spec.step, so a step cannot be respelled by case, spaces or look-alike characters.
	// +listType=set
	// +kubebuilder:validation:MaxItems=256
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=63
	// +kubebuilder:validation:items:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// +optional
	Steps []string `json:"steps,omitempty"`

	// costReporter is who reports what the plan's calls cost (an AgentToolCall's status.cost): a
	// metering service, an LLM proxy, the gateway. Only it may write status.cost, and a reported
	// cost counts only from it; a call's cost is the larger of its tool's costPerCall (reserved
	// when the call is admitted) and what the reporter reported. Unset, no one may report cost and
	// each call costs its reservation. Naming the plan's own ServiceAccount is trusting the agent
	// with its own budget.
	// +optional
	CostReporter *CostReporter `json:"costReporter,omitempty"`
}

// CostReporterKind is what kind of identity reports a plan's costs.
// +kubebuilder:validation:Enum=ServiceAccount;User
type CostReporterKind string

const (
	CostReporterServiceAccount CostReporterKind = "ServiceAccount"
	CostReporterUser           CostReporterKind = "User"
)

// CostReporter names the identity, as the API server authenticates it, that reports the cost of a
// plan's calls.
// +kubebuilder:validation:XValidation:rule="self.kind == 'ServiceAccount' || !has(self.__namespace__)",message="namespace is only for a ServiceAccount",fieldPath=".namespace",reason=FieldValueForbidden
// +kubebuilder:validation:XValidation:rule="self.kind != 'ServiceAccount' || self.name.matches('^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$')",message="a ServiceAccount's name is lower-case letters, digits, '-' and '.': no ServiceAccount has this one, so no report would ever count",fieldPath=".name",reason=FieldValueInvalid
type CostReporter struct {
	// kind is ServiceAccount or User.
	// +required
	Kind CostReporterKind `json:"kind"`

	// name is the ServiceAccount's name (a DNS subdomain), or the user's name exactly as the
	// API server authenticates it.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +required
	Name string `json:"name"`

	// namespace is the ServiceAccount's namespace; it defaults to the plan's. Only for a
	// ServiceAccount.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// +optional
	Namespace string `json:"namespace,omitempty"`
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

	// costPerCall is the tool's costPerCall when the plan first used it: what each of the plan's
	// calls of the tool reserves, whatever later edits of the AgentTool say.
	// +optional
	CostPerCall *resource.Quantity `json:"costPerCall,omitempty"`
	// maxCostPerCall is the tool's maxCostPerCall when the plan first used it: what a call of it
	// whose cost could not be read is reported at.
	// +optional
	MaxCostPerCall *resource.Quantity `json:"maxCostPerCall,omitempty"`
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
	// step is the step's name as calls give it (a DNS label).
	// +kubebuilder:validation:MaxLength=63
	// +required
	Step string `json:"step"`
	// attempts is the number of admitted calls for the step. It never decreases.
	// +kubebuilder:validation:Minimum=0
	// +required
	Attempts int32 `json:"attempts"`
}

// PlanFinalizer holds a deleted AgentPlan until its spend has been settled into its project's
// total (ProjectPolicy status.settled), so that deleting a plan never gives the project back
// budget it has spent.
const PlanFinalizer = "safety.toolgate.dev/project-total"

// DefaultMaxStepsPerPlan is the distinct steps a plan without declared steps may use when its
// profile does not say (maxStepsPerPlan).
const DefaultMaxStepsPerPlan = 100

// MaxStepsLimit is the largest maxStepsPerPlan a profile may set; usage.steps (at most 1024
// entries) always fits it.
const MaxStepsLimit = 1000

// PlanUsage is what the plan has done. Every counter only grows: the admission webhook adds to it
// when it admits a call (one attempt, one call, the tool's costPerCall reserved) and when the
// plan's costReporter reports a cost above the reservation, with optimistic concurrency, so the
// counts are exact whichever webhook replica admitted. Deleting calls never lowers them.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.calls) || (has(self.calls) && self.calls >= oldSelf.calls)",message="calls never decrease",fieldPath=".calls",reason=FieldValueForbidden
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.denials) || (has(self.denials) && self.denials >= oldSelf.denials)",message="denials never decrease",fieldPath=".denials",reason=FieldValueForbidden
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.accumulatedCost) || (has(self.accumulatedCost) && quantity(self.accumulatedCost).compareTo(quantity(oldSelf.accumulatedCost)) >= 0)",message="accumulatedCost never decreases",fieldPath=".accumulatedCost",reason=FieldValueForbidden
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.reservedCost) || (has(self.reservedCost) && quantity(self.reservedCost).compareTo(quantity(oldSelf.reservedCost)) >= 0)",message="reservedCost never decreases",fieldPath=".reservedCost",reason=FieldValueForbidden
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.reportedCost) || (has(self.reportedCost) && quantity(self.reportedCost).compareTo(quantity(oldSelf.reportedCost)) >= 0)",message="reportedCost never decreases",fieldPath=".reportedCost",reason=FieldValueForbidden
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.stepAttempts) || (has(self.stepAttempts) && oldSelf.stepAttempts.all(s, s in self.stepAttempts && self.stepAttempts[s] >= oldSelf.stepAttempts[s]))",message="a step's attempts never decrease",fieldPath=".stepAttempts",reason=FieldValueForbidden
type PlanUsage struct {
	// accumulatedCost is what the plan has spent, in US dollars, as a plain decimal ("10.01"): the
	// sum over its calls of the larger of the call's reservation and its reported cost. It is what
	// maxCostPerPlan is checked against.
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^[0-9]+(\.[0-9]{1,9})?$`
	// +optional
	AccumulatedCost string `json:"accumulatedCost,omitempty"`
	// reservedCost is the sum of the costPerCall reserved for the plan's admitted calls.
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^[0-9]+(\.[0-9]{1,9})?$`
	// +optional
	ReservedCost string `json:"reservedCost,omitempty"`
	// reportedCost is the sum of the costs the plan's costReporter reported.
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^[0-9]+(\.[0-9]{1,9})?$`
	// +optional
	ReportedCost string `json:"reportedCost,omitempty"`
	// calls is the number of admitted calls.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Calls int64 `json:"calls,omitempty"`
	// denials is the number of denied calls (flushed by each webhook replica about once a second).
	// +kubebuilder:validation:Minimum=0
	// +optional
	Denials int64 `json:"denials,omitempty"`
	// stepAttempts counts the admitted attempts per step, by step name. A map rather than a list
	// keyed by step: the API server's field tracking costs a keyed list several times what it
	// costs a map on every write of the plan's status (13.0 against 6.7 ms for 100 steps, measured
	// in docs/benchmarks.md), and the webhook writes it for every batch of admissions. Like the
	// other counters, no step's count may decrease nor a step go away (the rule on PlanUsage).
	// +kubebuilder:validation:MaxProperties=1024
	// +optional
	StepAttempts map[string]int32 `json:"stepAttempts,omitempty"`
	// steps is how plans locked before stepAttempts counted attempts. It is read, never written:
	// the webhook's next write of the plan moves its counts into stepAttempts and clears it, so
	// an upgrade keeps every count.
	// Deprecated: read stepAttempts.
	// +listType=map
	// +listMapKey=step
	// +kubebuilder:validation:MaxItems=1024
	// +optional
	Steps []StepUsage `json:"steps,omitempty"`
	// deleted is what the plan's calls that the finished-call TTL deleted counted, added before
	// each was deleted, in the same write as the counters above. The replica that starts deciding
	// the plan after another stopped counts the plan's calls that still exist and adds this, so a
	// call deleted after its counts were stored is not lost when the counts of later calls were
	// not (docs/webhook.md, "Counters across a change of the deciding replica"). Absent for a plan
	// none of whose calls were deleted, or whose status an operator of an earlier version wrote.
	// +optional
	Deleted *DeletedCalls `json:"deleted,omitempty"`
}

// MaxPendingDeletions bounds status.usage.deleted.pending: the calls counted into the deleted part
// and perhaps not deleted yet. A call is deleted only once it is listed; past the bound the next
// waits for room.
const MaxPendingDeletions = 256

// DeletedCalls is the part of a plan's usage that its deleted calls counted: per call what a
// recount of the call would have counted (one call, one attempt of its step, its reservation and
// its reported cost). Its counters only grow.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.calls) || (has(self.calls) && self.calls >= oldSelf.calls)",message="calls never decrease",fieldPath=".calls",reason=FieldValueForbidden
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.accumulatedCost) || (has(self.accumulatedCost) && quantity(self.accumulatedCost).compareTo(quantity(oldSelf.accumulatedCost)) >= 0)",message="accumulatedCost never decreases",fieldPath=".accumulatedCost",reason=FieldValueForbidden
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.reservedCost) || (has(self.reservedCost) && quantity(self.reservedCost).compareTo(quantity(oldSelf.reservedCost)) >= 0)",message="reservedCost never decreases",fieldPath=".reservedCost",reason=FieldValueForbidden
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.reportedCost) || (has(self.reportedCost) && quantity(self.reportedCost).compareTo(quantity(oldSelf.reportedCost)) >= 0)",message="reportedCost never decreases",fieldPath=".reportedCost",reason=FieldValueForbidden
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.stepAttempts) || (has(self.stepAttempts) && oldSelf.stepAttempts.all(s, s in self.stepAttempts && self.stepAttempts[s] >= oldSelf.stepAttempts[s]))",message="a step's attempts never decrease",fieldPath=".stepAttempts",reason=FieldValueForbidden
type DeletedCalls struct {
	// calls is the number of deleted calls counted here.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Calls int64 `json:"calls,omitempty"`
	// accumulatedCost is the sum over the deleted calls of the larger of reservation and reported
	// cost.
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^[0-9]+(\.[0-9]{1,9})?$`
	// +optional
	AccumulatedCost string `json:"accumulatedCost,omitempty"`
	// reservedCost is the sum of the deleted calls' reservations.
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^[0-9]+(\.[0-9]{1,9})?$`
	// +optional
	ReservedCost string `json:"reservedCost,omitempty"`
	// reportedCost is the sum of the deleted calls' reported costs.
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^[0-9]+(\.[0-9]{1,9})?$`
	// +optional
	ReportedCost string `json:"reportedCost,omitempty"`
	// stepAttempts counts the deleted calls per step.
	// +kubebuilder:validation:MaxProperties=1024
	// +optional
	StepAttempts map[string]int32 `json:"stepAttempts,omitempty"`
	// pending are the calls counted here that may not be deleted yet: a recount skips them, as
	// they are counted here already.
	// +listType=map
	// +listMapKey=uid
	// +kubebuilder:validation:MaxItems=256
	// +optional
	Pending []PendingDeletion `json:"pending,omitempty"`
}

// PendingDeletion is a call counted into the deleted part of its plan's usage, and the reported
// cost it was counted with.
type PendingDeletion struct {
	// uid is the call's metadata.uid.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	UID string `json:"uid"`
	// cost is the call's status.cost it was counted with, as a plain decimal; empty for none.
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^[0-9]+(\.[0-9]{1,9})?$`
	// +optional
	Cost string `json:"cost,omitempty"`
}

// AgentPlanStatus is the observed state of an AgentPlan: its locked snapshot and its usage.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.usage) || has(self.usage)",message="usage never goes away: its counters only grow",fieldPath=".usage",reason=FieldValueForbidden
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
// +kubebuilder:printcolumn:name="Lock-Reason",type=string,JSONPath=`.status.conditions[?(@.type=="Locked")].reason`,priority=1
// +kubebuilder:printcolumn:name="Active",type=string,JSONPath=`.status.conditions[?(@.type=="Active")].status`
// +kubebuilder:printcolumn:name="Agent",type=string,JSONPath=`.spec.serviceAccountName`,priority=1
// +kubebuilder:printcolumn:name="Pod",type=string,JSONPath=`.spec.podName`,priority=1
// +kubebuilder:printcolumn:name="Action",type=string,JSONPath=`.spec.action`,priority=1
// +kubebuilder:printcolumn:name="Cost",type=string,JSONPath=`.status.usage.accumulatedCost`
// +kubebuilder:printcolumn:name="Calls",type=integer,JSONPath=`.status.usage.calls`
// +kubebuilder:printcolumn:name="Denied",type=integer,JSONPath=`.status.usage.denials`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:selectablefield:JSONPath=`.spec.serviceAccountName`
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || has(self.status)",message="status never goes away: it holds the locked snapshot and counters that only grow",fieldPath=".status",reason=FieldValueForbidden

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
