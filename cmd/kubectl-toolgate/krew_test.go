package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"text/template"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/toolgate/toolgate/internal/image"
	"github.com/toolgate/toolgate/internal/testenv"
)

// krewPlugin is krew's Plugin manifest (krew.googlecontainertools.github.com/v1alpha2), the
// fields a plugin sets; read strictly, so a misspelt field fails the test as krew would refuse it.
type krewPlugin struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
	Spec struct {
		Version          string         `json:"version"`
		Homepage         string         `json:"homepage"`
		ShortDescription string         `json:"shortDescription"`
		Description      string         `json:"description"`
		Caveats          string         `json:"caveats"`
		Platforms        []krewPlatform `json:"platforms"`
	} `json:"spec"`
}

type krewPlatform struct {
	Selector metav1.LabelSelector `json:"selector"`
	URI      string               `json:"uri"`
	Sha256   string               `json:"sha256"`
	Files    []struct {
		From string `json:"from"`
		To   string `json:"to"`
	} `json:"files"`
	Bin string `json:"bin"`
}

// renderKrew renders the manifest template as krew-release-bot does for tag, with each archive's
// checksum made up (the sha256 of its URL).
func renderKrew(t *testing.T, tag string) []byte {
	return renderKrewWith(t, tag, func(url string) string {
		sum := sha256.Sum256([]byte(url))
		return hex.EncodeToString(sum[:])
	})
}

// renderKrewWith renders the manifest for tag with each archive's checksum from sha256Of(url).
func renderKrewWith(t *testing.T, tag string, sha256Of func(url string) string) []byte {
	t.Helper()
	path, err := testenv.Path("plugins", "toolgate.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := template.New("krew").Funcs(template.FuncMap{
		"addURIAndSha": func(url, tag string) string {
			url = strings.ReplaceAll(url, "{{ .TagName }}", tag)
			return fmt.Sprintf("uri: %s\n    sha256: %s", url, sha256Of(url))
		},
	}).Parse(string(text))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out bytes.Buffer
	if err := tmpl.Execute(&out, map[string]string{"TagName": tag}); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out.Bytes()
}

// TestKrewManifest: the manifest is a krew Plugin for the binary this package builds, with one
// archive per platform the release builds, each named for its platform and holding that binary.
func TestKrewManifest(t *testing.T) {
	const tag = "v1.2.3"
	var p krewPlugin
	if err := yaml.UnmarshalStrict(renderKrew(t, tag), &p); err != nil {
		t.Fatalf("the rendered manifest is no krew Plugin: %v", err)
	}
	if p.APIVersion != "krew.googlecontainertools.github.com/v1alpha2" || p.Kind != "Plugin" {
		t.Errorf("apiVersion %q, kind %q", p.APIVersion, p.Kind)
	}
	binary := newRootCommand(&cli{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}).Name()
	if "kubectl-"+p.Metadata.Name != binary {
		t.Errorf("the plugin %q would be run as kubectl-%s, but the binary is %s", p.Metadata.Name, p.Metadata.Name, binary)
	}
	if p.Spec.Version != tag || p.Spec.Homepage == "" || p.Spec.Description == "" {
		t.Errorf("version %q (want %s), homepage %q, description %q",
			p.Spec.Version, tag, p.Spec.Homepage, p.Spec.Description)
	}
	if n := len(p.Spec.ShortDescription); n == 0 || n > 50 {
		t.Errorf("shortDescription %q: krew wants one line under 50 characters", p.Spec.ShortDescription)
	}
	if !strings.Contains(p.Spec.Caveats, completionName) {
		t.Errorf("the caveats do not say how to link %s for completion: %q", completionName, p.Spec.Caveats)
	}

	// The platforms the plugin builds for (internal/ledger locks with flock(2): no Windows).
	want := []string{"darwin/amd64", "darwin/arm64", "linux/amd64", "linux/arm64"}
	got := make([]string, 0, len(p.Spec.Platforms))
	for _, pl := range p.Spec.Platforms {
		labels := pl.Selector.MatchLabels
		goos, arch := labels["os"], labels["arch"]
		platform := goos + "/" + arch
		got = append(got, platform)
		if len(labels) != 2 || len(pl.Selector.MatchExpressions) != 0 {
			t.Errorf("%s: select by os and arch only, not %+v", platform, pl.Selector)
		}
		bin := binary
		uri := fmt.Sprintf("https://github.com/toolgate/toolgate/releases/download/%s/%s_%s_%s_%s.tar.gz",
			tag, binary, tag, goos, arch)
		if pl.URI != uri {
			t.Errorf("%s: uri %s, want %s", platform, pl.URI, uri)
		}
		if len(pl.Sha256) != 64 {
			t.Errorf("%s: sha256 %q", platform, pl.Sha256)
		}
		if pl.Bin != bin || len(pl.Files) != 2 || pl.Files[0].From != bin || pl.Files[0].To != "." ||
			pl.Files[1].From != image.License || pl.Files[1].To != "." {
			t.Errorf("%s: bin %q, files %+v; want %s and %s, copied from the archive's root", platform, pl.Bin, pl.Files,
				bin, image.License)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("platforms %v, want each of %v once", got, want)
	}
}

// TestReleaseArchiveInstallsWithKrew: the archive `make plugin-archives` builds for this platform
// is the one the rendered manifest names and pins, and holds what the manifest installs: the one
// static binary at its root, which runs and reports the release. Before, nothing built the
// archives the manifest points at.
func TestReleaseArchiveInstallsWithKrew(t *testing.T) {
	const tag = "v1.2.3"
	repo, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	binary := "kubectl-" + "toolgate"
	path, sum, err := image.Archive(context.Background(), image.Spec{Package: "./cmd/kubectl-toolgate", Dir: repo,
		Binary: binary, Version: tag, Arch: runtime.GOARCH}, runtime.GOOS, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var p krewPlugin
	rendered := renderKrewWith(t, tag, func(url string) string {
		if filepath.Base(url) == filepath.Base(path) {
			return sum
		}
		return strings.Repeat("0", 64)
	})
	if err := yaml.UnmarshalStrict(rendered, &p); err != nil {
		t.Fatal(err)
	}
	var platform *krewPlatform
	for i, pl := range p.Spec.Platforms {
		if pl.Selector.MatchLabels["os"] == runtime.GOOS && pl.Selector.MatchLabels["arch"] == runtime.GOARCH {
			platform = &p.Spec.Platforms[i]
		}
	}
	if platform == nil {
		t.Skipf("the manifest has no %s/%s build", runtime.GOOS, runtime.GOARCH)
	}
	if filepath.Base(platform.URI) != filepath.Base(path) || platform.Sha256 != sum {
		t.Fatalf("the manifest installs %s (sha256 %s); the release built %s (sha256 %s)",
			platform.URI, platform.Sha256, filepath.Base(path), sum)
	}
	files := untar(t, path, platform.Bin)
	if len(files) != len(platform.Files) {
		t.Errorf("the archive holds %d files; the manifest installs %d", len(files), len(platform.Files))
	}
	for _, f := range platform.Files {
		if files[f.From] == nil {
			t.Fatalf("the manifest installs %s from the archive's root, which does not hold it", f.From)
		}
	}
	license, err := os.ReadFile(filepath.Join(repo, image.License))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(files[image.License], license) {
		t.Errorf("the archive's %s is not the repository's", image.License)
	}
	bin := filepath.Join(t.TempDir(), platform.Bin)
	if err := os.WriteFile(bin, files[platform.Files[0].From], 0o755); err != nil { //nolint:gosec // run below
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != binary+" "+tag {
		t.Errorf("the installed plugin's version: %v: %q", err, out)
	}
}

// untar returns the regular files of the gzipped tar at path by name, checking that bin is
// executable.
func untar(t *testing.T, path, bin string) map[string][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	files := map[string][]byte{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Name == bin && h.Mode&0o111 == 0 {
			t.Errorf("%s in the archive is not executable (mode %o)", h.Name, h.Mode)
		}
		if files[h.Name], err = io.ReadAll(tr); err != nil {
			t.Fatal(err)
		}
	}
}
