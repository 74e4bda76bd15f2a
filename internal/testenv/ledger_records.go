package testenv

import (
	"encoding/json"

	"github.com/toolgate/toolgate/internal/ledger"
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
