package testenv

import (
	"context"
	"encoding/json"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/pkg/agent"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// LedgerRecords returns the fields of the records of kind about namespace in the ledger in dir,
// every writer's chain merged oldest first, as tests read what the operator recorded.
func LedgerRecords(dir, kind, namespace string) ([]map[string]any, error) {
	lines, err := ledger.Tail(dir, 1_000_000)
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, raw := range lines {
		var rec struct {
			Kind   string         `json:"kind"`
			Fields map[string]any `json:"fields"`
		}
		if err := json.Unmarshal(raw, &rec); err != nil {
			return nil, err
		}
		if rec.Kind == kind && rec.Fields["namespace"] == namespace {
			out = append(out, rec.Fields)
		}
	}
	return out, nil
}

// ProbeStep is the step of the dry-run calls tests send until the webhook's cache shows a plan
// and its tool (ProbeReason); Decisions leaves their records out.
const ProbeStep = "probe"

// ProbeReason dry-runs a call of tool in plan as c, and returns the denial's reason, or "" once
// it would be admitted: a dry run counts nothing, but is recorded in the ledger.
func ProbeReason(ctx context.Context, c client.Client, namespace, plan, tool string) (string, error) {
	probe, err := toolcall.Build(toolcall.Invocation{Namespace: namespace, Plan: plan, Tool: tool, Step: ProbeStep})
	if err != nil {
		return "", err
	}
	return agent.ReasonOf(agent.FromError(c.Create(ctx, probe, client.DryRunAll), tool)), nil
}

// Decisions returns the fields of the decision records about namespace in the ledger in dir, but
// the probes'.
func Decisions(dir, namespace string) ([]map[string]any, error) {
	recs, err := LedgerRecords(dir, "decision", namespace)
	if err != nil {
		return nil, err
	}
	var mine []map[string]any
	for _, r := range recs {
		if r["step"] != ProbeStep {
			mine = append(mine, r)
		}
	}
	return mine, nil
}
