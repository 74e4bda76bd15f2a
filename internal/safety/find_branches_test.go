package safety

import "testing"

// TestFindActionAfterAlternative: an action after -o or "," runs on every file the tests before
// it did not take (find . -name '*.pyc' -delete -o -delete deleted LICENSE and .git, and
// -print -o -print printed .env to xargs cat, with GNU find 4.9): each is judged with its
// group's prefix and its own branch's tests, not with the first action's.
func TestFindActionAfterAlternative(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`find . -name '*.pyc' -delete -o -delete`,
		`find . -name '*.pyc' -delete , -delete`,
		`find . -name '*.pyc' -delete -o -name LICENSE -delete`,
		`find . -name '*.pyc' -delete -false -o -delete`,
		`find . \( -name '*.pyc' -delete \) -o -delete`,
		`find . -name '*.pyc' -print -delete -o -delete`,
		`find . -name '*.md' -print -o -print | xargs cat`,
		`find . -name '*.md' -print , -print | xargs cat`,
		`find . -name '*.md' -print -o -name .env -print | xargs cat`,
		`find . -name '*.pyc' -delete {-o,-delete}`,
		`find . -name '*.md' -print -{o,print} | xargs cat`,
		// Grouped alternatives narrow to any of their branches, one unnarrowed to every file.
		`find . -type f \( -name '*.js' -o -name .env \) -exec cat {} +`,
		`find . -type f \( -name '*.js' -o -type f \) -exec cat {} +`,
		`find . -path ./node_modules -prune -o -name .env -print | xargs cat`,
		`find . -name '*.tmp' -o -name LICENSE | xargs rm -f`,
		`find . -name '*.tmp' -o -type f | xargs rm -f`,
		`find . -name .env -print0 | xargs -0 cat`,
		`find . -name '*.md' -print0 -o -print0 | xargs -0 cat`,
		`printf '.env\0' | xargs -0 cat`,
	}, []string{
		`find . -name '*.pyc' -delete`,
		`find . -name '*.pyc' -delete -o -print`,
		`find . -name '*.md' -print | xargs cat`,
		`find . -name '*.go' -print0 | xargs -0 grep -l TODO`,
		`find . -type f \( -name '*.js' -o -name '*.ts' \) -exec grep -l foo {} +`,
		`find . -path ./node_modules -prune -o -type f -name '*.js' -print | xargs wc -l`,
		`find . -name '*.tmp' -o -name '*.bak' | xargs rm -f`,
	})
}
