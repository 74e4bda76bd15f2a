package replay

import (
	"os"
	"path/filepath"
	"testing"
)

// The natural way to make candidates is to take the live objects and edit them:
// `kubectl get projectpolicies,safetyprofiles -A -o yaml > candidates.yaml`. kubectl writes a
// `kind: List` (v1) of the objects, which `kubectl apply -f` takes back as it is. Replay's -f
// refuses it ("no kind List is registered"), and refuses a typed list (SafetyProfileList) too,
// so the candidates must be split by hand first.
func TestLoadCandidatesTakesTheListsKubectlWrites(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "candidates.yaml")
	if err := os.WriteFile(list, []byte(`apiVersion: v1
kind: List
metadata:
  resourceVersion: ""
items:
- apiVersion: safety.toolgate.dev/v1alpha1
  kind: ProjectPolicy
  metadata:
    name: project
    namespace: team-a
  spec:
    pathPolicy:
      zeroAccess: ["secrets/"]
- apiVersion: safety.toolgate.dev/v1alpha1
  kind: SafetyProfile
  metadata:
    name: team-a-sp
  spec:
    readOnly: true
`), 0o600); err != nil {
		t.Fatal(err)
	}
	typed := filepath.Join(dir, "profiles.yaml")
	if err := os.WriteFile(typed, []byte(`apiVersion: safety.toolgate.dev/v1alpha1
kind: SafetyProfileList
metadata: {}
items:
- apiVersion: safety.toolgate.dev/v1alpha1
  kind: SafetyProfile
  metadata:
    name: team-b-sp
  spec:
    readOnly: true
`), 0o600); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]int{list: 2, typed: 1} {
		objs, err := LoadCandidates(file)
		if err != nil {
			t.Errorf("-f %s: %v", filepath.Base(file), err)
			continue
		}
		if len(objs) != want {
			t.Errorf("-f %s: %d candidates, want %d", filepath.Base(file), len(objs), want)
		}
	}
}
