package image

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/testenv"
)

// dynamicLinking names what makes the ELF executable at path need the image it runs in: its
// interpreter (the C library's loader) and the libraries it names; "" for a static executable.
func dynamicLinking(t *testing.T, path string) string {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	var needs []string
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			needs = append(needs, "an interpreter")
		}
	}
	libs, _ := f.ImportedLibraries()
	return strings.Join(append(needs, libs...), ", ")
}

// `make build-hook` builds the toolgate-hook that goes into agents' images, whatever their C
// library (glibc, musl, none). Built with cgo, as Go does where a C compiler is, it needed the
// build machine's glibc loader: in an Alpine or distroless agent image it did not start, and a
// hook that does not start is exit status 127, which Claude Code takes for a non-blocking error
// and runs the tool. This runs the build command make runs and checks the binary is static.
func TestBuildHookIsStatic(t *testing.T) {
	repo, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	plan, err := exec.Command("make", "-s", "--no-print-directory", "-n", "-C", repo, "build-hook").Output()
	if err != nil {
		t.Fatalf("make -n build-hook: %v", err)
	}
	var build string
	for line := range strings.SplitSeq(string(plan), "\n") {
		if strings.Contains(line, "go build") && strings.Contains(line, "./cmd/toolgate-hook") {
			build = line
		}
	}
	if build == "" {
		t.Fatalf("make build-hook runs no go build of ./cmd/toolgate-hook: %s", plan)
	}
	out := filepath.Join(t.TempDir(), "toolgate-hook")
	build = strings.Replace(build, "bin/toolgate-hook", out, 1)
	cmd := exec.Command("sh", "-c", build)
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1") // as where a C compiler is found
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v: %s", build, err, msg)
	}
	if needs := dynamicLinking(t, out); needs != "" {
		t.Errorf("make build-hook's toolgate-hook needs %s: it does not start in an agent image without them", needs)
	}
}
