package testenv

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// everythingReady is what server-everything prints once it listens.
const everythingReady = "MCP Streamable HTTP Server listening on port"

// EverythingServer is @modelcontextprotocol/server-everything from the npm registry (pinned by
// hack/mcp-servers/package-lock.json), serving MCP over Streamable HTTP itself: the TypeScript
// SDK's transport behind Express, with sessions it keeps in memory. Restart stops it and starts a
// new one on the same port, which knows none of the old one's sessions, as after an upstream
// pod's restart.
type EverythingServer struct {
	URL    string
	port   string
	script string
	stderr io.Writer
	log    *syncBuffer // what every server started so far printed, stdout and stderr
	cmd    *exec.Cmd
	exited chan struct{}
}

// StartEverythingServer starts server-everything under node on a free loopback port; what it
// prints goes to stderr too.
func StartEverythingServer(stderr io.Writer) (*EverythingServer, error) {
	modules, err := NPMPackages(stderr)
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	_, port, _ := net.SplitHostPort(l.Addr().String())
	_ = l.Close()
	s := &EverythingServer{URL: "http://127.0.0.1:" + port + "/mcp", port: port, stderr: stderr, log: &syncBuffer{},
		script: filepath.Join(modules, "@modelcontextprotocol", "server-everything", "dist", "index.js")}
	return s, s.start()
}

// start starts a server and waits until it says it listens.
func (s *EverythingServer) start() error {
	before := strings.Count(s.log.String(), everythingReady)
	s.cmd = exec.Command("node", s.script, "streamableHttp")
	s.cmd.Env = append(os.Environ(), "PORT="+s.port)
	out := io.MultiWriter(s.log, s.stderr)
	s.cmd.Stdout, s.cmd.Stderr = out, out
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("starting server-everything under node: %w", err)
	}
	exited := make(chan struct{})
	s.exited = exited
	go func(cmd *exec.Cmd) { _ = cmd.Wait(); close(exited) }(s.cmd)
	deadline := time.After(time.Minute)
	for strings.Count(s.log.String(), everythingReady) == before {
		select {
		case <-exited:
			return fmt.Errorf("server-everything exited before it listened: %s", s.log.String())
		case <-deadline:
			s.Close()
			return errors.New("server-everything did not listen within a minute")
		case <-time.After(20 * time.Millisecond):
		}
	}
	return nil
}

// Restart kills the server, as a crash or a pod's replacement does, and starts a new one on the
// same port.
func (s *EverythingServer) Restart() error {
	s.Close()
	return s.start()
}

// Sessions is how many sessions the server started last has initialized.
func (s *EverythingServer) Sessions() int {
	runs := strings.Split(s.log.String(), everythingReady)
	return strings.Count(runs[len(runs)-1], "Session initialized with ID")
}

// Log is everything the servers started so far printed.
func (s *EverythingServer) Log() string { return s.log.String() }

// Close kills the server and waits for it to exit.
func (s *EverythingServer) Close() {
	_ = s.cmd.Process.Kill()
	<-s.exited
}
