package safety

import (
	"net/url"
	"slices"
	"strings"
)

// The database file sqlite3 and duckdb open is their first argument that is not an option (or an
// option's value), and opening it writes it: SQLite creates a missing file as soon as it runs
// anything, a SELECT or a dot-command included (an empty file left behind; a CREATE turns a
// missing or empty file into a database), and DuckDB writes its header when it opens a file. So
// `sqlite3 .git/hooks/pre-commit "create table t(a)"` writes the hook, and a SELECT on a noWrite
// path is a write too: whether the file exists is not known before the command runs. Only a
// read-only open leaves the file as it was: -readonly, -deserialize (SQLite reads the file into
// memory), or SQLite's file: URI with mode=ro or immutable=1.

// sqlShellValueOptions are the options of sqlite3's and duckdb's shells that take the next word
// (two for -lookaside and -pagecache) as their value; both take "--name" for "-name".
//
//nolint:goconst // the shells' option spellings read best literally, next to their neighbours
var sqlShellValueOptions = map[string]int{
	"-cmd": 1, "-init": 1, "-separator": 1, "-newline": 1, "-nullvalue": 1, "-vfs": 1, "-maxsize": 1,
	"-mmap": 1, "-heap": 1, "-escape": 1, "-lookaside": 2, "-pagecache": 2,
	// duckdb's: a command to run, a script, a storage version.
	"-c": 1, "-s": 1, "-f": 1, "-storage-version": 1,
}

// sqlDatabase records the database file a sqlite3 or duckdb command opens, written unless the open
// is read-only. A computed word before it could be an option that takes the next word as its
// value, so then every later word could be the database.
func (a *analyzer) sqlDatabase(s *segment) {
	op := opWrite
	if s.hasExactFlag("-readonly") || s.hasExactFlag("--readonly") ||
		s.name == cmdSqlite3 && (s.hasExactFlag("-deserialize") || s.hasExactFlag("--deserialize")) {
		op = opRead
	}
	words := s.words[1:]
	unsure := false
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w.dynamic && (strings.HasPrefix(w.s, "$") || strings.HasPrefix(w.s, "-")) {
			unsure = true
			continue
		}
		if len(w.s) > 1 && w.s[0] == '-' {
			name := w.s
			if strings.HasPrefix(name, "--") {
				name = name[1:]
			}
			i += sqlShellValueOptions[name]
			continue
		}
		a.sqlDatabaseFile(s.name, w, op)
		if !unsure {
			return
		}
	}
}

// sqlDatabaseFile records one database operand: the local path it names (a file: URI's path,
// nothing for :memory: or a remote URL), read when a URI opens it read-only.
func (a *analyzer) sqlDatabaseFile(prog string, w word, op pathOp) {
	if prog == cmdSqlite3 && sqliteReadOnlyURI(w.s) {
		op = opRead
	}
	for _, p := range sqlLocalPaths(prog, w.s) {
		a.touch(w.with(p), op)
	}
}

// sqliteReadOnlyURI reports whether a file: URI opens its database read-only: its last mode
// parameter is ro, or its first immutable is true. SQLite decodes %HH escapes in parameters too.
func sqliteReadOnlyURI(v string) bool {
	if !strings.HasPrefix(strings.ToLower(v), "file:") {
		return false
	}
	_, query, ok := strings.Cut(v, "?")
	if !ok {
		return false
	}
	query, _, _ = strings.Cut(query, "#")
	readOnly, immutable, seen := false, false, false
	for param := range strings.SplitSeq(query, "&") {
		if dec, err := url.PathUnescape(param); err == nil {
			param = dec
		}
		switch key, val, _ := strings.Cut(param, "="); key {
		case uriMode:
			readOnly = val == "ro"
		case "immutable":
			// sqlite3_uri_boolean reads the first immutable=, not the last (immutable=0&immutable=1
			// is a write).
			if !seen {
				immutable, seen = slices.Contains(sqliteTrueWords, strings.ToLower(val)), true
			}
		}
	}
	return readOnly || immutable
}

// sqliteTrueWords are the spellings of true SQLite reads in a URI's boolean parameter (a number
// other than 1 too, which this does not count: the open is then judged a write).
var sqliteTrueWords = strings.Fields("1 on yes true")

// uriMode is the file: URI parameter that opens a database read-only (mode=ro).
const uriMode = "mode"
