package safety

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// git names an object by its id as well as by REV:PATH: git ls-tree -r HEAD or git ls-files -s
// lists every committed or staged file's blob id beside its name, and git cat-file -p ID (or
// blob ID, --textconv, --filters), git unpack-file ID and an id fed to cat-file --batch print
// or write that blob's content, whichever file it was. The engine cannot tell which file an id
// names, so such a read is of a path computed at run time. Commit and tree objects print no
// file's content, but an id does not say which kind it is; git show ID stays admitted, since
// an id there is nearly always a commit's (left open). Likewise git hash-object --stdin-paths
// and git update-index --stdin read the files named on their standard input, as xargs would pass
// them.

// gitContentCatFile are git cat-file's ways of printing an object's content.
var gitContentCatFile = []string{"-p", "--textconv", "--filters"}

// gitObjectID reports whether a word is an object id, full or abbreviated (at least four hex
// digits, as git accepts).
func gitObjectID(v string) bool {
	return len(v) >= 4 && len(v) <= 64 && strings.Trim(v, "0123456789abcdefABCDEF") == ""
}

// gitBlobsByID records a read of a computed path for each object id whose content a git command
// prints or writes: cat-file -p|blob|--textconv|--filters ID, unpack-file ID.
func (a *analyzer) gitBlobsByID(s *segment) {
	switch sub := gitSub(s); {
	case sub == "cat-file" && (slices.ContainsFunc(gitContentCatFile, s.hasFlag) || len(s.operands) > 1 && s.operands[1].s == "blob"),
		sub == "unpack-file":
		for _, w := range s.operands[1:] {
			if gitObjectID(w.s) {
				a.touch(word{s: w.s, dynamic: true}, opRead)
			}
		}
	}
}

// gitStdinPathOptions are the git subcommands that read the files named on their standard input,
// with the option that says so: hash-object --stdin-paths hashes (and with -w stores) them, and
// update-index --stdin hashes them into the index, --add taking in untracked and ignored ones
// too, so git ls-files -oi --exclude-standard | git update-index --add --stdin stages .env for
// a later git diff --cached, as git add -f .env would.
var gitStdinPathOptions = map[string]string{"hash-object": "--stdin-paths", "update-index": "--stdin"}

// gitStdinPaths records the files a git subcommand of gitStdinPathOptions reads, named on its
// standard input (all of them computed when the input is not known).
func (a *analyzer) gitStdinPaths(idx int, redirs []*syntax.Redirect) {
	s := &a.out.segments[idx]
	if opt, ok := gitStdinPathOptions[gitSub(s)]; !ok || !s.hasFlag(opt) {
		return
	}
	names, known := a.stdinYields(idx, redirs)
	if !known {
		a.touch(word{s: placeholderXargs, dynamic: true}, opRead)
		return
	}
	for _, n := range names {
		a.operandPath(word{s: n, dynamic: n == placeholderXargs}, opRead)
	}
}
