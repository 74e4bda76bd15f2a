package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// SnapshotHash is "sha256:" and the hex digest of the effective policy a plan locks: the engine's
// canonical profile encoding, the autonomy level and the project's rules. Equal policies hash
// equal whatever object they came from; encoding/json writes struct fields in declaration order,
// so the project part is stable across restarts and Go versions.
func SnapshotHash(p *safety.Profile, level safetyv1alpha1.AutonomyLevel, project *safetyv1alpha1.ProjectPolicySpec) (string, error) {
	projectJSON, err := json.Marshal(project)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write(safety.CanonicalEncoding(p))
	h.Write([]byte("autonomy=" + string(level) + "\n"))
	h.Write([]byte("project="))
	h.Write(projectJSON)
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}
