package safety

import "testing"

// TestProtectedFileParentReplaced (review re47): .vscode/mcp.json is protected as a file, not its
// directory, so a directory made in the line and renamed or linked to .vscode put the attacker's
// mcp.json there (real), and git stash push -u -- .vscode removed it: admitted at Default and
// Yolo, though .zed, a protected directory, was denied. A write of a directory above a protected
// file (nestedVerdict, which rm -r .vscode's delete already used) is now judged as a write of that
// file; mkdir's, which makes an empty directory only where none was, is not. Over-refusal: a
// plain file written under such a directory's name (touch .docker, echo x > .vscode) is denied.
func TestProtectedFileParentReplaced(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`mkdir x && echo '{}' > x/mcp.json && ln -s x .vscode`,
		`mkdir x && echo '{}' > x/mcp.json && mv x .vscode`,
		`git stash push -u -- .vscode`,
		`cp -r x .vscode`,
		`mv x ~/.config`,
		`touch .docker`,
	}, []string{
		`mkdir -p .vscode`,
		`mkdir .vscode && echo '{}' > .vscode/settings.json`,
		`ln -s x build`,
		`mv x build`,
	})
}
