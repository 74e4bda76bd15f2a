package manifests

import (
	"context"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/toolgate/toolgate/internal/testenv"
)

// gatewayURL is an https address of a gateway Service in the operator's namespace, as samples and
// docs write the gateway's MCP endpoint for an agent to call (the webhook's Service is not one).
var gatewayURL = regexp.MustCompile(`https://[a-z0-9-]*gateway[a-z0-9-]*\.` + operatorNamespace +
	`\.svc[a-z.]*(:[0-9]+)?/`)

// TestGatewayURLsNameTheService finds every https address of a gateway in the operator's namespace
// that the samples, the docs and the chart's values give agents, and fails unless it names the Service
// config/gateway renders at its mcp port (443 when none is written): an agent configured from a
// sample that names another host or the container's port reaches no gateway at all.
func TestGatewayURLsNameTheService(t *testing.T) {
	objs, _, err := testenv.RenderKustomization(context.Background(), "config", "gateway")
	if err != nil {
		t.Fatal(err)
	}
	ports := map[string]bool{}
	var service string
	for _, o := range objs {
		if o.GetKind() != "Service" {
			continue
		}
		service = o.GetName()
		list, _, _ := unstructured.NestedSlice(o.Object, "spec", "ports")
		for _, p := range list {
			if p := p.(map[string]any); p["name"] == "mcp" {
				ports[fmt.Sprint(p["port"])] = true // an int64 or a float64, as the decoder read it
			}
		}
	}
	if service == "" || len(ports) == 0 {
		t.Fatal("config/gateway renders no Service with an mcp port")
	}
	found := 0
	for _, file := range gatewayURLSources(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range gatewayURL.FindAllString(string(data), -1) {
			found++
			u, err := url.Parse(raw)
			if err != nil {
				t.Errorf("%s: %q: %v", file, raw, err)
				continue
			}
			port := u.Port()
			if port == "" {
				port = "443"
			}
			if host, _, _ := strings.Cut(u.Hostname(), "."); host != service || !ports[port] {
				t.Errorf("%s: %s is not the gateway's Service %s.%s.svc at its mcp port %v",
					file, raw, service, operatorNamespace, ports)
			}
		}
	}
	if found == 0 {
		t.Fatal("no gateway address found in the samples and docs: the pattern no longer matches them")
	}
}

// gatewayURLSources is every file a reader configures an agent from: config/samples, docs and the
// README, and the chart's values.
func gatewayURLSources(t *testing.T) []string {
	t.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	files := []string{filepath.Join(root, "README.md"), filepath.Join(root, "dist", "chart", "values.yaml")}
	for _, dir := range []string{"config/samples", "docs"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}
