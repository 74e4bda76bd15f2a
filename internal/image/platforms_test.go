package image

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/testenv"
)

// `make image` builds for the host's architecture only (hack/image --arch, one GOARCH), and
// pushes a single-platform manifest under the tag the chart and config/default deploy. Clusters
// mix amd64 and arm64 nodes (Graviton, Ampere, Apple-silicon kind clusters): a node of the other
// architecture pulls the image and the manager dies with "exec format error". ko, which the issue
// names, builds an image index for a list of platforms (--platform=linux/amd64,linux/arm64), and
// the Makefile's own docker-buildx target builds four; the tool that replaces Docker should offer
// at least amd64 and arm64 in one index.
func TestImageToolBuildsSeveralPlatformsIntoOneIndex(t *testing.T) {
	repo, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "./hack/image", "-h")
	cmd.Dir = repo
	out, _ := cmd.CombinedOutput() // -h exits 2 after printing the flags
	usage := string(out)
	if !strings.Contains(usage, "-arch") {
		t.Fatalf("hack/image -h printed no flags: %s", usage)
	}
	for l := range strings.SplitSeq(usage, "\n") {
		l = strings.ToLower(l)
		if strings.Contains(l, "platforms") || strings.Contains(l, "linux/amd64,linux/arm64") || strings.Contains(l, "index") {
			return
		}
	}
	t.Errorf("hack/image (make image) builds one architecture, with no way to build an image index of several:\n%s", usage)
}
