package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// A namespace, plan, tool or step no object could have is refused before anything is sent: exit
// 2, the flag or argument and the rule named, nothing on standard output, no request to the
// server (a recording server stands in for the cluster; reached, it answers 404 for every path).
func TestNamesAreCheckedBeforeAnyRequest(t *testing.T) {
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	long := strings.Repeat("a", 254)
	kc := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(kc, []byte("apiVersion: v1\nkind: Config\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	conn := []string{"--kubeconfig", kc, "--server", srv.URL}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"explain", "-n", "Bad_NS", "p"}, []string{`-n/--namespace "Bad_NS" is not a DNS label`}},
		{[]string{"explain", "--namespace=", "p"}, []string{"-n/--namespace is empty"}},
		{[]string{"explain", "-n", strings.Repeat("n", 64), "p"}, []string{"is not a DNS label", "at most 63"}},
		{[]string{"explain", "-n", "ok", "Bad_Plan"}, []string{`PLAN "Bad_Plan" is not a DNS subdomain`}},
		{[]string{"explain", "-n", "ok", long}, []string{"PLAN ", "(254 characters) is not a DNS subdomain", "at most 253"}},
		{[]string{"approve", "-n", "Bad_NS", "p", "--tool", "t"}, []string{`-n/--namespace "Bad_NS"`}},
		{[]string{"approve", "-n", "ok", "p", "--tool", ""}, []string{"--tool is empty"}},
		{[]string{"approve", "-n", "ok", "p", "--tool", "Read File"}, []string{`--tool "Read File" is not a DNS subdomain`}},
		{[]string{"approve", "-n", "ok", "p", "--tool", long}, []string{"--tool ", "(254 characters)"}},
		{[]string{"approve", "-n", "ok", "p", "--tool", "t", "--step", "Build"},
			[]string{`--step "Build" is not a DNS label`}},
		{[]string{"approve", "-n", "ok", "p", "--tool", "t", "--step", ""}, []string{"--step is empty"}},
		{[]string{"approve", "-n", "ok", "a..b", "--tool", "t"}, []string{`PLAN "a..b"`}},
		// Several problems are named together.
		{[]string{"approve", "-n", "-x", "P", "--tool", "T"}, []string{`-n/--namespace "-x"`, `PLAN "P"`, `--tool "T"`}},
		// Offline, -n places objects: an invalid one is refused there too.
		{[]string{"test", "-n", "Bad_NS", "-f", "/nonexistent"}, []string{`-n/--namespace "Bad_NS"`}},
	} {
		before := requests.Load()
		code, out, errOut := runCLI(t, append(tc.args, conn...)...)
		if code != exitUsage || out != "" {
			t.Errorf("%q: exit %d, stdout %.80q, stderr %.300q; want exit 2 and no output", tc.args, code, out, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%q: stderr %.400q does not say %q", tc.args, errOut, w)
			}
		}
		if n := requests.Load() - before; n != 0 {
			t.Errorf("%q: %d requests reached the server", tc.args, n)
		}
	}
	// The recording server does count: a valid name is sent (and not found there).
	if code, _, errOut := runCLI(t, append([]string{"explain", "-n", "ok", "p"}, conn...)...); code != exitUsage ||
		requests.Load() == 0 {
		t.Errorf("a valid name: exit %d, %d requests, stderr %q; want it sent", code, requests.Load(), errOut)
	}
	// A namespace from the kubeconfig's context is checked as -n is, and named as the context's.
	bad := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(bad, []byte("apiVersion: v1\nkind: Config\ncurrent-context: c\ncontexts:\n"+
		"- name: c\n  context: {cluster: k, user: u, namespace: Team_A}\nclusters:\n- name: k\n  cluster: {server: "+
		srv.URL+"}\nusers:\n- name: u\n  user: {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := requests.Load()
	code, _, errOut := runCLI(t, "explain", "p", "--kubeconfig", bad)
	if code != exitUsage || !strings.Contains(errOut, `the kubeconfig context's namespace "Team_A" is not a DNS label`) ||
		requests.Load() != before {
		t.Errorf("a context's namespace Team_A: exit %d, %d requests, stderr %q", code, requests.Load()-before, errOut)
	}
	// ledger tail's -n is its number of lines, not a namespace.
	if code, _, errOut := runCLI(t, "ledger", "tail", "-n", "3", t.TempDir()); strings.Contains(errOut, "namespace") {
		t.Errorf("ledger tail -n 3: exit %d, %q", code, errOut)
	}
}
