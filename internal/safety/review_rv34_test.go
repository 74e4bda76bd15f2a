package safety

import "testing"

// TestReviewRV34 holds the rows of the attacker's review of c9f13bc9, checked with npm 11.19.1.
// npx and npm exec read their words with nopt, whose reading of a word depends on its key's type:
// --otp, --before, --no-otp, --ot (an abbreviation) take the next word as their value, so the
// word the engine took for the command is a value and -c after it is npx's script (npx --otp tsc
// -c 'echo x' ran echo x); --json=echo leaves echo as the command; npx-cli takes an unknown
// --foo to have a value, so nopt reads --package after the command; npm exec reads options up
// to "--" (npm exec hello --package /tmp/x/pkg --yes ran /tmp/x/pkg's bin); npm_config_package
// names what npx fetches and runs.
func TestReviewRV34(t *testing.T) {
	opaque := asked(RuleOpaqueCode)
	fetch, fetchExec := asked(dc+"package-fetch-run"), asked(dc+"package-fetch-run-exec")
	allow := outcome{Verdict: VerdictAllow}
	attacks := []callRow{
		{"npx --otp tsc -c (otp takes tsc)", shCall(`npx --otp tsc -c 'rm -rf ~'`), opaque},
		{"npm exec --otp tsc -c", shCall(`npm exec --otp tsc -c 'rm -rf ~'`), opaque},
		{"npm exec --otp tsc --call", shCall(`npm exec --otp tsc --call 'rm -rf ~'`), opaque},
		{"npx --before tsc -c (a date's value)", shCall(`npx --before tsc -c 'rm -rf ~'`), opaque},
		{"npx --no-otp tsc -c (no- takes a listed value)", shCall(`npx --no-otp tsc -c 'rm -rf ~'`), opaque},
		{"npx --ot tsc -c (abbreviation)", shCall(`npx --ot tsc -c 'rm -rf ~'`), opaque},
		{"npm exec --browser tsc -c (a flag that takes a name)", shCall(`npm exec --browser tsc -c 'rm -rf ~'`), opaque},
		{"npm exec --json=rm -- -rf ~ (a flag's = value is the command)", shCall(`npm exec --json=rm -- -rf ~`), opaque},
		{"npx --foo tsc --package /tmp/x/pkg --yes tsc", shCall(`npx --foo tsc --package /tmp/x/pkg --yes tsc`), fetch},
		{"npm exec tsc --package /tmp/x/pkg --yes tsc", shCall(`npm exec tsc --package /tmp/x/pkg --yes tsc`), fetchExec},
		{"npm x tsc --package=/tmp/x/pkg --yes", shCall(`npm x tsc --package=/tmp/x/pkg --yes`), fetchExec},
		{"npm exec tsc --node-options=--require=/tmp/x/a.js", shCall(`npm exec tsc --node-options=--require=/tmp/x/a.js`), opaque},
		{"npm_config_package with npm_config_yes", shCall(`npm_config_yes=true npm_config_package=/tmp/x/pkg npm exec tsc`), fetch},
		// A relative project or file a build tool names is judged from the directory it runs in:
		// after cd .. (pushd .., a subshell's cd), ../x is two levels above the call's directory.
		{"cd .. && cargo test --manifest-path ../x/Cargo.toml", shCall(`cd .. && cargo test --manifest-path ../x/Cargo.toml`), opaque},
		{"pushd .. && cargo test --manifest-path ../x/Cargo.toml", shCall(`pushd .. && cargo test --manifest-path ../x/Cargo.toml`), opaque},
		{"(cd .. && cargo test --manifest-path ../x/Cargo.toml)", shCall(`(cd .. && cargo test --manifest-path ../x/Cargo.toml)`), opaque},
		{"cd .. && npm test --prefix ../x", shCall(`cd .. && npm test --prefix ../x`), opaque},
		{"cd .. && pytest -c ../x/pytest.ini", shCall(`cd .. && pytest -c ../x/pytest.ini`), opaque},
		{"cd .. && pytest ../x/tests", shCall(`cd .. && pytest ../x/tests`), opaque},
		{"cd .. && uv run --project ../x pytest", shCall(`cd .. && uv run --project ../x pytest`), opaque},
		{"cd .. && make -C ../x test", shCall(`cd .. && make -C ../x test`), opaque},
	}
	expectRows(t, classRules, attacks)
	yolo := classRules
	yolo.Autonomy = AutonomyYolo
	expectRows(t, yolo, attacks)
	expectRows(t, classRules, []callRow{
		// Near misses: npx's and npm exec's ordinary words, a command's own options after it.
		{"near: npx --no-color tsc -watch", shCall(`npx --no-color tsc -watch`), allow},
		{"near: npx --loglevel silent tsc", shCall(`npx --loglevel silent tsc`), allow},
		{"near: npx --no-install tsc", shCall(`npx --no-install tsc`), allow},
		{"near: npx -- tsc --noEmit", shCall(`npx -- tsc --noEmit`), allow},
		{"near: npx eslint -c .eslintrc.js src", shCall(`npx eslint -c .eslintrc.js src`), allow},
		{"near: npm exec tsc -p tsconfig.json", shCall(`npm exec tsc -p tsconfig.json`), allow},
		{"near: npm exec playwright test --browser chromium", shCall(`npm exec playwright test --browser chromium`), allow},
		{"near: npm exec -c 'eslint src'", shCall(`npm exec -c 'eslint src'`), allow},
		{"near: npm x vitest run", shCall(`npm x vitest run`), allow},
		{"near: cd .. && cargo test --manifest-path x/Cargo.toml", shCall(`cd .. && cargo test --manifest-path x/Cargo.toml`), allow},
		{"near: cargo test --manifest-path ../x/Cargo.toml (a sibling)", shCall(`cargo test --manifest-path ../x/Cargo.toml`), allow},
		{"near: cd sub && cargo test --manifest-path ../x/Cargo.toml", shCall(`cd sub && cargo test --manifest-path ../x/Cargo.toml`), allow},
	})
}
