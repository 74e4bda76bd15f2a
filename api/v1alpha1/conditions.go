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

// Condition types.
const (
	// AgentPlanLockedCondition is True once the plan's snapshot is locked.
	AgentPlanLockedCondition = "Locked"
	// AgentPlanActiveCondition is True while the plan is within its activeDeadlineSeconds.
	AgentPlanActiveCondition = "Active"
	// ReadyCondition is True when a configuration object compiles and its references resolve.
	ReadyCondition = "Ready"
	// AuditLedgerVolumeNearlyFullCondition is True when the ledger's volume has little space left.
	AuditLedgerVolumeNearlyFullCondition = "VolumeNearlyFull"
	// CallCostFinalCondition, True on an AgentToolCall that carries a cost, is its plan's cost
	// reporter's word that the cost is final: it ends what the call holds (docs/webhook.md), also
	// on a call the agent already marked finished, and it is how a replica taking the plan over
	// tells such a call from one the agent finished before its cost was. Only the plan's
	// spec.costReporter may write it.
	CallCostFinalCondition = "CostFinal"
)

// Condition reasons.
const (
	AgentPlanLockedReason           = "Locked"
	AgentPlanRelockedReason         = "Relocked"
	AgentPlanProfileNotFoundReason  = "ProfileNotFound"
	AgentPlanProfileInvalidReason   = "ProfileInvalid"
	AgentPlanActionNotFoundReason   = "ActionNotFound"
	AgentPlanAmbiguousDefaultReason = "AmbiguousDefaultProfile"
	AgentPlanProjectInvalidReason   = "ProjectPolicyInvalid"
	CallCostFinalReason             = "Reported"
	ReadyReason                     = "Valid"
	InvalidReason                   = "Invalid"
	SafetyProfileRefNotFoundReason  = "SafetyProfileNotFound"

	// Plan binding and ceilings.
	AgentPlanActiveReason            = "Active"
	AgentPlanDeadlineExceededReason  = "DeadlineExceeded"
	AgentPlanPodNotFoundReason       = "PodNotFound"
	AgentPlanPodMismatchReason       = "PodMismatch"
	AgentPlanConflictReason          = "PlanConflict"
	AgentPlanProfileNotAllowedReason = "ProfileNotAllowed"
)

// RelockAnnotation on an AgentPlan requests a re-lock: when its value differs from
// status.snapshot.relockToken, the operator resolves the profile again, increments the epoch and
// records an event. Who may set it is governed by RBAC on agentplans (update), which agents lack.
const RelockAnnotation = "safety.toolgate.dev/relock"

// MaxRelockTokenLength is the longest relock value a snapshot records (status.snapshot.relockToken's
// MaxLength); the AgentPlan webhook refuses a longer one, which could never be locked.
const MaxRelockTokenLength = 253
