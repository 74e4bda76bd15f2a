package safety

import "testing"

// TestAgentSettingsDirsAreNoDelete: the coding agents' settings directories hold the project's deny
// rules and hooks that constrain the agent; deleting a file of them (or the directory, or moving
// it away) drops those rules. They were noWrite only, which covers no delete, and each row was
// admitted at Default and Yolo (unlink and shred asked at Default only). Deleting other directories stays
// admitted.
func TestAgentSettingsDirsAreNoDelete(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		"rm .claude/settings.local.json",
		"rm -f .claude/settings.json",
		"find . -name settings.local.json -delete",
		"find . -iname SETTINGS.LOCAL.JSON -delete",
		"find .claude -name x -delete",
		"find . -name rules -exec rm -rf {} +",
		"unlink .claude/settings.json",
		"rm -r .cursor/rules",
		"rm .roo/rules/x.md",
		"rm -rf .windsurf",
		"rm -rf .continue/",
		"mv .claude/settings.json /tmp/",
		"git rm .claude/settings.json",
		"git rm -rf .kiro",
		"shred -u .amazonq/mcp.json",
		"echo .clio-coder/settings.json | xargs rm",
		"sh -c 'rm .qwen/settings.json'",
		// refused before, by other rules (the credentials zeroAccess keeps inside some of them, a
		// move's target inside noWrite); they stay refused
		"rm -rf src/.gemini",
		"rm -rf .CLAUDE",
		"mv .claude .claude.bak",
		"mv .codex/config.toml .codex/config.bak",
		"rm -rf .claude/",
		"git clean -fdx",
		"find . -name '*.json' -path '*/.claude/*' -delete",
		"truncate -s0 .claude/settings.json",
		"> .claude/settings.json",
	}, []string{
		"rm -rf node_modules",
		"rm -rf dist build",
		"rm -rf node_modules/.cache",
		"rm .clauderc",
		"rm -rf claude",
		"cat .claude/settings.json",
		"find . -name '*.log' -delete",
		"find . -name node_modules -exec rm -rf {} +",
		"git rm -r --cached .claude",
	})
}
