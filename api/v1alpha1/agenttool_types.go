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

// ActionClass is what kind of effect a tool has, from the reference safety domain's classifier.
// +kubebuilder:validation:Enum=read;write;delete;execute;dispatch;system_modify;unknown
type ActionClass string

const (
	ActionClassRead         ActionClass = "read"
	ActionClassWrite        ActionClass = "write"
	ActionClassDelete       ActionClass = "delete"
	ActionClassExecute      ActionClass = "execute"
	ActionClassDispatch     ActionClass = "dispatch"
	ActionClassSystemModify ActionClass = "system_modify"
	ActionClassUnknown      ActionClass = "unknown"
)

// AgentToolSpec is what the cluster knows about a tool. The webhook takes these facts from here,
// never from the agent's call. The object's name is the tool's name that calls refer to.
// +kubebuilder:validation:XValidation:rule="!has(self.checkpointable) || !self.checkpointable || self.writes",message="only a tool that writes can be checkpointable",fieldPath=".checkpointable",reason=FieldValueInvalid
// +kubebuilder:validation:XValidation:rule="self.actionClass != 'delete' || self.writes",message="a tool that deletes writes: set writes to true",fieldPath=".writes",reason=FieldValueInvalid
type AgentToolSpec struct {
	// description says what the tool does.
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	Description string `json:"description,omitempty"`

	// writes is true when the tool can modify files, systems or other state. Writing tools are
	// denied in read-only plans and subject to the sandbox and checkpoint requirements.
	// +required
	Writes bool `json:"writes"`

	// unsafe marks a tool that profiles deny unless they set allowUnsafeTools. Default false.
	// +kubebuilder:default=false
	// +optional
	Unsafe bool `json:"unsafe,omitempty"`

	// checkpointable is true when the tool's writes can be checkpointed and rolled back, which
	// satisfies requireCheckpoints. Only a writing tool can be checkpointable. Default false.
	// +kubebuilder:default=false
	// +optional
	Checkpointable bool `json:"checkpointable,omitempty"`

	// actionClass classifies the tool's effect: read, write, delete (removes the paths it is
	// given, with everything below them; the path policy's noDelete and zeroAccess entries apply,
	// and the tool must set writes), execute (runs commands, whose arguments are then parsed and
	// checked), dispatch, system_modify or unknown.
	// +required
	ActionClass ActionClass `json:"actionClass"`

	// skillCategory is the category profiles' allowedSkillCategories match against. A tool
	// without one is denied by any profile that lists categories.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$`
	// +optional
	SkillCategory string `json:"skillCategory,omitempty"`

	// costPerCall is what one call of the tool costs, in US dollars, as an exact decimal ("0.02").
	// It is reserved when a call is admitted and counts at once toward the plan's maxCostPerPlan
	// and the project's maxTotalCost, so parallel calls cannot overrun a budget unseen. A cost the
	// plan's costReporter reports replaces it only when larger. Unset: calls reserve nothing.
	// +kubebuilder:validation:XValidation:rule="!string(self).startsWith('-')",message="must not be negative"
	// +kubebuilder:validation:XValidation:rule="!string(self).matches('[.][0-9]{10,}')",message="must have at most 9 decimal places"
	// +kubebuilder:validation:XValidation:rule="string(self).startsWith('-') || quantity(string(self)).compareTo(quantity('1000000000')) <= 0",message="must be at most 1000000000"
	// +optional
	CostPerCall *resource.Quantity `json:"costPerCall,omitempty"`

	// maxCostPerCall is the most one call of the tool costs, in US dollars, as an exact decimal
	// ("2.50"), for a tool whose upstream states each call's cost (a ToolServer's reportsCost
	// tool). A call the upstream may have run but whose cost toolgate-gateway could not read (its
	// answer over the gateway's bound or past its budget for answers held at once, no usable cost
	// stated, an error, the call timed out or its connection was lost after it was sent) is
	// reported at this (or at costPerCall, if that is larger) instead of costPerCall, so that no
	// call is cheaper because its cost went unread. A stated cost above it is still reported as
	// stated: a plan is charged more, never less. For a plan that names a costReporter, under a
	// budget, each call also holds this, less costPerCall, from its admission until the
	// reporter's move of it to a final phase with a cost, or for 15 minutes, after which it costs
	// this: held, it counts toward maxCostPerPlan and maxTotalCost, so calls in flight together
	// (through several gateway replicas, or reported by another reporter) cannot overrun a budget
	// unseen. Pinned in the plan with the rest of the tool. Unset: such calls cost costPerCall, and
	// hold nothing.
	// +kubebuilder:validation:XValidation:rule="!string(self).startsWith('-')",message="must not be negative"
	// +kubebuilder:validation:XValidation:rule="!string(self).matches('[.][0-9]{10,}')",message="must have at most 9 decimal places"
	// +kubebuilder:validation:XValidation:rule="string(self).startsWith('-') || quantity(string(self)).compareTo(quantity('1000000000')) <= 0",message="must be at most 1000000000"
	// +optional
	MaxCostPerCall *resource.Quantity `json:"maxCostPerCall,omitempty"`
}

// AgentToolStatus is the observed state of an AgentTool.
type AgentToolStatus struct {
	// observedGeneration is the generation the controller last processed.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// conditions of the tool registration.
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=atool,categories=toolgate
// +kubebuilder:printcolumn:name="Class",type=string,JSONPath=`.spec.actionClass`
// +kubebuilder:printcolumn:name="Writes",type=boolean,JSONPath=`.spec.writes`
// +kubebuilder:printcolumn:name="Unsafe",type=boolean,JSONPath=`.spec.unsafe`
// +kubebuilder:printcolumn:name="Checkpointable",type=boolean,JSONPath=`.spec.checkpointable`
// +kubebuilder:printcolumn:name="Category",type=string,JSONPath=`.spec.skillCategory`
// +kubebuilder:printcolumn:name="Cost",type=string,JSONPath=`.spec.costPerCall`
// +kubebuilder:printcolumn:name="Max-Cost",type=string,JSONPath=`.spec.maxCostPerCall`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// AgentTool registers a tool agents may ask to run, with its capabilities. A call for a tool that
// is not registered is denied.
type AgentTool struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitzero"`

	// spec holds the tool's capabilities.
	// +required
	Spec AgentToolSpec `json:"spec"`

	// status is written by the operator.
	// +optional
	Status AgentToolStatus `json:"status,omitzero"`
}

// +kubebuilder:object:root=true

// AgentToolList contains a list of AgentTool.
type AgentToolList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []AgentTool `json:"items"`
}

func init() {
	SchemeBuilder.Register(func(s *runtime.Scheme) error {
		s.AddKnownTypes(SchemeGroupVersion, &AgentTool{}, &AgentToolList{})
		return nil
	})
}
