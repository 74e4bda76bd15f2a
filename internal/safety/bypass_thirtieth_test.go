package safety

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// thirtiethCatalogue holds the thirtieth engine review's rows. A runner's option pointed it at a
// project, a manifest or an environment file outside the project, and the engine did not read
// it: npm test -w /tmp/x (every spelling: -w/tmp/x, -w=/tmp/x, --workspace=, nopt's --works=, and
// npm_config_workspace from the environment, exported first too) ran the script of /tmp/x's
// package.json; pixi run --manifest-path /tmp/x/pixi.toml the tasks of another pixi.toml; bun
// test, deno test and uv run --env-file /tmp/x, dotenv -e /tmp/x and UV_ENV_FILE=/tmp/x loaded
// variables (NODE_OPTIONS=--require /tmp/evil.js, LD_PRELOAD) the engine never saw; and
// watchexec --log-file=package.json wrote package.json unseen, so the npm test after it ran a
// script the line wrote. All were admitted at Default. So were npx -w /tmp/x jest (a bin of that
// workspace), deno's older --env=FILE, BUN_OPTIONS=--preload=/tmp/x.js (bun's NODE_OPTIONS), bun
// test --tsconfig-override (a tsconfig's paths map imports), PDM_PROJECT and PIXI_PROJECT_MANIFEST
// (pdm's -p and pixi's --manifest-path from the environment), go --C=/tmp/x (Go's flag package
// reads --C as -C), mvn -t (toolchains name the JDK it runs), gradle --project-cache-dir (its
// configuration cache), npm_config_pnpmfile and pnpm --config.pnpmfile (the pnpmfile's hooks),
// PYLINTRC, TOX_CONFIG_FILE and TOX_ROOT_DIR (pylint's --rcfile, tox's -c and --root).
func thirtiethCatalogue() []classCase {
	sh := shCall
	opaque := asked(RuleOpaqueCode)
	noWrite := denied(RulePrefixPathPolicy + "noWrite")
	const (
		workspace = "npm's workspace outside the project, in every spelling"
		manifest  = "a runner's manifest or project outside the project, by an option or a variable"
		envFile   = "an environment file from outside the project, whose variables load code"
		logFile   = "a runner's log file, judged as a write of it"
	)
	return []classCase{
		{workspace, "-w apart; a workspace by its directory", sh(`npm test -w /tmp/x`), opaque, sh(`npm test -w packages/a`), false},
		{workspace, "-w attached; a workspace by its name", sh(`npm test -w/tmp/x`), opaque, sh(`npm test -w @app/web`), false},
		{workspace, "-w=; every workspace", sh(`npm test -w=/tmp/x`), opaque, sh(`npm test --workspaces`), false},
		{workspace, "--workspace apart; joined, below", sh(`npm test --workspace /tmp/x`), opaque, sh(`npm test --workspace=./packages/a`), false},
		{workspace, "--workspace= two levels up; a sibling", sh(`npm run test --workspace=../../x`), opaque,
			sh(`npm run test --workspace=../web`), false},
		{workspace, "nopt's abbreviation", sh(`npm test --works=/tmp/x`), opaque, sh(`npm test --works=packages/a`), false},
		{workspace, "npm_config_workspace", sh(`npm_config_workspace=/tmp/x npm test`), opaque, sh(`npm_config_workspace=packages/a npm test`), false},
		{workspace, "NPM_CONFIG_WORKSPACE exported first", sh(`export NPM_CONFIG_WORKSPACE=/tmp/x; npm test`), opaque,
			sh(`export NPM_CONFIG_WORKSPACE=packages/a; npm test`), false},
		{manifest, "--manifest-path apart; the project's", sh(`pixi run --manifest-path /tmp/x/pixi.toml test`), opaque,
			sh(`pixi run --manifest-path ./pixi.toml test`), false},
		{manifest, "--manifest-path= a directory; -m the project's", sh(`pixi run --manifest-path=/tmp/x test`), opaque,
			sh(`pixi run -m pixi.toml test`), false},
		{manifest, "-m attached", sh(`pixi run -m/tmp/x test`), opaque, sh(`pixi run -e dev test`), false},
		{envFile, "bun test --env-file=; the project's", sh(`bun test --env-file=/tmp/x`), opaque, sh(`bun test --env-file=config/ci.vars`), false},
		// bun run NAME is admitted at Yolo, with the project's file too (TestRunnersNearMissesAdmittedAtYolo).
		{envFile, "bun run --env-file= a script", sh(`bun run --env-file=/tmp/x test`), opaque, sh(`bun test --env-file=./config/ci.vars`), false},
		{envFile, "node --test --env-file=", sh(`node --test --env-file=/tmp/x`), opaque, sh(`node --test`), false},
		{envFile, "bun test --env-file apart", sh(`bun test --env-file /tmp/x`), opaque, sh(`bun test --timeout 5000`), false},
		{envFile, "deno test --env-file= in home", sh(`deno test --env-file=~/x`), opaque, sh(`deno test --env-file=config/ci.vars`), false},
		{envFile, "uv run --env-file; the project's", sh(`uv run --env-file /tmp/x pytest`), opaque, sh(`uv run --env-file=config/ci.vars pytest`), false},
		{envFile, "uv's global --env-file first", sh(`uv --env-file=/tmp/x run pytest`), opaque, sh(`uv run pytest -q`), false},
		{envFile, "UV_ENV_FILE; the project's", sh(`UV_ENV_FILE=/tmp/x uv run pytest`), opaque, sh(`UV_ENV_FILE=config/ci.vars uv run pytest`), false},
		{envFile, "UV_ENV_FILE exported first", sh(`export UV_ENV_FILE=/tmp/x; uv run pytest`), opaque, sh(`export UV_NO_SYNC=1; uv run pytest`), false},
		{envFile, "dotenv-cli's -e; the project's .env", sh(`dotenv -e /tmp/x -- jest`), opaque, sh(`dotenv -e .env -- jest`), false},
		{envFile, "dotenv-cli's -e attached", sh(`dotenv -e/tmp/x -- jest`), opaque, sh(`dotenv -e config/ci.vars -- jest`), false},
		{workspace, "npx -w runs the workspace's bin; below", sh(`npx -w /tmp/x jest`), opaque, sh(`npx -w packages/a jest`), false},
		{workspace, "npx --workspace=", sh(`npx --workspace=/tmp/x jest`), opaque, sh(`npx --workspace=./packages/a jest`), false},
		{envFile, "deno's older --env", sh(`deno test --env=/tmp/x`), opaque, sh(`deno test --env`), false},
		{envFile, "BUN_OPTIONS preloads, as NODE_OPTIONS requires; a smaller heap", sh(`BUN_OPTIONS=--preload=/tmp/x.js bun test`),
			denied(RuleLibraryInjection), sh(`BUN_OPTIONS=--smol bun test`), false},
		{envFile, "BUN_OPTIONS exported first", sh(`export BUN_OPTIONS='-r /tmp/x.js'; bun test`), denied(RuleLibraryInjection),
			sh(`export BUN_OPTIONS=--max-old-space-size=4096; bun test`), false},
		{envFile, "bun's tsconfig override maps imports; the project's", sh(`bun test --tsconfig-override=/tmp/x.json`), opaque,
			sh(`bun test --tsconfig-override=tsconfig.test.json`), false},
		{manifest, "PDM_PROJECT, pdm's -p; the working directory", sh(`PDM_PROJECT=/tmp/x pdm run test`), opaque, sh(`PDM_PROJECT=. pdm run test`), false},
		{manifest, "PIXI_PROJECT_MANIFEST", sh(`PIXI_PROJECT_MANIFEST=/tmp/x/pixi.toml pixi run test`), opaque, sh(`pixi run test`), false},
		{manifest, "go's --C, read as -C; a submodule", sh(`go --C=/tmp/x test ./...`), opaque, sh(`go test -C ./tools ./...`), false},
		{manifest, "maven's toolchains name the JDK it runs; the project's", sh(`mvn -t /tmp/x.xml test`), opaque,
			sh(`mvn --toolchains=.mvn/toolchains.xml test`), false},
		{manifest, "gradle's project cache, whose configuration cache it reuses; the project's", sh(`gradle --project-cache-dir /tmp/x test`), opaque,
			sh(`gradle --project-cache-dir build/gradle-cache test`), false},
		{manifest, "pnpm's pnpmfile from the environment; its hooks run", sh(`npm_config_pnpmfile=/tmp/x pnpm install`), opaque,
			sh(`pnpm install --frozen-lockfile --pnpmfile .pnpmfile.cjs`), false},
		{manifest, "pnpm's pnpmfile as --config.", sh(`pnpm test --config.pnpmfile=/tmp/x`), opaque, sh(`pnpm test --config.reporter=silent`), false},
		{manifest, "PYLINTRC, pylint's --rcfile; the project's", sh(`PYLINTRC=/tmp/x pylint src`), opaque, sh(`PYLINTRC=.pylintrc pylint src`), false},
		{manifest, "tox's -c and --root from TOX_; the project's", sh(`TOX_CONFIG_FILE=/tmp/x tox || TOX_ROOT_DIR=/tmp/x tox`), opaque,
			sh(`TOX_CONFIG_FILE=tox.ini tox`), false},
		// The brief's near misses of the older options, beside the new ones.
		{manifest, "cargo's manifest in /tmp; a crate's", sh(`cargo test --manifest-path=/tmp/x/Cargo.toml`), opaque,
			sh(`cargo test --manifest-path crates/a/Cargo.toml`), false},
		// make is the project's declared make test at Default; make -C sub test is admitted at Yolo
		// (TestRunnersNearMissesAdmittedAtYolo).
		{manifest, "make -C /tmp/x; the declared tests", sh(`make -C /tmp/x test`), opaque, sh(`make test`), false},
		{manifest, "rye run --pyproject of another project; of this one", sh(`rye run --pyproject /tmp/x/pyproject.toml test`), opaque,
			sh(`rye run --pyproject pyproject.toml test`), false},
		{logFile, "watchexec --log-file=package.json, then npm test; a log file of its own", sh(`watchexec --log-file=package.json -- true && npm test`), opaque,
			sh(`watchexec --log-file=watchexec.log -- true && npm test`), false},
		{logFile, "watchexec --log-file=.bashrc", sh(`watchexec --log-file=.bashrc -- true`), noWrite, sh(`watchexec --log-file=build.log -- true`), false},
	}
}

// optionSpellings returns the spellings of an option {short, long} with value v that the tools'
// parsers accept: the short one apart, attached and after "=" (a two-letter one), the long one
// apart and after "=", and an abbreviation of the long one for a parser that expands them (npm's
// nopt).
func optionSpellings(prog string, o [2]string, v string) []string {
	var out []string
	if s := o[0]; s != "" {
		out = append(out, s+" "+v)
		if len(s) == 2 {
			out = append(out, s+v, s+"="+v)
		}
	}
	if l := o[1]; l != o[0] {
		out = append(out, l+" "+v, l+"="+v)
		if valueAbbreviating[prog] && strings.HasPrefix(l, "--") && len(l) > 6 {
			out = append(out, l[:len(l)-2]+"="+v)
		}
	}
	return out
}

// TestRunnerProjectOptionsDifferential reads every option of the tables that point a build, test
// or runner at a project directory, a definition or manifest file, or an environment file, in
// every spelling its parser accepts, with a value inside the project and one outside it: the one
// outside makes the segment opaque (outsideCode), the one inside does not. A new option in a
// table is covered by adding it.
func TestRunnerProjectOptionsDifferential(t *testing.T) {
	tables := map[string]map[string][][2]string{"projectDirOptions": projectDirOptions, "defDirOptions": defDirOptions,
		"defFileOptions": defFileOptions, "envFileOptions": envFileOptions}
	const inside, outside = "sub/x", "/tmp/x"
	n := 0
	for _, tname := range slices.Sorted(maps.Keys(tables)) {
		for _, prog := range slices.Sorted(maps.Keys(tables[tname])) {
			if tname != "envFileOptions" && !slices.Contains(outsideProjectTools, prog) {
				continue // a container client: its files are judged as host reads (containerbuild.go)
			}
			cmd := prog
			if prog == "unittest" {
				cmd = "python -m unittest"
			}
			for _, o := range tables[tname][prog] {
				for _, val := range []string{inside, outside} {
					for _, sp := range optionSpellings(prog, o, val) {
						line := cmd + " " + sp
						an, err := analyzeCommand(line, "/workspace/app")
						if err != nil {
							t.Fatalf("%s: %q: %v", tname, line, err)
						}
						n++
						why := outsideCode(&an.segments[0])
						if val == outside && why == "" {
							t.Errorf("%s: %q points %s outside the project, not read", tname, line, prog)
						}
						if val == inside && why != "" {
							t.Errorf("%s: %q stays in the project, read as %q", tname, line, why)
						}
					}
				}
			}
		}
	}
	if n < 200 {
		t.Fatalf("only %d spellings read: the tables are not where this test looks", n)
	}
}
