package safety

import (
	"path"
	"slices"
	"strings"
)

// A patch or an archive writes the files its own text names, which the engine does not read: git
// apply x.diff && make test, patch -p1 < x.diff; npm test, git am x.patch && go test ./..., tar
// xf x.tar && make, unzip -o x.zip && pytest can each replace the Makefile, package.json or
// conftest.py the build or test tool then runs, or add a hook a following git commit runs. Written
// by a redirection or a copy, the ninth review saw those files by name (writtenbuilds.go); here
// the names are inside a file the agent chose. The line remembers the directories such a segment
// wrote below (its -C, -d or -D, or its working directory), and a build or test tool started where
// one of them reaches (the directory, a -C, a tree it walks), a script run from one, or a git
// command that runs hooks below one asks (RuleOpaqueCode). A directory copied whole from outside
// the working directory (cp -r /tmp/proj/. ., rsync -a ../other/ .) writes names the engine does
// not see either, and counts; one copied from inside it (cp -r fixtures/. tests/data) is the
// project's own. Only extraction and application count:
// tar t, unzip -l, git apply --check, patch --dry-run report without writing. A download extracted
// is a fetched tree already (fetchedtrees.go). What git puts in the working tree from the
// repository's own history (git pull, git checkout main, git stash pop) is not counted: the
// commits were made from files earlier calls wrote by name.

// The options that make unzip list, test or print instead of extracting, git am stop a series, and
// cp and rsync copy a directory's contents.
var (
	unzipReports   = strings.Fields("-l -t -v -p -c -Z -z")
	gitAmStops     = strings.Fields("--abort --quit --show-current-patch")
	cpRecursive    = strings.Fields("-r -R -a --recursive --archive")
	rsyncRecursive = strings.Fields("-r -a -d --recursive --archive --dirs")
)

// appliedTrees records the directories a segment writes a patch's or archive's names below, or a
// directory copied from outside the working directory.
func (a *analyzer) appliedTrees(seg *segment) {
	if d, ok := a.treeCopiedIn(seg); ok {
		ls := a.state()
		ls.applied = append(ls.applied, a.wordKey(d))
		return
	}
	if !appliesUnseenNames(seg) {
		return
	}
	var dirs []word
	if seg.name == cmdGit {
		d, ok := gitChdir(seg)
		if !ok {
			d = word{s: "."}
		}
		dirs = append(dirs, d)
	} else {
		d, _ := extractionDirs(seg)
		dirs = append(dirs, d...)
		if len(dirs) == 0 {
			dirs = append(dirs, word{s: "."})
		}
	}
	ls := a.state()
	for _, d := range dirs {
		ls.applied = append(ls.applied, a.wordKey(d))
	}
}

// appliesUnseenNames says whether a segment writes files a patch or archive names: an extraction
// (extractsMembers), patch, git apply to the working tree, git am.
func appliesUnseenNames(s *segment) bool {
	switch s.name {
	case cmdPatch:
		return !s.hasFlag("--dry-run") && !s.hasFlag("-C") && !s.hasFlag("--check")
	case cmdGit:
		return gitAppliesPatch(s)
	}
	return extractsMembers(s)
}

// extractsMembers says whether a segment extracts an archive's members under their own names: tar,
// bsdtar, unzip, cpio -i, pax -r, 7z x|e, jar x, ar x, uudecode, python -m zipfile|tarfile -e.
func extractsMembers(s *segment) bool {
	switch s.name {
	case cmdTar, cmdBsdtar:
		return tarExtracts(s) && !s.hasFlag("-O") && !s.hasFlag("--to-stdout")
	case cmdUnzip:
		return !slices.ContainsFunc(unzipReports, s.hasFlag)
	case cmdCpio:
		return s.hasFlag("-i") || s.hasFlag("--extract")
	case cmdPax:
		return s.hasFlag("-r")
	case cmd7z, cmd7za, cmd7zr:
		return len(s.operands) > 0 && (strings.EqualFold(s.operands[0].s, "x") || strings.EqualFold(s.operands[0].s, "e"))
	case "jar", "ar":
		// jar xf x.jar, jar -xf, jar --extract; ar x lib.a, ar -x: the mode is the first word's.
		return len(s.words) > 1 && (strings.IndexByte(strings.TrimPrefix(s.words[1].s, "-"), 'x') >= 0 &&
			!strings.HasPrefix(s.words[1].s, "--") || s.words[1].s == "--extract")
	case "uudecode":
		// It writes the name the encoded file's header gives, unless -o names one.
		return !s.hasFlag("-o") && !s.hasFlag("--output-file")
	}
	if !isPython(s.name) {
		return false
	}
	_, _, ok := pythonExtract(s)
	return ok
}

// gitAppliesPatch says whether git applies a patch to the working tree: apply (not one that only
// reports or writes the index alone), am (not one that stops a series).
func gitAppliesPatch(s *segment) bool {
	if len(s.operands) == 0 {
		return false
	}
	// git's subcommands are case-sensitive: no lower-casing (and no allocation) for each git command.
	switch s.operands[0].s {
	case subApply:
		reports := s.hasFlag("--check") || s.hasFlag("--stat") || s.hasFlag("--numstat") || s.hasFlag("--summary")
		return (!reports || s.hasFlag("--apply")) && !s.hasFlag("--cached")
	case "am":
		return !slices.ContainsFunc(gitAmStops, s.hasFlag)
	}
	return false
}

// runsApplied checks a segment against the directories a patch or archive wrote below earlier on
// the line: a script run from one, a build or test tool reaching one, a git command that runs
// hooks inside one.
func (a *analyzer) runsApplied(idx int) {
	seg := &a.out.segments[idx]
	ls := a.line
	if f, ok := a.runsScript(seg); ok && slices.ContainsFunc(ls.applied, func(t string) bool { return t == cwdUnknown || below(a.fetchKey(f), t) }) {
		a.opaque(idx, "it runs "+f+", below where this command line applied a patch or extracted an archive whose file names the engine does not read")
		return
	}
	if f, ok := a.buildsIn(seg, ls.applied, nil); ok {
		a.opaque(idx, "it builds or tests where this command line applied a patch or extracted an archive into "+path.Clean(f)+", whose file names the engine does not read")
		return
	}
	if runsGitHooks(seg) {
		dir := a.fetchKey(".")
		if c, ok := gitChdir(seg); ok {
			dir = a.wordKey(c)
		}
		if a.cwd == cwdUnknown {
			dir = cwdUnknown
		}
		if slices.ContainsFunc(ls.applied, func(t string) bool { return t == cwdUnknown || dir == cwdUnknown || below(dir, t) || below(t, dir) }) {
			a.opaque(idx, "it runs the repository's hooks, which a patch or archive this command line applied could have written")
		}
	}
}

// treeCopiedIn returns the destination of a recursive copy (cp -r|-R|-a, rsync -r|-a|-d, ditto)
// of a source outside the working directory: absolute, climbing out, remote or computed.
func (a *analyzer) treeCopiedIn(s *segment) (word, bool) {
	switch {
	case s.name == cmdDitto:
	case s.name == "cp" && slices.ContainsFunc(cpRecursive, s.hasFlag):
	case s.name == cmdRsync && slices.ContainsFunc(rsyncRecursive, s.hasFlag):
	default:
		return word{}, false
	}
	ops := s.operands
	dest, ok := optionValue(s, "-t", "--target-directory")
	if ok {
		ops = slices.DeleteFunc(slices.Clone(ops), func(w word) bool { return w == dest })
	} else if len(ops) >= 2 {
		dest, ops = ops[len(ops)-1], ops[:len(ops)-1]
	} else {
		return word{}, false
	}
	outside := slices.ContainsFunc(ops, func(w word) bool {
		return w.dynamic || path.IsAbs(w.s) || strings.HasPrefix(w.s, "~") || strings.Contains(w.s, ":") ||
			path.Clean(w.s) == ".." || strings.HasPrefix(path.Clean(w.s), "../")
	})
	return dest, outside
}
