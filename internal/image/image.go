// Package image builds toolgate's container images without a container engine: a static Go binary
// in one layer on an empty base, run as a non-root user, no shell, assembled and written with
// go-containerregistry as an OCI image layout (and a tarball `docker load` and `crane push` read).
package image

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// Source is the repository the images are built from, their org.opencontainers.image.source label.
const Source = "https://github.com/toolgate/toolgate"

// DefaultPlatforms are the platforms `make image` builds into each image's index: the
// architectures clusters' nodes run (a node of another one would pull the image and die with
// "exec format error").
var DefaultPlatforms = []string{"linux/amd64", "linux/arm64"}

// NonRootUser is the user and group the image runs as (distroless' "nonroot"), matching the
// manifests' runAsUser/runAsGroup/fsGroup.
const NonRootUser = "65532:65532"

// Spec says what to build.
type Spec struct {
	// Package is the Go main package, relative to Dir (e.g. "./cmd").
	Package string
	// Dir is the module root to build in.
	Dir string
	// Binary is the file name in the image's root and its entrypoint (e.g. "manager").
	Binary string
	// Version is stamped into the binary as main.version.
	Version string
	// Arch is the target architecture (GOARCH); the OS is always linux.
	Arch string
	// Source is the org.opencontainers.image.source label.
	Source string
	// Revision is the commit built, the org.opencontainers.image.revision label ("" for none).
	Revision string
}

// Build compiles the binary statically for linux/Arch and returns the image.
func Build(ctx context.Context, s Spec) (v1.Image, error) {
	bin, err := compile(ctx, s, "linux")
	if err != nil {
		return nil, err
	}
	layer, err := binaryLayer(s.Binary, bin)
	if err != nil {
		return nil, err
	}
	img, err := mutate.AppendLayers(mutate.MediaType(empty.Image, types.OCIManifestSchema1), layer)
	if err != nil {
		return nil, err
	}
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture = "linux", s.Arch
	cfg.Created = v1.Time{Time: time.Unix(0, 0).UTC()} // reproducible: the same source gives the same digest
	cfg.Config.User = NonRootUser
	cfg.Config.Entrypoint = []string{"/" + s.Binary}
	cfg.Config.WorkingDir = "/"
	cfg.Config.Labels = Labels(s)
	return mutate.ConfigFile(img, cfg)
}

// Labels are the OCI labels of s's image: its title, version, source and (when known) revision.
// The Dockerfile sets the manager's the same (internal/image/dockerfile_test.go).
func Labels(s Spec) map[string]string {
	labels := map[string]string{
		"org.opencontainers.image.title":   "toolgate " + s.Binary,
		"org.opencontainers.image.version": s.Version,
		"org.opencontainers.image.source":  s.Source,
	}
	if s.Revision != "" {
		labels["org.opencontainers.image.revision"] = s.Revision
	}
	return labels
}

// BuildIndex builds s for each of platforms ("linux/<arch>"; s.Arch is ignored), each as Build
// does, cross-compiled, and returns them as one OCI image index, in the order given: a node pulls
// the image of its own platform. The same source gives the same index digest.
func BuildIndex(ctx context.Context, s Spec, platforms []string) (v1.ImageIndex, error) {
	adds := make([]mutate.IndexAddendum, 0, len(platforms))
	for _, p := range platforms {
		goos, arch, ok := strings.Cut(p, "/")
		if !ok || goos != "linux" || arch == "" || strings.Contains(arch, "/") {
			return nil, fmt.Errorf("platform %q: want linux/<arch>", p)
		}
		s.Arch = arch
		img, err := Build(ctx, s)
		if err != nil {
			return nil, err
		}
		adds = append(adds, mutate.IndexAddendum{Add: img,
			Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: goos, Architecture: arch}}})
	}
	if len(adds) == 0 {
		return nil, fmt.Errorf("no platform to build %s for", s.Binary)
	}
	return mutate.AppendManifests(mutate.IndexMediaType(empty.Index, types.OCIImageIndex), adds...), nil
}

// compile builds s's binary statically for goos/s.Arch, trimmed, stripped and stamped with
// s.Version, the same way for every image and archive, and returns it.
func compile(ctx context.Context, s Spec, goos string) ([]byte, error) {
	tmp, err := os.MkdirTemp("", "toolgate-build-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	out := filepath.Join(tmp, s.Binary)
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath",
		"-ldflags", "-s -w -X main.version="+s.Version, "-o", out, s.Package)
	cmd.Dir = s.Dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+s.Arch)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build %s for %s/%s: %w: %s", s.Package, goos, s.Arch, err, msg)
	}
	return os.ReadFile(out)
}

// binaryLayer is one layer holding /<name>, executable by everyone and owned by root, so the
// non-root user can run it but not replace it.
func binaryLayer(name string, bin []byte) (v1.Layer, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	epoch := time.Unix(0, 0)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o555, Size: int64(len(bin)), ModTime: epoch, Typeflag: tar.TypeReg}); err != nil {
		return nil, err
	}
	if _, err := tw.Write(bin); err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil },
		tarball.WithMediaType(types.OCILayer))
}

// WriteLayout writes img as an OCI image layout in dir (replacing what was there), tagged ref.
func WriteLayout(dir, ref string, img v1.Image) error {
	p, err := newLayout(dir)
	if err != nil {
		return err
	}
	return p.AppendImage(img, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": ref}))
}

// WriteIndexLayout writes idx as an OCI image layout in dir (replacing what was there), its one
// entry the index, tagged ref: `crane push DIR REF` pushes the index.
func WriteIndexLayout(dir, ref string, idx v1.ImageIndex) error {
	p, err := newLayout(dir)
	if err != nil {
		return err
	}
	return p.AppendIndex(idx, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": ref}))
}

func newLayout(dir string) (layout.Path, error) {
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	return layout.Write(dir, empty.Index)
}
