package safety

import "testing"

// TestGitStashUntrackedIsCleanF (review re46): git stash -u (--include-untracked, -a, --all)
// without a pathspec removes every untracked file until the stash is popped, .claude/ among them
// (real, git 2.39: the directory was gone until git stash pop); each row was admitted at Default
// and Yolo (-a asked). It is now judged as git clean -f is, denied at every autonomy
// (git-stash-untracked): an over-refusal of the idiom git stash -u, taken for the one rule, as
// git clean -fd's. With a pathspec the path policy judges what it names; plain git stash, which
// leaves untracked files alone, stays admitted.
func TestGitStashUntrackedIsCleanF(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`git stash -u`,
		`git stash --include-untracked`,
		`git stash --include`,
		`git stash push -u`,
		`git stash push -um wip`,
		`git stash push -m wip -u`,
		`git stash save -u wip`,
		`git stash -a`,
		`git -C sub stash --all`,
		`git stash push -u -- .claude`,
		`git stash push -u -- .`,
		`git stash push -a .`,
		`git stash push -u -- ':/'`,
		`git stash push -u -- '*'`,
		`git stash push -u -- ../x`,
	}, []string{
		`git stash`,
		`git stash pop`,
		`git stash show -u`,
		`git stash -m -u`,
		`git stash push -u -- src`,
		`git stash --no-include-untracked`,
		`git stash push -k`,
	})
}

// TestGitStashPathspecsAreAUnion (review re47): git stash push -u takes the union of its
// pathspecs, so one narrow pathspec beside "." or ":/" narrows nothing (real, git 2.39: git stash
// push -u -- src . removed an untracked .claude/ until popped); a pathspec read from a file is not
// seen. Each row was admitted at Default and Yolo; each pathspec is now judged, and any wide one
// is the unnarrowed case (git-stash-untracked). Narrow pathspecs together stay admitted.
func TestGitStashPathspecsAreAUnion(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`git stash push -u -- src .`,
		`git stash push -u -- src ':/'`,
		`git stash push -u src '*'`,
		`git stash push -u --pathspec-from-file x src`,
	}, []string{
		`git stash push -u -- src tests`,
		`git stash push -- src .`,
	})
}
