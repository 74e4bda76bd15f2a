package safety

// twentyeighthCatalogue holds the twenty-eighth engine review's rows. A short option's value
// spelt -c=VALUE, which Rust's clap, zig-clap (bun's), argparse (pytest's), yargs (jest's) and
// commons-cli (maven's) read as -c VALUE, was judged as the relative path "=VALUE": bun
// -c=/tmp/bunfig.toml test, pytest -c=/tmp/x/pytest.ini, eslint -c=/tmp/x.js and mvn
// -s=/tmp/s.xml were admitted at Default, make -C=/tmp/x at Yolo. cargo -C (nightly's), which
// builds another directory's package, was only unrecognised, admitted at Yolo.
func twentyeighthCatalogue() []classCase {
	sh := shCall
	opaque, unrec := asked(RuleOpaqueCode), asked(RulePrefixAutonomy+"execute-unrecognized")
	const (
		eqValue  = "a short option's value after =, as clap, zig-clap, argparse, yargs and commons-cli read it"
		cargoDir = "cargo -C builds another directory's package"
	)
	return []classCase{
		{eqValue, "bun's config from /tmp; bun test", sh(`bun -c=/tmp/bunfig.toml test`), opaque, sh(`bun test`), false},
		{eqValue, "bun's preload from /tmp; bun test", sh(`bun -r=/tmp/x.js test`), opaque, sh(`bun test`), false},
		{eqValue, "pytest's configuration from /tmp; the project's", sh(`pytest -c=/tmp/x/pytest.ini`), opaque, sh(`pytest -c=pytest.ini`), false},
		{eqValue, "deno's configuration from /tmp; the project's", sh(`deno test -c=/tmp/deno.json`), opaque, sh(`deno test -c deno.json`), false},
		{eqValue, "eslint's JavaScript configuration from /tmp; the project's", sh(`eslint -c=/tmp/x.js .`), opaque, sh(`eslint -c=eslint.config.js .`), false},
		{eqValue, "jest's from /tmp; the project's", sh(`jest -c=/tmp/jest.config.js`), opaque, sh(`jest -c=jest.config.js`), false},
		{eqValue, "maven's settings from /tmp; a package", sh(`mvn -s=/tmp/s.xml package`), opaque, sh(`mvn -q package`), false},
		{eqValue, "gradle's init script from /tmp; a build", sh(`gradle -I=/tmp/x.gradle build`), opaque, sh(`gradle build`), false},
		{eqValue, "npx's prefix in /tmp; npx jest", sh(`npx -C=/tmp/x jest`), opaque, sh(`npx jest`), false},
		{eqValue, "uv's interpreter by path; by version", sh(`uv run -p=/tmp/py pytest`), opaque, sh(`uv run -p=3.12 pytest`), false},
		{eqValue, "poetry's project in /tmp; poetry run", sh(`poetry -P=/tmp/x run pytest`), opaque, sh(`poetry run pytest`), false},
		{eqValue, "make's directory in /tmp; make test", sh(`make -C=/tmp/x test`), opaque, sh(`make test`), false},
		{cargoDir, "in /tmp; cargo build", sh(`cargo -C /tmp/x build`), opaque, sh(`cargo build`), false},
		{cargoDir, "joined; cargo test", sh(`cargo -C/tmp/x test`), opaque, sh(`cargo test`), false},
		{cargoDir, "after =, two levels up; a release build", sh(`cargo -C=../../x build`), opaque, sh(`cargo build --release`), false},
		{cargoDir, "in the home, through env; cargo test", sh(`env cargo -C ~/x test`), opaque, sh(`cargo test`), false},
		{cargoDir, "a directory of the project stays cargo -C's", sh(`cargo -C sub build`), unrec, sh(`cargo build`), true},
	}
}
