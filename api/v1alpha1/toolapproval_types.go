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

// ToolApprovalSpec is a person's permission for one kind of tool call that needs human approval.
// It is immutable: to withdraw an approval, delete it.
// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="spec is immutable; delete the approval and create a new one",reason=FieldValueForbidden
// +kubebuilder:validation:XValidation:rule="!(has(self.arguments) && has(self.argumentsDigest))",message="set arguments or argumentsDigest, not both",fieldPath=".argumentsDigest"
type ToolApprovalSpec struct {
	// plan is the AgentPlan, in the same namespace, whose calls the approval admits.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +required
	Plan string `json:"plan"`

	// tool is the AgentTool the approved call runs.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +required
	Tool string `json:"tool"`

	// step, when set, limits the approval to calls for that plan step. Like a call's spec.step it
	// is a DNS label: an approval for a step no call can give would admit nothing.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",message="must be a DNS label, as a call's spec.step is: lower-case letters, digits and '-', starting and ending with a letter or digit"
	// +optional
	Step string `json:"step,omitempty"`

	// arguments, when set, limits the approval to calls with exactly these arguments (command,
	// paths and cwd; an empty object means a call without arguments). The approver sees what they
	// approve, and the ledger records it. The denial of such a call names them. A call's
	// projectDir, which only adds protection, is no part of what is approved, so an approval
	// cannot name one.
	// +kubebuilder:validation:XValidation:rule="!has(self.projectDir)",message="an approval matches a call's command, paths, cwd and extra; projectDir, which only adds protection, is not matched, so it cannot be set here"
	// +optional
	Arguments *ToolArguments `json:"arguments,omitempty"`

	// argumentsDigest, when set, limits the approval to calls whose arguments have this digest:
	// "sha256:" and the hex SHA-256 of their JSON encoding. Prefer arguments, which a person can
	// read; the digest is for tools that approve on a person's behalf.
	// +kubebuilder:validation:Pattern=`^sha256:[0-9a-f]{64}$`
	// +optional
	ArgumentsDigest string `json:"argumentsDigest,omitempty"`

	// approver is the user granting the approval. It must be the identity that creates the object
	// (the admission webhook checks it against the request), so it is a record of who approved.
	// A username, not an object name: a trusted ServiceAccount's is up to 339 characters.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=512
	// +required
	Approver string `json:"approver"`

	// reason says why the call is approved; it is written to the ledger.
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	Reason string `json:"reason,omitempty"`

	// expirationSeconds is how long after its creation the approval can be used. Default 3600.
	// +kubebuilder:default=3600
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=604800
	// +optional
	ExpirationSeconds int32 `json:"expirationSeconds,omitempty"`

	// uses is how many calls the approval admits. Default 1: a single-use approval.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	// +optional
	Uses int32 `json:"uses,omitempty"`
}

// ApprovalUse is one call an approval admitted.
type ApprovalUse struct {
	// call is the name of the AgentToolCall admitted.
	// +kubebuilder:validation:MaxLength=253
	// +required
	Call string `json:"call"`

	// requester is the identity that submitted the call: the plan's ServiceAccount, whose
	// username (system:serviceaccount:NAMESPACE:NAME) is up to 339 characters long.
	// +kubebuilder:validation:MaxLength=512
	// +required
	Requester string `json:"requester"`

	// time is when the call was admitted.
	// +required
	Time metav1.Time `json:"time"`
}

// ToolApprovalStatus records the approval's uses. Only the operator writes it.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.used) || (has(self.used) && self.used >= oldSelf.used)",message="used never decreases",fieldPath=".used",reason=FieldValueForbidden
type ToolApprovalStatus struct {
	// used is the number of calls the approval has admitted. It never decreases.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Used int32 `json:"used,omitempty"`

	// expiresAt is when the approval stops admitting calls (its creation plus
	// spec.expirationSeconds), written by the operator for people reading it; the gate computes
	// the same time from the object itself and never reads this field.
	// +optional
	ExpiresAt *metav1.Time `json:"expiresAt,omitempty"`

	// usedBy lists the calls the approval admitted, oldest first.
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=100
	// +optional
	UsedBy []ApprovalUse `json:"usedBy,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=approval,categories=toolgate
// +kubebuilder:printcolumn:name="Plan",type=string,JSONPath=`.spec.plan`
// +kubebuilder:printcolumn:name="Tool",type=string,JSONPath=`.spec.tool`
// +kubebuilder:printcolumn:name="Step",type=string,JSONPath=`.spec.step`
// +kubebuilder:printcolumn:name="Approver",type=string,JSONPath=`.spec.approver`
// +kubebuilder:printcolumn:name="Uses",type=integer,JSONPath=`.spec.uses`
// +kubebuilder:printcolumn:name="Used",type=integer,JSONPath=`.status.used`
// +kubebuilder:printcolumn:name="Expires",type=string,JSONPath=`.status.expiresAt`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:selectablefield:JSONPath=`.spec.plan`
// +kubebuilder:validation:XValidation:rule="!has(self.status) || !has(self.status.used) || self.status.used <= self.spec.uses",message="status.used must not exceed spec.uses",fieldPath=".status.used"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || has(self.status)",message="status cannot be removed: used never decreases",fieldPath=".status",reason=FieldValueForbidden

// ToolApproval is a person's approval for tool calls that a profile or a rule says need human
// approval. The webhook admits a matching call only while the approval is unexpired and has uses
// left, counts each use, and never accepts an approval created by the plan's own ServiceAccount.
type ToolApproval struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitzero"`

	// spec is what is approved, by whom, for how long and how many times.
	// +required
	Spec ToolApprovalSpec `json:"spec"`

	// status counts the uses.
	// +optional
	Status ToolApprovalStatus `json:"status,omitzero"`
}

// +kubebuilder:object:root=true

// ToolApprovalList contains a list of ToolApproval.
type ToolApprovalList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []ToolApproval `json:"items"`
}

func init() {
	SchemeBuilder.Register(func(s *runtime.Scheme) error {
		s.AddKnownTypes(SchemeGroupVersion, &ToolApproval{}, &ToolApprovalList{})
		return nil
	})
}
