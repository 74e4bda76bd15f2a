package safety

import (
	"net/url"
	"slices"
	"strings"
)

// SQL that names a file makes the client open it here. DuckDB reads a file named by a string
// where a table goes (select * from '.env', join '.env') and by its file-reading table functions
// (read_csv, read_text, read_blob, read_parquet, glob, st_read, ...); COPY ... FROM reads one,
// COPY ... TO and EXPORT DATABASE write one, ATTACH opens (and may create) a database file,
// IMPORT DATABASE runs the SQL a directory holds. SQLite's ATTACH and VACUUM INTO open or create
// the database file their expression names. Strings anywhere else (comparisons, LIKE patterns,
// regular expressions, values selected) are data, not files.
//
// The engine reads the text as SQL tokens, so a comment or missing space between words does not
// hide a statement, and judges the file a plain string literal names. A file position holding
// anything else (a concatenation, a function call, an escape or dollar-quoted string, a
// parameter) is a path computed when the SQL runs: code the engine cannot see. Dot-commands and
// readfile() are opaque too (sqliteCode).

// sqlTokenKind is what one SQL token is.
type sqlTokenKind uint8

const (
	sqlWord   sqlTokenKind = iota // a keyword or identifier, lower-cased
	sqlQuoted                     // a "quoted identifier", its value
	sqlString                     // a plain 'string', its value
	sqlCoded                      // a value the engine does not decode: E'..', x'..', $$..$$, a parameter ($1, ?)
	sqlPunct                      // one character of punctuation, or ||
	sqlNumber
)

type sqlToken struct {
	kind sqlTokenKind
	s    string
}

// sqlTokens splits SQL text into tokens, dropping white space and comments.
func sqlTokens(t string) []sqlToken {
	var out []sqlToken
	for i := sqlSkip(t, 0); i < len(t); i = sqlSkip(t, i) {
		var tok sqlToken
		tok, i = sqlNextToken(t, i)
		out = append(out, tok)
	}
	return out
}

// sqlSkip returns the index of the next token at or after i, past white space and comments.
func sqlSkip(t string, i int) int {
	for i < len(t) {
		switch {
		case strings.IndexByte(" \t\n\r\f\v", t[i]) >= 0:
			i++
		case strings.HasPrefix(t[i:], "--"):
			i = skipTo(t, i+2, "\n")
		case strings.HasPrefix(t[i:], "/*"):
			i = skipTo(t, i+2, "*/")
		default:
			return i
		}
	}
	return i
}

// sqlNextToken returns the token starting at t[i] and the index past it.
func sqlNextToken(t string, i int) (sqlToken, int) {
	c := t[i]
	switch {
	case c == '\'':
		v, end := sqlQuotedText(t, i)
		return sqlToken{sqlString, v}, end
	case c == '"':
		v, end := sqlQuotedText(t, i)
		return sqlToken{sqlQuoted, v}, end
	case c == '$':
		// A parameter ($1, $name) or a dollar-quoted string ($$...$$, $tag$...$tag$).
		end := identEnd(t, i+1)
		if end < len(t) && t[end] == '$' {
			end = skipTo(t, end+1, t[i:end+1])
		}
		return sqlToken{sqlCoded, t[i:end]}, end
	case c == '?':
		return sqlToken{sqlCoded, "?"}, i + 1
	case c >= '0' && c <= '9':
		end := i + 1
		for end < len(t) && (isIdentByte(t[end]) || t[end] == '.') {
			end++
		}
		return sqlToken{sqlNumber, t[i:end]}, end
	case isIdentByte(c):
		end := identEnd(t, i)
		// E'\x2e', x'2e', r'...': a prefixed string. Only a one-letter prefix is one: a longer word
		// is a keyword followed by a string (attach'x.db'as a, vacuum into'f').
		if end == i+1 && end < len(t) && t[end] == '\'' {
			_, end = sqlQuotedText(t, end)
			return sqlToken{sqlCoded, t[i:end]}, end
		}
		return sqlToken{sqlWord, strings.ToLower(t[i:end])}, end
	case strings.HasPrefix(t[i:], "||"):
		return sqlToken{sqlPunct, "||"}, i + 2
	}
	return sqlToken{sqlPunct, t[i : i+1]}, i + 1
}

// identEnd returns the index past the identifier characters at t[i:].
func identEnd(t string, i int) int {
	for i < len(t) && isIdentByte(t[i]) {
		i++
	}
	return i
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// skipTo returns the index just past the next end at or after i, or the text's end.
func skipTo(t string, i int, end string) int {
	if j := strings.Index(t[i:], end); j >= 0 {
		return i + j + len(end)
	}
	return len(t)
}

// sqlQuotedText returns the value of the quoted text starting at t[i] (a doubled quote is one
// quote inside it) and the index past its closing quote.
func sqlQuotedText(t string, i int) (string, int) {
	q := t[i]
	var b strings.Builder
	for j := i + 1; j < len(t); j++ {
		if t[j] != q {
			b.WriteByte(t[j])
			continue
		}
		if j+1 < len(t) && t[j+1] == q {
			b.WriteByte(q)
			j++
			continue
		}
		return b.String(), j + 1
	}
	return b.String(), len(t)
}

// sqlFile is a file SQL names: its literal text and what the client does to it.
type sqlFile struct {
	lit string
	op  pathOp
}

// sqlScan returns the files one SQL text of the program names, and why it is opaque when a file
// position holds what the engine cannot read.
func sqlScan(prog, text string) ([]sqlFile, string) {
	toks := sqlTokens(text)
	if prog == cmdSqlite3 {
		return sqliteFiles(toks)
	}
	return duckdbFiles(toks)
}

// sqlStatements calls f with each statement's tokens (split at semicolons).
func sqlStatements(toks []sqlToken, f func([]sqlToken)) {
	start := 0
	for i, t := range toks {
		if t.kind == sqlPunct && t.s == ";" {
			f(toks[start:i])
			start = i + 1
		}
	}
	f(toks[start:])
}

// sqlStringKind reports whether a token is a string of any spelling.
func sqlStringKind(t sqlToken) bool { return t.kind == sqlString || t.kind == sqlCoded }

// sqlStringRun returns the token at toks[i] and the strings right after it: DuckDB joins strings
// that only white space with a newline separates ('.e'
// 'nv' is '.env'), so a file position holding two is a file computed.
func sqlStringRun(toks []sqlToken, i int) []sqlToken {
	j := i + 1
	for j < len(toks) && sqlStringKind(toks[j]) {
		j++
	}
	return toks[i:min(j, len(toks))]
}

// sqlIs reports whether toks[i] is the word w.
func sqlIs(toks []sqlToken, i int, w string) bool {
	return i < len(toks) && toks[i].kind == sqlWord && toks[i].s == w
}

// sqlPlainFile returns a lone token naming a file as a plain literal: a string (or, where
// quoted allows it, a quoted name).
func sqlPlainFile(toks []sqlToken, quoted bool) (string, bool) {
	if len(toks) != 1 {
		return "", false
	}
	t := toks[0]
	return t.s, t.kind == sqlString || quoted && t.kind == sqlQuoted
}

// sqlDepth returns the bracket depth d after the token t.
func sqlDepth(d int, t sqlToken) int {
	if t.kind == sqlPunct {
		switch t.s {
		case "(", "[", "{":
			return d + 1
		case ")", "]", "}":
			return d - 1
		}
	}
	return d
}

// duckdbFileFunction reports whether DuckDB's function of this name reads the file its first
// argument names: the core and extension readers (read_csv, read_json_objects, read_xlsx,
// st_read, st_readosm, sqlite_scan, parquet_metadata, iceberg_scan, delta_scan, ...) and glob.
func duckdbFileFunction(name string) bool {
	return strings.HasPrefix(name, "read_") || strings.HasPrefix(name, "st_read") ||
		strings.HasSuffix(name, "_scan") || strings.HasPrefix(name, "parquet_") ||
		strings.HasPrefix(name, "iceberg_") || strings.HasPrefix(name, "delta_") ||
		name == "glob" || name == "sniff_csv" || name == "sqlite_attach"
}

// sqlFinds collects the files SQL names and the first reason it is opaque.
type sqlFinds struct {
	files []sqlFile
	why   string
}

func (f *sqlFinds) opaque(why string) {
	if f.why == "" {
		f.why = why
	}
}

// file judges one file position: a plain string literal (or, read, a quoted name) is the file;
// anything else is computed when the SQL runs.
func (f *sqlFinds) file(arg []sqlToken, op pathOp, what string) {
	if lit, ok := sqlPlainFile(arg, op == opRead); ok {
		f.files = append(f.files, sqlFile{lit, op})
		return
	}
	f.opaque("DuckDB's " + what + " names a file computed by an expression")
}

// duckdbFiles returns the files DuckDB's SQL names, and why it is opaque.
func duckdbFiles(toks []sqlToken) ([]sqlFile, string) {
	f := &sqlFinds{}
	for i, t := range toks {
		if t.kind == sqlQuoted && i+1 < len(toks) && toks[i+1].s == "(" {
			// "read_text"('.env'): a quoted name is a function's name too, in any case.
			toks[i] = sqlToken{sqlWord, strings.ToLower(t.s)}
		}
		if toks[i].kind == sqlWord {
			f.duckdbWord(toks, i)
		}
	}
	sqlStatements(toks, f.duckdbStatement)
	return f.files, f.why
}

// duckdbWord judges the word toks[i] where it may stand in any statement: a file-reading
// function's call, FROM or JOIN before a file, a setting that moves relative paths.
func (f *sqlFinds) duckdbWord(toks []sqlToken, i int) {
	t, next := toks[i], i+1
	call := next < len(toks) && toks[next].kind == sqlPunct && toks[next].s == "("
	switch {
	case t.s == "file_search_path" || t.s == "home_directory":
		f.opaque("DuckDB's " + t.s + " moves where relative paths are read")
	case call && (t.s == "query" || t.s == "query_table"):
		f.opaque("DuckDB's " + t.s + "() runs SQL held in a string")
	case call && duckdbFileFunction(t.s):
		f.fileArgument(toks, next+1, t.s)
	case slices.Contains(tableWords, t.s):
		f.tableRef(toks, next, t.s)
		if t.s == sqlFrom {
			f.duckdbFromList(toks, next)
		}
	}
}

// fileArgument judges the first argument, at toks[i], of a call to a file-reading function: a
// string, or a list of strings ['a.csv', 'b.csv'], is the files read; anything else is a file
// computed. It reads no further than the literals, so nested calls cost no rescans.
func (f *sqlFinds) fileArgument(toks []sqlToken, i int, name string) {
	ends := func(j int) bool {
		return j < len(toks) && (toks[j].s == "," || toks[j].s == ")") && toks[j].kind == sqlPunct
	}
	var lits []string
	j := i
	if j < len(toks) && toks[j].kind == sqlPunct && toks[j].s == "[" {
		for j++; j < len(toks) && toks[j].kind == sqlString; j += 2 {
			lits = append(lits, toks[j].s)
			if j+1 < len(toks) && toks[j+1].kind == sqlPunct && toks[j+1].s == "]" {
				j += 2
				break
			}
			if j+1 >= len(toks) || toks[j+1].s != "," {
				lits = nil // neither "," nor "]" after an element: computed
				break
			}
		}
	} else if j < len(toks) && toks[j].kind == sqlString {
		lits, j = []string{toks[j].s}, j+1
	}
	if len(lits) == 0 || !ends(j) {
		f.opaque("DuckDB's " + name + "() names a file computed by an expression")
		return
	}
	for _, lit := range lits {
		f.files = append(f.files, sqlFile{lit, opRead})
	}
}

// sqlFrom is the word a FROM list starts with.
const sqlFrom = "from"

// tableWords are the words a table (or a file DuckDB scans as one) follows: FROM, JOIN, USING
// (DELETE ... USING, MERGE ... USING), DESCRIBE, SUMMARIZE, PIVOT, UNPIVOT.
var tableWords = strings.Fields("from join using describe summarize pivot unpivot")

// tableRef judges the token at toks[i] where a table goes: a string or quoted name is a file
// read; a string the engine does not decode is a file computed.
func (f *sqlFinds) tableRef(toks []sqlToken, i int, after string) {
	if i >= len(toks) {
		return
	}
	switch toks[i].kind {
	case sqlString, sqlQuoted:
		if run := sqlStringRun(toks, i); len(run) > 1 {
			f.opaque("DuckDB's " + strings.ToUpper(after) + " names a file of strings it joins")
			return
		}
		f.files = append(f.files, sqlFile{toks[i].s, opRead})
	case sqlCoded:
		f.opaque("DuckDB's " + strings.ToUpper(after) + " names a file computed by an expression")
	}
}

// duckdbFromList judges the tables after the commas of a FROM list (from t, '.env'), up to the
// clause that ends it or the next FROM (whose own list is judged for it, so no list is read
// twice).
func (f *sqlFinds) duckdbFromList(toks []sqlToken, i int) {
	d := 0
	for j := i; j < len(toks) && d >= 0; j++ {
		t := toks[j]
		switch {
		case d == 0 && t.kind == sqlPunct && t.s == ",":
			f.tableRef(toks, j+1, sqlFrom)
		case d == 0 && t.kind == sqlPunct && t.s == ";",
			d == 0 && t.kind == sqlWord && j > i && (t.s == sqlFrom || slices.Contains(fromListEnds, t.s)):
			return
		}
		d = sqlDepth(d, t)
	}
}

// fromListEnds are the words that end a FROM list.
var fromListEnds = strings.Fields("where group having qualify window order limit offset union except intersect " +
	"returning select set values")

// duckdbStatement judges the statements that name a file by their first word: COPY ... TO,
// ATTACH, EXPORT and IMPORT DATABASE, LOAD and INSTALL ... FROM of an extension file.
//
//nolint:goconst // SQL keywords read best literally, next to their neighbours
func (f *sqlFinds) duckdbStatement(st []sqlToken) {
	if len(st) < 2 || st[0].kind != sqlWord {
		return
	}
	switch st[0].s {
	case "copy":
		f.duckdbCopyTo(st)
	case "attach":
		j := 1
		for j < len(st) && st[j].kind == sqlWord && slices.Contains(attachWords, st[j].s) {
			j++
		}
		if j < len(st) {
			f.file(sqlStringRun(st, j), opWrite, "ATTACH")
		}
	case subExport, subImport:
		f.duckdbDatabaseDir(st)
	case "load":
		if st[1].kind != sqlWord {
			f.opaque("DuckDB's LOAD runs an extension library from a file")
		}
	case subInstall:
		for j := range st {
			if sqlIs(st, j, sqlFrom) && j+1 < len(st) && st[j+1].kind != sqlWord {
				f.opaque("DuckDB's INSTALL FROM runs an extension library from a file")
			}
		}
	}
}

// attachWords are the words between ATTACH and the file it names.
var attachWords = strings.Fields("database if not exists or replace")

// subImport is the word that starts DuckDB's IMPORT DATABASE (and a few tools' import command).
const subImport = "import"

// duckdbDatabaseDir judges EXPORT DATABASE [db TO] 'dir' [(options)], which writes the
// directory, and IMPORT DATABASE 'dir', which reads it and runs the SQL it holds.
func (f *sqlFinds) duckdbDatabaseDir(st []sqlToken) {
	if !sqlIs(st, 1, "database") || len(st) < 3 {
		return
	}
	if st[0].s == subImport {
		f.file(sqlStringRun(st, 2), opRead, "IMPORT DATABASE")
		f.opaque("DuckDB's IMPORT DATABASE runs the SQL a directory holds")
		return
	}
	j := slices.IndexFunc(st, func(t sqlToken) bool { return t.kind == sqlPunct && t.s == "(" })
	if j < 0 {
		j = len(st)
	}
	k := j - 1
	for k > 2 && sqlStringKind(st[k-1]) {
		k--
	}
	f.file(st[k:j], opWrite, "EXPORT DATABASE")
}

// duckdbCopyTo judges COPY t TO 'f' and COPY (query) TO 'f': the TO outside brackets, before
// what is no name (COPY FROM DATABASE a TO b copies between databases).
func (f *sqlFinds) duckdbCopyTo(st []sqlToken) {
	d := 0
	for j, t := range st {
		if d == 0 && sqlIs(st, j, "to") && j+1 < len(st) && st[j+1].kind != sqlWord {
			f.file(sqlStringRun(st, j+1), opWrite, "COPY TO")
		}
		d = sqlDepth(d, t)
	}
}

// sqliteFiles returns the files SQLite's SQL names: ATTACH [DATABASE] expr AS name and VACUUM
// [schema] INTO expr open (and create) the file the expression names. SQLite takes a quoted
// or bare name there as a string, too.
func sqliteFiles(toks []sqlToken) ([]sqlFile, string) {
	var files []sqlFile
	why := ""
	sqlStatements(toks, func(st []sqlToken) {
		for len(st) > 0 && (sqlIs(st, 0, "explain") || sqlIs(st, 0, "query") || sqlIs(st, 0, "plan")) {
			st = st[1:]
		}
		var expr []sqlToken
		switch {
		case sqlIs(st, 0, "attach"):
			j := 1
			if sqlIs(st, j, "database") {
				j++
			}
			end := j
			for end < len(st) && !sqlIs(st, end, "as") {
				end++
			}
			expr = st[j:end]
		case sqlIs(st, 0, "vacuum"):
			for j := range st {
				if sqlIs(st, j, "into") {
					expr = st[j+1:]
					break
				}
			}
			if expr == nil {
				return
			}
		default:
			return
		}
		if len(expr) == 1 && (expr[0].kind == sqlString || expr[0].kind == sqlQuoted || expr[0].kind == sqlWord) {
			files = append(files, sqlFile{expr[0].s, opWrite})
		} else if why == "" {
			why = "SQLite's " + strings.ToUpper(st[0].s) + " names a file computed by an expression"
		}
	})
	return files, why
}

// sqlLocalPaths returns the local paths one file literal names: a file: URI's path (SQLite's
// query after "?" dropped, percent escapes decoded as well as kept), nothing for a remote URL
// (s3://, https://, hf://, md:) or an in-memory database.
func sqlLocalPaths(prog, lit string) []string {
	low := strings.ToLower(lit)
	switch {
	case lit == "" || lit == ":memory:" || strings.HasPrefix(low, "md:") || strings.HasPrefix(low, "motherduck:"):
		return nil
	case strings.HasPrefix(low, "file:"):
		lit = lit[len("file:"):]
		if strings.HasPrefix(lit, "//") {
			// file://host/path: the path starts at the first slash after the host.
			rest := lit[2:]
			if i := strings.IndexByte(rest, '/'); i >= 0 {
				lit = rest[i:]
			} else {
				lit = rest
			}
		}
		if prog == cmdSqlite3 {
			if i := strings.IndexAny(lit, "?#"); i >= 0 {
				lit = lit[:i]
			}
		}
		if dec, err := url.PathUnescape(lit); err == nil && dec != lit {
			return []string{lit, dec}
		}
		return []string{lit}
	case strings.Contains(lit, "://"):
		return nil
	}
	return []string{lit}
}

// sqlFiles records the files a DuckDB or SQLite command's SQL names in its arguments (the
// database operand and options name no files SQL opens).
func (a *analyzer) sqlFiles(s *segment) {
	for _, w := range s.words[1:] {
		a.sqlTextFiles(s.name, w)
	}
}

// sqlFilesCode returns why a DuckDB or SQLite command's SQL in its arguments names a file the
// engine cannot read, or runs code from a file.
func sqlFilesCode(s *segment) string {
	for _, w := range s.words[1:] {
		if _, why := sqlScan(s.name, w.s); why != "" {
			return why
		}
	}
	return ""
}

// sqlInputFiles records the files SQL fed on standard input names (echo "select * from
// read_csv('.env')" | duckdb, a here-document), for the clients whose SQL sqlTextFiles reads,
// and returns why that SQL is opaque, or runs a dot-command or file function (sqliteInputCode).
func (a *analyzer) sqlInputFiles(prog string, text word) string {
	if prog != cmdDuckdb && prog != cmdSqlite3 {
		return ""
	}
	if why := a.sqlTextFiles(prog, text); why != "" {
		return why
	}
	return sqliteInputCode(prog, text.s)
}

// sqlStageFiles records the files SQL printed by a stage piped into the client names: each word
// echo or printf prints is SQL text (printf "attach '.env' as x;" | sqlite3 db), and so is the
// stage's whole text. A file printed with an escape or a printf format (printf "attach '%s' as x"
// .env, '\x2eenv') is one the printer computes: opaque. It returns why the SQL is opaque, or
// what it prints runs a dot-command or file function (sqlitePrintedCode).
func (a *analyzer) sqlStageFiles(prog string, stage *segment) string {
	if prog != cmdDuckdb && prog != cmdSqlite3 {
		return ""
	}
	why := a.sqlTextFiles(prog, word{s: stage.text})
	if stage.name != cmdEcho && stage.name != cmdPf {
		return why
	}
	for _, w := range stage.words[1:] {
		files, wordWhy := sqlScan(prog, w.s)
		if why == "" {
			why = wordWhy
		}
		for _, f := range files {
			if why == "" && strings.ContainsAny(f.lit, `\%`) {
				why = "a file in the SQL " + stage.name + " prints is computed by an escape or a format"
			}
		}
		a.sqlTextFiles(prog, w)
	}
	if why == "" {
		why = sqlitePrintedCode(prog, stage)
	}
	return why
}

// sqlTextFiles records the files one SQL text names and returns why it is opaque. A literal the
// shell computed part of is a path computed at run time.
func (a *analyzer) sqlTextFiles(prog string, w word) string {
	files, why := sqlScan(prog, w.s)
	for _, f := range files {
		for _, p := range sqlLocalPaths(prog, f.lit) {
			glob := prog == cmdDuckdb && f.op == opRead && hasGlobMeta(p)
			a.touch(word{s: p, dynamic: w.dynamic && strings.Contains(p, "$"), glob: glob}, f.op)
		}
	}
	return why
}
