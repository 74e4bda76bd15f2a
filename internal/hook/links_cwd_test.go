package hook

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// The agent moves its working directory with cd, into a link out of the project (lnk -> /etc,
// from a checkout): that directory's resolution is /etc, and the paths through the link were
// written back below it, as the project's. Written back below the session's project directory
// instead, they are judged where they lead.
func TestLinkTargetWithTheAgentsCwdInALinkOutOfTheProject(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	lnk := filepath.Join(dir, "lnk")
	if err := os.Symlink("/etc", lnk); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(lnk, "passwd"), "passwd"} {
		if got, ok := linkTarget(p, lnk, dir); !ok || got != "/etc/passwd" {
			t.Errorf("cwd %s (-> /etc), project %s: linkTarget(%s) = %q, %v; want /etc/passwd", lnk, dir, p, got, ok)
		}
	}
	if got, ok := linkTarget(".", lnk, dir); !ok || got != "/etc" {
		t.Errorf("cwd %s (-> /etc): linkTarget(.) = %q, %v; want /etc", lnk, got, ok)
	}
	call := &safetyv1alpha1.AgentToolCall{}
	call.Spec.Arguments.Paths = []string{filepath.Join(lnk, "passwd")}
	if err := withLinkTargets(call, lnk, dir); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(call.Spec.Arguments.Paths, "/etc/passwd") {
		t.Errorf("paths judged: %v; want /etc/passwd among them", call.Spec.Arguments.Paths)
	}

	const nearMiss = "a project reached through a link keeps its paths as named"
	ws := filepath.Join(t.TempDir(), "ws")
	if err := os.Symlink(dir, ws); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, ok := linkTarget(filepath.Join(ws, "a.go"), ws, ws); ok {
		t.Errorf("%s: linkTarget = %q, true; want the path as written", nearMiss, got)
	}
}
