package replay

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/ledger"
)

// line is one ledger record as stored.
type line struct {
	Seq    uint64          `json:"seq"`
	Time   string          `json:"time"`
	Writer string          `json:"writer"`
	Kind   string          `json:"kind"`
	Fields json.RawMessage `json:"fields"`
}

// configFields are the fields of a config record replay reads.
type configFields struct {
	Kind        string                       `json:"kind"`
	Name        string                       `json:"name"`
	Namespace   string                       `json:"namespace"`
	UID         string                       `json:"uid"`
	Operation   string                       `json:"operation"`
	Generation  int64                        `json:"generation"`
	Spec        json.RawMessage              `json:"spec"`
	Annotations map[string]string            `json:"annotations"`
	Snapshot    *safetyv1alpha1.PlanSnapshot `json:"snapshot"`
}

// planFields are the fields of an accepted plan creation (audit.Plan) replay reads.
type planFields struct {
	Decision       string `json:"decision"`
	Operation      string `json:"operation"`
	Namespace      string `json:"namespace"`
	Plan           string `json:"plan"`
	UID            string `json:"uid"`
	ServiceAccount string `json:"serviceAccount"`
	Pod            string `json:"pod"`
	Profile        string `json:"profile"` // Kind/name
	Action         string `json:"action"`
	ReadOnly       bool   `json:"readOnly"`
}

// readLedger returns every record under dir, all chains merged in time order.
func readLedger(dir string) ([]line, error) {
	raw, err := ledger.Tail(dir, math.MaxInt)
	if err != nil {
		return nil, fmt.Errorf("reading ledger %s: %w", dir, err)
	}
	out := make([]line, 0, len(raw))
	for _, r := range raw {
		var l line
		if err := json.Unmarshal(r, &l); err != nil {
			return nil, fmt.Errorf("decoding a record of ledger %s: %w", dir, err)
		}
		out = append(out, l)
	}
	return out, nil
}

// history is the configuration the ledger's config and plan records describe, as of the record
// being replayed: the objects whose spec the records carry, the plans' own settings, and every
// locked snapshot by hash.
type history struct {
	objects   map[objKey]client.Object
	version   int // counts changes of objects, to cache resolutions between them
	plans     map[objKey]*safetyv1alpha1.AgentPlan
	snapshots map[string]*safetyv1alpha1.PlanSnapshot
	// locks are the objects as they stood when each plan was last locked (or re-locked), with
	// the version they had: a plan's decisions are re-decided under the configuration its lock
	// saw, with the candidates in place, not under edits made after it, which the running plan
	// never saw either.
	locks map[objKey]lockState
}

type lockState struct {
	objects map[objKey]client.Object
	version int
}

func newHistory() *history {
	return &history{objects: map[objKey]client.Object{}, plans: map[objKey]*safetyv1alpha1.AgentPlan{},
		snapshots: map[string]*safetyv1alpha1.PlanSnapshot{}, locks: map[objKey]lockState{}}
}

// asLocked is the configuration plan was resolved under when it was last locked, and its
// version; the present one for a plan the ledger holds no lock of.
func (h *history) asLocked(plan objKey) lockState {
	if ls, ok := h.locks[plan]; ok {
		return ls
	}
	return lockState{objects: h.objects, version: h.version}
}

// apply takes in one config or plan record.
func (h *history) apply(l line) error {
	switch l.Kind {
	case audit.KindConfig:
		var c configFields
		if err := json.Unmarshal(l.Fields, &c); err != nil {
			return err
		}
		return h.config(c)
	case audit.KindPlan:
		var p planFields
		if err := json.Unmarshal(l.Fields, &p); err != nil {
			return err
		}
		if p.Decision == decisionAllow && p.Operation == audit.PlanCreate {
			h.plans[objKey{kindPlan, p.Namespace, p.Plan}] = p.object()
		}
	}
	return nil
}

func (h *history) config(c configFields) error {
	if c.Snapshot != nil {
		h.snapshots[c.Snapshot.Hash] = c.Snapshot
	}
	key := objKey{c.Kind, c.Namespace, c.Name}
	if c.Operation == audit.ConfigDelete {
		if _, ok := h.objects[key]; ok {
			delete(h.objects, key)
			h.version++
		}
		return nil
	}
	if c.Operation == audit.ConfigLock || c.Operation == audit.ConfigRelock {
		// Objects are replaced, never edited, so a shallow copy keeps this moment's versions.
		h.locks[objKey{kindPlan, c.Namespace, c.Name}] = lockState{objects: maps.Clone(h.objects), version: h.version}
		return nil
	}
	if len(c.Spec) == 0 {
		return nil // AgentTool, AuditLedger, AgentPlan: identified by digest only
	}
	obj, err := objectOf(c)
	if err != nil {
		return fmt.Errorf("config record of %s %s: %w", c.Kind, c.Name, err)
	}
	if obj != nil {
		h.objects[key] = obj
		h.version++
	}
	return nil
}

// objectOf rebuilds a profile or project policy from its config record.
func objectOf(c configFields) (client.Object, error) {
	var obj client.Object
	var spec any
	switch c.Kind {
	case kindSafetyProfile:
		o := &safetyv1alpha1.SafetyProfile{}
		obj, spec = o, &o.Spec
	case kindAutomationProfile:
		o := &safetyv1alpha1.AutomationProfile{}
		obj, spec = o, &o.Spec
	case kindProjectPolicy:
		o := &safetyv1alpha1.ProjectPolicy{}
		obj, spec = o, &o.Spec
	default:
		return nil, nil
	}
	if err := json.Unmarshal(c.Spec, spec); err != nil {
		return nil, err
	}
	obj.SetName(c.Name)
	obj.SetNamespace(c.Namespace)
	obj.SetGeneration(c.Generation)
	obj.SetAnnotations(c.Annotations)
	return obj, nil
}

func (p planFields) object() *safetyv1alpha1.AgentPlan {
	plan := &safetyv1alpha1.AgentPlan{}
	plan.Name, plan.Namespace = p.Plan, p.Namespace
	plan.Spec = safetyv1alpha1.AgentPlanSpec{ServiceAccountName: p.ServiceAccount, PodName: p.Pod, Action: p.Action, ReadOnly: p.ReadOnly}
	if kind, name, ok := strings.Cut(p.Profile, "/"); ok {
		plan.Spec.ProfileRef = &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKind(kind), Name: name}
	}
	return plan
}
