package ledger

import (
	"os"
	"strings"
	"testing"
)

// Evidence of review-rl41 (attacker review of ledger40's shell mask). Every row fails on
// ledger40; they run only with RL41_EVIDENCE=1, so the suite stays green until they are fixed.

func rl41Evidence(t *testing.T) {
	t.Helper()
	if os.Getenv("RL41_EVIDENCE") != "1" {
		t.Skip("review-rl41 evidence: set RL41_EVIDENCE=1")
	}
}

// TestRL41LeakedSecrets: secrets main hid whole that ledger40 records in part.
func TestRL41LeakedSecrets(t *testing.T) {
	rl41Evidence(t)
	for _, tc := range []struct{ in, secret string }{
		// L3: the re-reading shell sees the inner quotes; blind reading ignores them.
		{"kubectl exec p -- sh -c \"PGPASSWORD='p;q' psql\"", ";q"},
		{"ssh h 'export TOKEN=\"a;b\"'", ";b"},
		// L6 (by design, listed for the record): unquoted YAML/.env values with separators.
		{"apiVersion: v1\nkind: Secret\nstringData:\n  password: a;b&c\n", ";b&c"},
		{"DATABASE_URL=postgres://u:p&q@h/d", "&q"},
	} {
		if out := RedactSecrets(tc.in); strings.Contains(out, tc.secret) {
			t.Errorf("%q: got %q, which keeps %q", tc.in, out, tc.secret)
		}
	}
}
