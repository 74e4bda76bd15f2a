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
var sourceExtensions = map[string]bool{".go": true, ".rs": true, ".py": true, ".pyi": true, ".ts": true, ".tsx": true,
	".cts": true, ".mts": true, ".js": true, ".jsx": true, ".mjs": true, ".cjs": true, ".vue": true, ".java": true,
	".kt": true, ".kts": true, ".swift": true, ".c": true, ".h": true, ".cc": true, ".cpp": true, ".cxx": true,
	".hh": true, ".hpp": true, ".hxx": true, ".inl": true, ".md": true, ".markdown": true, ".mdx": true, ".mdown": true, ".mdwn": true, ".mkd": true, ".mkdn": true, ".css": true,
	".scss": true, ".htm": true, ".html": true, ".proto": true, ".rb": true, ".php": true, ".cs": true, ".scala": true}

// searchNameFilter returns the file-name globs a recursive content search reads only files of
// (rg's -g/--glob/--iglob and -t/--type, grep's --include), or nil when it reads every file.
func searchNameFilter(s *segment) []string {
	var globs []string
	rg := s.name == "rg"
	if s.unknownFlags || !rg && s.name != "grep" && s.name != "egrep" && s.name != "fgrep" {
		return nil // a computed word may be any option
	}
	for i := 1; i < len(s.words); i++ {
		w := s.words[i]
		if w.s == "--" {
			break
		}
		if !strings.HasPrefix(w.s, "-") {
			continue
		}
		name, val, attached := strings.Cut(w.s, "=")
		if !attached && i+1 < len(s.words) && filterOption(rg, name) {
			i++
			if s.words[i].dynamic {
				return nil
			}
			val = s.words[i].s
		} else if rg && len(name) > 2 && (name[:2] == "-g" || name[:2] == "-t") {
			name, val = name[:2], name[2:]
		} else if rg && name[1] != '-' && strings.ContainsAny(name, "gt") {
			return nil // a filter bundled after other letters (-ig GLOB)
		}
		switch {
		case rg && (name == "--type-add" || name == "--type-clear"):
			return nil // a type redefined: -t go may read *.env
		case rg && (name == "-t" || name == "--type"):
			tg, ok := rgTypeGlobs[val]
			if !ok {
				return nil
			}
			globs = append(globs, tg...)
		case rg && (name == "-g" || name == "--glob" || name == "--iglob"), !rg && name == optInclude:
			if strings.HasPrefix(val, "!") {
				continue // an exclusion limits nothing further
			}
			if val == "" || strings.Contains(val, "/") {
				return nil
			}
			globs = append(globs, foldName(val))
		case !rg && strings.HasPrefix(name, "--inc") && name != optInclude:
			return nil // an abbreviation the filter does not read
		}
	}
	return globs
}

// filterOption says whether a search option named apart takes the next word as the filter's
// value.
func filterOption(rg bool, name string) bool {
	if rg {
		return name == "-g" || name == "--glob" || name == "--iglob" || name == "-t" || name == "--type"
	}
	return name == optInclude
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
