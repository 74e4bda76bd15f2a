package safety

// twentiethCatalogue holds the twentieth engine review's rows. git grep's pathspecs after "--"
// were read as plain paths, not as git reads them: a quoted glob (git grep --untracked -h ” --
// '.e*', or '*env', whose wildcard matches the leading dot) and an exclusion (-- ':!vendor', every
// other file) printed .env's lines, admitted at Default; the same pathspecs without "--" asked.
// npm reads a configuration option anywhere on its line, after the subcommand and with its value
// apart: npm test --userconfig .env (npm ci, npm ls, npm view) loaded .env as an npmrc and npm ci
// --cache ~/.ssh wrote there, admitted, where --userconfig=.env was denied.
func twentiethCatalogue() []classCase {
	sh := shCall
	contains, zeroD := asked(RuleContainsProtected), denied(zero)
	const (
		gitGrep   = "git grep's pathspecs read as git reads them"
		npmConfig = "npm's configuration files and directories, given apart after the subcommand"
	)
	return []classCase{
		{npmConfig, "--userconfig after test", sh(`npm test --userconfig .env`), zeroD, sh(`npm test --userconfig ci/npmrc`), false},
		{npmConfig, "--globalconfig after ci", sh(`npm ci --globalconfig .env`), zeroD, sh(`npm ci --cache .npm`), false},
		{npmConfig, "npm ls", sh(`npm ls --userconfig .env`), zeroD, sh(`npm ls --depth=0`), false},
		{npmConfig, "npm view sends the registry what the file says", sh(`npm view react version --userconfig .env`), zeroD, sh(`npm view react version`), false},
		{npmConfig, "--cache writes below ~/.ssh", sh(`npm ci --cache ~/.ssh`), zeroD, sh(`npm ci --cache /tmp/npm-cache`), false},
		{npmConfig, "--logs-dir into the hooks", sh(`npm ci --logs-dir .git/hooks`), denied(RulePrefixPathPolicy + "noWrite"), sh(`npm ci --logs-dir logs`), false},
		{npmConfig, "--cafile of a key", sh(`npm ci --cafile ~/.ssh/id_rsa`), zeroD, sh(`npm ci --no-audit`), false},
		{gitGrep, "a quoted dot glob after --", sh(`git grep --untracked -h '' -- '.e*'`), contains, sh(`git grep -n foo -- '*.go'`), false},
		{gitGrep, "an exclusion after -- searches every other file", sh(`git grep --no-index -h SECRET -- ':!vendor'`), contains, sh(`git grep -n foo -- src/`), false},
		{gitGrep, "a wildcard that matches the leading dot", sh(`git grep --untracked -h SECRET -- '*env'`), contains, sh(`git grep foo -- 'src/*.ts'`), false},
		{gitGrep, "every file", sh(`git grep -h SECRET -- '*'`), contains, sh(`git grep foo -- ':(glob)**/*.go'`), false},
		{gitGrep, "a case-blind magic", sh(`git grep foo -- ':(icase).ENV'`), zeroD, sh(`git grep -n foo -- src`), false},
	}
}
