package safety

import (
	"regexp"
	"slices"
	"strings"
)

// SQL that names a file makes the client open it here: DuckDB reads a file named by any string
// where a table goes (select * from '.env') and by dozens of functions (read_csv, read_text,
// read_blob, read_parquet, glob, st_read, ...), COPY ... FROM reads one and COPY ... TO writes one,
// ATTACH opens a database file to read and write; SQLite's ATTACH and VACUUM INTO do the same.
// The engine judges what the text names: every string literal in DuckDB's SQL (a literal that is
// no file names a path in the project, which costs nothing), and ATTACH's and VACUUM INTO's in
// SQLite's, whose other strings are data. Dot-commands and readfile() are opaque (sqliteCode).

// sqlLiteral is a single-quoted SQL string (” is a quote inside it).
var sqlLiteral = regexp.MustCompile(`'((?:[^']|'')*)'`)

// sqliteFileLiteral is a literal SQLite opens as a database file: ATTACH [DATABASE] 'f', VACUUM
// [schema] INTO 'f'.
var sqliteFileLiteral = regexp.MustCompile(`(?i)\b(?:attach\s+(?:database\s+)?|vacuum\s+(?:\w+\s+)?into\s+)'((?:[^']|'')*)'`)

// sqlFiles records the files a DuckDB or SQLite command's SQL names: in its arguments (the
// database operand and options have no quotes to find).
func (a *analyzer) sqlFiles(s *segment) {
	for _, w := range s.words[1:] {
		if strings.IndexByte(w.s, '\'') >= 0 {
			a.sqlTextFiles(s.name, w)
		}
	}
}

// sqlInputFiles records the files SQL fed on standard input names (echo "select * from
// read_csv('.env')" | duckdb, a here-document), for the clients whose SQL sqlTextFiles reads.
func (a *analyzer) sqlInputFiles(prog string, text word) {
	if (prog == cmdDuckdb || prog == cmdSqlite3) && strings.IndexByte(text.s, '\'') >= 0 {
		a.sqlTextFiles(prog, text)
	}
}

// sqlTextFiles records the files one SQL text names, read, or written when the literal follows
// TO, INTO or ATTACH. A literal the shell computed part of is a path computed at run time; a URL
// (s3://, https://) is not a local file.
func (a *analyzer) sqlTextFiles(prog string, w word) {
	re := sqlLiteral
	if prog == cmdSqlite3 {
		re = sqliteFileLiteral
	}
	for _, m := range re.FindAllStringSubmatchIndex(w.s, -1) {
		lit := strings.ReplaceAll(w.s[m[2]:m[3]], "''", "'")
		if lit == "" || strings.Contains(lit, "://") {
			continue
		}
		p := word{s: lit, dynamic: w.dynamic && strings.Contains(lit, "$"), glob: hasGlobMeta(lit)}
		op := opRead
		if sqlWrites(w.s[:m[0]]) {
			op = opWrite
		}
		a.touch(p, op)
	}
}

// sqlWrites says whether a literal after this SQL text is a file written: COPY ... TO 'f',
// VACUUM INTO 'f', ATTACH [DATABASE] [IF NOT EXISTS] 'f'.
func sqlWrites(before string) bool {
	before = strings.TrimRight(before, " \t\n(")
	i := strings.LastIndexAny(before, " \t\n(")
	return slices.Contains(sqlWriteWords, strings.ToLower(before[i+1:]))
}

// sqlWriteWords are the SQL words after which a literal names a file written (sqlWrites).
var sqlWriteWords = strings.Fields("to into attach database exists")

// duckdbExtensionFile is DuckDB's LOAD of an extension from a file, or INSTALL from a file or a
// repository the text names: the extension is a library the client runs.
var duckdbExtensionFile = regexp.MustCompile(`(?i)\bload\s+'|\binstall\b[^;]*\bfrom\s+'`)

// duckdbCode returns why a DuckDB command runs an extension library named by a file.
func duckdbCode(s *segment) string {
	for _, w := range s.words[1:] {
		if m := duckdbExtensionFile.FindString(w.s); m != "" {
			return "DuckDB's " + strings.TrimSpace(strings.TrimRight(m, "'")) + " runs an extension library from a file"
		}
	}
	return ""
}
