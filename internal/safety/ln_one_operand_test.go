package safety

import "testing"

// TestLinkNamedByItsTarget (review re47): ln with one operand makes a link named by the target's
// base name in the working directory (real: ln -s x/opencode.json made ./opencode.json), a write
// of ./NAME that was never judged: admitted at Default and Yolo, the agents' root settings files
// and ~/.gitconfig's kind among them. The link's name is now a write (linkNamedByItsTarget),
// judged before the link is recorded so the write is not read through it.
func TestLinkNamedByItsTarget(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`ln -s x/opencode.json`,
		`ln -sf /tmp/evil/.mcp.json`,
		`ln /tmp/evil/crush.json`,
		`ln -s -- x/.mcp.json`,
		`ln -s /tmp/evil/.claude/`,
	}, []string{
		`ln -s ../shared/config.yaml`,
		`ln -s /usr/bin/python3`,
	})
}
