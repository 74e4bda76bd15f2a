package safety

import "testing"

// TestReviewRV33 holds the rows of the attacker's review of 9d1e4df3, checked with npm 11.19.1:
// nopt gives an unknown option, or a Boolean one, no value (--json, --foo, --dry-run without =
// are true, the next word stays an option or the command), so after it -prefix is still npx's
// option: npx --json -prefix /tmp/x tsc ran /tmp/x/node_modules/.bin/tsc. The same misreading
// takes the command after such a flag for its value and reads the command's own options as
// npx's (npx --no-color tsc -watch asked).
func TestReviewRV33(t *testing.T) {
	opaque := asked(RuleOpaqueCode)
	allow := outcome{Verdict: VerdictAllow}
	expectRows(t, classRules, []callRow{
		{"npx --json -prefix /tmp/x tsc", shCall(`npx --json -prefix /tmp/x tsc`), opaque},
		{"npx --dry-run -prefix /tmp/x tsc", shCall(`npx --dry-run -prefix /tmp/x tsc`), opaque},
		{"npx --foo -prefix /tmp/x tsc (unknown option: no value)", shCall(`npx --foo -prefix /tmp/x tsc`), opaque},
		{"npx --no-color -prefix /tmp/x tsc", shCall(`npx --no-color -prefix /tmp/x tsc`), opaque},
		// Left: a cluster of five letters or more holding w (npm test --ssssw /tmp/x, --sdgqw) is
		// admitted. A long name or its abbreviation is as likely (--works, a command's --watch),
		// and npm takes as a workspace only a directory its package.json declares (noptCluster).
		// The review of ab4300d0: npx-cli skips the word after --foo as its value, nopt does not,
		// and still reads --userconfig after the command (its node-options ran, checked).
		{"npx --foo tsc --userconfig /tmp/x/rc tsc", shCall(`npx --foo tsc --userconfig /tmp/x/rc tsc`), opaque},
		{"npx --foo tsc --globalconfig /tmp/x/rc tsc", shCall(`npx --foo tsc --globalconfig /tmp/x/rc tsc`), opaque},
		{"npx --watch tsc --userc=/tmp/x/rc tsc", shCall(`npx --watch tsc --userc=/tmp/x/rc tsc`), opaque},
		// Near misses: a Boolean npx option before the command, the command's own options after it.
		{"near: npx --no-color tsc -watch", shCall(`npx --no-color tsc -watch`), allow},
		{"near: npx --json tsc -strict", shCall(`npx --json tsc -strict`), allow},
		{"near: npx --loglevel silent tsc", shCall(`npx --loglevel silent tsc`), allow},
		{"near: npx --cache /tmp/c tsc", shCall(`npx --cache /tmp/c tsc`), allow},
	})
}
