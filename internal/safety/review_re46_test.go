package safety

import "testing"

// Review re46 (attacker review of engine44: agents' settings directories noDelete, zsh scripts,
// bfs, MSBuild's written files). Evidence only: every row fails today (admitted at Default or
// Yolo, or, for the over-refusal rows, refused); skipped unless RE46_EVIDENCE=1. "real" rows were
// run with bash 5.2 / GNU coreutils 9.1 / procps watch 4.0.2 / git in a scratch directory; zsh,
// bfs and dotnet are not installed, so their rows are "unverified, from the manual" (zsh's -oNAME:
// from zsh's Src/init.c, which reads the rest of the word as the option's name).

func re46(t *testing.T) {
	t.Helper()
	evidenceOnly(t, "RE46_EVIDENCE")
}

// TestRE46OverRefusals: ordinary commands now refused. Since engine44: zsh scripts with a grep
// anchor, a URL fragment or a git format's "~" ask (extendedglob operators read though the option
// is off by default); script -c and flock -c scripts are read as zsh's for every user; deleting
// what coding agents keep for themselves (session logs, caches) is denied at every autonomy.
// Before engine44 already: a zsh idiom, the (N) qualifier, is denied as unparseable, not asked.
func TestRE46OverRefusals(t *testing.T) {
	re46(t)
	expectRefusedAtEveryAutonomy(t, nil, []string{
		`zsh -c 'ls -la | grep ^d'`,
		`zsh -c 'curl https://example.com/a#frag'`,
		`zsh -c 'git log --format=%h~%s'`,
		`script -qc 'git log HEAD~3' /dev/null`,
		`flock /tmp/l -c 'git log HEAD~1'`,
		`rm -rf ~/.claude/projects/x`,
		`rm -rf .continue/sessions`,
		`rm -rf .gemini/tmp`,
	})
	def := mustCompile(t, &Profile{}, classRules)
	if d := Evaluate(def, shCall(`zsh -c 'ls *.go(N)'`)); d.Verdict == VerdictDeny {
		t.Errorf("zsh -c 'ls *.go(N)': %s %s, want ask", d.Verdict, d.RuleID)
	}
}
