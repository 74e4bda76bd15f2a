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

// LedgerFailurePolicy says what the webhook does when it cannot make a decision's record durable.
// +kubebuilder:validation:Enum=Fail;Ignore
type LedgerFailurePolicy string

const (
	// LedgerFailurePolicyFail denies the call LedgerUnavailable.
	LedgerFailurePolicyFail LedgerFailurePolicy = "Fail"
	// LedgerFailurePolicyIgnore admits the call, counts the loss and records it when it can.
	LedgerFailurePolicyIgnore LedgerFailurePolicy = "Ignore"
)

// Conditions and reasons of the AuditLedger (beside Ready and VolumeNearlyFull in conditions.go).
const (
	// AuditLedgerVolumeHeadroomCondition is False once the volume's free share falls below
	// spec.floodControl.minFreePercent: act then, well before records cannot be written.
	AuditLedgerVolumeHeadroomCondition = "VolumeHeadroom"
	AuditLedgerHeadroomOKReason        = "HeadroomAvailable"
	AuditLedgerHeadroomLowReason       = "HeadroomLow"
	// AuditLedgerHeadsOnChainCondition is False while a writer's published head is marked
	// notOnChainSince: its volume no longer holds what it published (rolled back or rewritten).
	AuditLedgerHeadsOnChainCondition = "HeadsOnChain"
	AuditLedgerHeadsOnChainReason    = "HeadsOnChain"
	AuditLedgerHeadNotOnChainReason  = "HeadNotOnChain"
	// AuditLedgerArgumentsWholeCondition is False while spec.redaction.maxStringLength is below the
	// longest argument a call can carry: longer arguments are recorded cut, and replay cannot
	// re-decide those calls. (AuditLedgers created before its default was raised keep 1024.)
	AuditLedgerArgumentsWholeCondition = "ArgumentsWhole"
	AuditLedgerArgumentsWholeReason    = "ArgumentsWhole"
	AuditLedgerArgumentsCutReason      = "ArgumentsCut"
	// AuditLedgerRateLimitedReason is the denial reason of a call refused by flood control.
	AuditLedgerRateLimitedReason = "RateLimited"
)

// LedgerCompression is how sealed segments are stored.
// +kubebuilder:validation:Enum=Gzip;None
type LedgerCompression string

const (
	LedgerCompressionGzip LedgerCompression = "Gzip"
	LedgerCompressionNone LedgerCompression = "None"
)

// LedgerRotation says when the live segment is sealed.
type LedgerRotation struct {
	// maxSegmentBytes seals the live segment once it reaches this size. Default 64 MiB.
	// +kubebuilder:default=67108864
	// +kubebuilder:validation:Minimum=4096
	// +kubebuilder:validation:Maximum=4294967296
	// +optional
	MaxSegmentBytes int64 `json:"maxSegmentBytes,omitempty"`

	// daily seals the live segment at each UTC day boundary (segments are named YYYY-MM-DD). Default true.
	// +kubebuilder:default=true
	// +optional
	Daily *bool `json:"daily,omitempty"`
}

// LedgerRetention says how long sealed segments are kept.
type LedgerRetention struct {
	// maxAgeDays deletes sealed segments older than this many days. 0 keeps them forever. Default 90.
	// +kubebuilder:default=90
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=36500
	// +optional
	MaxAgeDays *int32 `json:"maxAgeDays,omitempty"`

	// maxSegments keeps at most this many sealed segments per writer. 0 means no limit. Default 0.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100000
	// +optional
	MaxSegments int32 `json:"maxSegments,omitempty"`
}

// LedgerRedaction says what is hidden or shortened in records.
type LedgerRedaction struct {
	// extraKeys are further key substrings to redact, besides the default words (password, passwd, passphrase,
	// pass, pwd, token, secret, key, auth, credential and cookie, read by words: docs/ledger.md).
	// +listType=set
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=63
	// +optional
	ExtraKeys []string `json:"extraKeys,omitempty"`

	// maxStringLength truncates longer strings (in bytes), with a marker. Default 32768: the longest
	// argument a call can carry (an 8192-character command), so every admitted call's recorded
	// arguments are whole and its decision can be replayed. A lower value cuts longer arguments,
	// and replay reports those decisions as not replayable.
	// +kubebuilder:default=32768
	// +kubebuilder:validation:Minimum=64
	// +kubebuilder:validation:Maximum=65536
	// +optional
	MaxStringLength int32 `json:"maxStringLength,omitempty"`
}

// LedgerFloodControl bounds what denied calls cost the ledger. Per requester and namespace, denied
// calls beyond deniedPerWindow in a window are refused RateLimited and recorded as one aggregated
// "flood" record per window (count, first and last call, reasons), so a flood costs bytes in
// proportion to windows, not requests.
type LedgerFloodControl struct {
	// deniedPerWindow is how many denied calls of one requester in one namespace are recorded one
	// by one per window; later ones are refused RateLimited. 0 turns flood control off. Default 60.
	// +kubebuilder:default=60
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100000
	// +optional
	DeniedPerWindow *int32 `json:"deniedPerWindow,omitempty"`

	// windowSeconds is the window's length. Default 60.
	// +kubebuilder:default=60
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=86400
	// +optional
	WindowSeconds int32 `json:"windowSeconds,omitempty"`

	// deniedBytesPerMinute is the byte budget of one requester's denial records in a window, for
	// each minute of windowSeconds: once a window's records would pass it, later denials are
	// refused RateLimited and counted in the flood record, so a flood of large denials (up to about
	// 60 KB each, with their arguments) costs about this much per minute. The first denial of a
	// window is recorded whole whatever its size. Default 65536 (64 KiB).
	// +kubebuilder:default=65536
	// +kubebuilder:validation:Minimum=1024
	// +kubebuilder:validation:Maximum=1073741824
	// +optional
	DeniedBytesPerMinute int64 `json:"deniedBytesPerMinute,omitempty"`

	// minFreePercent is the share of the volume that must stay free: below it the VolumeHeadroom
	// condition is False, well before the volume is full. Default 20.
	// +kubebuilder:default=20
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=90
	// +optional
	MinFreePercent int32 `json:"minFreePercent,omitempty"`
}

// AuditLedgerSpec configures the decision ledger on the operator's PersistentVolume.
type AuditLedgerSpec struct {
	// rotation seals segments by size and by day.
	// +optional
	Rotation LedgerRotation `json:"rotation,omitzero"`

	// retention deletes old sealed segments.
	// +optional
	Retention LedgerRetention `json:"retention,omitzero"`

	// compression of sealed segments: Gzip (the default) or None.
	// +kubebuilder:default=Gzip
	// +optional
	Compression LedgerCompression `json:"compression,omitempty"`

	// redaction hides secret-looking keys and shortens long strings.
	// +optional
	Redaction LedgerRedaction `json:"redaction,omitzero"`

	// failurePolicy: Fail (the default) denies a call whose record cannot be made durable;
	// Ignore admits it and counts the loss.
	// +kubebuilder:default=Fail
	// +optional
	FailurePolicy LedgerFailurePolicy `json:"failurePolicy,omitempty"`

	// finishedCallTTLSeconds deletes finished AgentToolCalls this long after they finish, once the
	// ledger holds their completion record, so etcd stays small. Default 3600.
	// +kubebuilder:default=3600
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=31536000
	// +optional
	FinishedCallTTLSeconds *int64 `json:"finishedCallTTLSeconds,omitempty"`

	// endedPlanTTLSeconds deletes AgentPlans this long after they end (their
	// activeDeadlineSeconds has passed), so the plans a ServiceAccount has run, which every plan
	// creation and hook call of it lists, do not pile up in etcd. Deleting a plan settles its
	// spend into its ProjectPolicy and revokes its approvals; the ledger keeps its locks and
	// decisions. The latest plan bound to a pod is kept while that pod runs (the pod takes no
	// other plan of its ServiceAccount until then), and every plan stays at least the reporter's
	// 15 minutes after its end, so its last calls can still be reported. Default 604800 (7 days).
	// +kubebuilder:default=604800
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=31536000
	// +optional
	EndedPlanTTLSeconds *int64 `json:"endedPlanTTLSeconds,omitempty"`

	// floodControl refuses and aggregates denied calls beyond a rate, and sets the volume's headroom threshold.
	// +optional
	FloodControl LedgerFloodControl `json:"floodControl,omitzero"`
}

// LedgerSignedHead is a writer's newest record, signed with the operator's ledger key. Published
// here, outside the ledger's volume, it lets verify detect records cut from the end of a chain and
// a chain re-hashed as a whole. Once marked notOnChainSince an entry is frozen whole (self ==
// oldSelf): with only its seq and mark held, a writer could re-sign it, or move its segment,
// hash's signature or time, and the evidence would no longer be what was published.
// +kubebuilder:validation:XValidation:rule="self.seq > oldSelf.seq || (self.seq == oldSelf.seq && self.hash == oldSelf.hash)",message="a writer's published head never goes back: its seq only grows (a rolled-back ledger volume must not replace the evidence; remove the entry to accept a new chain)"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.notOnChainSince) || self == oldSelf",message="a head marked notOnChainSince stays as it is: it is the evidence that the writer's volume was rolled back or rewritten; remove the entry to accept the volume as it is"
type LedgerSignedHead struct {
	// writer is the chain (a webhook pod's name).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +required
	Writer string `json:"writer"`
	// seq is the newest record's sequence number.
	// +kubebuilder:validation:Minimum=1
	// +required
	Seq int64 `json:"seq"`
	// hash is the newest record's sha256 (hex).
	// +kubebuilder:validation:MaxLength=64
	// +required
	Hash string `json:"hash"`
	// segment is the segment file holding it.
	// +kubebuilder:validation:MaxLength=64
	// +required
	Segment string `json:"segment"`
	// signedAt is when the writer signed it.
	// +required
	SignedAt metav1.Time `json:"signedAt"`
	// keyID names the signing key: the first 16 hex digits of the public key's sha256.
	// +kubebuilder:validation:MaxLength=16
	// +required
	KeyID string `json:"keyID"`
	// signature is the base64 Ed25519 signature (see docs/ledger.md for what is signed).
	// +kubebuilder:validation:MaxLength=88
	// +required
	Signature string `json:"signature"`
	// notOnChainSince is set by the writer when it found that its ledger volume no longer holds
	// this head (a restarted writer on a volume rolled back or rewritten): the writer publishes
	// no newer head, the entry stays as the evidence (retention does not remove it), and the
	// AuditLedger's HeadsOnChain condition is False. Remove the entry, once you have looked, to
	// accept the volume as it is.
	// +optional
	NotOnChainSince *metav1.Time `json:"notOnChainSince,omitempty"`
}

// LedgerSigningKey names the key that signs the ledger. The private half stays in a Secret in
// the operator's namespace.
type LedgerSigningKey struct {
	// keyID is the first 16 hex digits of the public key's sha256.
	// +kubebuilder:validation:MaxLength=16
	// +required
	KeyID string `json:"keyID"`
	// publicKey is the Ed25519 public key, PEM (PKIX). Pin it out of band: an auditor who reads
	// it from the same cluster trusts the cluster's API for it.
	// +kubebuilder:validation:MaxLength=256
	// +required
	PublicKey string `json:"publicKey"`
}

// LedgerVolume is the ledger volume's headroom.
type LedgerVolume struct {
	// capacityBytes is the volume's size.
	// +optional
	CapacityBytes int64 `json:"capacityBytes,omitempty"`
	// availableBytes is what the ledger may still write.
	// +optional
	AvailableBytes int64 `json:"availableBytes,omitempty"`
	// availablePercent is availableBytes as a share of capacityBytes.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	// +optional
	AvailablePercent int32 `json:"availablePercent,omitempty"`
}

// AuditLedgerStatus is the health of the ledger.
type AuditLedgerStatus struct {
	// observedGeneration is the generation the controller last processed.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// records is the number of records in the ledger.
	// +optional
	Records int64 `json:"records,omitempty"`
	// segments is the number of segments, live and sealed.
	// +optional
	Segments int32 `json:"segments,omitempty"`
	// bytes is the size of the ledger on disk.
	// +optional
	Bytes int64 `json:"bytes,omitempty"`
	// headHash is the hash of the newest record.
	// +kubebuilder:validation:MaxLength=80
	// +optional
	HeadHash string `json:"headHash,omitempty"`
	// lastRotationTime is when a segment was last sealed.
	// +optional
	LastRotationTime *metav1.Time `json:"lastRotationTime,omitempty"`
	// signingKey names the key the ledger is signed with.
	// +optional
	SigningKey *LedgerSigningKey `json:"signingKey,omitempty"`
	// signedHeads are the newest signed head of each writer, one entry per writer, each written
	// by its own writer (server-side apply, field manager toolgate-ledger-<writer>). Entries signed
	// longer ago than spec.retention.maxAgeDays are removed: the records they name are deleted.
	// +listType=map
	// +listMapKey=writer
	// +kubebuilder:validation:MaxItems=1024
	// +optional
	SignedHeads []LedgerSignedHead `json:"signedHeads,omitempty"`
	// volume is the ledger volume's headroom, as this writer sees it.
	// +optional
	Volume *LedgerVolume `json:"volume,omitempty"`
	// conditions: Ready; VolumeHeadroom, False once less than floodControl.minFreePercent of the
	// volume is free; VolumeNearlyFull when the volume has little space left; and HeadsOnChain,
	// False while a writer's published head is marked notOnChainSince.
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=8
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=ledger,categories=toolgate
// +kubebuilder:validation:XValidation:rule="self.metadata.name == 'default'",message="the cluster has one AuditLedger, and it must be named default",reason=FieldValueInvalid
// +kubebuilder:printcolumn:name="Policy",type=string,JSONPath=`.spec.failurePolicy`
// +kubebuilder:printcolumn:name="Records",type=integer,JSONPath=`.status.records`
// +kubebuilder:printcolumn:name="Segments",type=integer,JSONPath=`.status.segments`
// +kubebuilder:printcolumn:name="Bytes",type=integer,JSONPath=`.status.bytes`
// +kubebuilder:printcolumn:name="HeadsOnChain",type=string,JSONPath=`.status.conditions[?(@.type=="HeadsOnChain")].status`
// +kubebuilder:printcolumn:name="Head",type=string,JSONPath=`.status.headHash`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// AuditLedger configures toolgate's durable, hash-chained record of every admission decision.
type AuditLedger struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitzero"`

	// spec configures rotation, retention, compression, redaction and the failure policy.
	// +required
	Spec AuditLedgerSpec `json:"spec"`

	// status reports the ledger's health.
	// +optional
	Status AuditLedgerStatus `json:"status,omitzero"`
}

// +kubebuilder:object:root=true

// AuditLedgerList contains a list of AuditLedger.
type AuditLedgerList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []AuditLedger `json:"items"`
}

func init() {
	SchemeBuilder.Register(func(s *runtime.Scheme) error {
		s.AddKnownTypes(SchemeGroupVersion, &AuditLedger{}, &AuditLedgerList{})
		return nil
	})
}
