package audit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"

	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/policy"
)

// KindConfig is the kind of the records of configuration changes: every admitted create, update
// and delete of the kinds that make policy (SafetyProfile, AutomationProfile, ProjectPolicy,
// AgentTool, AuditLedger, AgentPlan), and every lock and re-lock of a plan.
const KindConfig = "config"

// Config operations. Lock and relock are the plan controller's: it writes the snapshot.
const (
	ConfigCreate = "create"
	ConfigUpdate = "update"
	ConfigDelete = "delete"
	ConfigLock   = "lock"
	ConfigRelock = "relock"
)

// Field names of config records that internal/replay reads back.
const (
	FieldKind     = "kind"
	FieldName     = "name"
	FieldSnapshot = "snapshot"
)

// ConfigChange is one config record.
type ConfigChange struct {
	Kind       string
	Name       string
	Namespace  string // empty for cluster-scoped kinds
	UID        string
	Operation  string
	Requester  string
	Generation int64
	// SpecDigest is "sha256:" and the hex digest of the spec's JSON encoding.
	SpecDigest string
	// Spec is the spec itself, for the kinds whose content is policy (profiles and project
	// policies); nil for the others, which the digest identifies.
	Spec any
	// Annotations are the object's own annotations (safety.toolgate.dev/...): the default
	// AutomationProfile is chosen by one, a re-lock asked for by another.
	Annotations map[string]string
	// Snapshot is the plan's locked snapshot, for lock and relock.
	Snapshot *safetyv1alpha1.PlanSnapshot
}

// ConfigLog makes config records durable; the webhooks answer only after it returns.
type ConfigLog interface {
	RecordConfig(ctx context.Context, c ConfigChange) error
}

// ConfigChangeOf describes an operation op by requester on obj, one of the configuration kinds.
func ConfigChangeOf(op string, obj client.Object, requester string) (ConfigChange, error) {
	var kind string
	var spec any
	withSpec := false
	switch o := obj.(type) {
	case *safetyv1alpha1.SafetyProfile:
		kind, spec, withSpec = "SafetyProfile", &o.Spec, true
	case *safetyv1alpha1.AutomationProfile:
		kind, spec, withSpec = "AutomationProfile", &o.Spec, true
	case *safetyv1alpha1.ProjectPolicy:
		kind, spec, withSpec = "ProjectPolicy", &o.Spec, true
	case *safetyv1alpha1.AgentTool:
		kind, spec = "AgentTool", &o.Spec
	case *safetyv1alpha1.AuditLedger:
		kind, spec = "AuditLedger", &o.Spec
	case *safetyv1alpha1.AgentPlan:
		kind, spec = "AgentPlan", &o.Spec
	case *safetyv1alpha1.ToolServer:
		// Its argument map decides which arguments the engine checks: the spec itself, as for
		// profiles and policies.
		kind, spec, withSpec = "ToolServer", &o.Spec, true
	default:
		return ConfigChange{}, fmt.Errorf("%T is not a configuration kind", obj)
	}
	digest, err := SpecDigest(spec)
	if err != nil {
		return ConfigChange{}, err
	}
	c := ConfigChange{Kind: kind, Name: obj.GetName(), Namespace: obj.GetNamespace(), UID: string(obj.GetUID()),
		Operation: op, Requester: requester, Generation: obj.GetGeneration(), SpecDigest: digest, Annotations: ownAnnotations(obj)}
	if withSpec {
		c.Spec = spec
	}
	return c, nil
}

// SpecDigest is "sha256:" and the hex digest of spec's JSON encoding (struct fields in
// declaration order, so equal specs digest equal across replicas and versions).
func SpecDigest(spec any) (string, error) {
	b, err := json.Marshal(spec)
	if err != nil {
		return "", fmt.Errorf("encoding spec: %w", err)
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// Changed says whether an update from old to c changes what the config record says: an update
// of only finalizers, owner references or foreign annotations (the controllers' bookkeeping) is
// not a configuration change.
func (c ConfigChange) Changed(old ConfigChange) bool {
	return c.SpecDigest != old.SpecDigest || !maps.Equal(c.Annotations, old.Annotations)
}

func ownAnnotations(obj client.Object) map[string]string {
	var own map[string]string
	for k, v := range obj.GetAnnotations() {
		if policy.IsOwnAnnotation(k) {
			if own == nil {
				own = map[string]string{}
			}
			own[k] = v
		}
	}
	return own
}

// RecordConfig appends one config record, after a loss record if earlier records failed. On
// error the change is in the loss account (by everything but the spec and snapshot).
func (l *Log) RecordConfig(ctx context.Context, c ConfigChange) error {
	ident := map[string]any{
		FieldKind: c.Kind, FieldName: c.Name, fieldNamespace: c.Namespace, FieldUID: c.UID, "operation": c.Operation,
		fieldRequester: c.Requester, "generation": c.Generation, "specDigest": c.SpecDigest,
	}
	fields := maps.Clone(ident)
	if c.Spec != nil {
		fields["spec"] = c.Spec
	}
	if len(c.Annotations) > 0 {
		fields["annotations"] = c.Annotations
	}
	if c.Snapshot != nil {
		fields[FieldSnapshot] = c.Snapshot
		fields["snapshotHash"] = c.Snapshot.Hash
	}
	return l.append(ctx, ledger.Record{Kind: KindConfig, Fields: fields}, identMap(ident))
}

// PlanController is the requester of lock and relock records: the operator's plan controller,
// which resolves and writes every snapshot.
const PlanController = "toolgate:plan-controller"

// LockChange is the config record of a plan's snapshot just written: its first lock, or a re-lock.
// It carries the snapshot itself, so the ledger alone says which policy every later decision of
// the plan was made under (internal/replay decides them again under it).
func LockChange(plan *safetyv1alpha1.AgentPlan, relock bool) (ConfigChange, error) {
	op := ConfigLock
	if relock {
		op = ConfigRelock
	}
	c, err := ConfigChangeOf(op, plan, PlanController)
	if err != nil {
		return ConfigChange{}, err
	}
	c.Snapshot = plan.Status.Snapshot
	return c, nil
}
