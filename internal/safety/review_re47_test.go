package safety

import "testing"

// Review re47 (attacker review of engine47: agents' settings files, shells under other names,
// MSBuild's written files, more zsh syntax, git stash -u). Evidence only: every attack row is
// admitted today at Default or Yolo; skipped unless RE47_EVIDENCE=1. "real" rows were run with
// bash 5.2 / GNU coreutils / git in a scratch directory (bash-static from Debian's package);
// zsh and dotnet are not installed, so their rows are "unverified, from the manual".

func re47(t *testing.T) {
	t.Helper()
	evidenceOnly(t, "RE47_EVIDENCE")
}

// TestRE47OverRefusals: ordinary commands admitted at Default and Yolo before engine47 (main at
// aec9c825) and refused now. cp's destination may be a directory, so copying one's opencode.json
// out is read as a write of /tmp/backup.json/opencode.json (denied); a modifier in an echo asks
// though zsh's reading of it is plain. (engine48 fixed the other rows: zsh's >! to an ordinary
// file is admitted, TestZshClobberIsAWrite.) (Intended and not listed:
// git stash -u denied; a line that edits a .csproj, Directory.Build.props or global.json and
// builds asks; rm .mcp.json denied.)
func TestRE47OverRefusals(t *testing.T) {
	re47(t)
	expectRefusedAtEveryAutonomy(t, nil, []string{
		`cp opencode.json /tmp/backup.json`,
		`zsh -c 'echo $HOME:h'`,
	})
}
