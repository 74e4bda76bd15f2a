package safety

import (
	"slices"
	"strings"
)

// A package runner (npx, pnpx, bunx, npm exec) runs a package's bin by its name: the project's
// own when it is installed, or one fetched from the registry when it is not — npx assumes --yes
// when its input is not a terminal, as an agent's is not, and bunx and pnpx fetch without asking.
// The engine does not see node_modules: a name it knows as a project's development tool (a test
// runner, linter, compiler, bundler, framework or ORM CLI, or a build tool of buildTools) is read
// as that tool; any other name is a package fetched and run (package-fetch-run, ask at every
// level, as npx -y x and npx x@1 are), unless --no, --no-install or --offline forbids the fetch.

// runnerProjectBins are the JavaScript tools projects keep as development dependencies and run
// through npx, by the name npx is given (a scoped package's full name).
var runnerProjectBins = wordSet("tsc ts-node tsx eslint eslint_d prettier jest vitest mocha ava tap c8 nyc jasmine " +
	"playwright cypress karma webpack webpack-cli vite rollup esbuild parcel tsup swc babel nx turbo lerna " +
	"lint-staged husky lefthook commitlint stylelint postcss tailwindcss next nuxt nuxi astro svelte-kit " +
	"svelte-check ng react-scripts expo storybook prisma knex sequelize typeorm drizzle-kit remix gatsby " +
	"vue-tsc vue-cli-service biome oxlint knip depcheck npm-check-updates ncu patch-package changeset " +
	"semantic-release standard-version typedoc jsdoc rimraf shx cross-env concurrently nodemon serve http-server " +
	"wrangler vercel netlify firebase sst cdk cdktf serverless sls tsc-alias eslint-config-prettier " +
	"@biomejs/biome @angular/cli @nestjs/cli @vue/cli @playwright/test @storybook/cli @changesets/cli")

// runnerNoFetch are the options that forbid npx and npm exec to fetch a package.
var runnerNoFetch = []string{"--no", "--no-install", "--offline"}

// cmdBunx is bun's package runner.
const cmdBunx = "bunx"

// runnerPackage asks when a package runner's package (rest[0], after its own words) is one the
// engine does not know as a project's tool, or is computed at run time, under the runner's fetch
// rule (npx's, npm exec's; bunx's is npx's).
func (a *analyzer) runnerPackage(idx int, spec wrapSpec, own, rest []word) {
	rule := fetchRule
	switch {
	case spec.fetch != nil && (spec.fetch.rule == fetchRule || spec.fetch.rule == fetchRule+"-exec"):
		rule = spec.fetch.rule
	case a.out.segments[idx].name != cmdBunx:
		return
	}
	pkg := rest[0]
	if slices.ContainsFunc(own, func(w word) bool { return slices.Contains(runnerNoFetch, w.s) }) ||
		!pkg.dynamic && (runnerProjectBins[pkg.s] || slices.Contains(buildTools, pkg.s)) {
		return
	}
	// A name with a version or a URL is the fetch rule's own pattern; this reads the bare name.
	if strings.ContainsAny(pkg.s[min(1, len(pkg.s)):], "@:") {
		return
	}
	a.find(false, RulePrefixDamageControl+rule, "command %q runs the package %q, which is fetched from the registry and run when the project has not installed it: code that may not be a project dependency; it needs human approval",
		truncate(a.out.segments[idx].text, 120), pkg.s)
}
