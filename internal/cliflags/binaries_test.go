package cliflags

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAStrayArgumentStopsEveryBinary builds each of toolgate's flag-parsing binaries and starts it
// with a stray word before one of its flags. Each must refuse to start, naming the word, before it
// reads any configuration: before, the manager ran with the flags after it unread (a chart's
// manager.args appended after the chart's own arguments, --leader-elect among them), and so did a
// gateway meant for one namespace, which served every namespace's agents. The near miss, the same
// line without the word, gets past the arguments to what comes next (the missing kubeconfig; the
// hook's answer to an empty payload).
func TestAStrayArgumentStopsEveryBinary(t *testing.T) {
	for _, b := range []struct {
		pkg      string
		flags    []string // the stray word goes before the last of them
		exit     int      // the refusal's exit status
		nearMiss string   // what the near miss reaches, in its output
	}{
		{"github.com/toolgate/toolgate/cmd", []string{"--leader-elect"}, 1, "kubeconfig"},
		{"github.com/toolgate/toolgate/cmd/toolgate-gateway", []string{"--listen=127.0.0.1:0", "--namespace=payments"}, 1, "kubeconfig"},
		// The hook exits 2, the protocol's block: exit 0 without an answer would run the tool.
		{"github.com/toolgate/toolgate/cmd/toolgate-hook", []string{"--ask-for-approvals"}, 2, "permissionDecision"},
	} {
		t.Run(filepath.Base(b.pkg), func(t *testing.T) {
			bin := filepath.Join(t.TempDir(), "binary")
			if out, err := exec.Command("go", "build", "-o", bin, b.pkg).CombinedOutput(); err != nil {
				t.Fatalf("building %s: %v\n%s", b.pkg, err, out)
			}
			last := len(b.flags) - 1
			stray := append(append(slices.Clone(b.flags[:last]), "payments"), b.flags[last])
			code, out := run(t, bin, stray...)
			if code != b.exit || !strings.Contains(out, `unexpected argument "payments"`) || strings.Contains(out, b.nearMiss) {
				t.Errorf("%q: exit %d, want %d and a refusal naming the stray argument before anything else:\n%s",
					stray, code, b.exit, out)
			}
			code, out = run(t, bin, b.flags...)
			if strings.Contains(out, "unexpected argument") || !strings.Contains(out, b.nearMiss) {
				t.Errorf("the near miss, every flag read: exit %d, want it to reach %q:\n%s", code, b.nearMiss, out)
			}
		})
	}
}

// run starts bin with args, no kubeconfig, no cluster around it and nothing on its standard input,
// and returns its exit status and output.
func run(t *testing.T, bin string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), bin, args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+filepath.Join(t.TempDir(), "none"), "KUBERNETES_SERVICE_HOST=")
	out, err := cmd.CombinedOutput()
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		return ee.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatalf("running %s: %v", bin, err)
	}
	return 0, string(out)
}
