package gateway_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolgate/toolgate/internal/testenv"
)

// filesystemServer is @modelcontextprotocol/server-filesystem from the npm registry (pinned by
// hack/mcp-servers/package-lock.json), serving dir over stdio. It speaks only stdio, so a relay
// in the test process offers its tools over Streamable HTTP, forwarding every call unchanged;
// the relay records every JSON-RPC message that goes into and out of the server's stdin and
// stdout: the server's own wire log, the proof of what reached it.
type filesystemServer struct {
	URL  string
	wire *syncBuffer
}

func startFilesystemServer(dir string) (*filesystemServer, func()) {
	GinkgoHelper()
	script, err := testenv.Path("hack", "install-mcp-servers.sh")
	Expect(err).NotTo(HaveOccurred())
	cmd := exec.Command(script, "--print-dir")
	cmd.Stderr = GinkgoWriter
	out, err := cmd.Output()
	Expect(err).NotTo(HaveOccurred(), "installing the npm MCP servers with hack/install-mcp-servers.sh")
	installed := strings.TrimSpace(string(out))

	fs := &filesystemServer{wire: &syncBuffer{}}
	node := exec.Command("node", filepath.Join(installed, "node_modules", "@modelcontextprotocol",
		"server-filesystem", "dist", "index.js"), dir)
	node.Stderr = GinkgoWriter
	c := mcp.NewClient(&mcp.Implementation{Name: "relay", Version: "test"}, nil)
	session, err := c.Connect(context.Background(), &mcp.LoggingTransport{
		Transport: &mcp.CommandTransport{Command: node}, Writer: fs.wire}, nil)
	Expect(err).NotTo(HaveOccurred(), "starting server-filesystem under node")

	relay := mcp.NewServer(&mcp.Implementation{Name: "server-filesystem relay", Version: "test"}, nil)
	for tool, err := range session.Tools(context.Background(), nil) {
		Expect(err).NotTo(HaveOccurred())
		relay.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return session.CallTool(ctx, &mcp.CallToolParams{Name: req.Params.Name, Arguments: req.Params.Arguments})
		})
	}
	server := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return relay }, nil))
	fs.URL = server.URL
	return fs, func() { server.Close(); _ = session.Close() }
}

// Wire is everything the server has received and sent so far.
func (fs *filesystemServer) Wire() string { return fs.wire.String() }

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var _ = Describe("a third-party MCP server from the npm registry behind toolgate-gateway", Ordered, func() {
	var (
		w        *world
		readTool string
		fs       *filesystemServer
	)

	BeforeAll(func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello from server-filesystem"), 0o600)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, ".env"), []byte("SECRET=1"), 0o600)).To(Succeed())
		var stop func()
		fs, stop = startFilesystemServer(dir)
		DeferCleanup(stop)
		w = newWorld("npm-", fs.URL, "read_text_file")
		readTool = w.readTool
	})

	It("lists only the registered tool, not the server's other tools", func() {
		res, err := w.session.ListTools(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		names := make([]string, 0, len(res.Tools))
		for _, t := range res.Tools {
			names = append(names, t.Name)
		}
		Expect(names).To(ContainElement(readTool))
		Expect(names).NotTo(ContainElements("read_text_file", "write_file", "edit_file", "list_directory"))
	})

	It("forwards an admitted read, which server-filesystem answers", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: readTool, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "%v", res.Content)
		Expect(res.Content[0].(*mcp.TextContent).Text).To(Equal("hello from server-filesystem"))
		Expect(fs.Wire()).To(ContainSubstring("notes.txt"))
	})

	It("refuses a read of .env with ToolAccessDenied, and server-filesystem never receives it", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: readTool, Arguments: map[string]any{"path": ".env"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeTrue())
		Expect(res.Content[0].(*mcp.TextContent).Text).To(HavePrefix("[ToolAccessDenied] "))
		Expect(reasonIn(res)).To(Equal("ToolAccessDenied"))
		Expect(fs.Wire()).NotTo(ContainSubstring(".env"))
	})

	It("refuses a tool server-filesystem offers but nobody registered, which it never receives", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: "write_file",
			Arguments: map[string]any{"path": "notes.txt", "content": "overwritten"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Content[0].(*mcp.TextContent).Text).To(HavePrefix("[ToolNotRegistered] "))
		Expect(fs.Wire()).NotTo(ContainSubstring("overwritten"))
	})
})
