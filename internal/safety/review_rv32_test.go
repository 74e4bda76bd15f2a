package safety

import "testing"

// TestReviewRV32 holds the rows of the attacker's review of fa44782d, checked with npm 11.19.1:
// nopt expands a word of one-letter shorthands whatever its dashes and length (--sdC /tmp/x is
// -s -d -C /tmp/x: npm test ran /tmp/x's script), and npx skips the value of every option whose
// type takes one (--loglevel silent, --cache /tmp/c), so -prefix after it is still npx's option
// (npx --loglevel silent -prefix /tmp/x tsc ran /tmp/x/node_modules/.bin/tsc).
func TestReviewRV32(t *testing.T) {
	opaque := asked(RuleOpaqueCode)
	expectRows(t, classRules, []callRow{
		{"npm test --sdC /tmp/x (s, d and C glommed, two dashes)", shCall(`npm test --sdC /tmp/x`), opaque},
		{"npm test --dsC /tmp/x", shCall(`npm test --dsC /tmp/x`), opaque},
		{"npm run-script test --gsC /tmp/x", shCall(`npm run-script test --gsC /tmp/x`), opaque},
		{"npm test --sdw /tmp/x", shCall(`npm test --sdw /tmp/x`), opaque},
		{"npx --loglevel silent -prefix /tmp/x tsc", shCall(`npx --loglevel silent -prefix /tmp/x tsc`), opaque},
		{"npx --cache /tmp/c -prefix /tmp/x tsc", shCall(`npx --cache /tmp/c -prefix /tmp/x tsc`), opaque},
		// Near misses that must stay admitted (admitted before fa44782d): shorthands without a value.
		{"near: npm ls -gp", shCall(`npm ls -gp`), outcome{Verdict: VerdictAllow}},
		{"near: npm outdated -gl", shCall(`npm outdated -gl`), outcome{Verdict: VerdictAllow}},
	})
}
