package ledger

import "testing"

// Evidence of review-rl41 (attacker review of ledger40's shell mask) that is not fixed yet: the
// fixed rows moved to secrets_ledger40_test.go (ledger41). They run only with RL41_EVIDENCE=1.

func rl41Evidence(t *testing.T) {
	t.Helper()
	evidenceOnly(t, "RL41_EVIDENCE")
}

// TestRL41LeakedSecrets: secrets main hid whole that the shell mask records in part. L3: a
// re-reader's argument is read blind, not by a second reading of its text with its quotes
// removed once. L6 is the documented price of reading every text as a script.
func TestRL41LeakedSecrets(t *testing.T) {
	rl41Evidence(t)
	expectHidden(t, []hiddenRow{
		// L3: the re-reading shell sees the inner quotes; blind reading ignores them.
		{"kubectl exec p -- sh -c \"PGPASSWORD='p;q' psql\"", ";q"},
		{"ssh h 'export TOKEN=\"a;b\"'", ";b"},
		// L6 (by design, listed for the record): unquoted YAML/.env values with separators.
		{"apiVersion: v1\nkind: Secret\nstringData:\n  password: a;b&c\n", ";b&c"},
		{"DATABASE_URL=postgres://u:p&q@h/d", "&q"},
	})
}
