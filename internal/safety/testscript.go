package safety

import "slices"

// npm test runs the project's "test" script from package.json, and so do npm run test (and run's
// aliases run-script, rum, urn), npm t, npm tst, pnpm run test and yarn run test: the same script
// by its name. The rule pack recognises all of these spellings, as it recognises npm test; another
// script's name (npm run build, yarn run test:unit) stays a project script the project declares.
// The words after the script's name go to it as npm test's do (forwardsToUnknown).

// npmRunSubcommands are npm's, pnpm's and yarn's subcommand for a script by name, and npm's
// aliases of it.
var npmRunSubcommands = []string{subRun, "run-script", "rum", "urn"}

// npmTestAliases are npm's aliases of test.
var npmTestAliases = []string{subTest, "t", "tst"}

// subTest is npm's subcommand for the test script, and the script's name.
const subTest = "test"

// testScriptWords returns how many words of a package manager's command line name its test
// script (npm test: 2, npm run test: 3), or 0 when they name none.
func testScriptWords(w []word) int {
	switch {
	case len(w) > 1 && !w[1].dynamic && slices.Contains(npmTestAliases, w[1].s):
		return 2
	case len(w) > 2 && !w[1].dynamic && !w[2].dynamic && slices.Contains(npmRunSubcommands, w[1].s) && w[2].s == subTest:
		return 3
	}
	return 0
}
