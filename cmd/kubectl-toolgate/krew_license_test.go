package main

import (
	"os"
	"strings"
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

// The LICENSE the archives carry is the license the source files' header names
// (hack/boilerplate.go.txt: Apache 2.0), in full: the standard text from its title to its
// appendix, not a header or a pointer to it.
func TestLicenseIsTheOneTheHeadersName(t *testing.T) {
	read := func(elem ...string) string {
		t.Helper()
		path, err := testenv.Path(elem...)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if header := read("hack", "boilerplate.go.txt"); !strings.Contains(header, "Apache License, Version 2.0") {
		t.Fatalf("fixture: the boilerplate header names another license:\n%s", header)
	}
	license := read("LICENSE")
	for _, want := range []string{"Apache License\n                           Version 2.0, January 2004",
		"TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION", "9. Accepting Warranty or Additional Liability.",
		"END OF TERMS AND CONDITIONS", "APPENDIX: How to apply the Apache License to your work."} {
		if !strings.Contains(license, want) {
			t.Errorf("LICENSE is not the full Apache License 2.0: it lacks %q", want)
		}
	}
}
