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

// SafetyProfileSpec holds the hard safety constraints of a profile: binary invariants that apply
// whatever the agent's confidence. Defaults follow the reference specification's default profile.
// +kubebuilder:validation:XValidation:rule="!has(self.allowedTools) || !has(self.deniedTools) || self.allowedTools.all(t, !(t in self.deniedTools))",message="a tool pattern cannot be both allowed and denied",fieldPath=".allowedTools",reason=FieldValueInvalid
type SafetyProfileSpec struct {
	// description says what the profile is for, in a sentence.
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	Description string `json:"description,omitempty"`

	// requireSandbox, when true (the default), denies a tool that writes unless the call names a sandboxId.
	// Read-only tools are not affected.
	// +kubebuilder:default=true
	// +optional
	RequireSandbox *bool `json:"requireSandbox,omitempty"`

	// requireCheckpoints, when true (the default), denies a tool that writes unless the tool is
	// checkpointable. Read-only tools have nothing to checkpoint and are not affected.
	// +kubebuilder:default=true
	// +optional
	RequireCheckpoints *bool `json:"requireCheckpoints,omitempty"`

	// allowUnsafeTools, when false (the default), denies tools registered as unsafe.
	// +kubebuilder:default=false
	// +optional
	AllowUnsafeTools *bool `json:"allowUnsafeTools,omitempty"`

	// requireHumanApproval, when true, denies every call that no person has approved. Default false.
	// +kubebuilder:default=false
	// +optional
	RequireHumanApproval *bool `json:"requireHumanApproval,omitempty"`

	// readOnly, when true, denies every tool that writes, as if each plan using the profile were
	// read-only. Default false. The built-in read-only profile sets it.
	// +kubebuilder:default=false
	// +optional
	ReadOnly *bool `json:"readOnly,omitempty"`

	// allowedSkillCategories lists the skill categories a tool may belong to. Empty or unset allows
	// every category; when set, a tool without a category is denied.
	// +listType=set
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:MaxLength=63
	// +kubebuilder:validation:items:Pattern=`^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$`
	// +optional
	AllowedSkillCategories []string `json:"allowedSkillCategories,omitempty"`

	// allowedTools, when set, admits only tools whose name matches one of these glob patterns
	// (for example "read-*"). deniedTools is checked first and wins.
	// +listType=set
	// +kubebuilder:validation:MaxItems=128
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=253
	// +optional
	AllowedTools []string `json:"allowedTools,omitempty"`

	// deniedTools denies tools whose name matches one of these glob patterns, even when allowedTools
	// matches them too.
	// +listType=set
	// +kubebuilder:validation:MaxItems=128
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=253
	// +optional
	DeniedTools []string `json:"deniedTools,omitempty"`

	// maxCostPerPlan is the most a plan may spend, in US dollars, as an exact decimal string such as
	// "25" or "0.50". A call is denied once the plan's accumulated cost reaches it. Unset: no limit.
	// +kubebuilder:validation:XValidation:rule="!string(self).startsWith('-')",message="must not be negative"
	// +kubebuilder:validation:XValidation:rule="quantity(string(self)).compareTo(quantity('1000000000')) <= 0",message="must be at most 1000000000"
	// +kubebuilder:validation:XValidation:rule="!string(self).matches('[.][0-9]{10,}')",message="must have at most 9 decimal places"
	// +optional
	MaxCostPerPlan *resource.Quantity `json:"maxCostPerPlan,omitempty"`

	// maxTotalCost is the most a project may spend across all its plans, in US dollars. A call is
	// denied once the project's total cost reaches it. Unset: no limit.
	// +kubebuilder:validation:XValidation:rule="!string(self).startsWith('-')",message="must not be negative"
	// +kubebuilder:validation:XValidation:rule="quantity(string(self)).compareTo(quantity('1000000000')) <= 0",message="must be at most 1000000000"
	// +kubebuilder:validation:XValidation:rule="!string(self).matches('[.][0-9]{10,}')",message="must have at most 9 decimal places"
	// +optional
	MaxTotalCost *resource.Quantity `json:"maxTotalCost,omitempty"`

	// maxRetriesPerStep is how many attempts one step of a plan may make beyond the first before
	// calls for it are denied (0-100, default 3).
	// +kubebuilder:default=3
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	// +optional
	MaxRetriesPerStep *int32 `json:"maxRetriesPerStep,omitempty"`

	// maxStepsPerPlan is how many distinct steps a plan that declares no spec.steps may use
	// (1-1000, default 100); a call for a new step beyond them is denied StepLimitExceeded, so an
	// agent cannot escape maxRetriesPerStep by inventing step names.
	// +kubebuilder:default=100
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000
	// +optional
	MaxStepsPerPlan *int32 `json:"maxStepsPerPlan,omitempty"`

	// enforcementMode is Enforce (the default: deny), Warn (admit with a warning naming the reason)
	// or Audit (admit silently). Under Warn and Audit the ledger records would_deny.
	// +kubebuilder:default=Enforce
	// +optional
	EnforcementMode EnforcementMode `json:"enforcementMode,omitempty"`
}

// SafetyProfileStatus is the observed state of a SafetyProfile.
type SafetyProfileStatus struct {
	// observedGeneration is the generation the controller last processed.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// lockedPlans counts the AgentPlans whose locked snapshot was resolved from this profile.
	// +optional
	LockedPlans int32 `json:"lockedPlans,omitempty"`

	// conditions: Ready says whether the profile compiles.
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=sp,categories=toolgate
// +kubebuilder:printcolumn:name="Sandbox",type=boolean,JSONPath=`.spec.requireSandbox`
// +kubebuilder:printcolumn:name="Checkpoints",type=boolean,JSONPath=`.spec.requireCheckpoints`
// +kubebuilder:printcolumn:name="Unsafe",type=boolean,JSONPath=`.spec.allowUnsafeTools`
// +kubebuilder:printcolumn:name="Approval",type=boolean,JSONPath=`.spec.requireHumanApproval`
// +kubebuilder:printcolumn:name="Max-Cost",type=string,JSONPath=`.spec.maxCostPerPlan`
// +kubebuilder:printcolumn:name="Mode",type=string,JSONPath=`.spec.enforcementMode`
// +kubebuilder:printcolumn:name="Plans",type=integer,JSONPath=`.status.lockedPlans`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// SafetyProfile is a named set of hard safety constraints for agent tool calls. Plans lock the
// profile they resolve, so editing a profile affects only plans that start afterwards.
type SafetyProfile struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitzero"`

	// spec holds the constraints.
	// +required
	Spec SafetyProfileSpec `json:"spec"`

	// status is written by the operator.
	// +optional
	Status SafetyProfileStatus `json:"status,omitzero"`
}

// +kubebuilder:object:root=true

// SafetyProfileList contains a list of SafetyProfile.
type SafetyProfileList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []SafetyProfile `json:"items"`
}

func init() {
	SchemeBuilder.Register(func(s *runtime.Scheme) error {
		s.AddKnownTypes(SchemeGroupVersion, &SafetyProfile{}, &SafetyProfileList{})
		return nil
	})
}
