package safety

import "strings"

// noptShorthands are npm's shorthands of more than one letter (npm's config definitions):
// nopt takes -ws as --workspaces and -dd as --loglevel verbose, not as letters.
var noptShorthands = wordSet("ws iwr dd ddd desc reg la ll help local porcelain readonly")

// noptSpelling returns why npm's or npx's option word is spelt in a way only nopt's own tables
// resolve, or "": nopt strips every leading dash (---prefix is --prefix, -prefix too, whose value
// the engine reads only as --prefix) and splits a word that names no option into one-letter
// shorthands (-sC and --sC are -s -C, --dw is -d -w: a prefix or workspace elsewhere). Which it
// is depends on npm's whole list of options, so such a word is not read as harmless: three dashes
// or more, one dash before several letters, or two dashes before two letters, unless it is one
// of npm's own shorthands. Words after -- are the script's, and npx's after its first operand
// are the command's.
func noptSpelling(s *segment) string {
	if s.name != cmdNpm && s.name != cmdNpx {
		return ""
	}
	value := false
	for _, w := range s.words[1:] {
		if value {
			value = false
			continue
		}
		if w.s == "--" {
			break
		}
		name, _, joined := strings.Cut(w.s, "=")
		bare := strings.TrimLeft(name, "-")
		dashes := len(name) - len(bare)
		if dashes == 0 {
			if s.name == cmdNpx {
				break // the command: its options are its own
			}
			continue
		}
		// -w/tmp/x, -Csub: a value shorthand with its value attached, which the engine reads
		// as the option's value (optionValues); -workspace, all letters, is nopt's long option.
		attached := dashes == 1 && valueShorthands[s.name][bare[:min(1, len(bare))]] && strings.ContainsFunc(bare, notLetter)
		if dashes >= 3 || bare != "" && !noptShorthands[bare] && !attached && (dashes == 1 && len(bare) > 1 || dashes == 2 && len(bare) == 2) {
			return s.name + " reads its option " + name + " by nopt's own tables (leading dashes stripped, letters split into shorthands)"
		}
		// npx's options that take the next word: it is their value, not the command.
		value = s.name == cmdNpx && !joined && npxValueOptions[name]
	}
	return ""
}

// valueShorthands are npm's and npx's one-letter options that take a value.
var valueShorthands = map[string]map[string]bool{cmdNpm: wordSet("w C"), cmdNpx: wordSet("w C p c")}

func notLetter(r rune) bool { return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && r != '-' }

// npxValueOptions are npx's options whose value is the next word.
var npxValueOptions = wordSet("-p --package -c --call -w --workspace -C --prefix")
