package hook_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/hook"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// Evidence of review door35's findings (report only; no fix on this branch). Each test fails
// today and passes once its finding is fixed. Run with DOOR35_EVIDENCE=1.
func door35(t *testing.T) {
	t.Helper()
	if os.Getenv("DOOR35_EVIDENCE") == "" {
		t.Skip("review door35 evidence: fails until the finding is fixed; run with DOOR35_EVIDENCE=1")
	}
}

// Finding 1: a Grep glob whose bracket expression starts with ']' ("[].]env", "[!]x]env") is
// handed to the engine as --include, which reads "[]" as one character and the rest literally
// ("?.]env" passes no .env), so a search of the project by it is admitted; rg's globset and grep's
// fnmatch take a leading ']' as a member of the class, so the search reads .env. The engine's
// globTokens (internal/safety/paths.go) is where it goes wrong; the same holds through Bash
// (grep -r --include='[].]env', --include='[[:punct:]]env'). kubectl toolgate test admits the
// call built here.
func TestDoor35GrepBracketGlobReadsDotEnv(t *testing.T) {
	door35(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("SECRET=hunter2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	call, err := toolcall.Build(hook.Invocation(hook.Input{ToolName: "Grep", Cwd: dir,
		ToolInput: []byte(`{"pattern": "SECRET", "path": "` + dir + `", "glob": "[].]env"}`)}, "ns", "p"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := call.Spec.Arguments.Command
	if !strings.Contains(cmd, "--include='[].]env'") {
		t.Skipf("the hook no longer narrows by this glob: %s", cmd)
	}
	out, _ := exec.Command("grep", "-r", "--include=[].]env", "-e", "SECRET", "--", dir).Output()
	if strings.Contains(string(out), "hunter2") {
		t.Errorf("the engine is handed %q, which it reads as passing no .env (admitted), and grep by that "+
			"include reads .env: %q", cmd, out)
	}
}

// Finding 2: Claude Code 2.1.332's Bash, Read, Write, Edit, Grep and Glob take "_host", the
// attached machine to run the call on (when CLAUDE_CODE_REMOTE_TOOLS_FORWARD is on). The hook
// judges the path as the pod's (its path policy, its links) and carries "_host" in extra only.
func TestDoor35HostKeyRunsTheCallElsewhere(t *testing.T) {
	door35(t)
	_, err := toolcall.Build(hook.Invocation(hook.Input{ToolName: "Read", Cwd: "/w",
		ToolInput: []byte(`{"file_path": "/w/README.md", "_host": "laptop"}`)}, "ns", "p"))
	if err == nil {
		t.Error(`a Read naming another machine ("_host": "laptop") is built as a read of the pod's /w/README.md`)
	}
}
