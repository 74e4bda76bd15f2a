package main

import (
	"slices"
	"strings"
	"testing"
)

// completed runs __complete with args and returns the candidates (without descriptions) and the
// directive line.
func completed(t *testing.T, args ...string) (candidates []string, directive string) {
	t.Helper()
	code, out, errOut := runCLI(t, append([]string{"__complete"}, args...)...)
	if code != exitOK {
		t.Fatalf("__complete %q: exit %d: %s", args, code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, l := range lines[:len(lines)-1] {
		name, _, _ := strings.Cut(l, "\t")
		candidates = append(candidates, name)
	}
	return candidates, lines[len(lines)-1]
}

// The values of kubectl's flags complete as kubectl completes them: -n with the cluster's
// namespaces, --context, --cluster and --user with the kubeconfig's names, -o with the formats.
// Before, each fell back to the shell's file names (directive 0), as if a file were wanted.
func TestCompletionOfFlagValues(t *testing.T) {
	cl := startCluster(t)
	ns := namespace(t, cl.Client, "flagcomplete-")
	kc := twoContexts(t, kubeconfig(t, cl.Env, "default"))

	got, directive := completed(t, "explain", "--kubeconfig", kc, "--context", "test", "-n", "flagcomplete-")
	if !slices.Contains(got, ns) || directive != ":4" || slices.Contains(got, "default") {
		t.Errorf("-n flagcomplete-<TAB>: %q %s, want %s and no file names", got, directive, ns)
	}
	// The namespaces of the cluster the typed --context names, wherever the flag is on the line.
	got, _ = completed(t, "--context", "test", "explain", "p", "--kubeconfig", kc, "--namespace", "")
	if !slices.Contains(got, ns) || !slices.Contains(got, "default") {
		t.Errorf("--namespace <TAB> after the plan: %q, want the cluster's namespaces", got)
	}
	names := map[string][]string{"--context": {"nowhere", "test"}, "--cluster": {"nowhere"}, "--user": nil}
	for flag, want := range names {
		got, directive = completed(t, "approve", "--kubeconfig", kc, flag, "")
		missing := slices.ContainsFunc(want, func(w string) bool { return !slices.Contains(got, w) })
		if len(got) == 0 || directive != ":4" || missing {
			t.Errorf("%s <TAB>: %q %s, want the kubeconfig's names %q", flag, got, directive, want)
		}
	}
	got, _ = completed(t, "approve", "--kubeconfig", kc, "--context", "no")
	if !slices.Equal(got, []string{"nowhere"}) {
		t.Errorf("--context no<TAB>: %q, want [nowhere]", got)
	}
	got, directive = completed(t, "explain", "p", "-o", "")
	for _, want := range []string{"text", "json", "yaml", "name", "jsonpath", "go-template"} {
		if !slices.Contains(got, want) || directive == ":0" {
			t.Errorf("-o <TAB>: %q %s, want %q among them and no file names", got, directive, want)
		}
	}
	// Near misses: a cluster that does not answer completes nothing (no file names either);
	// ledger tail's -n is a count and test's -f a file, which keep their own completion.
	if got, directive = completed(t, "explain", "--kubeconfig", kc, "-n", ""); len(got) != 0 || directive != ":4" {
		t.Errorf("-n <TAB> with the current context unreachable: %q %s", got, directive)
	}
	got, _ = completed(t, "ledger", "tail", "dir", "--kubeconfig", kc, "--context", "test", "-n", "")
	if slices.Contains(got, ns) {
		t.Errorf("ledger tail -n <TAB> completed namespaces: %q", got)
	}
	if _, directive = completed(t, "test", "-f", ""); directive != ":0" {
		t.Errorf("test -f <TAB>: directive %s, want file names (:0)", directive)
	}
}
