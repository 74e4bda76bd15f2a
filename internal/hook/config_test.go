package hook_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/hook"
)

// The hook sends the pod's ServiceAccount token with every request: a server it would reach in
// clear text, or not as a URL at all, is refused before anything is sent, naming --server.
func TestConfigRefusesAServerWithoutTLS(t *testing.T) {
	token := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(token, []byte("t"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, server := range []string{"http://10.0.0.1:6443", "10.0.0.1:6443", "ftp://x", "https://", "https://x/%zz"} {
		_, _, err := hook.Config{Server: server, TokenFile: token, Namespace: "ns"}.REST()
		if err == nil || !strings.Contains(err.Error(), "--server") {
			t.Errorf("--server %q: error %v, want one naming --server", server, err)
		}
	}
	if _, _, err := (hook.Config{Server: "https://10.0.0.1:6443", TokenFile: token, Namespace: "ns"}).REST(); err != nil {
		t.Errorf("an https server: %v", err)
	}
}
