package safety

import (
	"maps"
	"slices"
)

// The search tools' options that take the next word as their value. Without them the value
// was an operand: in "grep -r -m 1 KEY" the engine took 1 for the pattern and KEY for the path
// searched, when grep searches the working directory (and its .env) for KEY; "grep -r -e KEY" and
// "rg -uu -f pats.txt" lost the directory the same way. Options whose value is optional (grep's
// --color, ag's and ack's -C) must be attached ("--color=always") and are not listed: the word
// after them is the pattern or a path.
func init() {
	maps.Copy(valueOptions, searchValueOptions)
	for name := range searchValueOptions {
		flatValuePrograms[name] = true
	}
}

// flatValuePrograms are the programs with valueOptions but no subcommand (the search tools, node),
// for which globalsLast makes no second text.
var flatValuePrograms = map[string]bool{}

// abbreviatesValue says whether v is a long option that a program parsing with getopt_long or
// Getopt::Long (grep, ag, ack; not rg) or git's parse-options reads as one of its value options by
// a unique prefix ("grep -r --max 1 KEY" is --max-count 1, "git push --push-opt ci.skip prod" is
// --push-option ci.skip), unless it is a real option of its own (exactLongOptions).
func abbreviatesValue(name, v string, values []string) bool {
	if len(v) < 4 || v[1] != '-' || !abbreviatingLong[name] || slices.Contains(exactLongOptions[name], v) {
		return false
	}
	return slices.Contains(values, expandLong(v, values...))
}

// Search options that other tables spell too.
const (
	optRegexp      = "--regexp"
	optInclude     = "--include"
	optExcludeLong = "--exclude"
	cmdUgrep       = "ugrep"
	cmdRga         = "rga" // ripgrep-all: rg, and adapters that read archives and documents
)

//nolint:goconst // option spellings read best literally, next to their neighbours
var (
	// abbreviatingLong are the programs whose value options valueOptions (or gitValueOptions)
	// lists that take a long option by a unique prefix: the search tools, and git.
	abbreviatingLong = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "ag": true, "ack": true, cmdGit: true,
		cmdNpm: true, cmdNpx: true}

	// valueAbbreviating are the programs whose option values optionValues also finds after a
	// unique prefix of the option: npm's and npx's parser (nopt) expands one to the setting it
	// abbreviates (npm test --userc=FILE is --userconfig=FILE).
	valueAbbreviating = map[string]bool{cmdNpm: true, cmdNpx: true}

	// searchValueOptions are the search tools' value options, by program. They have no
	// subcommand, so globalsLast makes no second text for them as it does for valueOptions'.
	searchValueOptions = map[string][]string{"grep": grepValueOptions, "egrep": grepValueOptions,
		"fgrep": grepValueOptions, "rg": rgValueOptions, "ag": agValueOptions, "ack": ackValueOptions,
		cmdUgrep: grepValueOptions, cmdRga: rgValueOptions}

	// grepFileOps are grep's options whose value is a file it reads: patterns, or names to skip.
	grepFileOps = map[string]pathOp{"-f": opRead, optFile: opRead, "--exclude-from": opRead}

	// grepValueOptions are GNU grep's options with a required value.
	grepValueOptions = []string{"-e", optRegexp, "-f", "--file", "-m", "--max-count", "-A", "--after-context",
		"-B", "--before-context", "-C", "--context", "-d", "--directories", "-D", "--devices", optInclude, optExcludeLong,
		"--exclude-from", "--exclude-dir", "--label", "--binary-files", "--group-separator"}

	// rgValueOptions are ripgrep's options with a value.
	rgValueOptions = []string{"-e", optRegexp, "-f", "--file", "-A", "--after-context", "-B", "--before-context",
		"-C", "--context", "--color", "--colors", "--context-separator", "-d", "--max-depth", "--maxdepth",
		"--dfa-size-limit", "-E", "--encoding", "--engine", "--field-context-separator", "--field-match-separator",
		"-g", "--glob", "--iglob", "--hostname-bin", "--hyperlink-format", "--ignore-file", "-M", "--max-columns",
		"-m", "--max-count", "--max-filesize", "-j", "--threads", "--path-separator", "--pre", "--pre-glob", "-r",
		"--replace", "--regex-size-limit", "--sort", "--sortr", "-t", "--type", "-T", "--type-not", "--type-add",
		"--type-clear", "--generate"}

	// agValueOptions are the silver searcher's options with a required value.
	// (--after, --before and --context take theirs only attached: it is optional.)
	agValueOptions = []string{"-A", "-B", "-C", "-G", "--file-search-regex", "-g", "--ignore",
		"--ignore-dir", "-m", "--max-count", "--depth", "-p", "--path-to-ignore", "--pager", "-W", "--width"}

	// ackValueOptions are ack's options with a required value.
	ackValueOptions = []string{"-A", "--after-context", "-B", "--before-context", "-m", "--max-count", "--type",
		"--match", "-g", "--ignore-dir", "--ignore-file", "--output", "--pager", "--type-add", "--type-set"}
)
