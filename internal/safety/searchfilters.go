package safety

import (
	"path"
	"strings"
)

// A recursive search of a project directory asks (contains-protected), since the directory could
// hold a zero-access file such as .env. A search limited by name — rg -g '*.go', rg -t go, grep -r
// --include='*.ts' — reads only the files whose names pass its filter: it is asked about only when
// a file the project directory is taken to hold (the examples of the policy's unanchored
// entries) could pass (rg -g '*env', --include='*.json', which config.json passes, -g '*.local',
// which .env.local passes). A filter glob's wildcard matches a leading dot, as rg's and grep's
// do, and a filter the engine cannot read whole (a computed word, a glob with a directory part, a
// type it does not know, a type redefined on the line, an abbreviated option) is no filter.

// rgTypeGlobs are the file globs of rg's built-in types that a coding agent names most, as
// `rg --type-list` prints them; any other type is no filter.
//
//nolint:goconst // type names and globs read best literally, as rg prints them
var rgTypeGlobs = map[string][]string{
	"go": {"*.go"}, "rust": {"*.rs"}, "py": {"*.py", "*.pyi"}, "python": {"*.py", "*.pyi"},
	"ts": {"*.ts", "*.tsx", "*.cts", "*.mts"}, "typescript": {"*.ts", "*.tsx", "*.cts", "*.mts"},
	"js": {"*.js", "*.jsx", "*.mjs", "*.cjs", "*.vue"}, "javascript": {"*.js", "*.jsx", "*.mjs", "*.cjs", "*.vue"},
	"java": {"*.java", "*.jsp", "*.jspx", "*.properties"}, "kotlin": {"*.kt", "*.kts"}, "swift": {"*.swift"},
	"c": {"*.c", "*.h", "*.[chh].in", "*.cats"}, "cpp": {"*.c", "*.h", "*.cc", "*.cpp", "*.cxx", "*.hh", "*.hpp", "*.hxx", "*.inl"},
	"md":       {"*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mkd", "*.mkdn", "*.mdx"},
	"markdown": {"*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mkd", "*.mkdn", "*.mdx"},
	"css":      {"*.css", "*.scss"}, "html": {"*.htm", "*.html", "*.ejs"}, "proto": {"*.proto"}, "sql": {"*.sql", "*.psql"},
}

// sourceExtensions are extensions of source code and documentation. A filter of files with one
// passes no file a policy's "NAME.*" entry protects in practice (no one keeps .env.go), while
// any other extension may be that file's own (.env.local, .env.production, .vault_pass.txt).
var sourceExtensions = wordSet(".go .rs .py .pyi .ts .tsx .cts .mts .js .jsx .mjs .cjs .vue .java .kt .kts .swift .c .h " +
	".cc .cpp .cxx .hh .hpp .hxx .inl .md .markdown .mdx .mdown .mdwn .mkd .mkdn .css .scss .htm .html .proto .rb .php .cs .scala")

// grepPrograms are GNU grep under its names, whose --include filters a recursive search.
var grepPrograms = wordSet("grep egrep fgrep")

// The filter options of rg and grep.
const (
	optGlob    = "--glob"
	optIglob   = "--iglob"
	optType    = "--type"
	optTypeAdd = "--type-add"
)

// searchNameFilter returns the file-name globs a recursive content search reads only files of
// (rg's -g/--glob/--iglob and -t/--type, grep's --include), or nil when it reads every file or
// the filter cannot be read whole: a computed word may be any option.
func searchNameFilter(s *segment) []string {
	var opt func(name, val string) ([]string, bool)
	switch {
	case s.name == "rg":
		opt = rgFilterOption
	case grepPrograms[s.name]:
		opt = grepFilterOption
	default:
		return nil
	}
	if s.unknownFlags {
		return nil
	}
	var globs []string
	for i := 1; i < len(s.words) && s.words[i].s != "--"; i++ {
		w := s.words[i]
		if !strings.HasPrefix(w.s, "-") {
			continue
		}
		name, val, attached := strings.Cut(w.s, "=")
		if !attached && i+1 < len(s.words) && filterOption(s.name, name) {
			i++
			if s.words[i].dynamic {
				return nil
			}
			val = s.words[i].s
		}
		g, ok := opt(name, val)
		if !ok {
			return nil
		}
		globs = append(globs, g...)
	}
	return globs
}

// filterOption says whether a search option named apart takes the next word as the filter's
// value.
func filterOption(prog, name string) bool {
	if prog == "rg" {
		return name == "-g" || name == optGlob || name == optIglob || name == "-t" || name == optType
	}
	return name == optInclude
}

// rgFilterOption returns the globs one of rg's options limits the search to (none for any other
// option), and false when it makes the filter unreadable: a type redefined (-t go may then read
// *.env), a type the engine does not know, a glob with a directory part, a filter bundled after
// other letters (-ig GLOB). A short option's value may be attached (-g'*.go', -tgo).
func rgFilterOption(name, val string) ([]string, bool) {
	if len(name) > 2 && name[1] != '-' {
		if name[1] != 'g' && name[1] != 't' {
			return nil, !strings.ContainsAny(name, "gt")
		}
		name, val = name[:2], name[2:]
	}
	switch name {
	case optTypeAdd, "--type-clear":
		return nil, false
	case "-t", optType:
		g, ok := rgTypeGlobs[val]
		return g, ok
	case "-g", optGlob, optIglob:
		return rgGlobs(val)
	}
	return nil, true
}

// maxGlobAlternatives bounds the globs one rg glob's braces are read as; past it the filter is
// not read (the whole tree is judged).
const maxGlobAlternatives = 64

// rgGlobs returns the globs one of rg's -g values passes, its braces expanded as rg's globset
// does: "{*.go,.env}" passes .env, "*.{ts,tsx}" TypeScript. A brace rg would refuse (unclosed,
// or nested: rg then searches nothing) or an escaped one is not read.
func rgGlobs(val string) ([]string, bool) {
	if strings.HasPrefix(val, "!") {
		return nil, true
	}
	open := strings.IndexByte(val, '{')
	if open < 0 {
		if strings.ContainsAny(val, "}\\") {
			return nil, false
		}
		return filterGlob(val)
	}
	end := strings.IndexByte(val[open:], '}')
	if end < 0 || strings.ContainsAny(val[open+1:open+end], "{\\") || strings.ContainsRune(val[:open], '\\') {
		return nil, false
	}
	var out []string
	for alt := range strings.SplitSeq(val[open+1:open+end], ",") {
		g, ok := rgGlobs(val[:open] + alt + val[open+end+1:])
		if !ok || len(out)+len(g) > maxGlobAlternatives {
			return nil, false
		}
		out = append(out, g...)
	}
	return out, true
}

// grepFilterOption returns the glob grep's --include limits the search to; an abbreviation of it
// is not read.
func grepFilterOption(name, val string) ([]string, bool) {
	switch {
	case name == optInclude:
		return filterGlob(val)
	case strings.HasPrefix(name, "--inc"):
		return nil, false
	}
	return nil, true
}

// filterGlob returns an inclusion glob, folded; an exclusion ("!x") limits nothing further.
func filterGlob(val string) ([]string, bool) {
	switch {
	case strings.HasPrefix(val, "!"):
		return nil, true
	case val == "" || strings.Contains(val, "/"):
		return nil, false
	}
	g, known := canonicalGlob(val)
	if !known {
		return nil, false
	}
	return []string{foldName(g)}, true
}

// filterMayName reports whether a file the entry protects could pass the filter glob: a name
// matches both the glob and the entry's last part ("*env" and ".env", "*.local" and ".env.*"),
// unless the glob passes only source code and the entry is a "NAME.*" one ("*_test.go" and
// ".env.*": no one keeps .env.go).
func filterMayName(f string, e *pathEntry) bool {
	if strings.HasSuffix(e.prefix, ".") && sourceExtensions[path.Ext(f)] {
		return false
	}
	last := strings.TrimRight(foldName(e.pattern), "/")
	return globsMeet(f, last[strings.LastIndexByte(last, '/')+1:])
}

// filteredProjectVerdict is projectVerdict for a search that reads only the files whose names
// pass its filter: the first unanchored entry whose example, directly inside dir, could
// pass and that the policy blocks for a read.
func (c *pathPolicy) filteredProjectVerdict(dir string, filter []string) (pathVerdict, string, bool) {
	for k := range numPathKinds {
		if !k.blocks(opRead) {
			continue
		}
		for i := range c.kinds[k].entries {
			e := &c.kinds[k].entries[i]
			if e.negate || e.anchored || e.example == "" {
				continue
			}
			for _, f := range filter {
				if !filterMayName(f, e) {
					continue
				}
				inside := strings.TrimSuffix(dir, "/") + "/" + e.example
				if v, ok := c.check(inside, opRead, false); ok {
					return v, inside, true
				}
				break
			}
		}
	}
	return pathVerdict{}, "", false
}
