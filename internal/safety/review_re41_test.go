package safety

import (
	"os"
	"testing"
)

// Evidence for review re41 (attacker review of engine40): each row is admitted today at Default
// and/or Yolo and should not be. Skipped unless RE41_EVIDENCE=1, since they fail until fixed.
func re41Evidence(t *testing.T) {
	t.Helper()
	if os.Getenv("RE41_EVIDENCE") != "1" {
		t.Skip("evidence for review re41; RE41_EVIDENCE=1 runs it")
	}
}

// TestRE41ModuleAndAliasSpellings: at Yolo, pytest's __main__ module and coverage's versioned
// entry points (pip installs coverage3 and coverage-3.X) run what python -m pytest and coverage
// run would, unread.
func TestRE41ModuleAndAliasSpellings(t *testing.T) {
	re41Evidence(t)
	expectAttacks(t, []string{
		`python -m pytest.__main__ /tmp/x`, `coverage3 run /tmp/x.py`, `coverage-3.12 run /tmp/x.py`,
	}, nil)
}
