package safety

import "slices"

// gitSubValueOps are, per git subcommand, options whose value is a path git writes or reads
// (format-patch -o DIR, archive -o FILE, checkout-index --prefix=DIR/): --output and
// --output-directory of every subcommand are in argSpecs already.
//
//nolint:goconst // option spellings and subcommand names in this table read best literally
var gitSubValueOps = map[string]map[string]pathOp{
	"format-patch":   {"-o": opWrite},
	"archive":        {"-o": opWrite},
	"checkout-index": {"--prefix": opWrite},
	"init":           {"--separate-git-dir": opWrite},
	"clone":          {"--separate-git-dir": opWrite},
	"index-pack":     {"-o": opWrite},
	"fast-import":    {"--export-marks": opWrite, "--import-marks": opRead, "--import-marks-if-exists": opRead},
	"config":         {"-f": opWrite, "--file": opWrite},
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
	sub, ops := s.operands[0].s, s.operands[1:]
	if valueOps := gitSubValueOps[sub]; valueOps != nil {
		if sub == "config" && slices.ContainsFunc(gitConfigReads, s.hasFlag) {
			valueOps = map[string]pathOp{"-f": opRead, "--file": opRead}
		}
		a.optionValues(s, argSpec{noPaths: true, valueOps: valueOps})
	}
	verb := ""
	if len(ops) > 0 {
		verb = ops[0].s
	}
	switch {
	case sub == "init":
		a.operandPaths(ops, opWrite, argSpec{})
	case sub == "clone" && len(ops) > 1:
		a.operandPath(ops[len(ops)-1], opWrite)
	case sub == "worktree" && verb == "add":
		a.operandPaths(ops[1:], opWrite, argSpec{})
	case sub == "bundle" && verb == "create" && len(ops) > 1:
		a.operandPath(ops[1], opWrite)
	case sub == "submodule" && verb == "add" && len(ops) > 2:
		a.operandPath(ops[len(ops)-1], opWrite)
	}
}
