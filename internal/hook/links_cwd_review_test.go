package hook

import (
	"os"
	"path/filepath"
	"testing"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// The working directory is where the agent's Bash last cd'd. When it is itself a link out of the
// project (lnk -> /etc, from a checkout), "inside cwd's own resolution" is /etc, and every path
// into /etc through the link is rewritten back below cwd and judged as the project's.
func TestReviewLinkTargetCwdIsALinkOut(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	lnk := filepath.Join(dir, "lnk")
	if err := os.Symlink("/etc", lnk); err != nil {
		t.Fatal(err)
	}
	// from the project's own directory, the link is seen:
	if got, ok := linkTarget(filepath.Join(lnk, "passwd"), dir); !ok || got != "/etc/passwd" {
		t.Fatalf("cwd %s: linkTarget = %q, %v", dir, got, ok)
	}
	// with the agent's cwd in the link, it is not:
	for _, p := range []string{filepath.Join(lnk, "passwd"), "passwd", "."} {
		if got, ok := linkTarget(p, lnk); !ok {
			t.Errorf("cwd %s (-> /etc): %s is judged as written only (linkTarget = %q, false), though it reads below /etc", lnk, p, got)
		}
	}
	call := &safetyv1alpha1.AgentToolCall{}
	call.Spec.Arguments.Paths = []string{filepath.Join(lnk, "passwd")}
	_ = withLinkTargets(call, lnk)
	t.Logf("paths judged: %v", call.Spec.Arguments.Paths)
}
