package safety

// agentSettingsDirs are the coding agents' settings directories. Their files name programs the
// agent's harness runs outside any gate (hooks, MCP servers' commands, lint and test commands),
// so the default rule pack keeps them from being written (noWrite), and hold the project's deny
// rules and hooks that constrain the agent, so it keeps them from being deleted too (noDelete):
// "rm .claude/settings.local.json" drops every rule it holds. This is the one list of them: the
// rule pack's entries (DefaultRulePack) and the names find may reach inside them (toolDirNames)
// are made from it.
var agentSettingsDirs = []string{".claude", ".cursor", ".clio-coder", ".codex", ".gemini", ".qwen",
	".kiro", ".amazonq", ".continue", ".roo", ".windsurf"}

// withAgentSettingsDirs adds agentSettingsDirs to the path policy: each directory noWrite (its
// files) and noDelete (it and its files).
func withAgentSettingsDirs(pp PathPolicy) PathPolicy {
	for _, d := range agentSettingsDirs {
		pp.NoWrite = append(pp.NoWrite, d+"/")
		pp.NoDelete = append(pp.NoDelete, d)
	}
	return pp
}
