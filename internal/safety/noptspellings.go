package safety

import "strings"

// noptShorthands are npm's shorthands of more than one letter (npm's config definitions):
// nopt takes -ws as --workspaces and -dd as --loglevel verbose, not as letters.
var noptShorthands = wordSet("ws iwr dd ddd desc reg la ll help local porcelain readonly")

// noptSpelling returns why npm's or npx's option word is spelt in a way only nopt's own tables
// resolve, or "": nopt strips every leading dash (---prefix is --prefix, and -prefix too, whose
// value the engine reads only as --prefix) and splits a word that names no option into one-letter
// shorthands whatever its dashes (-sC, --sC and --sdC are -s -d -C: a prefix elsewhere). Which it
// is depends on npm's whole list of options, so these are not read as harmless: three dashes or
// more; one dash before a lower-case name of three letters or more (a long option's spelling;
// npm's names are lower case); one or two dashes before a cluster holding C or w, the
// shorthands that name another project (npm's long names hold no C, and none of four letters or
// fewer a w). npm's own shorthands (-ws, -iwr), a value shorthand with its value attached
// (-w/tmp/x, read as -w), and clusters of flags alone (-gp, -DE) stay read. Words after -- are
// the script's, and npx's after its command are the command's.
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
		if noptResolved(bare, dashes, s.name) {
			return s.name + " reads its option " + name + " by nopt's own tables (leading dashes stripped, letters split into shorthands)"
		}
		// npx takes the next word as the value of any option that is not a flag it knows: so
		// after --loglevel silent, -prefix is still its own (npx runs the first operand after
		// its options).
		value = s.name == cmdNpx && !joined && (len(bare) > 1 && !npxFlags[name] || valueShorthands[cmdNpx][bare])
	}
	return ""
}

// noptResolved says whether an option word of dashes dashes before bare is one only nopt's tables
// resolve (noptSpelling).
func noptResolved(bare string, dashes int, prog string) bool {
	if bare == "" || noptShorthands[bare] {
		return false
	}
	lowerName := len(bare) >= 3 && !strings.ContainsFunc(bare, func(r rune) bool { return (r < 'a' || r > 'z') && r != '-' })
	cluster := len(bare) >= 2 && (strings.Contains(bare, "C") || len(bare) <= 4 && strings.Contains(bare, "w"))
	// -w/tmp/x, -Csub: a value shorthand with its value attached, which the engine reads as the
	// option's value (optionValues).
	attached := dashes == 1 && valueShorthands[prog][bare[:1]] && strings.ContainsFunc(bare, notLetter)
	return dashes >= 3 || !attached && (dashes == 1 && lowerName || dashes <= 2 && cluster && !strings.ContainsFunc(bare, notLetter))
}

// valueShorthands are npm's and npx's one-letter options that take a value.
var valueShorthands = map[string]map[string]bool{cmdNpm: wordSet("w C"), cmdNpx: wordSet("w C p c")}

func notLetter(r rune) bool { return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && r != '-' }

// npxFlags are npx's options that take no value: after any other, the next word is its value.
var npxFlags = wordSet("-y --yes --no -q --quiet --offline --prefer-offline --prefer-online --ignore-scripts " +
	"--no-install --legacy-peer-deps --force -f --silent -s -d -dd -ddd --verbose --ws --workspaces " +
	"--include-workspace-root -iwr --no-audit --no-fund --no-update-notifier --no-yes")
