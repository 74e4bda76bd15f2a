package safety

import "mvdan.cc/sh/v3/syntax"

// cmake -E is CMake's portable command mode: a file tool under another name. cmake -E rm -rf ~
// deletes the home as rm does, cmake -E chdir / cat etc/shadow reads /etc/shadow, and cmake -E
// environment prints the environment; read as the program each mode is, every rule and path
// check sees them.

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

// cmakeCommand analyses cmake -E MODE ARGS as the command its mode is (cmakeTools); a mode
// computed at run time could be any of them, and is opaque.
func (a *analyzer) cmakeCommand(idx int, redirs []*syntax.Redirect, depth int) {
	seg := a.out.segments[idx]
	ws := seg.words
	if len(ws) < 3 || ws[1].dynamic || ws[1].s != "-E" {
		return
	}
	if ws[2].dynamic {
		a.opaque(idx, "a cmake -E mode computed at run time")
		return
	}
	tool, ok := cmakeTools[ws[2].s]
	if !ok {
		return
	}
	inner := make([]word, 0, len(tool)+len(ws)-3)
	for _, t := range tool {
		inner = append(inner, word{s: t})
	}
	inner = append(inner, ws[3:]...)
	a.out.segments[idx].wrapper = true
	a.command(inner, redirs, seg.pipeFrom, depth+1)
}
