package safety

// The runners review's rows: a runner's own options before its subcommand, option tables that
// took a value for the command (or the command for a value), packages fetched from where the
// caller chooses, and alias chains.
func runnersCatalogue() []classCase {
	zeroD := denied(zero)
	rmRoot := denied(dc + "rm-recursive-root")
	opaque := asked(RuleOpaqueCode)
	sh := shCall
	const globals = "a runner's options before its subcommand"
	return []classCase{
		// A runner's global options, with their values, come before its subcommand; those that name
		// a directory move the command there, as cd does.
		{globals, "uv --directory before run", sh(`uv --directory / run rm -rf /`), rmRoot, sh(`uv --directory app run pytest -q`), false},
		{globals, "uv --directory is where the command runs", sh(`uv --directory /etc run cat shadow`), zeroD, sh(`uv --project app run pytest`), false},
		{globals, "poetry -C before run", sh(`poetry -C /etc run cat shadow`), zeroD, sh(`poetry -C . run pytest`), false},
		{globals, "pnpm -C before exec", sh(`pnpm -C /etc exec cat shadow`), zeroD, sh(`pnpm -C web exec make test`), false},
		{globals, "pnpm exec's own -C is a directory too", sh(`pnpm exec -C /etc cat shadow`), zeroD, sh(`pnpm --filter web exec make test`), false},
		{globals, "npm's --loglevel before exec", sh(`npm --loglevel silent exec -- rm -rf /`), rmRoot, sh(`npm --loglevel silent exec -- make test`), false},
		{globals, "nix's --extra-experimental-features before shell", sh(`nix --extra-experimental-features 'nix-command flakes' shell nixpkgs#hello -c rm -rf /`), rmRoot, sh(`nix --extra-experimental-features 'nix-command flakes' shell nixpkgs#jq -c jq . x.json`), false},
		{globals, "yarn --cwd before exec", sh(`yarn --cwd /etc exec cat shadow`), zeroD, sh(`yarn --cwd web exec make test`), false},
		{globals, "hatch -e before run", sh(`hatch -e x run rm -rf /`), rmRoot, sh(`hatch -e test run pytest`), false},
		{globals, "pdm -p before run", sh(`pdm -p x run rm -rf /`), rmRoot, sh(`pdm -p . run pytest`), false},
		{globals, "pipenv --python before run", sh(`pipenv --python 3.11 run rm -rf /`), rmRoot, sh(`pipenv --python 3.11 run pytest`), false},
		{globals, "bundle -r before exec", sh(`bundle -r 3 exec rm -rf /`), rmRoot, sh(`bundle -r 3 exec make test`), false},
		{globals, "mise --cd before exec", sh(`mise --cd /etc exec node@20 -- cat shadow`), zeroD, sh(`mise --cd web exec node@20 -- npm test`), false},
		// An option the engine does not know may take the subcommand as its value: which command
		// runs is then not known, and it is asked for at every level.
		{globals, "nix --option takes two values", sh(`nix --option sandbox false shell nixpkgs#hello -c rm -rf /`), opaque, sh(`nix shell nixpkgs#jq -c jq . x.json`), false},
	}
}
