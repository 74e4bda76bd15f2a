package safety

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// cmake -E is CMake's portable command mode: a file tool under another name. cmake -E rm -rf ~
// deletes the home as rm does, cmake -E chdir / cat etc/shadow reads /etc/shadow, and cmake -E
// environment prints the environment; read as the program each mode is, every rule and path
// check sees them. So are the other file tools below.

// cmakeTools are cmake -E's modes and the words of the command each is: the program and the
// options that give it cmake's meaning (remove_directory removes whole trees, even missing;
// make_directory makes parents; chdir DIR CMD runs CMD in DIR, as env -C DIR CMD does).
//
//nolint:goconst // mode and program names in this table read best literally, next to their neighbours
var cmakeTools = map[string][]string{
	"rm": {"rm"}, "remove": {"rm"}, "remove_directory": {"rm", "-r", "-f", "--"},
	"rename": {"mv", "--"}, subCopy: {"cp"}, "copy_if_different": {"cp"},
	"copy_directory": {"cp", "-r"}, "copy_directory_if_different": {"cp", "-r"},
	"make_directory": {cmdMkdir, "-p", "--"}, "touch": {"touch", "--"}, "touch_nocreate": {"touch", "-c", "--"},
	"create_symlink": {"ln", "-s", "--"}, "create_hardlink": {"ln", "--"},
	"cat": {"cat"}, "tar": {"tar"}, "env": {"env"}, "time": {"time"}, "chdir": {"env", "-C"},
	"environment": {"env"}, "compare_files": {"cmp"}, "echo": {"echo"}, "echo_append": {"echo"},
	"md5sum": {"md5sum"}, "sha1sum": {"sha1sum"}, "sha224sum": {"sha224sum"}, "sha256sum": {"sha256sum"},
	"sha384sum": {"sha384sum"}, "sha512sum": {"sha512sum"},
}

// subCopy is the copy subcommand or mode (cmake -E copy, az storage copy).
const subCopy = "copy"

// A program that deletes, copies or moves files by design is a file command under another name:
// rimraf ~ deletes the home as rm -rf ~ does, however it is started (npx rimraf ~, bunx rimraf
// ~), and so do del-cli's del, premove and trash (moved to the trash, gone from where it was,
// directories whole). shx runs ShellJS's commands (shx rm -rf ~), fs-extra-cli's fse its
// functions (fse remove ~) and gio its file operations (gio trash ~). Each is analysed as the
// command it is, so every rule and path check sees it: rimraf dist stays rm -rf dist.

// rmTree is the command of the programs that delete whole trees.
var rmTree = []string{"rm", "-rf"}

// fileTools are the programs that are a file command whatever their operands.
//
//nolint:goconst // program names in this table read best literally, next to their neighbours
var fileTools = map[string][]string{"rimraf": rmTree, "del": rmTree, "del-cli": rmTree, "premove": rmTree,
	"trash": rmTree, "trash-put": rmTree, "gvfs-trash": rmTree}

// toolModes are the programs whose mode (after lead, when there is one, and the program's own
// options when opts) is a file command: cmake -E MODE, shx MODE, fse MODE, gio MODE.
type toolModes struct {
	lead  string
	opts  bool
	modes map[string][]string
}

// fileToolModes are the file tools known by their mode (toolModes).
var fileToolModes = map[string]toolModes{
	cmdCmake: {lead: "-E", modes: cmakeTools},
	// shx [--silent|--verbose|--noglob] CMD: ShellJS's commands, with Unix's options.
	"shx": {opts: true, modes: sameNames("rm cp mv mkdir touch ln chmod sed cat head tail grep sort uniq find ls")},
	// fse (fs-extra-cli): remove and emptyDir delete a tree (emptyDir all below it).
	"fse": {modes: map[string][]string{"remove": rmTree, "emptyDir": rmTree, "emptydir": rmTree, subCopy: {"cp", "-r"},
		"move": {"mv"}, "ensureDir": {cmdMkdir, "-p"}, "mkdirs": {cmdMkdir, "-p"}, "mkdirp": {cmdMkdir, "-p"}}},
	"gio": {modes: map[string][]string{"trash": rmTree, "remove": {"rm"}, "rename": {"mv"}, subCopy: {"cp"}, "move": {"mv"}}},
}

// sameNames returns modes that are the programs of their names.
func sameNames(names string) map[string][]string {
	m := map[string][]string{}
	for n := range strings.FieldsSeq(names) {
		m[n] = []string{n}
	}
	return m
}

// fileToolCommand returns the command a file tool's segment is, from its words (nil when it is
// none), and why it is opaque: a mode computed at run time could be any of them.
func fileToolCommand(s *segment) ([]word, string) {
	ws := s.words
	if tool, ok := fileTools[s.name]; ok {
		return toolWords(tool, ws[1:]), ""
	}
	m, ok := fileToolModes[s.name]
	if !ok {
		return nil, ""
	}
	i := 1
	if m.lead != "" {
		if len(ws) <= i || ws[i].dynamic || ws[i].s != m.lead {
			return nil, ""
		}
		i++
	}
	for m.opts && i < len(ws) && !ws[i].dynamic && strings.HasPrefix(ws[i].s, "-") {
		i++
	}
	switch {
	case i >= len(ws):
		return nil, ""
	case ws[i].dynamic:
		return nil, "a " + strings.TrimSpace(s.name+" "+m.lead) + " mode computed at run time"
	}
	tool, ok := m.modes[ws[i].s]
	if !ok {
		return nil, ""
	}
	return toolWords(tool, ws[i+1:]), ""
}

// toolWords returns the command tool's words followed by args.
func toolWords(tool []string, args []word) []word {
	inner := make([]word, 0, len(tool)+len(args))
	for _, t := range tool {
		inner = append(inner, word{s: t})
	}
	return append(inner, args...)
}

// isFileTool says whether a segment is a file tool's (cmake's, whatever it runs: its other
// modes are read elsewhere).
func isFileTool(s *segment) bool {
	inner, why := fileToolCommand(s)
	return s.name == cmdCmake || inner != nil || why != ""
}

// fileTool analyses a file tool's segment as the command it is (fileToolCommand).
func (a *analyzer) fileTool(idx int, redirs []*syntax.Redirect, depth int) {
	seg := a.out.segments[idx]
	inner, why := fileToolCommand(&seg)
	switch {
	case why != "":
		a.opaque(idx, why)
	case inner != nil:
		a.out.segments[idx].wrapper = true
		if globbingTools[seg.name] || seg.name == "shx" && !shxNoglob(seg.words) {
			inner = a.ownGlobs(inner)
		}
		a.command(inner, redirs, seg.pipeFrom, depth+1)
	}
}

// globbingTools are the file tools that expand their operands' globs and braces themselves
// (rimraf 3 always, later ones with -g; del-cli's del and trash-cli's trash through globby),
// as shx does (ShellJS) unless --noglob: rimraf '.env*' deletes the .env files, rimraf
// '{..,dist}' the parent directory, which bash, seeing them quoted, never expands.
var globbingTools = wordSet("rimraf del del-cli trash")

// shxPatterns are ShellJS's commands whose first operand is a pattern, not a file (its globStart).
var shxPatterns = wordSet("sed grep")

// shxNoglob says whether shx takes its command's operands literally: --noglob among its own
// options (those before the command, minimist's, the last of a name winning) and no other
// spelling of it anywhere, so --noglob --no-noglob, --noglob= and a --noglob after the command
// (an operand, not shx's option) leave the operands globbed.
func shxNoglob(words []word) bool {
	noglob := false
	for i, w := range words[1:] {
		if w.dynamic {
			return false
		}
		if !strings.HasPrefix(w.s, "-") {
			// The command: a spelling of the option after it is the command's operand.
			return noglob && !slices.ContainsFunc(words[i+1:], func(w word) bool { return strings.Contains(w.s, "noglob") })
		}
		switch {
		case w.s == "--noglob":
			noglob = true
		case strings.Contains(w.s, "noglob"):
			return false // --no-noglob, --noglob=VALUE: not read here
		}
	}
	return false
}

// ownGlobs returns a tool's command words with each literal word that holds a glob or a brace
// read as the engine reads it unquoted (a glob of paths, braces expanded): the tool expands it.
// A word with a character the shell would read otherwise (a blank, a quote, $, ~) is taken as
// computed: what the tool makes of it is not read.
func (a *analyzer) ownGlobs(words []word) []word {
	out := make([]word, 0, len(words))
	pattern := shxPatterns[words[0].s] // ShellJS's sed and grep take their pattern as it is
	for i, w := range words {
		if pattern && i > 0 && !strings.HasPrefix(w.s, "-") {
			pattern = false
			out = append(out, w)
			continue
		}
		if w.dynamic || w.glob || !strings.ContainsAny(w.s, "*?[{") {
			out = append(out, w)
			continue
		}
		sw, err := syntax.NewParser().Document(strings.NewReader(w.s))
		if strings.IndexFunc(w.s, notGlobText) >= 0 || err != nil {
			out = append(out, word{s: w.s, dynamic: true})
			continue
		}
		out = a.expand(out, sw)
	}
	return out
}

// notGlobText says whether a character is one the shell reads otherwise than as the text of a
// glob or a brace: all but letters, digits and ._-/+@%:,=*?[]{}!^.
func notGlobText(c rune) bool {
	return (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') && !strings.ContainsRune("._-/+@%:,=*?[]{}!^", c)
}
