package safety

import "strings"

// The JavaScript runtimes with package-manager, test and tooling subcommands.
const (
	cmdBun  = "bun"
	cmdDeno = "deno"
)

// runtimeSubcommands are the subcommands of JavaScript runtimes that are package-manager, test or
// tooling commands rather than a script to run: bun test is jest's kind of command, bun install
// npm ci's, bun add (a), remove (rm), outdated and pm npm's own package commands (package-add-js
// judges an add), deno fmt and lint read files, deno task and bun run NAME run a script the project's
// package.json or deno.json names, as npm run does. bun FILE, bun run FILE, deno run, deno eval
// and a bare runtime still run code the engine cannot see.
//
//nolint:goconst // subcommand and program names read best literally, next to their neighbours
var runtimeSubcommands = map[string]map[string]bool{
	cmdBun:  {"test": true, subInstall: true, "i": true, subRun: true, subAdd: true, "a": true, "remove": true, "rm": true, "outdated": true, "pm": true},
	cmdDeno: {"test": true, "fmt": true, "lint": true, "check": true, "task": true},
}

// runtimeSubcommand reports whether the segment runs one of its runtime's runtimeSubcommands; for
// "run", the script is a name (no "." or "/"), which is package.json's, not a file.
func runtimeSubcommand(seg *segment) bool {
	subs := runtimeSubcommands[seg.name]
	if len(seg.operands) == 0 || seg.operands[0].dynamic || !subs[seg.operands[0].s] {
		return false
	}
	if seg.operands[0].s != subRun {
		return true
	}
	return len(seg.operands) > 1 && !seg.operands[1].dynamic && !strings.ContainsAny(seg.operands[1].s, "./")
}
