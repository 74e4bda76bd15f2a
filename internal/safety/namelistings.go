package safety

import (
	"slices"
	"strconv"
	"strings"
)

// listsTree reports whether a command lists the names below its path operands, not only the
// operands' own entries: ls -R, tree (unless -L 1), du -a and find (unless -maxdepth 0 or 1).
// A listing of a directory that holds a zero-access one lists that one too: as "ls ~/.ssh" is a
// read of ~/.ssh (the keys' names), so is "ls -R ~", and containment applies as it does to
// grep -r. "ls -la ~", which shows the name .ssh and nothing in it, stays admitted. ls -R and
// tree without -a skip hidden directories, but a protected one need not be hidden
// (/var/run/secrets), so they count whatever their other options.
func listsTree(s *segment) bool {
	switch s.name {
	case "ls":
		return s.hasFlag("-R") || s.hasFlag("--recursive")
	case "tree":
		return !depthAtMost1(s, "-L")
	case "du":
		return s.hasFlag("-a") || s.hasFlag("--all")
	case cmdFind:
		return !depthAtMost1(s, "-maxdepth")
	case "rg":
		return s.hasFlag("--files") // the files it would search, listed by name
	case cmdFd, cmdFdfind:
		return !depthAtMost1(s, "-d") && !depthAtMost1(s, "--max-depth") && !depthAtMost1(s, "--exact-depth")
	}
	return false
}

// fd (fdfind on Debian) lists the names below its search paths that its pattern matches, hidden
// ones with -H: fd [OPTIONS] [PATTERN] [PATH...], its paths also given by --search-path, the
// working directory with none. Its pattern is no path; its option values are not operands.
const (
	cmdFd     = "fd"
	cmdFdfind = "fdfind"
)

// fdValueOptions are fd's options that take the next word as their value.
var fdValueOptions = strings.Fields("-e --extension -t --type -d --max-depth --min-depth --exact-depth -E --exclude -S --size " +
	"-j --threads -c --color --changed-within --changed-before --change-newer-than --change-older-than -o --owner " +
	"--base-directory --search-path --max-results --max-buffer-time --path-separator --batch-size --format --ignore-file " +
	"-x --exec -X --exec-batch")

func init() {
	valueOptions[cmdFd] = fdValueOptions
	valueOptions[cmdFdfind] = fdValueOptions
	flatValuePrograms[cmdFd], flatValuePrograms[cmdFdfind] = true, true
}

// fdPaths records the directories fd lists below (listsTree), by its --base-directory.
func (a *analyzer) fdPaths(s *segment) {
	roots := slices.Collect(optionValues(s, "--search-path", "--search-path"))
	if len(s.operands) > 1 {
		roots = append(roots, s.operands[1:]...)
	}
	if len(roots) == 0 {
		roots = []word{{s: "."}}
	}
	saved := a.cwd
	defer func() { a.cwd, a.recursive, a.listing = saved, false, false }()
	if dir, ok := optionValue(s, "--base-directory", "--base-directory"); ok {
		a.chdir(dir)
	}
	a.recursive = listsTree(s)
	a.listing = a.recursive
	for _, r := range roots {
		a.operandPath(r, opRead)
	}
}

// depthAtMost1 says whether a depth option (tree -L, find -maxdepth) limits a listing to its
// operands and their own entries; a computed depth could be any.
func depthAtMost1(s *segment, opt string) bool {
	for i, w := range s.words[:len(s.words)-1] {
		if w.s == opt {
			v := s.words[i+1]
			n, err := strconv.Atoi(v.s)
			return !v.dynamic && err == nil && n <= 1
		}
	}
	return false
}

// globNames records the names an unquoted glob in a directory expands to as a read of them,
// whatever the program: the shell lists the directory, so "echo ~/.ssh/*" shows what
// "ls ~/.ssh/*" does and is judged as it is. A glob without a directory part is left to the
// program's own reading: an argument such as GONOSUMDB=* or a pattern the shell leaves as it is
// when nothing matches (kubectl g*t) is no path, and the project's own names are no secret; nor
// is a URL or a remote path (http://[fd00::1]/x, host:dir/*), which the local shell matches
// against no directory of its own.
func (a *analyzer) globNames(seg *segment) {
	saved := a.recursive
	a.recursive = false
	for _, w := range seg.words[1:] {
		slash := strings.IndexByte(w.s, '/')
		if w.glob && !w.dynamic && slash >= 0 && !strings.Contains(w.s[:slash], ":") {
			a.touch(w, opRead)
		}
	}
	a.recursive = saved
}
