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

// TestShellsByTheirPackagesNames (review re47): shells Debian installs under other names
// (bash-static: real, removed .claude; zsh-static; mksh's mksh-static, rmksh, rlksh) and Oils'
// osh were unrecognised programs: asked at Default, admitted at Yolo. shellName now reads a
// static build, a restricted variant and a version of any known shell, in any combination, as the
// shell; osh as bash. rsh, the remote shell, is not read as sh.
func TestShellsByTheirPackagesNames(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`bash-static -c 'rm -rf .claude'`,
		`zsh-static -c 'rm -rf .claude'`,
		`mksh-static -c 'rm -rf .claude'`,
		`rmksh -c 'rm -rf .claude'`,
		`rlksh -c 'rm -rf .claude'`,
		`rbash-static -c 'rm -rf .claude'`,
		`osh -c 'rm -rf .claude'`,
		`echo 'rm -rf .claude' | bash-static`,
		`zsh-static -c 'echo x > *(e:"rm -rf .claude":)'`,
	}, []string{
		`bash-static -c 'go test ./...'`,
		`rmksh -c 'ls'`,
	})
	if got := commandName("rsh"); got != "rsh" {
		t.Errorf("rsh read as %q", got)
	}
}
