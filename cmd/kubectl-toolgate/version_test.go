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
		if code != exitOK || out != "kubectl-toolgate v1.2.3\n" || errOut != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want the version, the same both ways", args, code, out, errOut)
		}
	}
	// A stray argument is a usage error, with --version too (cobra's --version ignored it).
	for _, args := range [][]string{{"version", "extra"}, {"--version", "extra"}, {"extra", "--version"}} {
		if code, out, errOut := runCLI(t, args...); code != exitUsage || out != "" || !strings.Contains(errOut, `"extra"`) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 naming the argument", args, code, out, errOut)
		}
	}
	// Unstamped (go build from a clone): the module version go install records, else "dev".
	version = ""
	if v := pluginVersion(); v == "" {
		t.Error("an unstamped build has no version at all")
	}
}
