package testenv

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
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
	s := &EverythingServer{stderr: stderr, log: &syncBuffer{},
		script: filepath.Join(modules, "@modelcontextprotocol", "server-everything", "dist", "index.js")}
	// node binds the port itself, seconds after it was found free under load: meanwhile another
	// process (every package's tests run at once on CI) may have taken it. Such a start is tried
	// again on another port; any other failure is the server's.
	for range 5 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		_, s.port, _ = net.SplitHostPort(l.Addr().String())
		_ = l.Close()
		s.URL = "http://127.0.0.1:" + s.port + "/mcp"
		if err = s.start(); err == nil || !strings.Contains(err.Error(), "already in use") {
			return s, err
		}
	}
	return nil, fmt.Errorf("server-everything found its port taken five times: %s", s.log.String())
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
	// Express calls listen's callback when the listen fails too: the ready line is printed, then
	// "already in use", and node exits. Listening is the ready line and an answer from Express.
	deadline := time.After(time.Minute)
	for strings.Count(s.log.String(), everythingReady) == before || !s.answers() {
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

// answers says whether an Express server answers at s.URL (HTTP 400 to a GET naming no session).
func (s *EverythingServer) answers() bool {
	resp, err := (&http.Client{Timeout: 5 * time.Second}).Get(s.URL)
	if err != nil {
		return false
	}
	_ = resp.Body.Close()
	return resp.Header.Get("X-Powered-By") == "Express"
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
