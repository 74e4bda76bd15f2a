package safety

import (
	"fmt"
	"iter"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// homesDir holds the users' home directories.
const homesDir = "/home"

// containmentFailure applies the path policy to what a recursive operation reaches below its
// target: deleting, copying or archiving a directory acts on every protected path inside it.
//
// What a directory contains is known for the paths the policy anchors (/etc contains /etc/shadow,
// / contains everything) and for the home directory, whose protected names (.ssh, .aws, .gnupg,
// start-up files) live at its top. A project root — the workspace, the call's working
// directory or its project directory (projectRoots), and every directory above them — is taken
// to hold the project's protected files (.git, README.md, LICENSE): deleting it is denied.
// Copying or archiving one could take a zero-access file such as .env with it, which the engine
// cannot rule out, so it asks.
//
// An extraction's or a copy's destination asks (extractInto), but a denial found for any target
// comes first: rsync -a --delete empty/ ~/ is a recursive delete of the home directory.
func (p *Policy) containmentFailure(targets []target, cwd string, roots []string, approved bool) *failure {
	var ask *failure
	for _, t := range targets {
		if t.members && !t.dynamic && !approved && ask == nil {
			ask = p.extractInto(t, cwd)
		}
		if !t.recursive && !t.dynamic && t.glob && t.op == opDelete {
			if f := p.wildcardDelete(t, cwd, roots); f != nil {
				return f
			}
		}
		if !t.recursive || t.dynamic {
			continue
		}
		if t.listing {
			if f := p.listedFailure(t, cwd, roots, approved); f != nil {
				return f
			}
			continue
		}
		if v, inside, ok := p.paths.globContainedVerdict(t.path, t.op); ok {
			return &failure{kind: kindAccessDenied, rule: RulePrefixPathPolicy + v.kind.String(),
				msg: fmt.Sprintf("recursive %s of %q may reach %q, which the %s path policy protects (pattern %q)", t.op, t.raw, inside, v.kind, v.pattern)}
		}
		for _, base := range p.containers(t.path, cwd, roots) {
			if f := p.containedFailure(t, base, roots, approved); f != nil {
				if !f.ask {
					return f
				}
				if ask == nil {
					ask = f
				}
			}
		}
	}
	return ask
}

// wildcardDelete judges a delete of a bare wildcard ("rm *", "rm -f ./*.*", "rm [a-z]*") in a
// project directory: without -r it deletes the files directly inside that it matches, the
// project's README.md and LICENSE among them, which a bare wildcard names no more than any other
// file.
func (p *Policy) wildcardDelete(t target, cwd string, roots []string) *failure {
	base := containerOf(t.path, cwd)
	if base == "" || base == t.path || !isProjectRoot(base, roots) {
		return nil
	}
	last := t.path[strings.LastIndexByte(t.path, '/')+1:]
	entries := p.paths.kinds[PathNoDelete].entries
	for i := range entries {
		e := &entries[i]
		if e.negate || e.anchored || e.example == "" || strings.HasSuffix(e.pattern, "/") || strings.HasPrefix(e.example, ".") {
			continue // a bare wildcard matches no dotfile, and rm without -r deletes no directory
		}
		if !doublestar.MatchUnvalidated(foldName(last), foldName(e.example)) {
			continue // rm [0-9]* deletes no LICENSE
		}
		inside := strings.TrimSuffix(base, "/") + "/" + e.example
		if v, ok := p.paths.check(inside, opDelete, false); ok && v.kind == PathNoDelete {
			return &failure{kind: kindAccessDenied, rule: RulePrefixPathPolicy + v.kind.String(),
				msg: fmt.Sprintf("delete of %q deletes every file in the project directory %s, %q among them, which the %s path policy protects (pattern %q)", t.raw, base, inside, v.kind, v.pattern)}
		}
	}
	return nil
}

// listedFailure judges a recursive listing of names (ls -R, find, tree, du -a): as "ls ~/.ssh"
// reads ~/.ssh, a listing of a directory that holds a zero-access directory lists what is in it.
// It asks rather than denies: the listing names the protected directory's entries only on its
// way through a larger one (find / -name libssl.so, tree ~), and a person may let it; a listing of
// the protected directory itself is a read the path policy denies. A zero-access file's own name
// is no read ("ls ~" shows .netrc, "ls" shows .env), so only directory patterns count, and a
// project directory is not taken to hold one.
func (p *Policy) listedFailure(t target, cwd string, roots []string, approved bool) *failure {
	if approved {
		return nil
	}
	for _, base := range p.containers(t.path, cwd, roots) {
		if v, inside, ok := p.paths.containedVerdict(base, opRead, true); ok {
			return &failure{kind: kindHumanApprovalRequired, ask: true, rule: RuleContainsProtected,
				msg: fmt.Sprintf("recursive listing of %q would list the names in %q, which the %s path policy protects "+
					"(pattern %q), so it needs human approval", t.raw, inside, v.kind, v.pattern)}
		}
	}
	return nil
}

// containers are the directories a recursive operation on the resolved path covers
// (containerOf), each under the forms the path policy checks (candidates: a climb above an
// unknown base may be from /, "../../etc" may be /etc); for a glob that names something, the
// home and project directories it may match (/h?me, /workspac?).
func (p *Policy) containers(resolved, cwd string, roots []string) []string {
	if base := containerOf(resolved, cwd); base != "" {
		return candidates(base, nil)
	}
	if !hasGlobMeta(resolved) {
		return nil
	}
	var out []string
	dirs := []string{"/", homesDir, "/root", rootDir, "~"}
	for _, root := range roots {
		for d := root; d != "" && d != "/" && d != "." && d != "~"; d = path.Dir(d) {
			dirs = append(dirs, d)
		}
	}
	for _, d := range dirs {
		if globMatch(resolved, d) {
			out = append(out, d)
		}
	}
	return out
}

// containedFailure is the path policy's answer to a recursive operation t on the directory base:
// a protected path inside it, or the project files a project root is taken to hold.
func (p *Policy) containedFailure(t target, base string, roots []string, approved bool) *failure {
	if v, inside, ok := p.paths.containedVerdict(base, t.op, false); ok {
		return &failure{kind: kindAccessDenied, rule: RulePrefixPathPolicy + v.kind.String(),
			msg: fmt.Sprintf("recursive %s of %q reaches %q, which the %s path policy protects (pattern %q)", t.op, t.raw, inside, v.kind, v.pattern)}
	}
	if !isProjectRoot(base, roots) {
		return nil
	}
	v, inside, ok := p.paths.projectVerdict(base, t.op)
	if t.only != nil && t.op == opRead {
		v, inside, ok = p.paths.filteredProjectVerdict(base, t.only)
	}
	switch {
	case !ok:
		return nil
	case t.op == opDelete:
		return &failure{kind: kindAccessDenied, rule: RulePrefixPathPolicy + v.kind.String(),
			msg: fmt.Sprintf("recursive delete of %q deletes the project directory %s and with it %q, which the %s path policy protects (pattern %q)", t.raw, base, inside, v.kind, v.pattern)}
	case !approved:
		return &failure{kind: kindHumanApprovalRequired, ask: true, rule: RuleContainsProtected,
			msg: fmt.Sprintf("recursive %s of %q covers the project directory %s; the engine cannot rule out that it holds %q, which the %s path policy protects (pattern %q), so it needs human approval", t.op, t.raw, base, inside, v.kind, v.pattern)}
	}
	return nil
}

// wildcardsOnly says whether a glob part holds nothing but wildcards, dots and brackets
// ("*", ".*", "[a-z]*"): it may match any name directly inside its directory (a bracket read as
// "?", which can only widen).
func wildcardsOnly(c string) bool {
	for i := 0; i < len(c); i++ {
		switch c[i] {
		case '*', '?', '.':
		case '[':
			_, end, how := readBracket(c, i)
			if how != bracketClosed {
				return false
			}
			i = end - 1
		default:
			return false
		}
	}
	return true
}

// containerOf returns the directory a recursive operation on a resolved path covers: the path
// itself, or for a glob ending in a bare wildcard the literal directory above its first wildcard
// ("/workspace/*" covers /workspace). A glob that names something ("**/__pycache__", "build/*.o")
// covers only what it names, which the path policy checks as a glob: it returns "". A relative
// path against an unknown base is the unknown working directory ".".
func containerOf(p, cwd string) string {
	if i := strings.IndexAny(p, "*?[{"); i >= 0 {
		if !wildcardsOnly(p[strings.LastIndexByte(p, '/')+1:]) {
			return ""
		}
		j := strings.LastIndexByte(p[:i], '/')
		switch {
		case j > 0:
			p = p[:j]
		case j == 0:
			p = "/"
		default:
			p = "."
		}
	}
	if p == "." && cwd != "" {
		return cwd
	}
	return p
}

// projectRoots are the directories a call's recursive operations take to hold the project's
// files: the workspace (the platform's ProjectPolicy), the working directory and the project
// directory the call's front door names (Arguments.ProjectDir: a coding agent's hook knows it
// whatever the agent's cd did). The last is the agent's to set, so it serves only here, where it
// can only add protection; one that is not absolute is none.
func (p *Policy) projectRoots(cwd, projectDir string) []string {
	roots := make([]string, 0, 3)
	for _, r := range []string{p.workspace, cwd} {
		if r != "" {
			roots = append(roots, r)
		}
	}
	if strings.HasPrefix(projectDir, "/") && len(projectDir) <= maxPathLength {
		roots = append(roots, resolvePath("", projectDir))
	}
	return roots
}

// isProjectRoot reports whether dir is one of the project roots, or above one.
func isProjectRoot(dir string, roots []string) bool {
	if dir == "." {
		return true
	}
	for _, root := range roots {
		if root != "" && under(root, dir) {
			return true
		}
	}
	return false
}

// containedVerdict finds a path the policy protects against op that lies inside dir: an anchored
// entry below it, or, when dir is the home directory or above it, a protected name in the home
// directory. It returns the verdict and the protected path. dirs limits it to directory patterns
// (".ssh/"), whose names a recursive listing shows (listedFailure).
func (c *pathPolicy) containedVerdict(dir string, op pathOp, dirs bool) (pathVerdict, string, bool) {
	fd := foldName(dir) // entries are folded: /etc/NetworkManager holds .../system-connections
	for k, e := range c.anchoredEntries(op) {
		lit, globbed := e.literalPath()
		if dirs && !strings.HasSuffix(e.pattern, "/") {
			continue
		}
		if (globbed || lit != fd) && under(lit, fd) {
			return pathVerdict{kind: k, pattern: e.pattern, path: lit}, lit, true
		}
	}
	if v, inside, ok := c.nestedVerdict(dir, op, dirs); ok {
		return v, inside, true
	}
	if dir == "~" || dir == "/" || dir == homesDir || dir == rootDir || strings.HasPrefix(dir, "/home/") && strings.Count(dir, "/") == 2 {
		// Prefer the home directory's protected directories (.ssh, .aws) in the message.
		if v, inside, ok := c.insideVerdict("~", op, numPathKinds, true); ok || dirs {
			return v, inside, ok
		}
		return c.insideVerdict("~", op, numPathKinds, false)
	}
	return pathVerdict{}, "", false
}

// nestedVerdict finds an unanchored entry of several parts whose leading parts name dir's last
// parts: dir ~/.config holds .config/gh/hosts.yml's gh/hosts.yml, dir x/.docker holds
// .docker/config.json's config.json. The entry is then below dir wherever dir is. dirs limits it
// to directory patterns.
func (c *pathPolicy) nestedVerdict(dir string, op pathOp, dirs bool) (pathVerdict, string, bool) {
	d := foldName(strings.TrimSuffix(dir, "/"))
	for k := range numPathKinds {
		if !k.blocks(op) {
			continue
		}
		for _, i := range c.kinds[k].nested {
			if dirs && !strings.HasSuffix(c.kinds[k].entries[i].pattern, "/") {
				continue
			}
			pat := strings.TrimRight(foldName(c.kinds[k].entries[i].pattern), "/")
			for j := strings.IndexByte(pat, '/'); j > 0; j = nextSlash(pat, j) {
				if head := pat[:j]; d == head || strings.HasSuffix(d, "/"+head) {
					inside := dir + pat[j:]
					if v, ok := c.check(inside, op, false); ok && v.kind == k {
						return v, inside, true
					}
				}
			}
		}
	}
	return pathVerdict{}, "", false
}

// nextSlash returns the index of the next "/" in s after i, or -1.
func nextSlash(s string, i int) int {
	if j := strings.IndexByte(s[i+1:], '/'); j >= 0 {
		return i + 1 + j
	}
	return -1
}

// globContainedVerdict finds an anchored entry a recursive operation on the glob g may reach: g
// matches the entry or a directory above it (cp -r /e?c reaches /etc/shadow, ln -s /va?/run r
// /var/run/secrets).
func (c *pathPolicy) globContainedVerdict(g string, op pathOp) (pathVerdict, string, bool) {
	if !hasGlobMeta(g) {
		return pathVerdict{}, "", false
	}
	for k, e := range c.anchoredEntries(op) {
		lit, _ := e.literalPath()
		for a := lit; a != "/" && a != "." && a != "~"; a = path.Dir(a) {
			if globMatch(g, a) {
				return pathVerdict{kind: k, pattern: e.pattern, path: lit}, lit, true
			}
		}
	}
	return pathVerdict{}, "", false
}

// anchoredEntries are the policy's anchored, not negated entries of the kinds that block op.
func (c *pathPolicy) anchoredEntries(op pathOp) iter.Seq2[PathKind, *pathEntry] {
	return func(yield func(PathKind, *pathEntry) bool) {
		for k := range numPathKinds {
			if !k.blocks(op) {
				continue
			}
			for i := range c.kinds[k].entries {
				if e := &c.kinds[k].entries[i]; !e.negate && e.anchored && !yield(k, e) {
					return
				}
			}
		}
	}
}

// literalPath is what an anchored entry protects with no glob in it: the entry, or for a glob
// entry ("/etc/ssh/*_key") its literal directory, which a recursive operation on that very
// directory reaches (globbed).
func (e *pathEntry) literalPath() (string, bool) {
	if d := literalDir(e.globs[0]); d != "" {
		return d, true
	}
	return e.globs[0], false
}

// projectVerdict finds a protected name a project directory is taken to hold; for a delete the
// no-delete names (.git, README.md) come first, as the ones a project surely has.
func (c *pathPolicy) projectVerdict(dir string, op pathOp) (pathVerdict, string, bool) {
	if op == opDelete {
		if v, inside, ok := c.insideVerdict(dir, op, PathNoDelete, false); ok {
			return v, inside, true
		}
	}
	return c.insideVerdict(dir, op, numPathKinds, false)
}

// insideVerdict checks the example name of every unanchored entry as if it were directly inside
// dir, and returns the first that the policy blocks for op.
// Only is a single kind to consider, or numPathKinds for all; dirs limits it to directory
// patterns (".ssh/").
func (c *pathPolicy) insideVerdict(dir string, op pathOp, only PathKind, dirs bool) (pathVerdict, string, bool) {
	for k := range numPathKinds {
		if !k.blocks(op) || (only != numPathKinds && k != only) {
			continue
		}
		for i := range c.kinds[k].entries {
			e := &c.kinds[k].entries[i]
			if e.negate || e.anchored || e.example == "" || (dirs && !strings.HasSuffix(e.pattern, "/")) {
				continue
			}
			inside := strings.TrimSuffix(dir, "/") + "/" + e.example
			if v, ok := c.check(inside, op, false); ok && (only == numPathKinds || v.kind == only) {
				return v, inside, true
			}
		}
	}
	return pathVerdict{}, "", false
}
