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

// DefaultAutomationProfileAnnotation marks the one AutomationProfile that applies when neither the
// plan, its action nor its project names a profile, like a default StorageClass.
const DefaultAutomationProfileAnnotation = "safety.toolgate.dev/is-default"

// AutonomyLevel is how freely an agent may act once the safety net has passed.
// +kubebuilder:validation:Enum=Default;Yolo
type AutonomyLevel string

const (
	// AutonomyLevelDefault asks a person for system changes, unrecognised commands and other risky classes.
	AutonomyLevelDefault AutonomyLevel = "Default"
	// AutonomyLevelYolo admits everything the safety net admits.
	AutonomyLevelYolo AutonomyLevel = "Yolo"
)

// ConfidenceThresholds are integer percentages; toolgate never stores confidence as a float.
// +kubebuilder:validation:XValidation:rule="!has(self.ask) || !has(self.autoApprove) || self.ask <= self.autoApprove",message="ask must not exceed autoApprove",fieldPath=".ask",reason=FieldValueInvalid
type ConfidenceThresholds struct {
	// autoApprove is the confidence, in percent, at or above which an agent may act without asking.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	// +optional
	AutoApprove *int32 `json:"autoApprove,omitempty"`
	// ask is the confidence, in percent, below which the agent must stop rather than ask.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	// +optional
	Ask *int32 `json:"ask,omitempty"`
}

// AutomationProfileSpec combines an autonomy level with a safety profile, by reference or inline.
// +kubebuilder:validation:XValidation:rule="!(has(self.safetyProfileRef) && has(self.safety))",message="set safetyProfileRef or safety, not both",fieldPath=".safety",reason=FieldValueForbidden
type AutomationProfileSpec struct {
	// description says what the profile is for, in a sentence.
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	Description string `json:"description,omitempty"`

	// level is the autonomy level: Default asks a person for risky action classes, Yolo admits what
	// the safety net admits. Default: Default.
	// +kubebuilder:default=Default
	// +optional
	Level AutonomyLevel `json:"level,omitempty"`

	// confidenceThresholds are integer percentages recorded with the profile for orchestrators.
	// +optional
	ConfidenceThresholds *ConfidenceThresholds `json:"confidenceThresholds,omitempty"`

	// safetyProfileRef names the cluster-scoped SafetyProfile whose constraints apply.
	// +optional
	SafetyProfileRef *SafetyProfileReference `json:"safetyProfileRef,omitempty"`

	// safety holds the constraints inline. With neither safety nor safetyProfileRef the
	// specification's default safety profile applies.
	// +optional
	Safety *SafetyProfileSpec `json:"safety,omitempty"`
}

// SafetyProfileReference names a cluster-scoped SafetyProfile.
type SafetyProfileReference struct {
	// name of the SafetyProfile.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$`
	// +required
	Name string `json:"name"`
}

// AutomationProfileStatus is the observed state of an AutomationProfile.
type AutomationProfileStatus struct {
	// observedGeneration is the generation the controller last processed.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// lockedPlans counts the AgentPlans whose locked snapshot was resolved from this profile.
	// +optional
	LockedPlans int32 `json:"lockedPlans,omitempty"`

	// conditions: Ready says whether the profile and its SafetyProfile reference resolve.
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=ap,categories=toolgate
// +kubebuilder:printcolumn:name="Level",type=string,JSONPath=`.spec.level`
// +kubebuilder:printcolumn:name="Safety",type=string,JSONPath=`.spec.safetyProfileRef.name`
// +kubebuilder:printcolumn:name="Default",type=string,JSONPath=`.metadata.annotations.safety\.toolgate\.dev/is-default`
// +kubebuilder:printcolumn:name="Plans",type=integer,JSONPath=`.status.lockedPlans`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// AutomationProfile is an autonomy level plus safety constraints, chosen per plan, action, project
// or globally (the profile annotated safety.toolgate.dev/is-default: "true").
type AutomationProfile struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitzero"`

	// spec holds the autonomy level and the safety constraints.
	// +required
	Spec AutomationProfileSpec `json:"spec"`

	// status is written by the operator.
	// +optional
	Status AutomationProfileStatus `json:"status,omitzero"`
}

// +kubebuilder:object:root=true

// AutomationProfileList contains a list of AutomationProfile.
type AutomationProfileList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []AutomationProfile `json:"items"`
}

func init() {
	SchemeBuilder.Register(func(s *runtime.Scheme) error {
		s.AddKnownTypes(SchemeGroupVersion, &AutomationProfile{}, &AutomationProfileList{})
		return nil
	})
}
