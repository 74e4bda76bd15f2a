package safety

import "testing"

// TestFindClassBracketReachesDotDirs: find's fnmatch lets a bracket match a leading dot, and
// findDotVariant read a bracket as ending at its first "]", so a POSIX class or an equivalence
// class ("[[:punct:]]", "[![:alnum:]]", "[[=.=]]", "[!]]") gave no dot variant and
// ./**/[[:punct:]]git (a bash glob) never meets .git. find . -name '[[:punct:]]git' matched
// ./.git and -exec rm -rf {} + removed it in the scratch directory.
func TestFindClassBracketReachesDotDirs(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`find . -name '[[:punct:]]git' -exec rm -rf {} +`,
		`find . -name '[![:alnum:]]git' -exec rm -rf {} +`,
		`find . -name '[^[:alnum:]]git' -exec rm -rf {} +`,
		`find . -name '[[=.=]]git' -exec rm -rf {} +`,
		`find . -name '[[:punct:][:alpha:]]git' -exec rm -rf {} +`,
		`find . -name '[!]]git' -exec rm -rf {} +`,
		`find . -name '[[:graph:]]git' -exec rm -rf {} \;`,
		`find . -name '[[:punct:]]git' -execdir rm -rf {} +`,
		`find . -name '[[:punct:]]git' -exec mv {} /tmp/g \;`,
		`find . -name '[[:punct:]]git' -exec sh -c 'rm -rf "$1"' _ {} \;`,
		`find . -maxdepth 1 -name '[[:punct:]]git' | xargs rm -rf`,
		// Yolo: a hook, and an agent's settings, written.
		`find . -name '[[:punct:]]git' -exec cp /tmp/x {}/hooks/pre-commit \;`,
		`find . -name '[[:punct:]]claude' -exec cp /tmp/x {}/settings.json \;`,
		`find . -name '[![:alnum:]]claude' -exec cp /tmp/x {}/settings.json \;`,
	}, []string{
		`find . -name '[[:upper:]]*.md' -exec cat {} +`,
		`find . -name '[[:alpha:]]*.go' -exec gofmt -l {} +`,
		`find . -name '[[:alpha:]]git' -exec rm -rf {} +`, // no letter is a dot
		`find . -name '[]]git' -exec rm -rf {} +`,
	})
}
