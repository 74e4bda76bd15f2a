package main

import (
	"os"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/toolgate/toolgate/internal/testenv"
)

// Krew's pre-submit checklist for krew-index: "Adopt an open source license, and add it to your
// plugin archive file. Make sure to extract the LICENSE file during the plugin installation."
// krew's maintainers open an issue on every plugin distributed without one. The repository has
// no LICENSE file (only the Apache-2.0 header in hack/boilerplate.go.txt), and the manifest's
// platforms copy the binary alone, so the manifest in the repo cannot be submitted as it is.
func TestKrewManifestShipsTheLicense(t *testing.T) {
	if path, err := testenv.Path("LICENSE"); err != nil {
		t.Fatal(err)
	} else if _, err := os.Stat(path); err != nil {
		t.Errorf("the repository has no LICENSE file for the plugin's archives to carry: %v", err)
	}
	var p krewPlugin
	if err := yaml.UnmarshalStrict(renderKrew(t, "v1.2.3"), &p); err != nil {
		t.Fatalf("the rendered manifest is no krew Plugin: %v", err)
	}
	for _, pl := range p.Spec.Platforms {
		found := false
		for _, f := range pl.Files {
			if f.From == "LICENSE" {
				found = true
			}
		}
		if !found {
			t.Errorf("platform %v: files %+v do not extract LICENSE", pl.Selector.MatchLabels, pl.Files)
		}
	}
}
