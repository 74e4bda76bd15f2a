package safety

// agentSettingsDirs are the coding agents' settings directories. Their files name programs the
// agent's harness runs outside any gate (hooks, MCP servers' commands, plugins, lint and test
// commands), so the default rule pack keeps them from being written (noWrite), and hold the
// project's deny rules and hooks that constrain the agent, so it keeps them from being deleted too
// (noDelete): "rm .claude/settings.local.json" drops every rule it holds. With
// agentSettingsFiles, this is the one list of them: the rule pack's entries (DefaultRulePack) and
// the names find may reach inside them (toolDirNames) are made from it.
var agentSettingsDirs = []string{".claude", ".cursor", ".clio-coder", ".codex", ".gemini", ".qwen",
	".kiro", ".amazonq", ".continue", ".roo", ".windsurf",
	".opencode",   // opencode: opencode.json(c), plugin/ and plugins/ (code the harness loads), agents
	".zed",        // Zed: settings.json (context_servers' commands), tasks.json
	".kilocode",   // Kilo Code: mcp.json, rules
	".kilo",       // Kilo Code since its opencode base: kilo.json(c)
	".crush",      // Crush: its project data and configuration
	".clinerules", // Cline: hooks/ (scripts run at each tool use), rules
	".amp",        // Amp: settings.json (amp.mcpServers, amp.permissions)
}

// agentSettingsFiles are the same agents' settings kept as a file in the project (or under a
// directory not otherwise theirs): the same rule as agentSettingsDirs, noWrite and noDelete (a
// project's opencode.json or kilo.jsonc holds its permission rules, crush.json runs every $(...)
// it holds when Crush loads it).
var agentSettingsFiles = []string{".mcp.json", ".vscode/mcp.json", ".aider.conf.yml",
	"opencode.json", "opencode.jsonc", "kilo.json", "kilo.jsonc", ".crush.json", "crush.json"}

// withAgentSettingsDirs adds agentSettingsDirs and agentSettingsFiles to the path policy: each
// noWrite (a directory: its files) and noDelete (it and, for a directory, its files).
func withAgentSettingsDirs(pp PathPolicy) PathPolicy {
	for _, d := range agentSettingsDirs {
		pp.NoWrite = append(pp.NoWrite, d+"/")
		pp.NoDelete = append(pp.NoDelete, d)
	}
	for _, f := range agentSettingsFiles {
		pp.NoWrite = append(pp.NoWrite, f)
		pp.NoDelete = append(pp.NoDelete, f)
	}
	return pp
}
