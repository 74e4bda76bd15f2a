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

// ProjectAction is a named kind of work in a project, with its own profile.
type ProjectAction struct {
	// name of the action; AgentPlans select it with spec.action.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// +required
	Name string `json:"name"`

	// profileRef is the profile for plans of this action; it outranks the project's profile.
	// +optional
	ProfileRef *ProfileRef `json:"profileRef,omitempty"`
}

// ProjectCommand is a command the project recognises, so the autonomy mapping need not ask for it.
type ProjectCommand struct {
	// id names the command uniquely within the project.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$`
	// +required
	ID string `json:"id"`

	// command is the exact command line, such as "make test" or "go test ./...".
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	// +required
	Command string `json:"command"`

	// requireConfirmation, when true, makes the command need a person's approval each time.
	// +optional
	RequireConfirmation bool `json:"requireConfirmation,omitempty"`
}

// RuleAction is what a damage-control rule does when it matches.
// +kubebuilder:validation:Enum=Block;Ask
type RuleAction string

const (
	// RuleActionBlock denies the call.
	RuleActionBlock RuleAction = "Block"
	// RuleActionAsk admits the call only with a person's approval.
	RuleActionAsk RuleAction = "Ask"
)

// CommandRule is a project damage-control rule over each simple command of a shell call.
type CommandRule struct {
	// id names the rule uniquely within the project; denials name it.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$`
	// +required
	ID string `json:"id"`

	// pattern is an RE2 regular expression matched against each normalised simple command.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	// +required
	Pattern string `json:"pattern"`

	// action is Block or Ask.
	// +required
	Action RuleAction `json:"action"`

	// reason is shown to the agent when the rule matches.
	// +kubebuilder:validation:MaxLength=256
	// +optional
	Reason string `json:"reason,omitempty"`
}

// ArgumentRule is a CEL expression over a call's arguments that must hold for the call to be
// admitted; a call for which it is false, or cannot be evaluated, is denied ToolArgumentRuleViolated.
type ArgumentRule struct {
	// name identifies the rule uniquely within the project; denials name it.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$`
	// +required
	Name string `json:"name"`

	// tools are the AgentTools the rule applies to (exact names). Empty: every tool.
	// +listType=set
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=253
	// +optional
	Tools []string `json:"tools,omitempty"`

	// expression is a CEL expression that must evaluate to true, for example
	// "args.amount > 0 && args.amount < 400" or
	// "args.recipient.matches('^[a-z0-9._+-]+@example[.]com$')". Its variables: args (map of
	// spec.arguments.extra), command (string), paths (list of strings) and cwd (string), both
	// resolved as the engine resolves them, and tool (string). An expression that does not compile, or whose estimated cost
	// exceeds the per-rule limit, is refused at admission. A missing key, a type mismatch or the
	// runtime cost limit while evaluating denies the call: a rule never admits by failing.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=4096
	// +required
	Expression string `json:"expression"`

	// message is shown to the agent when the rule is false. Default: the expression.
	// +kubebuilder:validation:MaxLength=256
	// +optional
	Message string `json:"message,omitempty"`
}

// PathPolicy lists glob patterns (relative to the project root, "**" allowed) by what they forbid.
type PathPolicy struct {
	// zeroAccess paths may be neither read nor written nor deleted.
	// +listType=set
	// +kubebuilder:validation:MaxItems=128
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=512
	// +optional
	ZeroAccess []string `json:"zeroAccess,omitempty"`
	// readOnly paths may be read but not written or deleted.
	// +listType=set
	// +kubebuilder:validation:MaxItems=128
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=512
	// +optional
	ReadOnly []string `json:"readOnly,omitempty"`
	// noWrite paths may be read and deleted but not written.
	// +listType=set
	// +kubebuilder:validation:MaxItems=128
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=512
	// +optional
	NoWrite []string `json:"noWrite,omitempty"`
	// noDelete paths may be read and written but not deleted.
	// +listType=set
	// +kubebuilder:validation:MaxItems=128
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=512
	// +optional
	NoDelete []string `json:"noDelete,omitempty"`
}

// ProjectPolicySpec is a project's policy. A namespace is a project; the policy applies to every
// AgentPlan in the namespace.
type ProjectPolicySpec struct {
	// profileRef is the project's profile; plans and actions that name none use it.
	// +optional
	ProfileRef *ProfileRef `json:"profileRef,omitempty"`

	// allowedProfiles, when set, are the only profiles the namespace's plans, its actions and its
	// own profileRef may name: the ceiling on what a plan's author (whoever it is) can choose. A
	// plan or ProjectPolicy naming another is refused at admission (ProfileNotAllowed), and a plan
	// created before the list changed fails to lock. The global default AutomationProfile, which
	// the platform team sets cluster-wide, is not capped. Unset: no ceiling.
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=64
	// +optional
	AllowedProfiles []ProfileRef `json:"allowedProfiles,omitempty"`

	// actions are the named kinds of work plans may select, each with an optional profile.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=64
	// +optional
	Actions []ProjectAction `json:"actions,omitempty"`

	// commands the project recognises.
	// +listType=map
	// +listMapKey=id
	// +kubebuilder:validation:MaxItems=128
	// +optional
	Commands []ProjectCommand `json:"commands,omitempty"`

	// commandRules are damage-control rules added to toolgate's default rule pack.
	// +listType=map
	// +listMapKey=id
	// +kubebuilder:validation:MaxItems=128
	// +optional
	CommandRules []CommandRule `json:"commandRules,omitempty"`

	// pathPolicy adds path rules to toolgate's defaults (.env, ~/.ssh/, *.pem and similar).
	// +optional
	PathPolicy *PathPolicy `json:"pathPolicy,omitempty"`

	// workspace is the absolute directory the project's files live in on the agents' machines
	// (e.g. /workspace/app): a fact the platform states, where a call's cwd is the agent's to
	// choose. An absolute, clean path below / (no "." or ".." parts, no trailing or doubled
	// slash), at most 1024 characters. Setting it:
	// - makes it (and every directory above it) a project directory wherever the call runs from:
	//   a recursive read, copy or archive of it (grep -r, a Grep of it, cp -r, tar) needs human
	//   approval, since it may hold .env, and a recursive delete of it, or rm of every file in it,
	//   is denied, since it holds .git and README.md;
	// - at Default autonomy, makes a read-class call that names an absolute or home path outside
	//   it ask for a person (autonomy:read-outside-workspace), and a git command run in a
	//   directory outside it ask (git opens the repository it finds there);
	// - is the working directory of calls that name none, and relative cwds, paths and writeRoots
	//   resolve against it; writes inside it are not escalated to system_modify, and extracting
	//   or copying a tree into it is not asked about.
	// Unset: only each call's own working directory is taken for the project.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:XValidation:rule="self.startsWith('/')",message="must be an absolute path"
	// +kubebuilder:validation:XValidation:rule="self != '/'",message="must name a directory below /"
	// +kubebuilder:validation:XValidation:rule="!self.matches('(^|/)[.][.]?(/|$)') && !self.contains('//') && !self.endsWith('/')",message="must be a clean path: no '.' or '..' parts, no doubled or trailing '/'"
	// +optional
	Workspace string `json:"workspace,omitempty"`

	// writeRoots, when set, confine writes to these directories (absolute, under ~/, or relative
	// to workspace); under confinement, tools that execute commands are denied.
	// +listType=set
	// +kubebuilder:validation:MaxItems=32
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=512
	// +optional
	WriteRoots []string `json:"writeRoots,omitempty"`

	// argumentRules are CEL expressions over a call's arguments, each of which must hold. They
	// are compiled once when a plan locks its snapshot; editing them later does not change a
	// running plan.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=64
	// +optional
	ArgumentRules []ArgumentRule `json:"argumentRules,omitempty"`
}

// ProjectPolicyStatus is the observed state of a ProjectPolicy.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.settled) || has(self.settled)",message="settled spend never goes away: deleting a plan never gives its budget back",fieldPath=".settled",reason=FieldValueForbidden
type ProjectPolicyStatus struct {
	// observedGeneration is the generation the controller last processed.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// totalCost is what the project has spent, in US dollars, as a plain decimal: settled.cost
	// (the plans already deleted) plus the accumulated cost of every plan that exists, as the
	// operator last summed it. maxTotalCost is checked against the same sum.
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^[0-9]+(\.[0-9]{1,9})?$`
	// +optional
	TotalCost string `json:"totalCost,omitempty"`

	// settled is the spend of the project's deleted plans. Each plan is settled into it exactly
	// once, when it is deleted, so deleting a plan never gives its budget back.
	// +optional
	Settled *SettledPlans `json:"settled,omitempty"`

	// plans counts the project's AgentPlans.
	// +optional
	Plans int32 `json:"plans,omitempty"`

	// conditions: Ready says whether the policy compiles and its references resolve.
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// MaxSettlingPlans bounds status.settled.uids: the settled plans whose objects still exist.
const MaxSettlingPlans = 1024

// SettledPlans is the spend of a project's deleted plans. It only grows.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.plans) || (has(self.plans) && self.plans >= oldSelf.plans)",message="settled plans never decrease",fieldPath=".plans",reason=FieldValueForbidden
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.cost) || (has(self.cost) && quantity(self.cost).compareTo(quantity(oldSelf.cost)) >= 0)",message="settled cost never decreases",fieldPath=".cost",reason=FieldValueForbidden
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.calls) || (has(self.calls) && self.calls >= oldSelf.calls)",message="settled calls never decrease",fieldPath=".calls",reason=FieldValueForbidden
type SettledPlans struct {
	// cost is the exact sum of the accumulated cost of the deleted plans, in US dollars.
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:Pattern=`^[0-9]+(\.[0-9]{1,9})?$`
	// +optional
	Cost string `json:"cost,omitempty"`

	// plans is the number of deleted plans settled.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Plans int64 `json:"plans,omitempty"`

	// calls is the number of admitted calls of the deleted plans.
	// +kubebuilder:validation:Minimum=0
	// +optional
	Calls int64 `json:"calls,omitempty"`

	// uids are the settled plans whose objects still existed when the policy was last written
	// (their finalizer being released); they are counted here and not again. A uid is dropped
	// once its plan is gone.
	// +listType=set
	// +kubebuilder:validation:MaxItems=1024
	// +kubebuilder:validation:items:MaxLength=128
	// +optional
	UIDs []string `json:"uids,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=pp,categories=toolgate
// +kubebuilder:validation:XValidation:rule="self.metadata.name == 'project'",message="a namespace holds one ProjectPolicy, and it must be named project",reason=FieldValueInvalid
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || has(self.status)",message="status never goes away: it holds the settled spend of deleted plans",fieldPath=".status",reason=FieldValueForbidden
// +kubebuilder:printcolumn:name="Profile",type=string,JSONPath=`.spec.profileRef.name`
// +kubebuilder:printcolumn:name="Plans",type=integer,JSONPath=`.status.plans`
// +kubebuilder:printcolumn:name="Total-Cost",type=string,JSONPath=`.status.totalCost`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// ProjectPolicy is the policy of the project a namespace holds (one per namespace, named "project"): its profile, named actions,
// recognised commands, extra damage-control rules, path policy and write roots.
type ProjectPolicy struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitzero"`

	// spec holds the project's policy.
	// +required
	Spec ProjectPolicySpec `json:"spec"`

	// status is written by the operator.
	// +optional
	Status ProjectPolicyStatus `json:"status,omitzero"`
}

// +kubebuilder:object:root=true

// ProjectPolicyList contains a list of ProjectPolicy.
type ProjectPolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []ProjectPolicy `json:"items"`
}

func init() {
	SchemeBuilder.Register(func(s *runtime.Scheme) error {
		s.AddKnownTypes(SchemeGroupVersion, &ProjectPolicy{}, &ProjectPolicyList{})
		return nil
	})
}
