package safety

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
)

// git keeps a token where git config prints it: http.extraHeader (or http.<url>.extraHeader) holds
// an Authorization header, as actions/checkout and other CI checkouts leave it in .git/config (or
// in a file .git/config includes). A read that names it — git config KEY, --get, --get-all, get,
// --get-urlmatch (or get --url) of the http section or the key, --get-regexp (or get --regexp) of
// a pattern that matches it, or a key computed at run time, which could be it — prints the token;
// so does the whole list (git config --list, -l, list, git var -l), which follows the includes,
// and any program reading the repository's config file itself (cat .git/config, an editor, a copy
// elsewhere). The engine cannot see whether the header is there, so these ask. Names alone
// (--name-only), the submodule list (-f .gitmodules), a named key (git config --get
// remote.origin.url, user.email) and git remote -v stay allowed; git's own reads of its config,
// on every command, are not the agent's and are not judged.

// gitConfigValued are git config's options that take the next word as their value.
var gitConfigValued = strings.Fields("-f --file --blob --type --default --comment --url --value")

// gitExtraHeaderKeys are the key names (as git prints them, section and key lower-cased) a
// --get-regexp pattern is tried against: the plain key and one for a URL.
var gitExtraHeaderKeys = []string{"http.extraheader", "http.https://github.com/.extraheader"}

// gitConfigWriters are git config's subcommands that print no setting.
var gitConfigWriters = append(strings.Fields("unset rename-section remove-section"), subSet, gitConfigEdit)

// subList is git config's subcommand for the whole list (git 2.46), as --list is.
const subList = "list"

// gitPrintsCredentialConfig reports whether a git config command prints http.extraHeader.
func gitPrintsCredentialConfig(s *segment) bool {
	if s.name != cmdGit {
		return false
	}
	switch gitSub(s) {
	case "var":
		return s.hasFlag("-l") // the configuration, then git's variables
	case subConfig:
	default:
		return false
	}
	if gitConfigLists(s) {
		return !s.hasFlag("--name-only") && !gitModulesFile(s)
	}
	name, regex, urlmatch, ok := gitConfigRead(s)
	switch {
	case !ok:
		return false
	case name.dynamic:
		return true
	case regex && s.hasFlag("--name-only"):
		return false // the matching names, without their values
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

// gitConfigLists reports whether git config prints the whole list: --list (-l) or list.
func gitConfigLists(s *segment) bool {
	ops := positionals(gitSubArgs(s), gitConfigValued)
	return s.hasFlag("--list") || s.hasFlag("-l") || len(ops) > 0 && ops[0].s == subList
}

// gitModulesFile reports whether git config reads a .gitmodules file (-f, --file), the project's
// list of submodules, which holds no credential.
func gitModulesFile(s *segment) bool {
	f, ok := optionValue(s, "-f", "--file")
	return ok && !f.dynamic && path.Base(f.s) == ".gitmodules"
}

// repositoryConfig reports whether a resolved path (or a glob) names a repository's config file,
// DIR/.git/config; a glob that cannot be read names it.
func repositoryConfig(p string, glob bool) bool {
	dir, file := path.Split(p)
	gitDir := path.Base(path.Clean(dir))
	if !glob {
		return file == subConfig && gitDir == dirGit
	}
	f, errF := path.Match(file, subConfig)
	g, errG := path.Match(gitDir, dirGit)
	return f && g || errF != nil || errG != nil
}

// gitConfigFileFailure asks for a read of a repository's config file by any program: it holds the
// header git config --get would print (repositoryConfig).
func gitConfigFileFailure(targets []target) *failure {
	for _, t := range targets {
		// A recursive read of the repository's directory (tar, cp -r, grep -r .git) reads it too.
		holds := t.recursive && !t.glob && path.Base(t.path) == dirGit
		if t.op == opRead && !t.dynamic && !t.listing && (holds || repositoryConfig(t.path, t.glob)) {
			return &failure{kind: kindHumanApprovalRequired, ask: true, rule: RulePrefixDamageControl + gitConfigRule,
				msg: fmt.Sprintf("the call reads %q, a repository's git config or a directory holding one; it can hold http.extraHeader, the Authorization header a CI checkout leaves there; it needs human approval (git remote -v and git config --get KEY read what an agent needs)", t.raw)}
		}
	}
	return nil
}

// dirGit is a repository's directory in its work tree.
const dirGit = ".git"

// gitConfigRule is the rule pack's rule for git config printing the header.
const gitConfigRule = "print-credentials-git-config"
