package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"text/template"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

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
			sum := sha256.Sum256([]byte(url))
			return fmt.Sprintf("uri: %s\n    sha256: %s", url, hex.EncodeToString(sum[:]))
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
		if pl.Bin != bin || len(pl.Files) != 1 || pl.Files[0].From != bin || pl.Files[0].To != "." {
			t.Errorf("%s: bin %q, files %+v; want %s, copied from the archive's root", platform, pl.Bin, pl.Files, bin)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("platforms %v, want each of %v once", got, want)
	}
}
