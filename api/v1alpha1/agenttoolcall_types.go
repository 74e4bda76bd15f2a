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

// ToolArguments are the arguments of a call that toolgate's argument rules inspect.
type ToolArguments struct {
	// command is the shell command an execute-class tool runs. It is parsed, and every simple
	// command in it is checked against the damage-control rules and the path policy. At most
	// 8192 characters: a longer script belongs in a file the command runs.
	// +kubebuilder:validation:MaxLength=8192
	// +optional
	Command string `json:"command,omitempty"`

	// paths the tool reads, writes or deletes, relative to cwd or absolute: at most 32, each at
	// most 1024 characters.
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=32
	// +kubebuilder:validation:items:MaxLength=1024
	// +optional
	Paths []string `json:"paths,omitempty"`

	// cwd is the working directory the paths and command are relative to (at most 1024 characters).
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	Cwd string `json:"cwd,omitempty"`

	// projectDir is the agent's project directory as its front door knows it: toolgate-hook
	// sends Claude Code's CLAUDE_PROJECT_DIR, which the agent's own cd does not move. The engine
	// takes it, as it takes the ProjectPolicy's workspace and cwd, to hold the project's
	// protected files (.env, .git, README.md): a recursive read or copy of it (or of a directory
	// above it) needs human approval and a recursive delete of it is denied, wherever the call
	// runs from. Since the agent can set it, it only ever adds protection: nothing the workspace
	// relaxes (reads outside it, extractions into it, the working directory) follows from it.
	// An absolute path of at most 1024 characters.
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:XValidation:rule="self.startsWith('/')",message="must be an absolute path"
	// +optional
	ProjectDir string `json:"projectDir,omitempty"`

	// extra holds the tool's other arguments (those that are not the command, the paths or the
	// working directory) as one JSON object, for the ProjectPolicy's argumentRules (CEL) to check.
	// The admission webhook refuses, naming this field, an object larger than 16 KiB as canonical
	// JSON, nested deeper than 16 levels, holding more than 1024 values, repeating a key, or with
	// a key that is not in Unicode NFKC form or holds control or invisible format characters.
	// +kubebuilder:pruning:PreserveUnknownFields
	// +kubebuilder:validation:Type=object
	// +kubebuilder:validation:MaxProperties=256
	// +optional
	Extra *runtime.RawExtension `json:"extra,omitempty"`
}

// AgentToolCallSpec is one request to run one tool. It is immutable after creation.
// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="spec is immutable",reason=FieldValueForbidden
type AgentToolCallSpec struct {
	// plan is the name of the AgentPlan, in the same namespace, the call belongs to.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +required
	Plan string `json:"plan"`

	// tool is the name of the registered AgentTool to run.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +required
	Tool string `json:"tool"`

	// step identifies the plan step the call serves; retries of a step share it. It is a DNS
	// label (lower-case letters, digits and '-', at most 63 characters), so one step has one
	// spelling: "Build", "build " or a full-width "ｂｕｉｌｄ" are refused, not counted as new steps.
	// A plan that declares spec.steps admits only those; otherwise its profile's maxStepsPerPlan
	// bounds how many distinct steps it may use.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",message="must be a DNS label: lower-case letters, digits and '-', starting and ending with a letter or digit"
	// +required
	Step string `json:"step"`

	// sandboxId names the sandbox the tool runs in; writing tools need one under requireSandbox.
	// +kubebuilder:validation:MaxLength=253
	// +optional
	SandboxID string `json:"sandboxId,omitempty"`

	// arguments the argument rules inspect.
	// +optional
	Arguments ToolArguments `json:"arguments,omitzero"`
}

// CallPhase is where a tool call is in its life.
// +kubebuilder:validation:Enum=Admitted;Running;Succeeded;Failed
type CallPhase string

const (
	CallPhaseAdmitted  CallPhase = "Admitted"
	CallPhaseRunning   CallPhase = "Running"
	CallPhaseSucceeded CallPhase = "Succeeded"
	CallPhaseFailed    CallPhase = "Failed"
)

// AgentToolCallStatus is what the agent reports about the run of an admitted call.
type AgentToolCallStatus struct {
	// phase moves forward only: Admitted, Running, then Succeeded or Failed.
	// +optional
	Phase CallPhase `json:"phase,omitempty"`

	// cost is what the run cost, in US dollars, as an exact decimal string. It never decreases.
	// Only the plan's spec.costReporter may write it; the call then costs the larger of this and
	// its tool's costPerCall, which was reserved when it was admitted.
	// +kubebuilder:validation:XValidation:rule="!string(self).startsWith('-')",message="must not be negative"
	// +kubebuilder:validation:XValidation:rule="!string(self).matches('[.][0-9]{10,}')",message="must have at most 9 decimal places"
	// +kubebuilder:validation:XValidation:rule="string(self).startsWith('-') || quantity(string(self)).compareTo(quantity('1000000000')) <= 0",message="must be at most 1000000000"
	// +optional
	Cost *resource.Quantity `json:"cost,omitempty"`

	// finishedAt is when the run ended.
	// +optional
	FinishedAt *metav1.Time `json:"finishedAt,omitempty"`

	// conditions of the call: at most 4, each message at most 1024 characters.
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=4
	// +kubebuilder:validation:XValidation:rule="self.all(c, size(c.message) <= 1024)",message="a condition message is at most 1024 characters"
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=call,categories=toolgate
// +kubebuilder:printcolumn:name="Plan",type=string,JSONPath=`.spec.plan`
// +kubebuilder:printcolumn:name="Tool",type=string,JSONPath=`.spec.tool`
// +kubebuilder:printcolumn:name="Step",type=string,JSONPath=`.spec.step`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Cost",type=string,JSONPath=`.status.cost`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:selectablefield:JSONPath=`.spec.plan`
// +kubebuilder:selectablefield:JSONPath=`.status.phase`

// AgentToolCall is an agent's request to run one tool. toolgate's admission webhook admits it or
// denies it with a typed reason; a denied call is never stored.
type AgentToolCall struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitzero"`

	// spec is the request.
	// +required
	Spec AgentToolCallSpec `json:"spec"`

	// status is reported by the agent after the run.
	// +optional
	Status AgentToolCallStatus `json:"status,omitzero"`
}

// +kubebuilder:object:root=true

// AgentToolCallList contains a list of AgentToolCall.
type AgentToolCallList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []AgentToolCall `json:"items"`
}

func init() {
	SchemeBuilder.Register(func(s *runtime.Scheme) error {
		s.AddKnownTypes(SchemeGroupVersion, &AgentToolCall{}, &AgentToolCallList{})
		return nil
	})
}
