package safety

// regressionsCatalogue: ordinary commands this session's engine changes turned from allowed (or
// asked only as a computed pid) to asked or denied, found by evaluating about 2,300 everyday
// commands on the session's base (2eb22ed) and on its head. Each attack is the one the change
// closed and stays closed; each near miss is the everyday command the change had caught.
func regressionsCatalogue() []classCase {
	sh := shCall
	opaque := asked(RuleOpaqueCode)
	const (
		repo  = "the repository git finds where it runs"
		wtAdd = "git worktree add /tmp/wt && "
	)
	return []classCase{
		// git worktree add DIR writes DIR/.git naming the project's repository: git run there
		// reads the project's config, as git clone's and git init's directories are known.
		{repo, "a directory outside the workspace no git worktree add made", sh(`cd /tmp/wt && git status`), opaque,
			sh(wtAdd + `cd /tmp/wt && git status`), false},
		{repo, "git -C a directory the line did not make", sh(`git -C /tmp/wt log -1`), opaque,
			sh(wtAdd + `git -C /tmp/wt log -1`), false},
		{repo, "a worktree's subdirectory (the project may commit a bare repository)", sh(wtAdd + `cd /tmp/wt/sub && git status`), opaque,
			sh(`git worktree add -b fix /tmp/wt main && cd /tmp/wt && go test ./... && git commit -am fix`), false},
		{repo, "a worktree moved, not made", sh(`git worktree move /tmp/a /tmp/wt && cd /tmp/wt && git status`), opaque,
			sh(`git worktree add -fb topic /tmp/wt && cd /tmp/wt && git log -1`), false},
	}
}
