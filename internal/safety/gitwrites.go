package safety

import (
	"slices"
	"strings"
)

// gitSubValueOps are, per git subcommand, options whose value is a path git writes or reads
// (format-patch -o DIR, archive -o FILE, checkout-index --prefix=DIR/): --output and
// --output-directory of every subcommand are in argSpecs already.
//
//nolint:goconst // option spellings and subcommand names in this table read best literally
var gitSubValueOps = map[string]map[string]pathOp{
	"format-patch": {"-o": opWrite},
	// git mailsplit -oDIR splits a mailbox into numbered files in DIR; bugreport and diagnose
	// write their report there.
	"mailsplit": {"-o": opWrite}, "bugreport": {"-o": opWrite}, "diagnose": {"-o": opWrite},
	"archive":        {"-o": opWrite},
	"checkout-index": {"--prefix": opWrite},
	"init":           {"--separate-git-dir": opWrite},
	"clone":          {"--separate-git-dir": opWrite},
	"index-pack":     {"-o": opWrite},
	"fast-import":    {"--export-marks": opWrite, "--import-marks": opRead, "--import-marks-if-exists": opRead},
	"fast-export":    {"--export-marks": opWrite, "--import-marks": opRead},
	"config":         {"-f": opWrite, "--file": opWrite},
	// git apply --directory=ROOT and git am --directory=ROOT put ROOT before every path in the
	// patch: it is written below ROOT.
	"apply": {"--directory": opWrite},
	"am":    {"--directory": opWrite},
}

// gitConfigReads are git config's options that only read the file it names.
var gitConfigReads = []string{"-l", "--list", "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool"}

// gitWrites records the paths a git command writes that its operands' default reading misses:
// its subcommand's output options, the directory a repository or work tree is made in (init DIR,
// clone URL DIR, worktree add DIR, submodule add URL DIR), a bundle's file, and the work tree
// itself, which gitGlobalPaths records for --work-tree and envVar for GIT_WORK_TREE.
func (a *analyzer) gitWrites(s *segment) {
	if len(s.operands) == 0 {
		return
	}
	sub := s.operands[0].s
	if valueOps := gitSubValueOps[sub]; valueOps != nil {
		if sub == "config" && slices.ContainsFunc(gitConfigReads, s.hasFlag) {
			valueOps = map[string]pathOp{"-f": opRead, "--file": opRead}
		}
		a.optionValues(s, argSpec{noPaths: true, valueOps: valueOps})
	}
	if w, ok := gitMadePath(sub, gitSubArgs(s)); ok && gitWritesOperands(s, sub) {
		a.operandPaths(w, opWrite, argSpec{})
	}
	if sub == "init" || sub == gitClone {
		// The repository's config and hooks go where --separate-git-dir says, and every later
		// git command in the work tree reads them there.
		for v := range optionValues(s, "--separate-git-dir", "--separate-git-dir") {
			a.gitDir(v)
		}
	}
}

// git's three-way merge of files, and its rewriter of commit messages' trailers.
const (
	gitMergeFile         = "merge-file"
	gitInterpretTrailers = "interpret-trailers"
)

// gitWritesOperands says whether a subcommand of gitMade writes its operands as it is given: git
// merge-file prints the merge instead with -p or --stdout, and git interpret-trailers rewrites
// its files only with --in-place (it prints them otherwise).
func gitWritesOperands(s *segment, sub string) bool {
	switch sub {
	case gitMergeFile:
		return !s.hasFlag("-p") && !s.hasFlag("--stdout")
	case gitInterpretTrailers:
		return s.hasFlag("--in-place")
	}
	return true
}

// gitMadePath returns the operands a git subcommand makes a repository, work tree or file at:
// init DIR, clone URL DIR, worktree add DIR, worktree move WT DIR, bundle create FILE,
// submodule add URL DIR, merge-file CURRENT BASE OTHER, which writes the merge into CURRENT,
// mailinfo MSG PATCH, which writes a mail's message and patch there, and interpret-trailers
// --in-place FILE.... args are the words after the subcommand.
func gitMadePath(sub string, args []word) ([]word, bool) {
	if !gitMakers[sub] {
		return nil, false // most git commands: nothing to parse, nothing to allocate
	}
	ops := positionals(args, gitValued[sub])
	key, rest := sub, ops
	if _, ok := gitMade[sub]; !ok && len(ops) > 0 {
		verb := ops[0].s
		key = sub + " " + verb
		// The verb's own options follow it (git bundle create --version 2 FILE).
		at := slices.IndexFunc(args, func(w word) bool { return w.s == verb })
		rest = positionals(args[at+1:], gitValued[key])
	}
	switch gitMade[key] {
	case madeAll:
		return rest, true
	case madeFirst:
		return rest[:min(1, len(rest))], true
	case madeLast:
		if len(rest) > 1 { // the first is what is cloned or moved
			return rest[len(rest)-1:], true
		}
	}
	return nil, false
}

// madeAt says which operands name what a git subcommand makes.
type madeAt int

const (
	madeAll   madeAt = iota + 1 // every operand (init)
	madeFirst                   // the first after the verb (worktree add DIR)
	madeLast                    // the last, after what is cloned or moved (clone URL DIR)
)

// gitMade is, per subcommand or subcommand and verb, where the operands name what it makes.
var gitMade = map[string]madeAt{"init": madeAll, "clone": madeLast, "worktree add": madeFirst, "worktree move": madeLast,
	"bundle create": madeFirst, "submodule add": madeLast, gitMergeFile: madeFirst, "mailinfo": madeAll,
	gitInterpretTrailers: madeAll}

// gitMakers are the subcommands of gitMade.
var gitMakers = map[string]bool{}

func init() {
	for k := range gitMade {
		sub, _, _ := strings.Cut(k, " ")
		gitMakers[sub] = true
	}
}

// gitValued are, per git subcommand (or subcommand and verb), the options that take the next word
// as their value, which is then no operand: git clone URL DIR --depth 1 clones into DIR, not "1".
var gitValued = map[string][]string{
	"clone": strings.Fields("-b --branch -o --origin -j --jobs --depth --filter --reference --reference-if-able -c --config " +
		"--shallow-since --shallow-exclude -u --upload-pack --template --separate-git-dir --server-option --bundle-uri --revision --ref-format"),
	"init":               strings.Fields("-b --initial-branch --template --separate-git-dir --object-format --ref-format"),
	"bundle create":      strings.Fields("--version"),
	"submodule add":      strings.Fields("-b --branch --name --reference --depth"),
	"worktree add":       strings.Fields("-b -B --reason"),
	gitMergeFile:         strings.Fields("-L --marker-size --diff-algorithm"),
	gitInterpretTrailers: strings.Fields("--trailer --where --if-exists --if-missing"),
}

// gitSubArgs returns the words after git's subcommand: its global options and their values skipped.
func gitSubArgs(s *segment) []word {
	args := s.words[1:]
	if end := gitGlobalsEnd(args); end < len(args) {
		return args[end+1:]
	}
	return nil
}

// takesNextWord says whether option word v takes the next word as its value: a long option (or
// an abbreviation of one) of valued given without "=", or a bundle of short options whose first
// valued letter ends it (git worktree add -fb topic DIR: -f, then -b takes "topic").
func takesNextWord(v string, valued []string) bool {
	if strings.HasPrefix(v, "--") {
		return !strings.Contains(v, "=") && slices.Contains(valued, expandLong(v, valued...))
	}
	for i := 1; i < len(v); i++ {
		if slices.Contains(valued, "-"+v[i:i+1]) {
			return i == len(v)-1 // a value attached to the letter is in this word
		}
	}
	return false
}

// positionals returns the operands among args: options are skipped, and so is the next word after
// one of valued (or an abbreviation of one, which git's option parser takes for it) given without
// "=". Everything after "--" is an operand.
func positionals(args []word, valued []string) []word {
	var out []word
	for i := 0; i < len(args); i++ {
		v := args[i].s
		switch {
		case v == "--":
			return append(out, args[i+1:]...)
		case len(v) > 1 && v[0] == '-' && !args[i].dynamic:
			if takesNextWord(v, valued) {
				i++
			}
		default:
			out = append(out, args[i])
		}
	}
	return out
}
