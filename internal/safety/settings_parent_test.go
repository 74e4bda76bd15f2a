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

// TestFilesCopiedIntoProtectedParent (review re48): engine48's rule denied cp settings.json
// .vscode/ and cp -t .vscode settings.json at every autonomy, as if .vscode were replaced, though
// cp of files and ln into a directory named with a trailing slash or -t only add a name to it
// (judged as its own target: .vscode/settings.json). cp -r, cp -a, mv (a source may be a
// directory) and -T may still make .vscode where none was: judged as before.
func TestFilesCopiedIntoProtectedParent(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`cp -r /tmp/evil .vscode/`,
		`cp -a /tmp/evil/ .vscode/`,
		`cp --recursive /tmp/evil .vscode/`,
		`cp --recur /tmp/evil .vscode/`,
		`cp --arch /tmp/evil .vscode/`,
		`cp --no-target /tmp/evil/mcp.json .vscode/`,
		`cp $F /tmp/evil .vscode/`,
		`cp -rt .vscode /tmp/evil`,
		`mv /tmp/evil .vscode/`,
		`ln -s /tmp/evil .vscode`,
		`ln -sT /tmp/evil .vscode/`,
		`cp -T /tmp/evil/mcp.json .vscode/`,
		`cp /tmp/evil/mcp.json .vscode/`,
		`cp -t .vscode /tmp/evil/mcp.json`,
		`ln -s /tmp/evil/mcp.json .vscode/`,
		`cp x.json .claude/`,
	}, []string{
		`cp settings.json .vscode/`,
		`mkdir -p .vscode && cp settings.json .vscode/`,
		`cp -t .vscode settings.json`,
		`cp --target=.vscode settings.json`,
		`cp settings.json tasks.json .vscode/`,
		`ln -s ../shared/settings.json .vscode/`,
	})
}
