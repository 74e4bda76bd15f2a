package testenv

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// NPMPackages installs, if needed, the pinned npm MCP servers (hack/install-mcp-servers.sh, whose
// progress goes to stderr) and returns their node_modules directory.
func NPMPackages(stderr io.Writer) (string, error) {
	return npmPinned("mcp-servers", stderr)
}

// ClaudeCode installs, if needed, the pinned Claude Code (hack/install-claude-code.sh: its native
// Linux x86-64 build from the npm registry) and returns its binary.
func ClaudeCode(stderr io.Writer) (string, error) {
	modules, err := npmPinned("claude-code", stderr)
	if err != nil {
		return "", err
	}
	return filepath.Join(modules, "@anthropic-ai", "claude-code-linux-x64", "claude"), nil
}

// npmPinned installs, if needed, the pinned npm packages of hack/<set> (hack/install-npm-pinned.sh)
// and returns their node_modules directory.
func npmPinned(set string, stderr io.Writer) (string, error) {
	script, err := Path("hack", "install-npm-pinned.sh")
	if err != nil {
		return "", err
	}
	cmd := exec.Command(script, set, "--print-dir")
	cmd.Stderr = stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("installing hack/%s's npm packages with hack/install-npm-pinned.sh: %w", set, err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "node_modules"), nil
}

// FilesystemServer is @modelcontextprotocol/server-filesystem from the npm registry (pinned by
// hack/mcp-servers/package-lock.json), serving one directory over stdio. It speaks only stdio, so
// a relay offers its tools over Streamable HTTP at URL, forwarding every call unchanged; the relay
// records every JSON-RPC message that goes into and out of the server's stdin and stdout: the
// server's own wire log, the proof of what reached it.
type FilesystemServer struct {
	URL   string
	wire  *syncBuffer
	close func()
}

// StartFilesystemServer starts server-filesystem under node, serving dir, and its relay; the
// server's stderr goes to stderr.
func StartFilesystemServer(dir string, stderr io.Writer) (*FilesystemServer, error) {
	modules, err := NPMPackages(stderr)
	if err != nil {
		return nil, err
	}
	fs := &FilesystemServer{wire: &syncBuffer{}}
	node := exec.Command("node", filepath.Join(modules, "@modelcontextprotocol", "server-filesystem", "dist", "index.js"), dir)
	node.Stderr = stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "relay", Version: "test"}, nil)
	session, err := c.Connect(context.Background(), &mcp.LoggingTransport{
		Transport: &mcp.CommandTransport{Command: node}, Writer: fs.wire}, nil)
	if err != nil {
		return nil, fmt.Errorf("starting server-filesystem under node: %w", err)
	}
	relay := mcp.NewServer(&mcp.Implementation{Name: "server-filesystem relay", Version: "test"}, nil)
	for tool, err := range session.Tools(context.Background(), nil) {
		if err != nil {
			_ = session.Close()
			return nil, fmt.Errorf("listing server-filesystem's tools: %w", err)
		}
		relay.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return session.CallTool(ctx, &mcp.CallToolParams{Name: req.Params.Name, Arguments: req.Params.Arguments})
		})
	}
	server := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return relay }, nil))
	fs.URL = server.URL
	// Connections first: a gateway holds a stream open on each pooled session (for changes of its
	// tools), which Close alone would wait for.
	fs.close = func() { server.CloseClientConnections(); server.Close(); _ = session.Close() }
	return fs, nil
}

// Wire is everything the server has received and sent so far.
func (fs *FilesystemServer) Wire() string { return fs.wire.String() }

// Close stops the relay and the server.
func (fs *FilesystemServer) Close() { fs.close() }

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
