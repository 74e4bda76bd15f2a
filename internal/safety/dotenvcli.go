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

// endsInNumber is minimist's test for a number attached to a short option (-n5, -x1.5e3): it is
// not anchored at the start, so any rest of a bundle that ends in a digit is the option's value.
var endsInNumber = regexp.MustCompile(`-?\d+(\.\d*)?(e-?\d+)?$`)

// dotenvCLIReading is what dotenvCLI reads of a dotenv-cli command line.
type dotenvCLIReading struct {
	cmdAt  int    // the index of the word that begins the command it runs (len(words) for none)
	prints bool   // -p NAME prints a value
	files  []word // the files -e names, which it loads instead of .env
}

// dotenvCLI reports whether a dotenv segment is dotenv-cli's, and what it reads (dotenvCLIReading).
// It reads the words as minimist does: every option without an attached value (--x=1, -e.env)
// takes the next word unless that word looks like an option; everything after "--" is the
// command; the first other word begins it. A computed word where an option or the command may
// stand is taken for the command's beginning, so the command is computed. minimist sets an option
// by its name whatever its dashes, so --e FILE, --e=FILE, -e=FILE and -ce FILE name a file as -e
// FILE does: each spelling gives the same files.
func dotenvCLI(s *segment) (dotenvCLIReading, bool) {
	if s.name != cmdDotenv || len(s.operands) > 0 && !s.operands[0].dynamic && slices.Contains(pythonDotenvSubs, s.operands[0].s) {
		return dotenvCLIReading{}, false
	}
	r := dotenvCLIReading{cmdAt: len(s.words)}
	words := s.words
	for k := 1; k < len(words); k++ {
		w := words[k]
		switch {
		case w.dynamic:
			r.cmdAt = k
			return r, true
		case w.s == "--":
			r.cmdAt = k + 1
			return r, true
		case len(w.s) < 2 || w.s[0] != '-':
			r.cmdAt = k
			return r, true
		}
		o := dotenvCLIOption(w.s)
		r.prints = r.prints || o.prints
		if o.attached && o.last == "e" {
			r.files = append(r.files, w.with(o.value))
		}
		// A computed value is taken for the option's, as the other runners' readings take it.
		if o.takes && k+1 < len(words) && (words[k+1].dynamic || words[k+1].s != "--" && !optionLike.MatchString(words[k+1].s)) {
			k++
			if o.last == "e" {
				r.files = append(r.files, words[k])
			}
		}
	}
	return r, true
}

// dotenvCLIWord is one of dotenv-cli's option words as minimist reads it.
type dotenvCLIWord struct {
	prints   bool   // it sets -p, so prints a value
	takes    bool   // minimist gives its last option the next word (none attached, not a flag)
	last     string // the name of its last option, which a value attached or the next word is given to
	attached bool   // the last option's value is in the word (value)
	value    string
}

// dotenvCLIOption reads one of dotenv-cli's option words (dotenvCLIWord).
func dotenvCLIOption(v string) dotenvCLIWord {
	if strings.HasPrefix(v, "--") {
		name, val, attached := strings.Cut(v[2:], "=")
		return dotenvCLIWord{prints: name == "p", takes: !attached && !strings.HasPrefix(name, "no-") && !slices.Contains(dotenvCLIFlags, name),
			last: name, attached: attached, value: val}
	}
	letters, attached := minimistBundle(v)
	last := letters[len(letters)-1:]
	o := dotenvCLIWord{prints: strings.ContainsRune(letters, 'p'), takes: !attached && !slices.Contains(dotenvCLIFlags, last), last: last, attached: attached}
	if attached {
		o.value = strings.TrimPrefix(v[1+len(letters):], "=") // minimist drops the "=" of -e=FILE
	}
	return o
}

// minimistBundle reads a bundle of short options ("-ce", "-e.env") as minimist does: each
// character is an option until a letter is followed by "=" or by a rest that ends in a number, or
// the next character (not the last) is no word character; the rest of the word is then that
// option's value, so -e.env is -e .env. It returns the options and whether the last of them has
// its value attached; otherwise minimist gives the last one the next word.
func minimistBundle(v string) (options string, attached bool) {
	b := v[1:]
	for j := 0; j+1 < len(b); j++ {
		next := b[j+1:]
		if next == "-" {
			continue
		}
		if isASCIILetter(b[j]) && (next[0] == '=' || endsInNumber.MatchString(next)) || j+2 < len(b) && !isWordByte(b[j+1]) {
			return b[:j+1], true
		}
	}
	return b, false
}

// isWordByte says whether c is a word character as a regular expression's \w reads it.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || isASCIILetter(c)
}
