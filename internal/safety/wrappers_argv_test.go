package safety

import "testing"

// TestWrappersKeepArgv: env -S's value is split, but the words after it are arguments of their
// own, and watch -x runs its words as they are: neither is a script joined with blanks. Before
// (review re46), env -S 'bash -c' 'rm -rf .claude' and watch -x sh -c 'rm -rf .claude' were read
// as sh -c rm -rf .claude (rm alone) and admitted at Default and Yolo; with real env and watch
// both deleted .claude. Near misses: the same wrappers running ordinary commands.
func TestWrappersKeepArgv(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`env -S 'bash -c' 'rm -rf .claude'`,
		`env -S 'sh -c' 'cat .env'`,
		`env -S 'sh -c' 'rm -rf .git'`,
		`watch -x sh -c 'rm -rf .claude'`,
		`watch -x bash -c 'cat .env'`,
		`watch --exec sh -c 'cat .env'`,
		`timeout 3 watch -n1 -x sh -c 'rm -rf .git'`,
		`script -qec "watch -x sh -c 'rm -rf .claude'" /dev/null`,
	}, []string{
		`env -S 'sh -c' 'npm test'`,
		`env -S 'FOO=1 npm' test`,
		`watch -x npm test`,
		`watch -n 2 'ls -la'`,
	})
}

// TestZshAttachedOption: zsh reads -oNAME as the option NAME, where bash's reading took the next
// words (-c and the script) for option names: before (review re46), zsh -oglobdots -c 'rm -rf
// .git' was admitted at Yolo as an unrecognised program and zsh -ocshnullglob -c 'cat .env' at
// Default too (no script read). Now such a zsh is opaque. Unverified with zsh (none here), from
// its source.
func TestZshAttachedOption(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`zsh -oglobdots -c 'rm -rf .git'`,
		`zsh -oextendedglob -c 'rm -rf .claude'`,
		`zsh -ocshnullglob -c 'cat .env'`,
		`zsh -ocshnullglob -c 'rm -rf .claude'`,
		`zsh -xoglobdots -c 'cat *'`,
	}, []string{`zsh -c 'npm test'`, `zsh -f -c 'npm test'`, `bash -co pipefail 'npm test'`})
}

// TestGitStashPathspecWrites: git stash push PATHSPEC resets the paths to HEAD, and with -u
// removes them when untracked: a write there, as git checkout -- PATHSPEC is. Before (review
// re46), git stash push -u -- .claude removed .claude (real, until stash pop) and was admitted at
// Default and Yolo. git stash -u with no pathspec stays admitted (an over-refusal otherwise).
func TestGitStashPathspecWrites(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`git stash push --include-untracked -- .claude`,
		`git stash push -- .claude/settings.json`,
		`git stash push -u -- .git/hooks`,
	}, []string{`git stash`, `git stash pop`, `git stash list`, `git stash push -m wip -- src/`, `git stash apply`})
}

// TestFindPrintsIntoToolDirs: what find prints for xargs holds the names a test may match inside
// .git and agents' settings directories, as what -delete and -exec act on does. Before (review
// re46), find . -name settings.json | xargs rm was rm settings.json to the engine and deleted
// .claude/settings.json (real), admitted at Default and Yolo.
func TestFindPrintsIntoToolDirs(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`find . -name settings.json | xargs rm`,
		`find . -name settings.local.json -print | xargs rm -f`,
		`find . -name rules | xargs rm -r`,
		`find . -name HEAD | xargs rm`,
		`find . -name settings.json | xargs mv -t /tmp`,
		`find . -name settings.json | xargs -n1 unlink`,
		`bfs . -name settings.json | xargs rm`,
		`bfs . -name settings.json -printx | xargs rm`,
	}, []string{
		`find . -name '*.go' | xargs gofmt -l`,
		`find . -name '*.pyc' | xargs rm -f`,
		`find . -name node_modules -prune -o -name '*.ts' -print | xargs wc -l`,
		`find . -name '*.tmp' -o -name '*.bak' | xargs rm -f`,
	})
}
