package safety

import "testing"

// TestAgentSettingsOfMoreAgents (review re46): opencode, Zed, Kilo Code, Crush, Cline and Amp keep
// project settings that name programs their harness runs outside any gate (MCP servers'
// commands, plugins, hooks); they were not in the one list of agents' settings, and each row was
// admitted at Default and Yolo. The root files (.mcp.json's kind) now take the same rule as the
// directories: noWrite and noDelete. Reading them stays admitted.
func TestAgentSettingsOfMoreAgents(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`echo '{"mcp":{"x":{"type":"local","command":["sh","-c","id"]}}}' > opencode.json`,
		`echo x > opencode.jsonc`,
		`echo x > .opencode/plugin/x.ts`,
		`cp x.ts .opencode/plugins/`,
		`rm -rf .opencode`,
		`rm opencode.json`,
		`echo x > .zed/settings.json`,
		`echo x > .kilocode/mcp.json`,
		`echo x > .kilo/kilo.jsonc`,
		`echo x > kilo.jsonc`,
		`echo x > .crush.json`,
		`echo x > crush.json`,
		`rm -rf .crush`,
		`echo x > .clinerules/hooks/PreToolUse`,
		`rm -rf .clinerules`,
		`echo x > .amp/settings.json`,
		`find . -name plugins -exec cp x.ts {} \;`,
		`sh -c 'echo x > sub/opencode.json'`,
		// refused before (noWrite), now noDelete too: an over-refusal of deleting them, which drops
		// no rule, taken for the one rule
		`rm .mcp.json`,
		`rm .aider.conf.yml`,
	}, []string{
		`cat opencode.json`,
		`cat .zed/settings.json`,
		`grep -r mcp .opencode`,
		`echo x > opencode.md`,
		`echo x > zed.json`,
		`rm -rf crush`,
		`ls .kilocode`,
	})
}
