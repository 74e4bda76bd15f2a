package hook

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// A Write through a dangling link creates the link's target (open(O_CREAT) follows the link):
// notes.txt -> <outside>/authorized_keys, not there yet, must be judged as that target too.
func TestWithLinkTargetsFollowsADanglingLink(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(outside, "authorized_keys") // does not exist
	if err := os.Symlink(target, filepath.Join(dir, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../"+filepath.Base(outside)+"/hooks-pre-commit", filepath.Join(dir, "rel.txt")); err != nil {
		t.Fatal(err)
	}
	// the kernel does create it:
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(target); err != nil {
		t.Fatalf("writing through the dangling link did not create its target: %v", err)
	}
	if err := os.Remove(target); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/nonexistent-toolgate-test/dir/file", filepath.Join(dir, "far.txt")); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{
		filepath.Join(dir, "far.txt"):   "/nonexistent-toolgate-test/dir/file",
		filepath.Join(dir, "notes.txt"): target,
		filepath.Join(dir, "rel.txt"):   filepath.Join(filepath.Dir(dir), filepath.Base(outside), "hooks-pre-commit"),
	} {
		call := &safetyv1alpha1.AgentToolCall{}
		call.Spec.Arguments.Paths = []string{p}
		if err := withLinkTargets(call, dir, ""); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(call.Spec.Arguments.Paths, want) {
			t.Errorf("a write of %s (a dangling link to %s) is judged as %v only", p, want, call.Spec.Arguments.Paths)
		}
	}
}

// A symbolic link loop, and a path through a regular file, are refused by the tool too; the hook
// must neither hang nor panic on them.
func TestWithLinkTargetsOnALoopOrAPathThroughAFile(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("b", filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a", filepath.Join(dir, "b")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"a", filepath.Join(dir, "a", "x"), filepath.Join(dir, "f", "x"), `C:\Users\x`, "../../../../../../etc"} {
		call := &safetyv1alpha1.AgentToolCall{}
		call.Spec.Arguments.Paths = []string{p}
		if err := withLinkTargets(call, dir, ""); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s -> %v", p, call.Spec.Arguments.Paths)
	}
}
