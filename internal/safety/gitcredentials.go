package safety

import (
	"regexp"
	"slices"
	"strings"
)

// git keeps a token where git config prints it: http.extraHeader (or http.<url>.extraHeader) holds
// an Authorization header, as actions/checkout and other CI checkouts leave it in .git/config. A
// read that names it — git config KEY, --get, --get-all, get, --get-urlmatch (or get --url) of the
// http section or the key, --get-regexp (or get --regexp) of a pattern that matches it, or a key
// computed at run time, which could be it — prints the token. The whole list (git config --list)
// and git remote -v are everyday use and stay allowed.

// gitConfigValued are git config's options that take the next word as their value.
var gitConfigValued = strings.Fields("-f --file --blob --type --default --comment --url --value")

// gitExtraHeaderKeys are the key names (as git prints them, section and key lower-cased) a
// --get-regexp pattern is tried against: the plain key and one for a URL.
var gitExtraHeaderKeys = []string{"http.extraheader", "http.https://github.com/.extraheader"}

// gitConfigWriters are git config's subcommands that print no setting.
var gitConfigWriters = append(strings.Fields("list unset rename-section remove-section"), subSet, gitConfigEdit)

// gitPrintsCredentialConfig reports whether a git config command prints http.extraHeader.
func gitPrintsCredentialConfig(s *segment) bool {
	if s.name != cmdGit {
		return false
	}
	if gitSub(s) != subConfig {
		return false
	}
	name, regex, urlmatch, ok := gitConfigRead(s)
	switch {
	case !ok:
		return false
	case name.dynamic:
		return true
	case regex:
		re, err := regexp.Compile(name.s)
		// A POSIX pattern the engine cannot read as RE2 could match it.
		if err != nil || slices.ContainsFunc(gitExtraHeaderKeys, re.MatchString) {
			return true
		}
		// Read as a key too: --get is also a prefix of --get-regexp to hasFlag, so git config
		// --get http.extraHeader (as git's docs spell it) reaches here as a pattern.
	}
	low := strings.ToLower(name.s)
	if urlmatch && low == "http" {
		return true // every http.* setting that applies to the URL
	}
	return strings.HasPrefix(low, "http.") && strings.HasSuffix(low, ".extraheader")
}

// gitConfigRead returns the name (or pattern) a git config command reads, whether it is a
// pattern (--get-regexp, get --regexp) or a section or key read for a URL (--get-urlmatch, get
// --url), and whether the command reads one at all: NAME alone, --get, --get-all or get.
func gitConfigRead(s *segment) (name word, regex, urlmatch, ok bool) {
	ops := positionals(gitSubArgs(s), gitConfigValued)
	regex, urlmatch = s.hasFlag("--get-regexp"), s.hasFlag("--get-urlmatch")
	switch {
	case len(ops) > 0 && ops[0].s == subGet:
		ops = ops[1:]
		regex, urlmatch = regex || s.hasFlag("--regexp"), urlmatch || s.hasFlag("--url")
	case len(ops) > 0 && slices.Contains(gitConfigWriters, ops[0].s):
		return word{}, false, false, false
	case !regex && !urlmatch && !s.hasFlag("--get") && !s.hasFlag("--get-all") && len(ops) != 1:
		return word{}, false, false, false // a setting (NAME VALUE), --list, or another mode
	}
	if len(ops) == 0 {
		return word{}, false, false, false
	}
	return ops[0], regex, urlmatch, true
}
