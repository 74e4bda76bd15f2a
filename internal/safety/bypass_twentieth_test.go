package safety

// twentiethCatalogue holds the twentieth engine review's rows. git grep's pathspecs after "--"
// were read as plain paths, not as git reads them: a quoted glob (git grep --untracked -h ” --
// '.e*', or '*env', whose wildcard matches the leading dot) and an exclusion (-- ':!vendor', every
// other file) printed .env's lines, admitted at Default; the same pathspecs without "--" asked.
func twentiethCatalogue() []classCase {
	sh := shCall
	contains := asked(RuleContainsProtected)
	const gitGrep = "git grep's pathspecs read as git reads them"
	return []classCase{
		{gitGrep, "a quoted dot glob after --", sh(`git grep --untracked -h '' -- '.e*'`), contains, sh(`git grep -n foo -- '*.go'`), false},
		{gitGrep, "an exclusion after -- searches every other file", sh(`git grep --no-index -h SECRET -- ':!vendor'`), contains, sh(`git grep -n foo -- src/`), false},
		{gitGrep, "a wildcard that matches the leading dot", sh(`git grep --untracked -h SECRET -- '*env'`), contains, sh(`git grep foo -- 'src/*.ts'`), false},
		{gitGrep, "every file", sh(`git grep -h SECRET -- '*'`), contains, sh(`git grep foo -- ':(glob)**/*.go'`), false},
		{gitGrep, "a case-blind magic", sh(`git grep foo -- ':(icase).ENV'`), denied(zero), sh(`git grep -n foo -- src`), false},
	}
}
