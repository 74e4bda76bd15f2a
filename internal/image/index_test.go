package image

import (
	"bytes"
	"context"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/types"

	"github.com/toolgate/toolgate/internal/testenv"
)

// TestBuildIndex builds an image (of testdata/hello, which links the runtime alone: a
// cross-compile of toolgate's binaries takes minutes on a cold cache; each is built the same way)
// for both default platforms into one index, as `make image` does, and checks what a node of
// each architecture pulls: its platform's entry, an image whose config and executable are of that
// architecture; that the same source gives the same index digest; and that the layout holds the
// index under its tag, as `crane push DIR` reads it.
func TestBuildIndex(t *testing.T) {
	repo, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	spec := Spec{Package: "./internal/image/testdata/hello", Dir: repo, Binary: "hello", Version: "v0.0.0-test",
		Source: Source, Revision: testRevision}
	idx, err := BuildIndex(context.Background(), spec, DefaultPlatforms)
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := idx.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	if manifest.MediaType != types.OCIImageIndex {
		t.Errorf("media type %s, want an OCI image index", manifest.MediaType)
	}
	machines := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}
	platforms := make([]string, 0, len(manifest.Manifests))
	for _, d := range manifest.Manifests {
		platforms = append(platforms, d.Platform.OS+"/"+d.Platform.Architecture)
		img, err := idx.Image(d.Digest)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := img.ConfigFile()
		if err != nil {
			t.Fatal(err)
		}
		if cfg.OS != d.Platform.OS || cfg.Architecture != d.Platform.Architecture {
			t.Errorf("entry %s/%s holds an image of %s/%s", d.Platform.OS, d.Platform.Architecture, cfg.OS, cfg.Architecture)
		}
		if cfg.Config.User != NonRootUser || cfg.Config.Labels["org.opencontainers.image.revision"] != testRevision {
			t.Errorf("%s: user %q, labels %v", d.Platform.Architecture, cfg.Config.User, cfg.Config.Labels)
		}
		files, bin := readFiles(t, img, spec.Binary)
		if len(files) != 1 {
			t.Errorf("%s: the image holds %v", d.Platform.Architecture, keys(files))
		}
		f, err := elf.NewFile(bytes.NewReader(bin))
		if err != nil {
			t.Fatalf("%s: /%s: %v", d.Platform.Architecture, spec.Binary, err)
		}
		if want := machines[d.Platform.Architecture]; f.Machine != want {
			t.Errorf("%s: /%s is a %s executable, want %s", d.Platform.Architecture, spec.Binary, f.Machine, want)
		}
		if d.Platform.Architecture == runtime.GOARCH { // this machine's runs, stamped
			path := filepath.Join(t.TempDir(), spec.Binary)
			if err := os.WriteFile(path, bin, 0o755); err != nil { //nolint:gosec // run below
				t.Fatal(err)
			}
			if out, err := exec.Command(path).CombinedOutput(); err != nil || string(out) != "hello v0.0.0-test\n" {
				t.Errorf("%s: /%s: %v: %q", d.Platform.Architecture, spec.Binary, err, out)
			}
		}
	}
	if d := cmp.Diff(DefaultPlatforms, platforms); d != "" {
		t.Errorf("the index's platforms (-want +got):\n%s", d)
	}

	again, err := BuildIndex(context.Background(), spec, DefaultPlatforms)
	if err != nil {
		t.Fatal(err)
	}
	first, second := indexDigest(t, idx), indexDigest(t, again)
	if first != second {
		t.Errorf("two builds of the same source: index %s and %s", first, second)
	}

	dir := t.TempDir()
	if err := WriteIndexLayout(dir, "hello:test", idx); err != nil {
		t.Fatal(err)
	}
	l, err := layout.ImageIndexFromPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	top, err := l.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(top.Manifests) != 1 || !top.Manifests[0].MediaType.IsIndex() || top.Manifests[0].Digest != first ||
		top.Manifests[0].Annotations["org.opencontainers.image.ref.name"] != "hello:test" {
		t.Errorf("the layout's entries %+v, want the index %s tagged hello:test", top.Manifests, first)
	}
}

func indexDigest(t *testing.T, idx v1.ImageIndex) v1.Hash {
	t.Helper()
	d, err := idx.Digest()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// BuildIndex builds linux images only (the binaries are Linux's; a darwin "image" would never
// run), and refuses a list that builds nothing.
func TestBuildIndexRefusesOtherPlatforms(t *testing.T) {
	for _, platforms := range [][]string{{"darwin/arm64"}, {"linux"}, {"linux/"}, {"linux/arm/v7/x"}, nil} {
		_, err := BuildIndex(context.Background(), Spec{Package: "./nowhere", Dir: ".", Binary: "x"}, platforms)
		if err == nil || !strings.Contains(err.Error(), "platform") {
			t.Errorf("platforms %q: %v, want a refusal naming the platform", platforms, err)
		}
	}
}
