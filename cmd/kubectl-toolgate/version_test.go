package main

import (
	"strings"
	"testing"
)

// `kubectl toolgate version` and `--version` say which plugin is installed (krew users and bug
// reports ask), as kubectl's own `version --client` does; before, both were usage errors.
func TestVersion(t *testing.T) {
	defer func(v string) { version = v }(version)
	version = "v1.2.3"
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, errOut := runCLI(t, args...)
		if code != exitOK || !strings.Contains(out, "v1.2.3") || errOut != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want the version", args, code, out, errOut)
		}
	}
	if code, _, errOut := runCLI(t, "version", "extra"); code != exitUsage {
		t.Errorf("version extra: exit %d (%s), want 2", code, errOut)
	}
	// Unstamped (go build from a clone): the module version go install records, else "dev".
	version = ""
	if v := pluginVersion(); v == "" {
		t.Error("an unstamped build has no version at all")
	}
}
