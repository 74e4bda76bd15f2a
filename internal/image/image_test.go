package image

import (
	"archive/tar"
	"context"
	"debug/buildinfo"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"

	"github.com/toolgate/toolgate/internal/testenv"
)

// TestImages builds the manager's and toolgate-gateway's images as `make image` does, reads each
// back from the OCI layout it wrote, and checks what a cluster will run: the user, the entrypoint,
// the platform, a filesystem of one executable and no shell, and that the executable starts.
func TestImages(t *testing.T) {
	repo, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		pkg, binary, ref string
		starts           func(t *testing.T, bin string)
		// dialsAnyone: it verifies servers of any CA (https upstreams, OTLP collectors), so it
		// carries roots; the hook talks to the API server alone, with the CA it is given.
		dialsAnyone bool
	}{
		{"./cmd", "manager", "controller:test", printsVersion("toolgate manager v0.0.0-test "), true},
		{"./cmd/toolgate-gateway", "toolgate-gateway", "gateway:test", printsVersion("toolgate-gateway v0.0.0-test\n"), true},
		{"./cmd/toolgate-hook", "toolgate-hook", "toolgate-hook:test", hookDenies, false},
	} {
		t.Run(tc.binary, func(t *testing.T) {
			img, err := Build(context.Background(), Spec{Package: tc.pkg, Dir: repo, Binary: tc.binary,
				Version: "v0.0.0-test", Arch: runtime.GOARCH, Revision: testRevision})
			if err != nil {
				t.Fatal(err)
			}
			bin := checkImage(t, img, tc.binary, tc.ref, tc.starts)
			if tc.dialsAnyone {
				checkRoots(t, bin, tc.binary)
			}
			// The same source gives the same image: a digest pins a commit's build.
			again, err := Build(context.Background(), Spec{Package: tc.pkg, Dir: repo, Binary: tc.binary,
				Version: "v0.0.0-test", Arch: runtime.GOARCH, Revision: testRevision})
			if err != nil {
				t.Fatal(err)
			}
			if a, b := digest(t, img), digest(t, again); a != b {
				t.Errorf("two builds of the same source: %s and %s", a, b)
			}
		})
	}
}

// printsVersion checks that the binary starts and prints a --version starting with version.
func printsVersion(version string) func(t *testing.T, bin string) {
	return func(t *testing.T, bin string) {
		t.Helper()
		out, err := exec.Command(bin, "--version").CombinedOutput()
		if err != nil {
			t.Fatalf("the image's binary does not start: %v: %s", err, out)
		}
		if !strings.HasPrefix(string(out), version) {
			t.Errorf("--version printed %q, want it to start with %q", out, version)
		}
	}
}

// hookDenies checks that toolgate-hook starts and answers a tool use it cannot ask toolgate about
// (no token) with a denial, exit 0: the hook has no --version, since a settings line that ran one
// would exit 0 without an answer, which the agent takes for success.
func hookDenies(t *testing.T, bin string) {
	t.Helper()
	cmd := exec.Command(bin, "--token-file", filepath.Join(t.TempDir(), "none"), "--namespace", "ns")
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"a"}}`)
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), `"permissionDecision":"deny"`) {
		t.Errorf("toolgate-hook without a token: %v: %s, want a denial", err, out)
	}
}

// checkImage writes img as a layout tagged ref, reads it back and checks it runs binary alone,
// a static executable that starts (starts checks it).
func checkImage(t *testing.T, img v1.Image, binary, ref string, starts func(t *testing.T, bin string)) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), binary)
	if err := WriteLayout(dir, ref, img); err != nil {
		t.Fatal(err)
	}
	index, err := layout.ImageIndexFromPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := index.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(manifest.Manifests) != 1 || manifest.Manifests[0].Annotations["org.opencontainers.image.ref.name"] != ref {
		t.Fatalf("layout index: %+v", manifest.Manifests)
	}
	read, err := index.Image(manifest.Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}

	cfg, err := read.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Config.User != NonRootUser {
		t.Errorf("user %q, want %q (non-root, as the manifests' securityContext expects)", cfg.Config.User, NonRootUser)
	}
	if strings.Join(cfg.Config.Entrypoint, " ") != "/"+binary {
		t.Errorf("entrypoint %v", cfg.Config.Entrypoint)
	}
	if cfg.OS != "linux" || cfg.Architecture != runtime.GOARCH {
		t.Errorf("platform %s/%s, want linux/%s", cfg.OS, cfg.Architecture, runtime.GOARCH)
	}
	if cfg.Config.Labels["org.opencontainers.image.version"] != "v0.0.0-test" {
		t.Errorf("labels %v", cfg.Config.Labels)
	}
	// Which commit the image was built from, as registries, scanners and attestations read it.
	if got := cfg.Config.Labels["org.opencontainers.image.revision"]; got != testRevision {
		t.Errorf("org.opencontainers.image.revision %q, want %q", got, testRevision)
	}

	files, executable := readFiles(t, read, binary)
	if len(files) != 1 || files[binary] == nil {
		t.Fatalf("the image holds %v; want only /%s (no shell, no package manager)", keys(files), binary)
	}
	for _, shell := range []string{"bin/sh", "bin/bash", "bin/busybox"} {
		if files[shell] != nil {
			t.Errorf("the image has a shell: /%s", shell)
		}
	}
	if mode := files[binary].Mode; mode&0o111 == 0 || mode&0o222 != 0 {
		t.Errorf("/%s mode %o: want executable and read-only", binary, mode)
	}

	bin := filepath.Join(t.TempDir(), binary)
	if err := os.WriteFile(bin, executable, 0o755); err != nil { //nolint:gosec // an executable we run below
		t.Fatal(err)
	}
	if needs := dynamicLinking(t, bin); needs != "" {
		t.Errorf("/%s needs %s, which the image does not hold", binary, needs)
	}
	starts(t, bin)
	return bin
}

// checkRoots checks that the executable at bin carries CA roots: the image has no
// /etc/ssl/certs, and without roots of its own the binary verifies no public certificate, so an
// https ToolServer upstream or OTLP collector fails x509 verification.
func checkRoots(t *testing.T, bin, binary string) {
	t.Helper()
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(info.Deps, func(m *debug.Module) bool { return m.Path == fallbackRoots }) {
		t.Errorf("/%s does not link %s: it trusts no CA in an image without /etc/ssl/certs", binary, fallbackRoots)
	}
}

// testRevision is the commit the test's images claim to be built from.
const testRevision = "576665c0d5cc1d1e36f3b5b0e2a9c8b7a6d5e4f3"

// fallbackRoots is the module whose import gives a binary Mozilla's roots when the system has none.
const fallbackRoots = "golang.org/x/crypto/x509roots/fallback"

func digest(t *testing.T, img v1.Image) string {
	t.Helper()
	d, err := img.Digest()
	if err != nil {
		t.Fatal(err)
	}
	return d.String()
}

// readFiles returns the headers of every file in img's layers, and the content of binary.
func readFiles(t *testing.T, img v1.Image, binary string) (map[string]*tar.Header, []byte) {
	t.Helper()
	layers, err := img.Layers()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*tar.Header{}
	var content []byte
	for _, l := range layers {
		rc, err := l.Uncompressed()
		if err != nil {
			t.Fatal(err)
		}
		tr := tar.NewReader(rc)
		for {
			h, err := tr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			files[strings.TrimPrefix(h.Name, "/")] = h
			if h.Name == binary {
				if content, err = io.ReadAll(tr); err != nil {
					t.Fatal(err)
				}
			}
		}
		_ = rc.Close()
	}
	return files, content
}

func keys(m map[string]*tar.Header) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
