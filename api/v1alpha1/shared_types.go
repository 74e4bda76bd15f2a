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

// EnforcementMode says what a profile does with a call that fails a check.
// +kubebuilder:validation:Enum=Enforce;Warn;Audit
type EnforcementMode string

const (
	// EnforcementModeEnforce denies the call.
	EnforcementModeEnforce EnforcementMode = "Enforce"
	// EnforcementModeWarn admits the call with an admission warning naming the reason.
	EnforcementModeWarn EnforcementMode = "Warn"
	// EnforcementModeAudit admits the call silently; the ledger records would_deny.
	EnforcementModeAudit EnforcementMode = "Audit"
)

// ProfileKind names the kind a ProfileRef points at.
// +kubebuilder:validation:Enum=AutomationProfile;SafetyProfile
type ProfileKind string

const (
	// ProfileKindAutomationProfile refers to an AutomationProfile (autonomy plus safety).
	ProfileKindAutomationProfile ProfileKind = "AutomationProfile"
	// ProfileKindSafetyProfile refers to a SafetyProfile (safety only, autonomy Default).
	ProfileKindSafetyProfile ProfileKind = "SafetyProfile"
)

// ProfileRef points at a cluster-scoped AutomationProfile or SafetyProfile.
type ProfileRef struct {
	// kind is AutomationProfile (the default) or SafetyProfile.
	// +kubebuilder:default=AutomationProfile
	// +optional
	Kind ProfileKind `json:"kind,omitempty"`

	// name is the name of the referenced cluster-scoped profile.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$`
	// +required
	Name string `json:"name"`
}

// ObjectSource identifies one object a snapshot was resolved from, exactly as it was read.
type ObjectSource struct {
	// kind of the source object.
	// +kubebuilder:validation:MaxLength=63
	// +required
	Kind string `json:"kind"`
	// namespace of the source object; empty for cluster-scoped kinds.
	// +kubebuilder:validation:MaxLength=63
	// +optional
	Namespace string `json:"namespace,omitempty"`
	// name of the source object.
	// +kubebuilder:validation:MaxLength=253
	// +required
	Name string `json:"name"`
	// uid of the source object when it was read.
	// +kubebuilder:validation:MaxLength=64
	// +optional
	UID string `json:"uid,omitempty"`
	// resourceVersion of the source object when it was read.
	// +kubebuilder:validation:MaxLength=64
	// +optional
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// generation of the source object when it was read.
	// +optional
	Generation int64 `json:"generation,omitempty"`
}
