package safety

import (
	"slices"
	"strings"
)

// Programs that read a file their expression, an option's default or a mode names, not an
// operand.

// jqModules returns why a jq program loads code or data from a file, or "": import and include
// read a module (or, "import PATH as $x", a JSON file) found along the search path, whose
// defaults ("~/.jq", "$ORIGIN/../lib") a relative path climbs out of
// (import "../../root/.docker/config" as $c reads /root/.docker/config.json).
func jqModules(s *segment) string {
	for _, w := range s.operands {
		if jqKeyword(w.s, "import") || jqKeyword(w.s, "include") {
			return "a jq module imported from a file"
		}
	}
	return ""
}

// yqCode returns why a yq expression runs code the engine cannot see, or "": eval() evaluates an
// expression the document or the expression builds (eval("lo" + "ad(...)") loads a file), and
// the python yq (with xq and tomlq) hands its program to jq, whose import and include load files.
func yqCode(s *segment) string {
	if why := jqModules(s); why != "" {
		return why
	}
	for _, w := range s.operands {
		for i := 0; ; {
			j := strings.Index(w.s[i:], "eval")
			if j < 0 {
				break
			}
			j += i
			i = j + len("eval")
			if j > 0 && (identByte(w.s[j-1]) || w.s[j-1] == '.' || w.s[j-1] == '$') || i < len(w.s) && identByte(w.s[i]) {
				continue
			}
			if strings.HasPrefix(strings.TrimLeft(w.s[i:], " \t\r\n"), "(") {
				return "a yq expression evaluated from a string (eval)"
			}
		}
	}
	return ""
}

// jqKeyword says whether prog uses kw as a directive: the word alone, not part of a name or a
// field (.include), followed by a string.
func jqKeyword(prog, kw string) bool {
	for i := 0; ; {
		j := strings.Index(prog[i:], kw)
		if j < 0 {
			return false
		}
		j += i
		i = j + len(kw)
		if j > 0 && (identByte(prog[j-1]) || prog[j-1] == '.' || prog[j-1] == '$') || i < len(prog) && identByte(prog[i]) {
			continue
		}
		// A comment may stand between the directive and its path ("import #x\n\"f\""): taken
		// for the directive, as jq's lexer skips it.
		if rest := strings.TrimLeft(prog[i:], " \t\r\n"); strings.HasPrefix(rest, `"`) || strings.HasPrefix(rest, "#") {
			return true
		}
	}
}

// identByte says whether c can be part of a jq or yq identifier.
func identByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// yqLoads records the files a yq expression loads: load("f"), load_str, load_xml, load_props,
// load_base64 (and strload) read the file their argument names, a string literal, or a file
// computed from the document (ask).
func (a *analyzer) yqLoads(s *segment) {
	for _, w := range s.operands {
		expr := w.s
		for i := 0; ; {
			j := strings.Index(expr[i:], "load")
			if j < 0 {
				break
			}
			j += i
			i = j + len("load")
			if j > 0 && identByte(expr[j-1]) && !strings.HasSuffix(expr[:j], "str") {
				continue // "unload", a field .payload
			}
			for i < len(expr) && identByte(expr[i]) {
				i++ // load_str, load_props, ...
			}
			rest := strings.TrimLeft(expr[i:], " \t\n")
			if !strings.HasPrefix(rest, "(") {
				continue
			}
			arg, _, closed := strings.Cut(rest[1:], ")")
			arg = strings.TrimSpace(arg)
			if f, ok := yqString(arg); ok && closed {
				a.touch(w.with(f), opRead)
			} else {
				a.touch(word{s: "load(" + arg + ")", dynamic: true}, opRead)
			}
		}
	}
}

// yqString returns the text of a yq string literal, "..." or '...' without escapes.
func yqString(arg string) (string, bool) {
	if len(arg) < 2 || arg[0] != arg[len(arg)-1] || arg[0] != '"' && arg[0] != '\'' {
		return "", false
	}
	inner := arg[1 : len(arg)-1]
	if strings.ContainsAny(inner, "\"'\\") {
		return "", false
	}
	return inner, true
}

// curlNetrc records the file curl -n (--netrc, --netrc-optional) reads logins from and sends to
// the server, ~/.netrc, as --netrc-file ~/.netrc names it; --netrc-file names another.
func (a *analyzer) curlNetrc(s *segment) {
	if (s.hasFlag("-n") || s.hasFlag("--netrc") || s.hasFlag("--netrc-optional")) && !s.hasFlag("--netrc-file") {
		a.touch(word{s: "~/.netrc"}, opRead)
	}
}

// curlWriteOut records the files curl's write-out (-w, --write-out) writes: since curl 8.3 its
// format's %output{NAME} (or %output{>>NAME}, appending) sends the rest of the write-out to NAME,
// so curl -w '%output{.git/hooks/pre-commit}...' URL writes a hook. A format read from a file
// (-w @FILE, @- standard input) or computed at run time could hold one the engine does not see:
// a write to a name it cannot see, asked about; the file is read.
func (a *analyzer) curlWriteOut(s *segment) {
	for v := range optionValues(s, "-w", "--write-out") {
		if file, ok := strings.CutPrefix(v.s, "@"); ok || v.dynamic {
			if ok && file != "-" {
				a.touch(v.with(file), opRead)
			}
			a.touch(word{s: "%output{" + v.s + "}", dynamic: true}, opWrite)
			continue
		}
		for rest := v.s; ; {
			i := strings.Index(rest, "%")
			if i < 0 || i+1 >= len(rest) {
				break
			}
			if rest[i+1] == '%' {
				rest = rest[i+2:] // "%%" is a literal "%"
				continue
			}
			name, ok := strings.CutPrefix(rest[i+1:], "output{")
			rest = rest[i+1:]
			if !ok {
				continue
			}
			if file, _, closed := strings.Cut(name, "}"); closed {
				a.touch(v.with(strings.TrimPrefix(file, ">>")), opWrite)
			}
		}
	}
}

// git's subcommands that take in ignored files when told to.
const (
	gitSubAdd   = "add"
	gitSubStash = "stash"
)

// gitTakesIgnored says whether git add --force or git stash --all takes in ignored files too,
// read recursively below their pathspecs (gitIgnoredFiles).
func gitTakesIgnored(s *segment) bool {
	if s.name != cmdGit || len(s.operands) == 0 {
		return false
	}
	switch s.operands[0].s {
	case gitSubAdd:
		return s.hasFlag("-f") || s.hasFlag("--force")
	case gitSubStash:
		return s.hasFlag("-a") || s.hasFlag("--all")
	}
	return false
}

// gitIgnoredFiles records what git add --force and git stash --all take in besides the tracked
// files: the ignored ones, .env among them, which a commit or the stash then holds and git log -p
// or git stash show prints. git add -f -A (no pathspec) and git stash -a take the whole tree.
func (a *analyzer) gitIgnoredFiles(s *segment) {
	if !gitTakesIgnored(s) {
		return
	}
	switch s.operands[0].s {
	case gitSubAdd:
		if len(s.operands) == 1 && (s.hasFlag("-A") || s.hasFlag("--all")) {
			a.touchTree()
		}
	case gitSubStash:
		ops := s.operands[1:]
		if len(ops) > 0 && (ops[0].s == subPush || ops[0].s == subSave) {
			ops = ops[1:]
		}
		if len(ops) == 0 {
			a.touchTree()
		}
	}
}

// touchTree records a recursive read of the working directory.
func (a *analyzer) touchTree() {
	saved := a.recursive
	a.recursive = true
	a.touch(word{s: "."}, opRead)
	a.recursive = saved
}

// servedDirectory records the directory a file server publishes, read recursively: whoever
// connects, the agent with curl among them, reads every file below it (python3 -m http.server
// serves the working directory, .env with it; -d ~ the home). Its default is the working directory.
func (a *analyzer) servedDirectory(s *segment) {
	dir, found, serves := servedDir(s)
	if !serves {
		return
	}
	if !found {
		dir = word{s: "."}
	}
	saved := a.recursive
	a.recursive = true
	a.touch(dir, opRead)
	a.recursive = saved
}

// rcloneServed is servedDir for rclone serve http|webdav|ftp|sftp|s3|dlna|nfs|restic DIR, which
// publishes DIR when it is local (a remote is not the engine's to judge).
func rcloneServed(s *segment) (word, bool, bool) {
	if len(s.operands) < 3 || s.operands[0].s != "serve" {
		return word{}, false, false
	}
	dir, local := rcloneLocal(s, s.operands[2])
	return dir, local, local
}

// dirServers serve the directory of their first operand.
var dirServers = strings.Fields("http-server serve miniserve darkhttpd")

// servedDir returns the directory a file server publishes, whether the command names it, and
// whether the command is a file server at all; a tunnel serving a directory (ngrok) and a
// transfer tool sending one (croc, wormhole) publish it as a server does.
func servedDir(s *segment) (dir word, found, serves bool) {
	switch {
	case isPython(s.name):
		mod, m, ok := pythonModuleRun(s)
		if !ok || !slices.Contains(pythonServers, mod) {
			return word{}, false, false
		}
		dir, found = directoryOption(&m, "-d") // the module's -d, not the interpreter's (python -d is its parser's debug output)
	case s.name == "httpd": // busybox httpd -h DIR
		dir, found = optionValue(s, "-h", "--home")
	case s.name == "twistd":
		dir, found = optionValue(s, "--path", "--path")
	case slices.Contains(dirServers, s.name):
		dir, found = firstPositional(s.words[1:])
	case s.name == cmdRclone:
		return rcloneServed(s)
	case s.name == "caddy":
		if len(s.operands) == 0 || s.operands[0].s != "file-server" {
			return word{}, false, false
		}
		dir, found = optionValue(s, "-r", "--root")
	case s.name == "npx" || s.name == "pnpx" || s.name == "bunx":
		if len(s.operands) == 0 || !slices.Contains(dirServers, s.operands[0].s) {
			return word{}, false, false
		}
		at := slices.IndexFunc(s.words, func(w word) bool { return w.s == s.operands[0].s })
		dir, found = firstPositional(s.words[at+1:])
	default:
		return sentDir(s)
	}
	return dir, found, true
}

// sentDir is servedDir for a tunnel that serves a directory, ngrok http file:///DIR, which
// publishes DIR to the internet, and for croc send DIR and wormhole send DIR, which hand DIR,
// whole, to whoever holds the code.
func sentDir(s *segment) (dir word, found, serves bool) {
	switch s.name {
	case "ngrok":
		for _, w := range s.operands {
			if p, ok := strings.CutPrefix(w.s, "file://"); ok {
				return w.with(p), true, true
			}
		}
	case "croc", "wormhole":
		if len(s.operands) > 1 && s.operands[0].s == "send" {
			return s.operands[1], true, true
		}
	}
	return word{}, false, false
}

// pythonServers are the modules that serve the working directory (uploadserver also writes
// what is uploaded into it).
var pythonServers = strings.Fields("http.server SimpleHTTPServer uploadserver")

// firstPositional returns the first word that is neither an option nor an option's value (the
// word after an option without "=" is taken for its value).
func firstPositional(words []word) (word, bool) {
	for i := 0; i < len(words); i++ {
		v := words[i].s
		if strings.HasPrefix(v, "-") && !words[i].dynamic {
			if !strings.Contains(v, "=") {
				i++
			}
			continue
		}
		return words[i], true
	}
	return word{}, false
}

// kubectlFromFile records what kubectl create configmap|secret --from-file (and
// --from-env-file) reads: a directory's files with it ("--from-file=." holds .env), which the
// object then carries into the cluster and kubectl get -o yaml prints.
//
//nolint:goconst // option spellings read best literally
func (a *analyzer) kubectlFromFile(s *segment) {
	for _, long := range []string{"--from-file", "--from-env-file"} {
		for v := range optionValues(s, long, long) {
			if _, src, ok := strings.Cut(v.s, "="); ok {
				v = v.with(src)
			}
			saved := a.recursive
			a.recursive = true
			a.touch(v, opRead)
			a.recursive = saved
		}
	}
}

// kubectlTemplateFiles are kubectl's output formats that read their template from a file:
// the one --template names, or the one after the format's "=" (-o jsonpath-file=FILE), which
// kubectl splits off as it does jsonpath=EXPR. custom-columns-file prints its first line as
// the columns' headers.
var kubectlTemplateFiles = []string{"go-template-file", "templatefile", "jsonpath-file", "custom-columns-file"}

// kubectlTemplateFile records the file a file output format reads its template from (kubectl
// get cm -o jsonpath-file --template FILE, -o templatefile=FILE): a template without actions is
// printed as it is, so -o go-template-file --template ~/.ssh/id_rsa prints the key. A computed
// format may be one.
func (a *analyzer) kubectlTemplateFile(s *segment) {
	out, ok := kubectlOption(s, 'o', "--output")
	if !ok {
		return
	}
	format, file, inline := strings.Cut(out.s, "=")
	if !out.dynamic && !slices.Contains(kubectlTemplateFiles, strings.ToLower(format)) {
		return
	}
	if inline {
		a.touch(out.with(file), opRead)
	}
	if t, ok := kubectlOption(s, 0, "--template"); ok {
		a.touch(t, opRead)
	}
}

// shellStartupFile records the file an interactive bash runs first (--rcfile FILE, --init-file
// FILE): it is read, and its code runs where the engine cannot see it (bash --rcfile .env -ixc
// exit traces every assignment in .env).
func (a *analyzer) shellStartupFile(idx int) {
	words := a.out.segments[idx].words
	for i := 1; i+1 < len(words); i++ {
		if v := words[i].s; v == "--rcfile" || v == "--init-file" {
			a.touch(words[i+1], opRead)
			a.opaque(idx, "a start-up file ("+v+")")
			return
		}
		if !strings.HasPrefix(words[i].s, "-") {
			return
		}
	}
}

// listFiles records the file a command reads its list of names from, which it reads like any
// other (tar -T .env prints each line in an error): tar -T/--files-from FILE, rsync --files-from
// FILE, git --pathspec-from-file FILE, spelt apart (the "=" forms are read as any option's value).
//
//nolint:goconst // option spellings read best literally
func (a *analyzer) listFiles(s *segment) {
	short, long := "", ""
	switch s.name {
	case cmdTar, cmdBsdtar:
		short, long = "-T", "--files-from"
	case cmdRsync:
		long = "--files-from"
	case cmdGit:
		long = optPathspecFromFile
	default:
		for _, o := range nameListOptions[s.name] {
			if strings.HasPrefix(o, "--files0") || o == "--files" {
				short, long = o, o
			}
		}
	}
	if long == "" {
		return
	}
	if short == "" {
		short = long
	}
	if v, ok := optionValue(s, short, long); ok && v.s != "-" {
		a.touch(v, opRead)
	}
}
