package safety

import "testing"

// TestShellsUnderOtherNames (review re46): a shell under its restricted, lineage or versioned
// name (rzsh, ksh93, pdksh, lksh, rksh, ksh88, busybox's hush, bash-5.2, zsh-5.9) was an
// unrecognised program, its -c script unread: asked at Default, admitted at Yolo. Each is now
// read as the shell it is: rzsh and zsh-5.9 with zsh's reading (its -oNAME options among
// them), the ksh family with ksh's. Unverified, from the shells' manuals (none is installed
// here). Ordinary scripts stay admitted.
func TestShellsUnderOtherNames(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`rzsh -c 'rm -rf .claude'`,
		`ksh93 -c 'rm -rf .claude'`,
		`ksh88 -c 'rm -rf .claude'`,
		`pdksh -c 'rm -rf .claude'`,
		`rksh -c 'rm -rf .claude'`,
		`lksh -c 'rm -rf .claude'`,
		`hush -c 'rm -rf .claude'`,
		`busybox hush -c 'rm -rf .claude'`,
		`bash-5.2 -c 'rm -rf .claude'`,
		`/usr/local/bin/bash5 -c 'rm -rf .claude'`,
		`zsh-5.9 -c 'rm -rf .claude'`,
		`rzsh -oglobdots -c 'cat *'`,
	}, []string{
		`rzsh -c 'ls'`,
		`ksh93 -c 'npm test'`,
		`bash-5.2 -c 'go test ./...'`,
	})
}
