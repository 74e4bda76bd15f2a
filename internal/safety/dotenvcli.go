package safety

import (
	"regexp"
	"slices"
	"strings"
)

// Two programs are installed as dotenv. python-dotenv's takes a subcommand (dotenv run CMD, read
// by subcommandRunners; dotenv list|get, which print, by printsDotenv). npm's dotenv-cli takes
// none: dotenv [-e FILE] [-v NAME=VALUE] [-p NAME] [-c [ENV]] [--] CMD loads .env into CMD's
// environment, so dotenv -- env prints it as doppler run -- env does, and -p NAME prints one
// value. A first operand that is not one of python-dotenv's subcommands is read as dotenv-cli's.

// pythonDotenvSubs are python-dotenv's subcommands.
var pythonDotenvSubs = strings.Fields("list get set unset run")

// optionLike matches a word minimist reads as an option, so never as the value of the option
// before it.
var optionLike = regexp.MustCompile(`^--?[^-]`)

// dotenvCLIFlags are dotenv-cli's options that take no value. Plain minimist would give them
// the next word; reading that word as the command instead can only read more.
var dotenvCLIFlags = strings.Fields("o override debug q quiet h help")

// letterBundle matches a bundle of short options with no value attached (-e, -ce): minimist gives
// its last option the next word.
var letterBundle = regexp.MustCompile(`^-[A-Za-z]+$`)

// dotenvCLI reports whether a dotenv segment is dotenv-cli's, and the index of the word that
// begins the command it runs (len(words) for none) and whether -p prints a value. It reads the
// words as minimist does: every option without an attached value (--x=1, -e.env) takes the next
// word unless that word looks like an option; everything after "--" is the command; the first
// other word begins it. A computed word where an option or the command may stand is taken for the
// command's beginning, so the command is computed.
func dotenvCLI(s *segment) (cmdAt int, prints, ok bool) {
	if s.name != cmdDotenv || len(s.operands) > 0 && !s.operands[0].dynamic && slices.Contains(pythonDotenvSubs, s.operands[0].s) {
		return 0, false, false
	}
	words := s.words
	for k := 1; k < len(words); k++ {
		w := words[k]
		switch {
		case w.dynamic:
			return k, prints, true
		case w.s == "--":
			return k + 1, prints, true
		case len(w.s) < 2 || w.s[0] != '-':
			return k, prints, true
		}
		p, takes := dotenvCLIOption(w.s)
		prints = prints || p
		// A computed value is taken for the option's, as the other runners' readings take it.
		if takes && k+1 < len(words) && (words[k+1].dynamic || words[k+1].s != "--" && !optionLike.MatchString(words[k+1].s)) {
			k++
		}
	}
	return len(words), prints, true
}

// dotenvCLIOption reads one of dotenv-cli's option words: whether it sets -p (so prints a value)
// and whether minimist gives it the next word (none attached, not a flag).
func dotenvCLIOption(v string) (prints, takes bool) {
	name, _, attached := strings.Cut(strings.TrimLeft(v, "-"), "=")
	if strings.HasPrefix(v, "--") {
		return name == "p", !attached && !strings.HasPrefix(name, "no-") && !slices.Contains(dotenvCLIFlags, name)
	}
	prints = strings.ContainsRune(name, 'p')
	return prints, letterBundle.MatchString(v) && !slices.Contains(dotenvCLIFlags, name[len(name)-1:])
}
