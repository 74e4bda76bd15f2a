package toolcall

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// digest is a short hash of the canonical form of a JSON value (object keys sorted, as
// encoding/json marshals maps), so key order and whitespace do not make a new step.
func digest(args json.RawMessage) string {
	canonical := []byte("null")
	var v any
	if len(args) > 0 && json.Unmarshal(args, &v) == nil {
		if b, err := json.Marshal(v); err == nil {
			canonical = b
		}
	}
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:8])
}
