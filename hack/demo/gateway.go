package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
	"github.com/toolgate/toolgate/internal/testenv"
)

// gatewayAudience is the audience of the agent's token for toolgate-gateway.
const gatewayAudience = "toolgate-gateway"

// demoReadTool is the samples' AgentTool the gateway offers.
const demoReadTool = "read-file"

// gatewayFlow shows an agent that speaks only MCP: toolgate-gateway (as its own ServiceAccount
// with the shipped role) in front of an MCP server registered as a ToolServer; the coding agent,
// with a pod-bound token, lists the tools and calls read-file twice through it, once allowed and
// once on a zero-access path, which the upstream server never sees.
func gatewayFlow(ctx context.Context, local *testenv.Local) error {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, safetyv1alpha1.AddToScheme} {
		if err := add(scheme); err != nil {
			return err
		}
	}
	admin, err := client.New(local.Admin, client.Options{Scheme: scheme})
	if err != nil {
		return err
	}
	step("starting an upstream MCP server (read_file over a scratch workspace) and toolgate-gateway in front of it")
	workspace, err := writeWorkspace()
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(workspace) }()
	upstream, seen := startFiles(workspace)
	defer upstream.Close()

	gwURL, gwTLS, stop, err := startGateway(ctx, local, admin)
	if err != nil {
		return err
	}
	defer stop()
	ts := &safetyv1alpha1.ToolServer{ObjectMeta: metav1.ObjectMeta{Name: "demo-files"},
		Spec: safetyv1alpha1.ToolServerSpec{URL: upstream.URL, Tools: []safetyv1alpha1.ServedTool{{
			AgentTool: demoReadTool, UpstreamName: "read_file",
			Arguments: safetyv1alpha1.ToolArgumentMap{Paths: []string{"path"}}}}}}
	step("registering ToolServer demo-files: AgentTool read-file is its read_file, whose \"path\" argument is a path")
	if err := admin.Create(ctx, ts); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}

	token, err := testenv.AudiencePodToken(ctx, local.Admin, demoNamespace, "coding-agent", "coding-agent-mcp", true,
		gatewayAudience)
	if err != nil {
		return err
	}
	transport := &mcp.StreamableClientTransport{Endpoint: gwURL, HTTPClient: testenv.BearerClientOver(gwTLS, token),
		DisableStandaloneSSE: true}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "demo-agent", Version: "1"}, nil).Connect(ctx, transport, nil)
	if err != nil {
		return err
	}
	defer func() { _ = session.Close() }()
	step("the coding agent's MCP client (pod-bound token, audience toolgate-gateway) lists the gateway's tools")
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		return err
	}
	for _, t := range tools.Tools {
		fmt.Printf("  %s: %s\n", t.Name, t.Description)
	}
	for _, path := range []string{"src/refunds/round.go", "secrets/prod.env"} {
		if err := callAndShow(ctx, session, path); err != nil {
			return err
		}
	}
	fmt.Printf("  the upstream server received: %v\n", seen())
	return nil
}

// writeWorkspace makes the upstream server's files: a source file and a secret.
func writeWorkspace() (string, error) {
	workspace, err := os.MkdirTemp("", "toolgate-demo-workspace-")
	if err != nil {
		return "", err
	}
	for path, content := range map[string]string{"src/refunds/round.go": "package refunds // rounds half to even\n",
		"secrets/prod.env": "STRIPE_KEY=sk_live_demo\n"} {
		if err := os.MkdirAll(filepath.Join(workspace, filepath.Dir(path)), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(workspace, path), []byte(content), 0o600); err != nil {
			return "", err
		}
	}
	return workspace, nil
}

// callAndShow calls read-file on path through the gateway and prints the answer.
func callAndShow(ctx context.Context, session *mcp.ClientSession, path string) error {
	step(fmt.Sprintf("tools/call %s {\"path\": %q}", demoReadTool, path))
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: demoReadTool, Arguments: map[string]any{"path": path}})
	if err != nil {
		return err
	}
	text := ""
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = strings.TrimSpace(tc.Text)
		}
	}
	if !res.IsError {
		fmt.Printf("  answered by the upstream server: %s\n", text)
		return nil
	}
	var d gateway.Denied
	if data, err := json.Marshal(res.Meta[gateway.MetaDenial]); err == nil {
		_ = json.Unmarshal(data, &d)
	}
	fmt.Printf("  refused (isError, reason %s for programs): %s\n", d.Reason, text)
	return nil
}

// startGateway runs toolgate-gateway in this process as ServiceAccount toolgate-system/gateway
// with the ClusterRole config/gateway ships, over HTTPS as deployed (agents send it their tokens);
// it returns its URL and a transport that trusts its certificate.
func startGateway(ctx context.Context, local *testenv.Local,
	admin client.Client) (string, http.RoundTripper, func(), error) {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "toolgate-system"}}
	if err := admin.Create(ctx, ns); err != nil && !apierrors.IsAlreadyExists(err) {
		return "", nil, nil, err
	}
	cfg, err := testenv.Gateway(ctx, local.Admin, "toolgate-system", "gateway")
	if err != nil {
		return "", nil, nil, err
	}
	c, err := client.New(cfg, client.Options{Scheme: admin.Scheme()})
	if err != nil {
		return "", nil, nil, err
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return "", nil, nil, err
	}
	identity, err := gateway.Identity(ctx, cs.AuthenticationV1().SelfSubjectReviews())
	if err != nil {
		return "", nil, nil, err
	}
	gw, err := gateway.New(gateway.Options{Reader: c, Reporter: c, Identity: identity, APIServer: cfg,
		TokenReviews: cs.AuthenticationV1().TokenReviews(), Scheme: admin.Scheme(), Mapper: c.RESTMapper(),
		Audience: gatewayAudience, Version: "demo"})
	if err != nil {
		return "", nil, nil, err
	}
	server := httptest.NewTLSServer(gw.Handler())
	return server.URL, server.Client().Transport, func() { server.Close(); gw.Close() }, nil
}

// startFiles is an MCP server whose read_file serves dir and records every path it is asked for.
func startFiles(dir string) (*httptest.Server, func() []string) {
	var (
		mu   sync.Mutex
		seen []string
	)
	s := mcp.NewServer(&mcp.Implementation{Name: "demo-files", Version: "1"}, nil)
	type args struct {
		Path string `json:"path"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "read_file", Description: "Read a file of the workspace"},
		func(_ context.Context, _ *mcp.CallToolRequest, in args) (*mcp.CallToolResult, any, error) {
			mu.Lock()
			seen = append(seen, in.Path)
			mu.Unlock()
			data, err := os.ReadFile(filepath.Join(dir, filepath.Clean("/"+in.Path)))
			if err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}}}, nil, nil
		})
	server := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	return server, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}
