package safety

import "testing"

// TestReviewRV31 holds the rows of the attacker's review of 15ad7135. nopt (npm's and npx's
// option parser) strips any number of leading dashes from an option word (arg.replace(/^-+/, "")),
// so ---prefix, -prefix and ---w are --prefix and -w; a word that is not an option's exact name
// but whose letters are all one-letter shorthands is those shorthands, with one dash or two
// (--sC /tmp/x is --loglevel silent --prefix /tmp/x). Each was checked with npm 11.19.1:
// npm config get prefix ---prefix /tmp/x prints /tmp/x, npm test -script-shell /tmp/x/sh runs it.
func TestReviewRV31(t *testing.T) {
	opaque := asked(RuleOpaqueCode)
	expectRows(t, classRules, []callRow{
		{"npm test ---w /tmp/x", shCall(`npm test ---w /tmp/x`), opaque},
		{"npm test ---w=/tmp/x", shCall(`npm test ---w=/tmp/x`), opaque},
		{"npm test -workspace /tmp/x", shCall(`npm test -workspace /tmp/x`), opaque},
		{"npm test --dw /tmp/x (d and w shorthands glommed)", shCall(`npm test --dw /tmp/x`), opaque},
		{"npm test ---prefix /tmp/x", shCall(`npm test ---prefix /tmp/x`), opaque},
		{"npm test ---prefix=/tmp/x", shCall(`npm test ---prefix=/tmp/x`), opaque},
		{"npm test -prefix /tmp/x", shCall(`npm test -prefix /tmp/x`), opaque},
		{"npm test ---C /tmp/x", shCall(`npm test ---C /tmp/x`), opaque},
		{"npm test --sC /tmp/x (s and C glommed)", shCall(`npm test --sC /tmp/x`), opaque},
		{"npm test -script-shell /tmp/x/sh", shCall(`npm test -script-shell /tmp/x/sh`), opaque},
		{"npm test ---script-shell=/tmp/x/sh", shCall(`npm test ---script-shell=/tmp/x/sh`), opaque},
		{"npm test -userconfig /tmp/x/npmrc", shCall(`npm test -userconfig /tmp/x/npmrc`), opaque},
		{"npm test -node-options=--require=/tmp/x.js", shCall(`npm test -node-options=--require=/tmp/x.js`), opaque},
		{"npx -prefix /tmp/x jest", shCall(`npx -prefix /tmp/x jest`), opaque},
		// Near misses that must stay admitted.
		{"near: npm test -ws (--workspaces, no value)", shCall(`npm test -ws`), outcome{Verdict: VerdictAllow}},
		{"near: npm test -w packages/a", shCall(`npm test -w packages/a`), outcome{Verdict: VerdictAllow}},
		{"near: npm test -- -prefix /tmp/x (the script's arguments)", shCall(`npm test -- -prefix /tmp/x`), outcome{Verdict: VerdictAllow}},
	})
}
