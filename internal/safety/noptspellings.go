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
// npm's names are lower case); one or two dashes before a cluster of letters holding C or w, the
// shorthands that name another project (npm's long names hold no C, and only a few hold a w).
// npm's own shorthands (-ws, -iwr), a value shorthand with its value attached (-w/tmp/x, read as
// -w), and clusters of flags alone (-gp, -DE) stay read. Words after -- are the script's.
//
// npx's words after its first operand are its command's (tsc -watch), but nopt gives an unknown
// or Boolean option no value (npx --json -prefix /tmp/x tsc runs /tmp/x's tsc), and which options
// take one is npm's whole list again: so past the first operand only a spelling that would name
// another project or code (noptNamesElsewhere) is refused.
func noptSpelling(s *segment) string {
	if s.name != cmdNpm && s.name != cmdNpx {
		return ""
	}
	command := false
	for _, w := range s.words[1:] {
		if w.s == "--" {
			break
		}
		name, _, _ := strings.Cut(w.s, "=")
		bare := strings.TrimLeft(name, "-")
		dashes := len(name) - len(bare)
		if dashes == 0 {
			command = s.name == cmdNpx
			continue
		}
		if noptResolved(bare, dashes, s.name) && (!command || noptNamesElsewhere(bare)) || command && dashes == 2 && noptConfigFile(bare) {
			return s.name + " reads its option " + name + " by nopt's own tables (leading dashes stripped, letters split into shorthands)"
		}
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
	// -w/tmp/x, -Csub: a value shorthand with its value attached, which the engine reads as the
	// option's value (optionValues).
	attached := dashes == 1 && valueShorthands[prog][bare[:1]] && strings.ContainsFunc(bare, notLetter)
	return dashes >= 3 || !attached && (dashes == 1 && lowerName || dashes <= 2 && noptCluster(bare))
}

// noptCluster says whether bare, all letters, holds C, or w in four letters or fewer: split
// into shorthands it names a prefix or a workspace. npm's long names hold no C; a longer word
// with a w is as likely a long name or its abbreviation (--works, and a command's --watch), and
// npm takes as a workspace only a directory its package.json declares (--ssssw is left).
func noptCluster(bare string) bool {
	return len(bare) >= 2 && !strings.ContainsFunc(bare, notLetter) && !strings.Contains(bare, "-") &&
		(strings.Contains(bare, "C") || len(bare) <= 4 && strings.Contains(bare, "w"))
}

// noptNamesElsewhere says whether bare, read by nopt, may be an option that names another
// project or code to run: a cluster holding C or w, or a name (or a prefix of three letters or
// more, as nopt abbreviates) of prefix, workspace, script-shell, shell, userconfig, globalconfig,
// node-options, call or package.
func noptNamesElsewhere(bare string) bool {
	if noptCluster(bare) {
		return true
	}
	for _, n := range noptElsewhereNames {
		if len(bare) >= 3 && strings.HasPrefix(n, bare) || bare == n {
			return true
		}
	}
	return false
}

// noptConfigFile says whether bare is npm's userconfig or globalconfig, or nopt's abbreviation of
// one: after an option npx-cli takes to have a value (npx --foo tsc --userconfig /tmp/x/rc tsc),
// nopt still reads it, and the file's node-options run code.
func noptConfigFile(bare string) bool {
	return len(bare) >= len("userc") && strings.HasPrefix("userconfig", bare) ||
		len(bare) >= len("globalc") && strings.HasPrefix("globalconfig", bare)
}

var noptElsewhereNames = strings.Fields("prefix workspace script-shell shell userconfig globalconfig node-options call package")

// valueShorthands are npm's and npx's one-letter options that take a value.
var valueShorthands = map[string]map[string]bool{cmdNpm: wordSet("w C"), cmdNpx: wordSet("w C p c")}

func notLetter(r rune) bool { return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && r != '-' }
