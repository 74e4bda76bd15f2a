package safety

import (
	"fmt"
	"slices"
	"strings"
)

// placeholderMembers stands for the files an archive or patch writes where the command lets its
// own names, not a directory the command gives, decide: an absolute or climbing member name, a
// rewritten one.
const placeholderMembers = "$MEMBERS"

// Extraction programs whose options say where the members go.
const (
	cmdTar    = "tar"
	cmdBsdtar = "bsdtar"
	cmdUnzip  = "unzip"
	cmdCpio   = "cpio"
	cmdPatch  = "patch"
	cmdPax    = "pax"
	cmd7z     = "7z"
	cmd7za    = "7za"
	cmd7zr    = "7zr"
	optFilter = "--filter"
)

// anywhereMembers says why an extraction or a patch writes its members where their own names,
// or a rewrite of them, lead rather than below the directory it is given, or "": tar's -P
// (--absolute-names, bsdtar's --absolute-paths) keeps a member's leading "/" and its "..";
// --transform (GNU tar) and -s (bsdtar) rewrite each name, so "s,^,.git/hooks/," puts every
// member there; unzip -: keeps "../"; cpio copy-in keeps absolute names unless told
// --no-absolute-filenames; git apply --unsafe-paths applies outside the work tree. What the names
// are is inside the archive or patch, which the engine does not read.
func anywhereMembers(s *segment) string {
	switch s.name {
	case cmdTar, cmdBsdtar:
		return tarAnywhere(s)
	case cmdUnzip:
		if s.hasFlag("-:") {
			return "unzip -: keeps members' \"../\""
		}
	case cmdCpio:
		if (s.hasFlag("-i") || s.hasFlag("--extract")) && !s.hasFlag("--no-absolute-filenames") {
			return "cpio copy-in keeps members' absolute names unless given --no-absolute-filenames"
		}
	case cmdGit:
		if len(s.operands) > 0 && s.operands[0].s == subApply && s.hasFlag("--unsafe-paths") {
			return "git apply --unsafe-paths writes outside the work tree"
		}
	case cmdPax:
		if s.hasFlag("-r") && !s.hasFlag("-w") {
			return "pax -r keeps members' absolute names"
		}
	case cmd7z, cmd7za, cmd7zr:
		return sevenZipAnywhere(s)
	}
	return ""
}

// sevenZipAnywhere is anywhereMembers for 7z x|e ARCHIVE -spf (the commands in either case; 7z a
// -spf stores full paths in an archive it writes).
func sevenZipAnywhere(s *segment) string {
	extract := len(s.operands) > 0 && (strings.EqualFold(s.operands[0].s, "x") || strings.EqualFold(s.operands[0].s, "e"))
	if extract && slices.ContainsFunc(s.words[1:], func(w word) bool { return len(w.s) >= 4 && strings.EqualFold(w.s[:4], "-spf") }) {
		return "7-Zip's -spf keeps members' absolute names"
	}
	return ""
}

// tarAnywhere is anywhereMembers for tar and bsdtar.
func tarAnywhere(s *segment) string {
	switch {
	case !tarExtracts(s):
		return ""
	case s.hasFlag("-P") || s.hasFlag("--absolute-names") || s.hasFlag("--absolute-paths") || s.hasFlag("--insecure") || oldTarBundleHas(s, 'P'):
		return "tar -P keeps members' absolute names and their \"..\""
	case s.name == cmdTar && (s.hasFlag("--transform") || s.hasFlag("--xform")) || s.name == cmdBsdtar && s.hasFlag("-s") || bsdtarPattern(s):
		return "a rewrite of the member names puts them where it says"
	}
	return ""
}

// bsdtarPattern says whether tar is given bsdtar's -s PATTERN, as macOS's tar (bsdtar) reads it:
// "-s" with a word after it, or a pattern attached ("-s,^,x/,"). GNU tar's -s (--same-order)
// comes in a bundle ("-xsf"), which this leaves alone.
func bsdtarPattern(s *segment) bool {
	for i, w := range s.words[1:] {
		v := w.s
		if v == "-s" && i+2 < len(s.words) || len(v) > 2 && strings.HasPrefix(v, "-s") && !identByte(v[2]) {
			return true
		}
	}
	return false
}

// tarExtracts says whether tar (or bsdtar) extracts, by an option or an old-style bundle.
func tarExtracts(s *segment) bool {
	_, extract := tarMode(s)
	return extract || oldTarBundleHas(s, 'x')
}

// oldTarBundleHas says whether tar's first word is an old-style bundle ("xPf") holding c.
func oldTarBundleHas(s *segment, c byte) bool {
	return len(s.words) > 1 && !s.words[1].dynamic && !strings.HasPrefix(s.words[1].s, "-") &&
		isOldTarBundle(s.words[1].s) && strings.IndexByte(s.words[1].s, c) >= 0
}

// extractionPaths records what an extraction or patch writes beyond the directory it is given:
// members whose names decide where they go (anywhereMembers), which could be any path, asked
// for as a computed write target; cpio's and patch's destination directories; 7-Zip's -oDIR.
func (a *analyzer) extractionPaths(s *segment) {
	why := anywhereMembers(s)
	if mod, _, ok := pythonExtract(s); ok && mod == modTarfile && !pythonTarFiltered(s) {
		why = "python -m tarfile -e without --filter data keeps members' absolute names and \"..\""
	}
	if why != "" {
		a.touch(word{s: placeholderMembers + " (" + why + ")", dynamic: true}, opWrite)
	}
	defer a.extractionDir(s)
	switch s.name {
	case cmdCpio:
		// cpio -p DIR copies the files it is told into DIR; -D DIR extracts below DIR.
		if s.hasFlag("-p") || s.hasFlag("--pass-through") {
			for _, w := range s.operands {
				a.touch(w, opWrite)
			}
		}
	case cmd7z, cmd7za, cmd7zr:
		// 7z x ARCHIVE -oDIR: the output directory is attached to -o (-O: 7-Zip's switches
		// are read in either case).
		for _, w := range s.words[1:] {
			if d, ok := sevenZipOutput(w); ok {
				a.touch(d, opWrite)
			}
		}
	}
}

// sevenZipOutput returns 7-Zip's output directory if w is its -oDIR switch, in either case.
func sevenZipOutput(w word) (word, bool) {
	if len(w.s) > 2 && w.s[0] == '-' && (w.s[1] == 'o' || w.s[1] == 'O') {
		return w.with(w.s[2:]), true
	}
	return word{}, false
}

// extractionPrograms are the programs extractionPaths reads, beyond git.
var extractionPrograms = strings.Fields("tar bsdtar unzip cpio patch 7z 7za 7zr pax")

// extracts says whether extractionPaths has anything to read in s.
func extracts(s *segment) bool {
	if _, _, ok := pythonExtract(s); ok {
		return true
	}
	return slices.Contains(extractionPrograms, s.name) || s.name == cmdGit && len(s.operands) > 0 && s.operands[0].s == subApply
}

// Python's archive modules, which extract with -e.
const (
	modZipfile = "zipfile"
	modTarfile = "tarfile"
)

// pythonExtract reads python -m zipfile|tarfile -e ARCHIVE [DIR]: the module and the destination,
// if one is given (the working directory otherwise). Their options are read as argparse reads
// them: --extract by any prefix down to --e, with its archive after "=" or attached to -e
// (-ea.zip), tarfile's -v bundled before it (-ve), and the values of --filter and zipfile's
// --metadata-encoding (abbreviated too) skipped.
func pythonExtract(s *segment) (module string, dir []word, ok bool) {
	module, m, ok := pythonModuleRun(s)
	if !ok || module != modZipfile && module != modTarfile {
		return "", nil, false
	}
	w := m.words
	var ops []word
	extract := false
	valued := optFilter // the other option with a value apart
	if module == modZipfile {
		valued = "--metadata-encoding"
	}
	for i := 1; i < len(w); i++ {
		v := w[i].s
		name, val, hasVal := strings.Cut(v, "=")
		switch {
		case abbreviates(name, "--extract", len("--e")):
			extract = true
			if hasVal {
				ops = append(ops, w[i].with(val))
			}
		case len(v) > 1 && v[0] == '-' && v[1] != '-' && pythonExtractBundle(module, v[1:]) != "":
			extract = true
			if archive := pythonExtractBundle(module, v[1:])[1:]; archive != "" {
				ops = append(ops, w[i].with(archive))
			}
		case !hasVal && abbreviates(name, valued, len("--x")):
			i++
		case strings.HasPrefix(v, "-"):
		default:
			ops = append(ops, w[i])
		}
	}
	if !extract {
		return "", nil, false
	}
	if len(ops) > 1 {
		dir = ops[1:2]
	}
	return module, dir, true
}

// pythonExtractBundle returns the part of a short-option bundle (without its dash) from its -e on,
// or "": tarfile's -v (store_true) may come first (-ve, -vve); what follows e is its archive.
func pythonExtractBundle(module, b string) string {
	if module == modTarfile {
		b = strings.TrimLeft(b, "v")
	}
	if strings.HasPrefix(b, "e") {
		return b
	}
	return ""
}

// pythonTarFiltered says whether python -m tarfile -e is told a filter that keeps members below
// the destination (data or tar); without one it extracts as fully_trusted.
func pythonTarFiltered(s *segment) bool {
	_, m, _ := pythonModuleRun(s)
	for f := range optionValues(&m, optFilter, optFilter) {
		if f.s == "data" || f.s == cmdTar { // the filters named data and tar
			return true
		}
	}
	return false
}

// bsdtar reads tar's options (and -s PATTERN, its rewrite of member names).
func init() {
	argSpecs[cmdBsdtar] = argSpecs[cmdTar]
	valueOptions[cmdBsdtar] = append(slices.Clip(valueOptions[cmdTar]), "-s")
	codeOptions[cmdBsdtar] = codeOptions[cmdTar]
}

// extractInto asks about an extraction (or a patch) into a directory that holds a path the policy
// protects against writing, other than a project directory's own (.git is there, and archives
// and patches are extracted and applied in projects all the time): tar -xf x.tar -C ~ writes
// ~/.bashrc when the archive has a member of that name, which only the archive says.
func (p *Policy) extractInto(t target, cwd string) *failure {
	dir := containerOf(t.path, cwd)
	if dir == "" || dir == "." || p.workspace != "" && under(dir, p.workspace) || cwd != "" && under(dir, cwd) {
		return nil // the project's own directories; / and the directories above it are judged
	}
	v, inside, ok := p.paths.containedVerdict(dir, opWrite, false)
	if !ok {
		return nil
	}
	return &failure{kind: kindHumanApprovalRequired, ask: true, rule: RuleDynamicWriteTarget,
		msg: fmt.Sprintf("extraction or copy into %q writes whatever names the archive, patch or copied directory holds, and the directory holds %q, which the %s path policy protects (pattern %q); the engine cannot see the names, so it needs human approval", t.raw, inside, v.kind, v.pattern)}
}

// extractionDir records the directory an extraction or patch writes its members below, the
// working directory unless an option names another, for extractInto.
func (a *analyzer) extractionDir(s *segment) {
	dirs, ok := extractionDirs(s)
	if !ok {
		return
	}
	if len(dirs) == 0 {
		a.members = true
		a.touch(word{s: "."}, opWrite)
		a.members = false
		return
	}
	for _, dir := range dirs {
		a.markMembers(dir)
	}
}

// extractionDirs returns the directories an extraction or patch writes its members below, none
// for the working directory, and false when s extracts nothing.
//
// tar -C, patch -d and cpio -D change directory each time they are given (tar -C /tmp -C ~
// extracts into ~), so every directory they name is one.
func extractionDirs(s *segment) ([]word, bool) {
	var dirs []word
	switch s.name {
	case cmdTar, cmdBsdtar:
		if !tarExtracts(s) {
			return nil, false
		}
		dirs = append(directoryOptions(s, "-C"), oneTopLevel(s)...)
	case cmdUnzip:
		if dir, ok := optionValue(s, "-d", "-d"); ok {
			dirs = append(dirs, dir)
		}
	case cmdCpio:
		switch {
		case (s.hasFlag("-p") || s.hasFlag("--pass-through")) && len(s.operands) > 0:
			dirs = append(dirs, s.operands[0])
		case s.hasFlag("-i") || s.hasFlag("--extract"):
			dirs = directoryOptions(s, "-D")
		default:
			return nil, false
		}
	case cmdPatch:
		dirs = directoryOptions(s, "-d")
	case cmd7z, cmd7za, cmd7zr:
		for _, w := range s.words[1:] {
			if d, ok := sevenZipOutput(w); ok {
				dirs = []word{d}
			}
		}
	default:
		_, d, ok := pythonExtract(s)
		if !ok {
			return nil, false
		}
		dirs = d
	}
	return dirs, true
}

// markMembers marks the write of an extraction's destination directory (recorded already when an
// option names it) for extractInto.
func (a *analyzer) markMembers(dir word) {
	for i := len(a.out.paths) - 1; i >= 0; i-- {
		if r := &a.out.paths[i]; r.raw == dir.s && r.op == opWrite {
			r.members = true
			return
		}
	}
	a.members = true
	a.touch(dir, opWrite)
	a.members = false
}

// gitApplyInto records the directory git apply writes below outside a repository: the working
// directory (after git -C), as patch does (cd ~ && git apply x.diff writes ~/.bashrc when the
// patch names it). Inside the project extractInto leaves it alone. --check, --stat and --numstat
// only report, unless --apply is given too.
func (a *analyzer) gitApplyInto(s *segment) {
	if len(s.operands) == 0 || s.operands[0].s != subApply ||
		(s.hasFlag("--check") || s.hasFlag("--stat") || s.hasFlag("--numstat")) && !s.hasFlag("--apply") {
		return
	}
	a.members = true
	a.touch(word{s: "."}, opWrite)
	a.members = false
}

// directoryOption is the value of a program's directory option, in directoryOptions' spellings;
// given more than once, the last, as getopt_long and argparse take it (python3 -m http.server
// --directory src --dir ~ serves ~).
func directoryOption(s *segment, short string) (word, bool) {
	dirs := directoryOptions(s, short)
	if len(dirs) == 0 {
		return word{}, false
	}
	return dirs[len(dirs)-1], true
}

// directoryOptions is every value of a program's directory option, in word order: short (as its
// own word or with the value attached) or --directory, the long one also by any prefix of it
// down to --di, as getopt_long takes it (tar --dir=DIR).
// oneTopLevel returns the directories GNU tar's --one-top-level=DIR (by a unique prefix, down to
// --one-t) extracts every member into. Its value is optional, so it is only ever attached.
func oneTopLevel(s *segment) []word {
	const long, shortest = "--one-top-level", len("--one-t")
	var out []word
	for _, w := range s.words[1:] {
		if name, val, ok := strings.Cut(w.s, "="); ok && abbreviates(name, long, shortest) {
			out = append(out, w.with(val))
		}
	}
	return out
}

func directoryOptions(s *segment, short string) []word {
	const long, shortest = "--directory", len("--di")
	var out []word
	w := s.words
	for i := 1; i < len(w); i++ {
		v := w[i].s
		name, val, hasVal := strings.Cut(v, "=")
		switch {
		case (v == short || abbreviates(v, long, shortest)) && i+1 < len(w):
			i++
			out = append(out, w[i])
		case hasVal && abbreviates(name, long, shortest):
			out = append(out, w[i].with(val))
		case len(v) > len(short) && strings.HasPrefix(v, short) && !strings.HasPrefix(v, "--"):
			out = append(out, w[i].with(v[len(short):]))
		}
	}
	return out
}
