package safety

import "testing"

// TestZshClobberIsAWrite (review re47): zsh's >&! and &>! (and &>>!, >>&!) write stdout and
// stderr to the word after them, noclobber overridden (zshmisc, Redirection); bash reads &> to a
// file named "!" and the target as an argument (real), so the write was never seen: admitted at
// Default and Yolo. zsh's clobbering redirections are now respelt as bash's (zshAsBash) and judged
// as the writes they are, which also drops engine47's ask for >! to an ordinary file; zsh's &| is
// read as & (bash: a syntax error, denied). Unverified, from the manual.
func TestZshClobberIsAWrite(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`zsh -c 'echo x &>! .claude/settings.json'`,
		`zsh -c 'echo x >&! opencode.json'`,
		`zsh -c 'echo x &>>! ~/.bashrc'`,
		`zsh -c 'echo x >>&! ~/.bashrc'`,
		`zsh -c 'echo x 2>! .claude/settings.json'`,
		`zsh -c 'echo x >! .claude/settings.json'`,
		`zsh -c 'echo x &| rm -rf .claude'`,
	}, []string{
		`zsh -c 'echo hi &> out.log'`,
		`zsh -c 'echo hi >! out.txt'`,
		`zsh -c 'echo hi &>! out.txt'`,
		`zsh -c 'echo hi >>! out.txt'`,
		`zsh -c 'echo ">!" .claude/x'`,
		`zsh -c 'go build ./... &|'`,
	})
}
