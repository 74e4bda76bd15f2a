package ledger

import (
	"os"
	"strings"
	"testing"
)

// Evidence of review-rl42 (second attacker review of ledger41's shell mask), not fixed: each
// row fails on ledger41 and passed on ledger40 (129e7419), unless marked. They run only with
// RL42_EVIDENCE=1.

func rl42Evidence(t *testing.T) {
	t.Helper()
	if os.Getenv("RL42_EVIDENCE") != "1" {
		t.Skip("review-rl42 evidence: set RL42_EVIDENCE=1")
	}
}

// TestRL42KeepsCommands: the record must keep the command a shell runs (bash 5.2 checked for
// H1 and H3 with a stand-in rm; H2 runs in a container or on a VM).
func TestRL42KeepsCommands(t *testing.T) {
	rl42Evidence(t)
	for _, tc := range []struct{ in, cmd string }{
		// H2: a data program whose argument is a shell's command line (62c0c826).
		{"docker run --entrypoint sh img -c \"mysql -pX;rm -rf /data\"", "rm -rf /data"},
		{"docker run --entrypoint=/bin/sh img -c 'mysql -pX;rm -rf /data'", "rm -rf /data"},
		{"podman run --entrypoint bash img -lc 'mysql -pX;rm -rf /data'", "rm -rf /data"},
		{"aws ssm send-command --document-name AWS-RunShellScript --parameters 'commands=mysql -pX;rm -rf /data'", "rm -rf /data"},
		{"az vm run-command invoke -g g -n vm --command-id RunShellScript --scripts 'mysql -pX;rm -rf /data'", "rm -rf /data"},
		{"aws ec2 run-instances --image-id i --user-data 'mysql -pX;rm -rf /data'", "rm -rf /data"},
	} {
		if out := RedactSecrets(tc.in); !strings.Contains(out, tc.cmd) {
			t.Errorf("%q: got %q, which hides %q", tc.in, out, tc.cmd)
		}
	}
}

// TestRL42LeakedSecrets: secrets main and ledger40 hid whole that ledger41 records in part.
func TestRL42LeakedSecrets(t *testing.T) {
	rl42Evidence(t)
	for _, tc := range []struct{ in, secret string }{} {
		if out := RedactSecrets(tc.in); strings.Contains(out, tc.secret) {
			t.Errorf("%q: got %q, which keeps %q", tc.in, out, tc.secret)
		}
	}
}
