package toolcall

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// digest is a short hash of a tool's exact name and the canonical form of its JSON arguments
// (object keys sorted, as encoding/json marshals maps), so key order and whitespace do not make
// a new step, while two tools whose names fold to one label (read_file, read-file) do.
func digest(tool string, args json.RawMessage) string {
	canonical := []byte("null")
	var v any
	if len(args) > 0 && json.Unmarshal(args, &v) == nil {
		if b, err := json.Marshal(v); err == nil {
			canonical = b
		}
	}
	h := sha256.New()
	h.Write([]byte(tool))
	h.Write([]byte{0}) // no tool name holds a NUL, so name and arguments cannot trade bytes
	h.Write(canonical)
	return hex.EncodeToString(h.Sum(nil)[:8])
}
