package image

import (
	"archive/tar"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/v1/layout"

	"github.com/toolgate/toolgate/internal/testenv"
)

// TestManagerImage builds the manager's image as `make image` does, reads it back from the OCI
// layout it wrote, and checks what a cluster will run: the user, the entrypoint, the platform, a
// filesystem of one executable and no shell, and that the executable starts.
func TestManagerImage(t *testing.T) {
	repo, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	img, err := Build(context.Background(), Spec{Package: "./cmd", Dir: repo, Binary: "manager", Version: "v0.0.0-test", Arch: runtime.GOARCH})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "manager")
	if err := WriteLayout(dir, "controller:test", img); err != nil {
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
	if len(manifest.Manifests) != 1 || manifest.Manifests[0].Annotations["org.opencontainers.image.ref.name"] != "controller:test" {
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
	if strings.Join(cfg.Config.Entrypoint, " ") != "/manager" {
		t.Errorf("entrypoint %v", cfg.Config.Entrypoint)
	}
	if cfg.OS != "linux" || cfg.Architecture != runtime.GOARCH {
		t.Errorf("platform %s/%s, want linux/%s", cfg.OS, cfg.Architecture, runtime.GOARCH)
	}
	if cfg.Config.Labels["org.opencontainers.image.version"] != "v0.0.0-test" {
		t.Errorf("labels %v", cfg.Config.Labels)
	}

	layers, err := read.Layers()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*tar.Header{}
	var binary []byte
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
			if h.Name == "manager" {
				if binary, err = io.ReadAll(tr); err != nil {
					t.Fatal(err)
				}
			}
		}
		_ = rc.Close()
	}
	if len(files) != 1 || files["manager"] == nil {
		t.Fatalf("the image holds %v; want only /manager (no shell, no package manager)", keys(files))
	}
	for _, shell := range []string{"bin/sh", "bin/bash", "bin/busybox"} {
		if files[shell] != nil {
			t.Errorf("the image has a shell: /%s", shell)
		}
	}
	if mode := files["manager"].Mode; mode&0o111 == 0 || mode&0o222 != 0 {
		t.Errorf("/manager mode %o: want executable and read-only", mode)
	}

	bin := filepath.Join(t.TempDir(), "manager")
	if err := os.WriteFile(bin, binary, 0o755); err != nil { //nolint:gosec // an executable we run below
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("the image's binary does not start: %v: %s", err, out)
	}
	if !strings.HasPrefix(string(out), "toolgate manager v0.0.0-test ") {
		t.Errorf("--version printed %q", out)
	}
}

func keys(m map[string]*tar.Header) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
