package safety

import "testing"

// TestFindEveryGitHook: toolDirNames listed some of git's hooks, not all: an existing
// .git/hooks/post-commit (reference-transaction, pre-merge-commit; .git/info/attributes) was
// overwritten by these in a scratch directory (find descends into .git), admitted, where cp to
// the path is denied (noWrite .git/).
func TestFindEveryGitHook(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`find . -name post-commit -exec cp /tmp/x {} \;`,
		`find . -name reference-transaction -exec cp /tmp/x {} \;`,
		`find . -name pre-merge-commit -exec cp /tmp/x {} \;`,
		`find . -name post-commit -delete`,
		`find . -name attributes -exec cp /tmp/x {} \;`,
		`find . -name pre-receive -exec cp /tmp/x {} \;`,
	}, []string{
		`find . -name x.txt -exec cp /tmp/x {} \;`,
		`find . -name post-commit -exec cat {} \;`, // reads of .git are no harm the policy names
	})
}
