package safety

import (
	"fmt"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"golang.org/x/text/unicode/norm"
)

// resolvePath returns the lexical form of p seen from cwd: an absolute path ("/etc/shadow"), a
// home path ("~/.ssh/id_rsa") or, when the base is unknown, a relative path that may start with
// "../". "./", "..", repeated slashes and $HOME are resolved, and so are the links the kernel
// makes under /proc (procLinks). Other symlinks are not: the engine does no I/O, so the sandbox is
// the backstop for links that point elsewhere.
func resolvePath(cwd, p string) string {
	r, _ := resolveTarget(cwd, p)
	return r
}

// resolveTarget is resolvePath, and whether the path is known: false when a glob may name a /proc
// link and a ".." climbs after it, where the file it reaches depends on what the glob matches
// (/proc/self/r*/../environ is /environ through root, /proc/self/environ through another entry).
func resolveTarget(cwd, p string) (string, bool) { return resolvePathIn(cwd, p, 0) }

// maxProcLinks bounds how many /proc links one path may pass through: /proc/self/cwd names its
// working directory, which a command may have reached through /proc/self/cwd too.
const maxProcLinks = 8

func resolvePathIn(cwd, p string, links int) (string, bool) {
	p = expandHome(foldPath(p))
	if p == "" {
		return "", true
	}
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		return cleanHome(p[1:]), true
	case p == "~+" || strings.HasPrefix(p, "~+/"):
		// $PWD: the working directory.
		if cwd == "" || cwd == cwdUnknown {
			return path.Clean("." + p[2:]), cwd == ""
		}
		return resolvePathIn("", cwd+p[2:], links)
	case p == "~-" || strings.HasPrefix(p, "~-/"):
		// $OLDPWD: the directory before the last cd, not known here.
		return p, false
	case p[0] == '~':
		// ~user/...: another user's home, still a home directory.
		if i := strings.IndexByte(p, '/'); i >= 0 {
			return cleanHome(p[i:]), true
		}
		return "~", true
	case p[0] == '/':
		return procLinks(cwd, p, links)
	}
	if cwd == "" || cwd == cwdUnknown {
		return path.Clean(p), true
	}
	return resolvePathIn("", cwd+"/"+p, links)
}

// resolvePattern cleans an anchored path-policy pattern as resolvePath does a path, but follows
// no link: a pattern names what it protects (/proc/*/environ is every process's environment, not
// a thread's).
func resolvePattern(s string) string {
	if strings.HasPrefix(s, "/") {
		return path.Clean(s)
	}
	return resolvePath("", s)
}

// procLinks cleans the absolute path p, following the links the kernel makes under /proc, which no
// path policy can list each of: /proc/PID/root is "/" (the root PID sees), /proc/PID/cwd is PID's
// working directory (the command's own, cwd, for self), and /proc/thread-self is
// /proc/self/task/TID, whose entries are the process's again (candidates checks
// /proc/self/task/7/environ as /proc/self/environ too). So /proc/1/root/etc/shadow is judged as
// /etc/shadow. ".." after a link
// climbs from where the link points, as the kernel resolves it, not from the link's name; task/TID
// is a directory, and ".." climbs out of it as out of any. A glob that may match a link's name
// (/pro?/self/r*/etc) is taken for the link; the path is not known (false) when a ".." follows such
// a glob. Another process's working directory is unknown: what follows it is then a path above an
// unknown base ("../etc/shadow"), checked as it would be from anywhere (candidates).
func procLinks(cwd, p string, links int) (string, bool) {
	if !strings.Contains(p, "proc") && !strings.Contains(p, "dev/") && !strings.Contains(p, "var/") && !hasGlobMeta(p) {
		return path.Clean(p), true // most paths: no allocation beyond Clean's
	}
	segs := strings.Split(p, "/")
	w := procWalk{out: make([]string, 0, len(segs)), known: true}
	for i, seg := range segs {
		// A glob that ends the path ("/proc/self/*", "/proc/1/*") names the cwd and root links
		// and every entry beside them (environ, mem): it is judged as written, not as a link.
		w.last = i == len(segs)-1 && hasGlobMeta(seg)
		if !w.step(seg) || !procEntry(w.out, "cwd") || w.last {
			continue
		}
		rest := strings.Join(segs[i+1:], "/")
		w.known = w.known && (!w.guessed && literal(w.out) || !strings.Contains(rest, ".."))
		if links < maxProcLinks && mayName(w.out[1], "self") && cwd != "" && cwd != cwdUnknown {
			r, known := resolvePathIn("", cwd+"/"+rest, links+1)
			return r, w.known && known
		}
		return path.Clean("../" + rest), w.known
	}
	return "/" + strings.Join(w.out, "/"), w.known
}

// procGlobAsWritten is a glob below /proc as written, cleaned but through no link, when resolving
// it took a glob for a link's name (procLinks): "*" in /proc/1/*/1/environ may name root, and is
// judged so (/1/environ), but it also names task, and the path is then a thread's environment,
// which candidates judges as the process's. Both readings are judged.
func procGlobAsWritten(cwd, p, resolved string) (string, bool) {
	if !strings.Contains(p, "proc") {
		return "", false
	}
	if !strings.HasPrefix(p, "/") {
		if !strings.HasPrefix(cwd, "/") {
			return "", false
		}
		p = cwd + "/" + p
	}
	written := path.Clean(p)
	if written == resolved || !strings.HasPrefix(written, "/proc/") {
		return "", false
	}
	return written, true
}

// procWalk is procLinks' walk along a path: the cleaned path so far, whether a glob was taken for
// a link's name, and whether the path is still known (no ".." after such a glob).
type procWalk struct {
	out            []string
	guessed, known bool
	last           bool // the segment stepped is a glob that ends the path
}

// step takes one segment of the path, following /proc/thread-self and /proc/PID/root, and says
// whether the path now names something below /proc.
func (w *procWalk) step(seg string) bool {
	if seg == "" || seg == "." {
		return false
	}
	if fdEntry(w.out) {
		// An open descriptor names whatever was opened, a directory perhaps: what is below
		// it, or above it, is not known (cat /dev/stdin/shadow </etc reads /etc/shadow).
		w.known = false
	}
	if seg == ".." {
		w.known = w.known && !w.guessed
		if len(w.out) > 0 {
			w.out = w.out[:len(w.out)-1]
		}
		return false
	}
	w.out = append(w.out, seg)
	if len(w.out) == 2 {
		w.systemLink()
	}
	if len(w.out) < 2 || !mayName(w.out[0], "proc") {
		return false
	}
	switch {
	case len(w.out) == 2 && seg == "thread-self":
		w.out = append(w.out[:1], "self", "task", "thread-self")
	case len(w.out) == 2 && mayName(seg, "thread-self"):
		// A glob that may match thread-self (or any process: /proc/*/...) keeps its place, the
		// wider of the two; a climb after it goes where the match decides.
		w.guessed = true
	case procEntry(w.out, "root") && !w.last:
		w.guessed = w.guessed || !literal(w.out)
		w.out = w.out[:0]
	}
	return true
}

// systemLinks are the symbolic links every Linux system has outside /proc's processes, by the
// path they are at, and the absolute path they point to: a ".." after one climbs from its target
// (/var/run/../etc/shadow is /etc/shadow, /dev/fd/../environ is /proc/self/environ).
var systemLinks = splitLinks(map[string]string{
	"/dev/fd":      "/proc/self/fd",
	"/dev/stdin":   "/proc/self/fd/0",
	"/dev/stdout":  "/proc/self/fd/1",
	"/dev/stderr":  "/proc/self/fd/2",
	"/dev/core":    "/proc/kcore",
	"/proc/net":    "/proc/self/net",
	"/proc/mounts": "/proc/self/mounts",
	"/var/run":     "/run",
	"/var/lock":    "/run/lock",
})

// splitLinks is links (at → target) as the walk takes them, in the order of their names.
func splitLinks(links map[string]string) []systemLink {
	out := make([]systemLink, 0, len(links))
	for _, at := range slices.Sorted(maps.Keys(links)) {
		segs := strings.Split(at[1:], "/")
		out = append(out, systemLink{at: [2]string{segs[0], segs[1]}, target: strings.Split(links[at][1:], "/"),
			from: at, to: links[at]})
	}
	return out
}

// systemLink is one of systemLinks: where it is and where it points, as path segments for the
// walk and as paths for a comparison.
type systemLink struct {
	at       [2]string
	target   []string
	from, to string
}

// systemLink follows the system link w's first two segments name. A glob that may match one is
// taken for a link's name, as under /proc: a ".." after it makes the path unknown.
func (w *procWalk) systemLink() {
	at := [2]string{w.out[0], w.out[1]}
	glob := hasGlobMeta(at[0]) || hasGlobMeta(at[1])
	for _, l := range systemLinks {
		switch {
		case at == l.at:
			w.out = append(w.out[:0], l.target...)
			return
		case glob && mayName(at[0], l.at[0]) && mayName(at[1], l.at[1]):
			w.guessed = true
			return
		}
	}
}

// linkNames appends the names p also has through a system link: /run/secrets/token is
// /var/run/secrets/token too, and a policy may protect either name.
func linkNames(p string, dst []string) []string {
	if !strings.HasPrefix(p, "/run") && !strings.HasPrefix(p, "/proc/") {
		return dst
	}
	for _, l := range systemLinks {
		if under(p, l.to) {
			dst = append(dst, l.from+p[len(l.to):])
		}
	}
	return dst
}

// fdEntry says whether out, a cleaned path, names an open descriptor's entry under /proc:
// /proc/PID/fd/N or /proc/PID/task/TID/fd/N.
func fdEntry(out []string) bool {
	switch {
	case len(out) == 4:
		return mayName(out[0], "proc") && mayName(out[2], "fd")
	case len(out) == 6:
		return mayName(out[0], "proc") && mayName(out[2], "task") && mayName(out[4], "fd")
	}
	return false
}

// threadEntry is the process's entry a thread's entry under /proc is (/proc/PID/task/TID/NAME is
// /proc/PID/NAME: environ, mem, root, ...), when p is one.
func threadEntry(p string) (string, bool) {
	if !strings.HasPrefix(p, "/proc/") && !hasGlobMeta(p) {
		return "", false
	}
	segs := strings.SplitN(strings.TrimPrefix(p, "/"), "/", 5)
	if len(segs) < 5 || !mayName(segs[0], "proc") || !mayName(segs[2], "task") {
		return "", false
	}
	return "/" + segs[0] + "/" + segs[1] + "/" + segs[4], true
}

// literal says whether out, a path below /proc, spells its way to an entry without globs.
func literal(out []string) bool { return !slices.ContainsFunc(out, hasGlobMeta) }

// procEntry says whether out, a cleaned path below /proc, names a process's or a thread's entry
// name: /proc/PID/name or /proc/PID/task/TID/name.
func procEntry(out []string, name string) bool {
	switch len(out) {
	case 3:
		return mayName(out[2], name)
	case 5:
		return mayName(out[2], "task") && mayName(out[4], name)
	}
	return false
}

// mayName says whether a path segment names name: it is name, or a glob that matches it.
func mayName(seg, name string) bool {
	if seg == name {
		return true
	}
	if !hasGlobMeta(seg) {
		return false
	}
	pattern, known := canonicalGlob(seg)
	ok, err := path.Match(pattern, name)
	return ok || err != nil || !known // a malformed pattern is taken for a match: it names nothing better
}

// expandHome writes a leading $HOME as "~", so a variable cannot hide the home directory.
func expandHome(p string) string {
	if strings.HasPrefix(p, "$HOME") && (len(p) == 5 || p[5] == '/') {
		return "~" + p[5:]
	}
	if strings.HasPrefix(p, "${HOME}") {
		return expandHome("$HOME" + p[7:]) // the braced spelling a tool that expands variables reads alike
	}
	return p
}

// stripFileURL returns the path of a file URL: file:///etc/shadow, file:/etc/shadow, and
// file://HOST/etc/shadow, whose host a file tool ignores or takes for this machine (localhost).
func stripFileURL(p string) (string, bool) {
	const scheme = "file:"
	if len(p) < len(scheme) || !strings.EqualFold(p[:len(scheme)], scheme) {
		return p, false
	}
	rest := p[len(scheme):]
	if host, ok := strings.CutPrefix(rest, "//"); ok {
		rest = "/"
		if i := strings.IndexByte(host, '/'); i >= 0 {
			rest = host[i:]
		}
	}
	// A query or a fragment is not part of the path, which is percent-encoded: file:///w/.%65nv#x
	// is /w/.env to curl and to a file tool.
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	if decoded, err := url.PathUnescape(rest); err == nil {
		rest = decoded
	}
	return rest, true
}

// cleanHome cleans the part of a home path after "~". A path that climbs out of the home directory
// lands somewhere unknown, so it is returned base-relative ("../../etc/shadow").
func cleanHome(rest string) string {
	c := path.Clean(strings.TrimLeft(rest, "/"))
	switch {
	case c == ".":
		return "~"
	case c == ".." || strings.HasPrefix(c, "../"):
		return c
	}
	return "~/" + c
}

// isAbsOrHome reports whether a resolved path has a known anchor.
func isAbsOrHome(p string) bool {
	return strings.HasPrefix(p, "/") || p == "~" || strings.HasPrefix(p, "~/")
}

// escapes reports whether a resolved path climbs above an unknown base.
func escapes(p string) bool { return p == ".." || strings.HasPrefix(p, "../") }

// under reports whether p is root or below it; both are resolved paths.
func under(p, root string) bool {
	if root == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == root || strings.HasPrefix(p, root+"/")
}

// PathKind is a class of path-policy entries, from the reference's damage-control path policy.
type PathKind uint8

const (
	// PathZeroAccess paths may not be read, written or deleted.
	PathZeroAccess PathKind = iota
	// PathReadOnly paths may be read but not written or deleted.
	PathReadOnly
	// PathNoWrite paths may not be created or changed.
	PathNoWrite
	// PathNoDelete paths may not be deleted.
	PathNoDelete
	numPathKinds
)

// String returns the kind as named in rule identifiers ("path-policy:zeroAccess").
func (k PathKind) String() string {
	switch k {
	case PathZeroAccess:
		return "zeroAccess"
	case PathReadOnly:
		return "readOnly"
	case PathNoWrite:
		return "noWrite"
	case PathNoDelete:
		return "noDelete"
	}
	return "unknown"
}

func (k PathKind) blocks(op pathOp) bool {
	switch k {
	case PathZeroAccess:
		return true
	case PathReadOnly:
		return op == opWrite || op == opDelete
	case PathNoWrite:
		return op == opWrite
	case PathNoDelete:
		return op == opDelete
	}
	return false
}

// pathEntry is one compiled path-policy pattern. Patterns are gitignore-like: without a leading
// "/" or "~/" they match at any depth; a trailing "/" (or none) covers everything below; a leading
// "!" exempts paths from the kind's other entries. Matching ignores case, because secret names
// are secret in any case and some file systems fold case.
type pathEntry struct {
	pattern  string // as written
	negate   bool
	anchored bool
	base     string // unanchored single-component pattern, matched against every component
	literal  bool   // base has no glob metacharacters
	suffix   string // base is "*<suffix>" with a literal suffix
	prefix   string // base is "<prefix>*" with a literal prefix
	globs    []string
	parts    []string // an unanchored pattern of several parts, split: ".docker/config.json"
	example  string   // a name the pattern matches, to test an agent's glob against
	needle   string   // the longest literal run of the pattern: a path without it cannot match
	anchor   string   // an anchored pattern's literal start ("/etc/ssh/"): a path without it cannot match
}

func compilePathEntry(p string) (pathEntry, bool) {
	e := pathEntry{pattern: p}
	s := foldName(strings.TrimSpace(p))
	if strings.HasPrefix(s, "!") {
		e.negate = true
		s = s[1:]
	}
	if t := strings.TrimRight(s, "/"); t != "" {
		s = t
	} else if s != "" {
		s = "/" // "/" itself: the whole file system
	} else {
		return e, false
	}
	e.anchored = strings.HasPrefix(s, "/") || s == "~" || strings.HasPrefix(s, "~/")
	if e.anchored && s != "/" {
		s = resolvePattern(s)
	}
	if !doublestar.ValidatePattern(s) {
		return e, false
	}
	switch {
	case e.anchored:
		e.globs = []string{s, strings.TrimSuffix(s, "/") + "/**"}
		e.anchor = s
		if i := strings.IndexAny(s, "*?[{\\"); i >= 0 {
			e.anchor = s[:i]
		}
	case !strings.Contains(s, "/"):
		e.base = s
		meta := strings.ContainsAny(s, "*?[{\\")
		e.literal = !meta
		if rest := strings.TrimPrefix(s, "*"); rest != s && !strings.ContainsAny(rest, "*?[{\\") {
			e.suffix = rest
		} else if rest := strings.TrimSuffix(s, "*"); rest != s && !strings.ContainsAny(rest, "*?[{\\") {
			e.prefix = rest
		}
	default:
		e.globs = []string{"**/" + s, "**/" + s + "/**"}
		e.parts = strings.Split(s, "/")
	}
	e.example = exampleOf(s)
	e.needle = longestLiteral(s)
	return e, true
}

// longestLiteral returns the longest run of the pattern that every matching path contains: text
// outside character classes and alternatives, between metacharacters and separators. It lets
// matching skip an entry cheaply before any glob work.
func longestLiteral(s string) string {
	best, start := "", 0
	cut := func(end int) {
		if end-start > len(best) {
			best = s[start:end]
		}
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			cut(i)
			if j := strings.IndexByte(s[i+1:], ']'); j >= 0 {
				i += j + 1
			} else {
				i = len(s)
			}
			start = i + 1
		case '{':
			cut(i)
			for depth := 0; i < len(s); i++ {
				if s[i] == '{' {
					depth++
				} else if s[i] == '}' {
					if depth--; depth == 0 {
						break
					}
				}
			}
			start = i + 1
		case '*', '?', '\\', '/':
			cut(i)
			start = i + 1
		}
	}
	if start < len(s) {
		cut(len(s))
	}
	if best == "~" {
		return ""
	}
	return best
}

// exampleOf turns a pattern into one name it matches.
func exampleOf(s string) string {
	s = strings.ReplaceAll(s, "**/", "")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '*', '?':
			b.WriteByte('x')
		case '[':
			set, end, how := readBracket(s, i)
			if how != bracketClosed {
				b.WriteByte('[')
				continue
			}
			b.WriteByte(set.example())
			i = end - 1
		case '{':
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				continue
			}
			alt, _, _ := strings.Cut(s[i+1:i+j], ",")
			b.WriteString(alt)
			i += j
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// matches reports whether a lower-cased resolved path is covered by the entry.
func (e *pathEntry) matches(p string) bool {
	if !strings.HasPrefix(p, e.anchor) || !strings.Contains(p, e.needle) {
		return false
	}
	if e.base != "" {
		for rest := p; rest != ""; {
			var comp string
			comp, rest, _ = strings.Cut(rest, "/")
			if comp == "" {
				continue
			}
			switch {
			case e.literal:
				if comp == e.base {
					return true
				}
			case e.suffix != "":
				if strings.HasSuffix(comp, e.suffix) {
					return true
				}
			case e.prefix != "":
				if strings.HasPrefix(comp, e.prefix) {
					return true
				}
			default:
				if doublestar.MatchUnvalidated(e.base, comp) {
					return true
				}
			}
		}
		return false
	}
	for _, g := range e.globs {
		if doublestar.MatchUnvalidated(g, p) {
			return true
		}
	}
	return false
}

// globMayName reports whether an agent's glob (a lower-cased resolved path with unquoted
// metacharacters, such as ".e*" or "/etc/sha*") could expand to a name the entry covers. Bash
// globs do not match a leading dot, and a bare wildcard ("*", "*.*") names nothing in particular:
// it is outside what a path policy over named paths can judge. A glob that starts with a literal
// dot (".*", ".??*", "*/.*") does name the dotfiles it expands to.
func (e *pathEntry) globMayName(g *agentGlob) bool {
	if e.negate || e.example == "" {
		return false
	}
	glob := g.glob
	if e.anchored {
		return doublestar.MatchUnvalidated(glob, e.example) || e.matches(g.exampleOf()) || segmentsMeet(g.parts(), e.globs[0])
	}
	if e.parts != nil && !g.holdsParts(e.parts) {
		return false
	}
	ebase := e.example
	if i := strings.LastIndexByte(ebase, '/'); i >= 0 {
		ebase = ebase[i+1:]
	}
	// An entry covers what is below the name it protects, so a glob in a directory part may name
	// it too: ".g*/hooks/pre-commit" is below ".git".
	for _, c := range g.dirGlobs() {
		if globNames(c, ebase, e) {
			return true
		}
	}
	gbase := glob
	if i := strings.LastIndexByte(glob, '/'); i >= 0 {
		gbase = glob[i+1:]
	}
	if e.namesNothingOf(g, gbase, ebase) {
		return false
	}
	// Either the glob covers a name the pattern protects (".e*" and ".env"), or the pattern covers
	// a name the glob expands to (".env.e*" and ".env.*"), or some name matches both
	// ("prod.en?" and "*.env").
	if doublestar.MatchUnvalidated(gbase, ebase) || e.matches(exampleOf(gbase)) {
		return true
	}
	// Only a glob that starts with a literal is taken to aim at a name: "*.o" could match a file
	// called LICENSE.o, but names nothing in particular.
	return e.base != "" && !strings.HasPrefix(gbase, "*") && globsMeet(gbase, e.base)
}

// namesNothingOf says whether a glob's last part, gbase, names none of the files an unanchored
// entry protects, whose example's last part is ebase.
func (e *pathEntry) namesNothingOf(g *agentGlob, gbase, ebase string) bool {
	// A bare wildcard does not match a leading dot, so it names no dotfile; ".*" and ".??*" start
	// with a literal dot and expand to every dotfile, ".env" among them.
	if bareWildcard(gbase) {
		return true
	}
	if strings.HasPrefix(ebase, ".") && !strings.HasPrefix(gbase, ".") {
		return true
	}
	// A read of a wildcard and an extension ("cat *.yaml") names no file in particular either, as
	// "cat *" does not: it names the entries that protect the whole extension ("*.pem"), not
	// "secrets.yaml". An entry of several parts is aimed at by the glob's directory (holdsParts),
	// and a delete or a write of every such file still takes the protected one (rm *.md, README.md).
	return g.read && e.parts == nil && extensionOnly(gbase) && !e.matches(exampleOf(gbase))
}

// extensionOnly reports whether a glob's last part is wildcards and a literal extension:
// "*.yaml", "**.tar.gz".
func extensionOnly(gbase string) bool {
	rest := strings.TrimLeft(gbase, "*")
	return rest != gbase && len(rest) > 1 && rest[0] == '.' && !strings.ContainsAny(rest, "*?[{\\")
}

// globNames reports whether a glob component may name the name an unanchored entry protects
// (ebase, the last part of its example): a bare wildcard names no dotfile, and only a component
// the name matches counts.
func globNames(c, ebase string, e *pathEntry) bool {
	if bareWildcard(c) || strings.HasPrefix(ebase, ".") && !strings.HasPrefix(c, ".") {
		return false
	}
	return doublestar.MatchUnvalidated(c, ebase) && e.matches(ebase)
}

// agentGlob is an agent's glob with what its check against each anchored entry derives from it,
// computed once for all entries: its example and its parts between slashes (a 16 KiB glob made
// them again for every anchored pattern).
type agentGlob struct {
	glob      string
	read      bool // the call reads what the glob names; a delete of "*.md" still takes README.md
	example   string
	split     []string
	dirs      []string // its directory parts that are globs and may name a dotfile or a name
	haveEx    bool
	haveSplit bool
	haveDirs  bool
}

// maxDirGlobs bounds the distinct wildcard directory parts a glob is checked by; past it, every
// part is taken to name what it could ("*" alone), so the check stays linear in the entries.
const maxDirGlobs = 16

// dirGlobs returns the glob's distinct directory parts (all but the last) that hold a wildcard
// and are not bare wildcards, which name nothing in particular: computed once for all entries.
// More than maxDirGlobs of them are read as ".*", which may name any dotfile or name.
func (g *agentGlob) dirGlobs() []string {
	if !g.haveDirs {
		g.haveDirs = true
		parts := g.parts()
		for _, c := range parts[:max(len(parts)-1, 0)] {
			if strings.ContainsAny(c, "*?[") && !bareWildcard(c) && !slices.Contains(g.dirs, c) {
				if len(g.dirs) == maxDirGlobs {
					g.dirs = []string{".*", "[!.]*"}
					break
				}
				g.dirs = append(g.dirs, c)
			}
		}
	}
	return g.dirs
}

// maxAlignedParts bounds the parts of a glob that holdsParts aligns; a longer glob is taken to
// hold any entry, as before the check, so the work stays linear in the entries.
const maxAlignedParts = 64

// holdsParts reports whether the glob may name a path whose consecutive parts are an unanchored
// entry's parts (".docker", "config.json"), the entry's path or one below it: "testdata/*.json"
// names no .docker/config.json, since "testdata" is not ".docker", while ".d*/*.json" and
// "~/.docker/*.json" may. A relative glob may start inside the entry (its directory above is
// not known), and "**" may be any number of parts, so either keeps the entry.
func (g *agentGlob) holdsParts(entry []string) bool {
	gs := g.parts()
	if len(gs) > maxAlignedParts || !strings.HasPrefix(g.glob, "/") && !strings.HasPrefix(g.glob, "~") {
		return true
	}
	for _, c := range gs {
		if strings.Contains(c, "**") {
			return true
		}
	}
	for i := 0; i+len(entry) <= len(gs); i++ {
		if partsMeet(gs[i:i+len(entry)], entry) {
			return true
		}
	}
	return false
}

// partsMeet reports whether each glob part may name the entry part beside it. A part that does
// not start with a dot names no dotfile, as a bash glob does not ("*" is not ".docker").
func partsMeet(gs, entry []string) bool {
	for j, p := range entry {
		c := gs[j]
		switch {
		case c == p:
		case c == "":
			return false
		case strings.HasPrefix(p, ".") && (c[0] == '*' || c[0] == '?'):
			return false
		case !strings.ContainsAny(c, "*?[") && !strings.ContainsAny(p, "*?[{\\"):
			return false
		case !globsMeet(c, p):
			return false
		}
	}
	return true
}

func (g *agentGlob) exampleOf() string {
	if !g.haveEx {
		g.example, g.haveEx = exampleOf(g.glob), true
	}
	return g.example
}

func (g *agentGlob) parts() []string {
	if !g.haveSplit {
		g.split, g.haveSplit = strings.Split(g.glob, "/"), true
	}
	return g.split
}

// segmentsMeet reports whether an agent's glob (its parts between slashes) and an anchored
// pattern, compared part by part, can name the same path: "/proc/1/enviro?" and "/proc/*/environ"
// both name /proc/1/environ, though neither's example matches the other. The pattern's parts must
// all be met; a glob with fewer parts names a directory above the protected path, not the path.
func segmentsMeet(gs []string, pattern string) bool {
	ps := strings.Split(pattern, "/")
	if len(gs) < len(ps) {
		return false
	}
	for i, p := range ps {
		g := gs[i]
		if p == "**" {
			return true
		}
		if g != p && !globsMeet(g, p) {
			return false
		}
	}
	return true
}

// globsMeet reports whether two single-component globs (*, ?, [...] and literals) can match the
// same name. A bracket is the characters it may match, in either case (folded names are
// compared), so [0-9]*.o and license.* never meet; one that may match a character beyond ASCII
// counts as any character, which can only make two globs meet more often. The table is bounded
// by the lengths of the two globs.
func globsMeet(a, b string) bool {
	ta, sa := globTokens(a)
	tb, sb := globTokens(b)
	if len(ta) > 256 || len(tb) > 256 {
		return true
	}
	seen := make(map[[2]int]bool)
	var meet func(i, j int) bool
	meet = func(i, j int) bool {
		key := [2]int{i, j}
		if v, ok := seen[key]; ok {
			return v
		}
		seen[key] = false
		var r bool
		switch {
		case i == len(ta) && j == len(tb):
			r = true
		case i < len(ta) && ta[i] == globStar:
			r = meet(i+1, j) || (j < len(tb) && meet(i, j+1))
		case j < len(tb) && tb[j] == globStar:
			r = meet(i, j+1) || (i < len(ta) && meet(i+1, j))
		case i == len(ta) || j == len(tb):
			r = false
		default:
			r = tokensMeet(ta[i], tb[j], sa, sb) && meet(i+1, j+1)
		}
		seen[key] = r
		return r
	}
	return meet(0, 0)
}

// tokensMeet reports whether two one-character glob tokens may match the same character: a
// literal byte, globAny, or a bracket (globSet-k, its set sa[k] or sb[k]).
func tokensMeet(x, y int, sa, sb []charSet) bool {
	switch {
	case x == globAny || y == globAny || x == y && x >= 0:
		return true
	case x <= globSet && y <= globSet:
		return sa[globSet-x].meets(&sb[globSet-y])
	case x <= globSet:
		return y >= 0 && y < utf8.RuneSelf && sa[globSet-x].hasFolded(byte(y))
	case y <= globSet:
		return x >= 0 && x < utf8.RuneSelf && sb[globSet-y].hasFolded(byte(x))
	}
	return false
}

// Glob tokens besides literal bytes: a bracket is globSet-k, its set the k-th globTokens returns.
const (
	globStar = -1
	globAny  = -2
	globSet  = -3
)

// globTokens returns a glob's tokens, and the sets of its brackets that hold only ASCII
// characters (one that may match beyond ASCII, a character of several bytes, is globAny).
func globTokens(g string) ([]int, []charSet) {
	out := make([]int, 0, len(g))
	var sets []charSet
	for i := 0; i < len(g); i++ {
		switch c := g[i]; c {
		case '*':
			if len(out) == 0 || out[len(out)-1] != globStar {
				out = append(out, globStar)
			}
		case '?':
			out = append(out, globAny)
		case '[':
			// A bracket is read as bash reads it ("[]e]" is one character, readBracket); one
			// that nothing closes is the character "[".
			set, end, how := readBracket(g, i)
			switch how {
			case bracketLiteral:
				out = append(out, '[')
				continue
			case bracketUnread:
				return append(out, globStar), sets // may be anything from here: it meets every name
			}
			i = end - 1
			if set.nonASCII {
				out = append(out, globAny)
				continue
			}
			out = append(out, globSet-len(sets))
			sets = append(sets, set)
		case '\\':
			if i+1 < len(g) {
				i++
			}
			out = append(out, int(g[i]))
		default:
			out = append(out, int(c))
		}
	}
	return out, sets
}

// pathPolicy is the compiled union of the default and project path policies.
type pathPolicy struct {
	kinds [numPathKinds]kindIndex
}

// kindIndex holds one kind's entries, indexed so a check costs a map lookup per path component
// for the common patterns (".env", "id_rsa", "*.pem") instead of a scan over every entry.
type kindIndex struct {
	entries []pathEntry
	lit     map[string]int   // literal single-component pattern -> entry
	ext     map[string]int   // "*.<ext>" pattern -> entry, keyed by ".<ext>"
	tail    map[string][]int // literal multi-component pattern -> entries, keyed by its last component
	nested  []int            // the unanchored ones among them, in order (".config/gh/hosts.yml")
	rest    []int            // every other positive entry
}

func (ki *kindIndex) reindex() {
	ki.lit, ki.ext, ki.tail, ki.nested, ki.rest = map[string]int{}, map[string]int{}, map[string][]int{}, nil, nil
	for i := range ki.entries {
		e := &ki.entries[i]
		switch {
		case e.negate:
		case e.literal:
			ki.lit[e.base] = i
		case e.suffix != "" && strings.Count(e.suffix, ".") == 1 && strings.HasPrefix(e.suffix, "."):
			ki.ext[e.suffix] = i
		default:
			if key, ok := literalTail(e.pattern); ok {
				// A path the pattern covers has the pattern's last part as one of its components
				// (".config/gh/hosts.yml", "/etc/kubernetes/admin.conf", "/run/secrets/" below it).
				ki.tail[key] = append(ki.tail[key], i)
				if !e.anchored {
					ki.nested = append(ki.nested, i)
				}
			} else {
				ki.rest = append(ki.rest, i)
			}
		}
	}
}

// literalTail returns the last component of a pattern without glob characters or escapes.
func literalTail(pattern string) (string, bool) {
	s := strings.TrimRight(foldName(strings.TrimSpace(pattern)), "/")
	if s == "" || strings.ContainsAny(s, "*?[{\\!") {
		return "", false
	}
	key := s[strings.LastIndexByte(s, '/')+1:]
	return key, key != "" && key != "~" && key != "." && key != ".."
}

// PathPolicy lists path patterns per kind.
type PathPolicy struct {
	// ZeroAccess paths may not be read, written or deleted.
	ZeroAccess []string `json:"zeroAccess,omitempty"`
	// ReadOnly paths may be read but not written or deleted.
	ReadOnly []string `json:"readOnly,omitempty"`
	// NoWrite paths may not be created or changed.
	NoWrite []string `json:"noWrite,omitempty"`
	// NoDelete paths may not be deleted.
	NoDelete []string `json:"noDelete,omitempty"`
}

func (pp PathPolicy) lists() [numPathKinds][]string {
	return [numPathKinds][]string{pp.ZeroAccess, pp.ReadOnly, pp.NoWrite, pp.NoDelete}
}

// add compiles more entries, reporting each invalid pattern through onError.
func (c *pathPolicy) add(pp PathPolicy, onError func(kind PathKind, i int, pattern string)) {
	for k, list := range pp.lists() {
		for i, p := range list {
			e, ok := compilePathEntry(p)
			if !ok {
				onError(PathKind(k), i, p)
				continue
			}
			c.kinds[k].entries = append(c.kinds[k].entries, e)
		}
		c.kinds[k].reindex()
	}
}

// couldBlock names the kinds that block op, each with its first pattern, for messages about paths
// the engine cannot resolve: `zeroAccess (such as ".env") or noDelete (such as ".git")`.
func (c *pathPolicy) couldBlock(op pathOp) string {
	var parts []string
	for k := range numPathKinds {
		if !k.blocks(op) {
			continue
		}
		for _, e := range c.kinds[k].entries {
			if !e.negate {
				parts = append(parts, fmt.Sprintf("%s (such as %q)", k, e.pattern))
				break
			}
		}
	}
	return strings.Join(parts, " or ")
}

// foldName is the form a path and a pattern are compared in: lower case, and composed (NFC), as
// some tools resolve a name (server-filesystem opens "Perso\u0308nlich" as "Persönlich" when
// only the composed one exists), so that no spelling of a protected name escapes its pattern.
func foldName(s string) string { return strings.ToLower(norm.NFC.String(s)) }

// pathVerdict is the first path-policy entry that blocks an operation.
type pathVerdict struct {
	kind    PathKind
	pattern string
	path    string
}

// check returns the first kind (zeroAccess, readOnly, noWrite, noDelete) whose entries block op
// on the resolved path p.
func (c *pathPolicy) check(p string, op pathOp, glob bool) (pathVerdict, bool) {
	lp := foldName(p)
	var buf [2]string
	cands := candidates(lp, buf[:0])
	for k := range numPathKinds {
		if !k.blocks(op) {
			continue
		}
		if pat, ok := c.kindMatches(k, cands, glob, op); ok {
			return pathVerdict{kind: k, pattern: pat, path: p}, true
		}
	}
	return pathVerdict{}, false
}

func (c *pathPolicy) kindMatches(k PathKind, cands []string, glob bool, op pathOp) (string, bool) {
	ki := &c.kinds[k]
	for _, p := range cands {
		if glob {
			// A literal directory above the glob may itself be protected ("~/.ssh/*").
			d, g := literalDir(p), agentGlob{glob: p, read: op == opRead}
			for i := range ki.entries {
				e := &ki.entries[i]
				if e.negate {
					continue
				}
				if (d != "" && e.matches(d)) || e.globMayName(&g) {
					return e.pattern, true
				}
			}
			if pat, ok := c.wildcardChild(k, p); ok {
				return pat, true
			}
			// A glob is also a literal name: "[id].tsx" may be a real file.
		}
		if pat, ok := c.componentMatches(k, p); ok {
			return pat, true
		}
		for _, i := range ki.rest {
			if e := &ki.entries[i]; e.matches(p) && !c.exempt(k, p) {
				return e.pattern, true
			}
		}
	}
	return "", false
}

// wildcardChild finds, for a glob whose last part is a bare wildcard ("~/.config/gh/*"), an
// unanchored entry of several parts that names a file directly in the glob's literal directory
// (".config/gh/hosts.yml"): the wildcard expands to it. Other bare wildcards name nothing in
// particular.
func (c *pathPolicy) wildcardChild(k PathKind, p string) (string, bool) {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 || strings.Trim(p[i+1:], "*?") != "" || strings.ContainsAny(p[:i], "*?[{") {
		return "", false
	}
	d := p[:i]
	ki := &c.kinds[k]
	for _, n := range ki.nested {
		pat := strings.TrimRight(foldName(ki.entries[n].pattern), "/")
		j := strings.LastIndexByte(pat, '/')
		if head := pat[:j]; j > 0 && (d == head || strings.HasSuffix(d, "/"+head)) && !strings.HasPrefix(pat[j+1:], ".") {
			if v, ok := c.check(d+pat[j:], opRead, false); ok && v.kind == k {
				return v.pattern, true
			}
		}
	}
	return "", false
}

// componentMatches looks each component of p up among the kind's indexed entries: a literal
// name, an extension, or the last part of a literal multi-part pattern.
func (c *pathPolicy) componentMatches(k PathKind, p string) (string, bool) {
	ki := &c.kinds[k]
	for rest := p; rest != ""; {
		var comp string
		comp, rest, _ = strings.Cut(rest, "/")
		if i, ok := ki.lit[comp]; ok && !c.exempt(k, p) {
			return ki.entries[i].pattern, true
		}
		for _, i := range ki.tail[comp] {
			if e := &ki.entries[i]; e.matches(p) && !c.exempt(k, p) {
				return e.pattern, true
			}
		}
		if dot := strings.LastIndexByte(comp, '.'); dot >= 0 {
			if i, ok := ki.ext[comp[dot:]]; ok && !c.exempt(k, p) {
				return ki.entries[i].pattern, true
			}
		}
	}
	return "", false
}

func (c *pathPolicy) exempt(k PathKind, p string) bool {
	for i := range c.kinds[k].entries {
		if e := &c.kinds[k].entries[i]; e.negate && e.matches(p) {
			return true
		}
	}
	return false
}

// literalDir returns the directory part of a glob path before its first metacharacter.
func literalDir(p string) string {
	i := strings.IndexAny(p, "*?[{")
	if i < 0 {
		return ""
	}
	j := strings.LastIndexByte(p[:i], '/')
	if j <= 0 {
		return ""
	}
	return p[:j]
}

// candidates lists the forms under which a resolved path is checked: itself; for a path that
// climbs above an unknown base, the same path rooted at "/" (../../etc/shadow may be /etc/shadow);
// for a path inside a home directory, its "~/" form; for a thread's entry, its process's.
func candidates(p string, dst []string) []string {
	dst = append(dst, p)
	if t, ok := threadEntry(p); ok {
		dst = append(dst, t)
	}
	dst = linkNames(p, dst)
	switch {
	case escapes(p):
		rest := p
		for strings.HasPrefix(rest, "../") {
			rest = rest[3:]
		}
		if rest != ".." {
			dst = append(dst, "/"+rest)
		}
	case strings.HasPrefix(p, rootDir+"/") || p == rootDir:
		dst = append(dst, "~"+strings.TrimPrefix(p, rootDir))
	case strings.HasPrefix(p, "/home/"):
		rest := p[len("/home/"):]
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			dst = append(dst, "~"+rest[i:])
		} else {
			dst = append(dst, "~")
		}
	}
	return dst
}

// deviceSinks are paths a command may write without touching the file system.
var deviceSinks = []string{"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/fd", "/dev/shm", "/proc/self/fd"}

// scratchRoots are writable scratch space, outside the workspace but not "the system".
var scratchRoots = []string{"/tmp", "/var/tmp", "/dev/shm"}

// systemRoots are top-level directories whose changes are system modifications.
var systemRoots = []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/opt", "/root", "/srv", "/sys", "/proc", "/var", "/run", "/dev", "/snap", "/nix", "/home", "/mnt", "/media"}

func isDeviceSink(p string) bool {
	for _, s := range deviceSinks {
		if under(p, s) {
			return true
		}
	}
	return false
}

func inAny(p string, roots []string) bool {
	for _, r := range roots {
		if under(p, r) {
			return true
		}
	}
	return false
}
