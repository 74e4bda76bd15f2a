package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAStrayArgumentStopsTheGateway: Go's flag package stops at the first argument that is not a
// flag and leaves every flag after it unread, so a stray word in the Deployment's args (a value
// split from its flag, a "-") silently dropped the flags after it: with --namespace among them,
// a gateway meant for one namespace served every namespace's agents. It must refuse to start,
// naming the argument, before it reads any configuration; the near miss (every flag read) gets
// past the arguments to the missing kubeconfig.
func TestAStrayArgumentStopsTheGateway(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "toolgate-gateway")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building the gateway: %v\n%s", err, out)
	}
	run := func(args ...string) (int, string) {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), bin, args...)
		cmd.Env = append(os.Environ(), "KUBECONFIG="+filepath.Join(t.TempDir(), "none"), "KUBERNETES_SERVICE_HOST=")
		out, err := cmd.CombinedOutput()
		if ee, ok := errors.AsType[*exec.ExitError](err); ok {
			return ee.ExitCode(), string(out)
		}
		if err != nil {
			t.Fatalf("running the gateway: %v", err)
		}
		return 0, string(out)
	}
	code, out := run("--listen=127.0.0.1:0", "payments", "--namespace=payments")
	if code == 0 || !strings.Contains(out, `unexpected argument "payments"`) || strings.Contains(out, "kubeconfig") {
		t.Errorf("with a stray argument before --namespace: exit %d, want a refusal naming it before any "+
			"configuration is read:\n%s", code, out)
	}
	code, out = run("--listen=127.0.0.1:0", "--namespace=payments")
	if code == 0 || strings.Contains(out, "unexpected argument") || !strings.Contains(out, "kubeconfig") {
		t.Errorf("the near miss, every flag read: exit %d, want it to reach the missing kubeconfig:\n%s", code, out)
	}
}
