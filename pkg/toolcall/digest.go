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

// OmittedKey is the key of spec.arguments.extra that holds, for each argument the map leaves out
// of the call (ArgumentMap.Omit), the digest of its value (omittedDigest): a file's new text is not
// carried, but what was sent is pinned, so a ToolApproval's exact arguments, the ledger's record
// and argument rules (args.omitted.content) cover the content, and an approved write cannot be
// resent with other content under the same path.
const OmittedKey = "omitted"

// omittedDigest is "sha256:" and the hex SHA-256 of an omitted value's JSON text exactly as the
// invocation spelt it (a string's quotes and escapes included): any other spelling is other
// content to the digest, so no two contents share one (two spellings of one content only fail to
// match an approval of the other).
func omittedDigest(raw json.RawMessage) string {
	sum := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(sum[:])
}
