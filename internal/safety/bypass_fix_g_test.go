package safety

// Fix G's rows: SQL read as SQL. DuckDB opens a file only where one goes (its file-reading
// functions, FROM and JOIN, COPY, ATTACH, EXPORT and IMPORT DATABASE), so strings elsewhere (a
// regular expression, a LIKE pattern) are data; a file position holding anything but a plain
// string literal is a path computed when the SQL runs; a file: URI names the local file its path
// does; SQLite's ATTACH and VACUUM INTO write the file they name, however it is spelled.

func fixGCatalogue() []classCase {
	sh := shCall
	zeroD, noWriteD, opaque := denied(zero), denied(RulePrefixPathPolicy+"noWrite"), asked(RuleOpaqueCode)
	const (
		data     = "a DuckDB string that is data"
		computed = "a file SQL computes"
		uri      = "a file: URI in SQL"
		sqliteW  = "a file SQLite's SQL writes"
		table    = "a file where DuckDB scans a table"
		printed  = "a file in SQL printf computes"
	)
	return []classCase{
		{data, "duckdb's read_text of .env beside a regex", sh(`duckdb -c "select * from read_text('.env')"`), zeroD, sh(`duckdb -c "select regexp_replace(name, '.*', '') from t"`), false},
		{data, "duckdb's JOIN of .env beside SIMILAR TO", sh(`duckdb -c "select * from t join '.env' on true"`), zeroD, sh(`duckdb -c "select * from t where name similar to 'a.*'"`), false},
		{data, "duckdb's COPY of a query with a pattern", sh(`duckdb -c "copy (select 1) to '.git/hooks/pre-commit'"`), noWriteD, sh(`duckdb -c "copy (select * from t where a similar to 'x.*') to 'out/report.csv' (format csv, delimiter '|')"`), false},
		{data, "duckdb's FROM of a quoted name", sh(`duckdb -c 'select * from ".env"'`), zeroD, sh(`duckdb -c "select regexp_matches(x, '^/home/.*') from t"`), false},
		{data, "duckdb's reading function behind a comment", sh(`duckdb -c "select * from read_text /* c */ ('.env')"`), zeroD, sh(`duckdb -c "select * from t where name glob '*.env'"`), false},
		{data, "duckdb fed a pattern and a read of .env", sh(`echo "select * from read_text('.env')" | duckdb`), zeroD, sh(`echo "select regexp_replace(name, '.*', '') from t" | duckdb`), false},
		{computed, "duckdb's read_text of a concatenation", sh(`duckdb -c "select * from read_text('.en' || 'v')"`), opaque, sh(`duckdb -c "select * from read_csv('data/sales.csv')"`), false},
		{computed, "duckdb's read_text of concat()", sh(`duckdb -c "select * from read_text(concat('.e','nv'))"`), opaque, sh(`duckdb -c "select * from read_csv('data/sales.csv', delim = ',', header = true)"`), false},
		{computed, "duckdb's read_text of chr()", sh(`duckdb -c "select * from read_text(chr(46)||'env')"`), opaque, sh(`duckdb -c "select concat('a', chr(46), 'b') as s"`), false},
		{computed, "duckdb's read_text of a dollar-quoted string", sh(`duckdb -c 'select * from read_text($$.env$$)'`), opaque, sh(`duckdb -c 'select $$a$$ as s'`), false},
		{computed, "duckdb's read_text of an escape string", sh(`duckdb -c "select * from read_text(E'\x2eenv')"`), opaque, sh(`duckdb -c "select E'a\tb' as s"`), false},
		{computed, "duckdb's list with a computed file", sh(`duckdb -c "select * from read_text(['a', '.e'||'nv'])"`), opaque, sh(`duckdb -c "select * from read_csv(['a.csv', 'b.csv'])"`), false},
		{computed, "duckdb's COPY TO a dollar-quoted file", sh(`duckdb -c 'copy (select 1) to $$.git/hooks/pre-commit$$'`), opaque, sh(`duckdb -c "copy t to 'out/report.parquet'"`), false},
		{computed, "duckdb's query() of SQL in a string", sh(`duckdb -c "select * from query('select * from read_text(''.env'')')"`), opaque, sh(`duckdb -c "select query from log"`), false},
		{computed, "duckdb's IMPORT DATABASE", sh(`duckdb -c "import database '/tmp/x'"`), opaque, sh(`duckdb -c "export database 'backup'"`), false},
		{computed, "duckdb fed a computed file", sh(`echo "select * from read_text('.e'||'nv')" | duckdb`), opaque, sh(`echo "select * from read_csv('data.csv')" | duckdb`), false},
		{computed, "sqlite3's ATTACH of a concatenation", sh(`sqlite3 app.db "attach '.en'||'v' as x"`), opaque, sh(`sqlite3 app.db "attach 'other.db' as x"`), false},
		{computed, "sqlite3's VACUUM INTO a concatenation", sh(`sqlite3 app.db "vacuum into '.git/hooks/pre'||'-commit'"`), opaque, sh(`sqlite3 app.db "vacuum into 'backup.db'"`), false},
		{uri, "duckdb's read_text of file:///", sh(`duckdb -c "select * from read_text('file:///home/u/.env')"`), zeroD, sh(`duckdb -c "select * from read_parquet('s3://bucket/x.parquet')"`), false},
		{uri, "duckdb's COPY TO file:", sh(`duckdb -c "copy (select 1) to 'file:.git/hooks/pre-commit'"`), noWriteD, sh(`duckdb -c "copy t to 'file:out/report.parquet'"`), false},
		{uri, "sqlite3's ATTACH of a file: URI with a query", sh(`sqlite3 app.db "attach 'file:.env?mode=ro' as x"`), zeroD, sh(`sqlite3 app.db "attach database 'file:other.db?mode=ro' as x"`), false},
		{uri, "sqlite3's ATTACH of a percent-escaped URI", sh(`sqlite3 app.db "attach 'file:%2eenv' as x"`), zeroD, sh(`sqlite3 app.db "attach 'file:data%20set.db' as x"`), false},
		{sqliteW, "sqlite3's VACUUM INTO a hook", sh(`sqlite3 app.db "vacuum into '.git/hooks/pre-commit'"`), noWriteD, sh(`sqlite3 app.db "vacuum into 'backup.db'"`), false},
		{sqliteW, "sqlite3's ATTACH of a hook", sh(`sqlite3 app.db "attach '.git/hooks/pre-commit' as x"`), noWriteD, sh(`sqlite3 app.db "attach 'other.db' as x"`), false},
		{sqliteW, "sqlite3's ATTACH behind a comment", sh(`sqlite3 app.db "attach/**/'.env' as x"`), zeroD, sh(`sqlite3 app.db "select * from t where name like '%.env'"`), false},
		{sqliteW, "sqlite3's ATTACH of a double-quoted name", sh(`sqlite3 app.db 'attach ".env" as x'`), zeroD, sh(`sqlite3 app.db 'attach "other.db" as x'`), false},
		{table, "duckdb's reading function under a quoted name", sh(`duckdb -c 'select * from "READ_TEXT"('"'"'.env'"'"')'`), zeroD, sh(`duckdb -c 'select "upper"(name) from t'`), false},
		{computed, "duckdb's FROM of strings it joins", sh("duckdb -c \"select * from '.e'\n'nv'\""), opaque, sh("duckdb -c \"select 'a'\nfrom t\""), false},
		{computed, "duckdb's COPY TO strings it joins", sh("duckdb -c \"copy t to '.g'\n'it/hooks/pre-commit'\""), opaque, sh("duckdb -c \"copy t to\n'out.csv'\""), false},
		{computed, "duckdb's EXPORT DATABASE to strings it joins", sh("duckdb -c \"export database '.g'\n'it/hooks'\""), opaque, sh("duckdb -c \"export database\n'backup' (format parquet)\""), false},
		{table, "duckdb's FROM list with .env after a comma", sh(`duckdb -c "select * from t, '.env'"`), zeroD, sh(`duckdb -c "select * from t, u where t.a = u.a order by a, 'b'"`), false},
		{table, "duckdb's DESCRIBE of .env", sh(`duckdb -c "describe '.env'"`), zeroD, sh(`duckdb -c "describe t"`), false},
		{table, "duckdb's SUMMARIZE of .env", sh(`duckdb -c "summarize '.env'"`), zeroD, sh(`duckdb -c "summarize select * from 'data.csv'"`), false},
		{table, "duckdb's PIVOT of .env", sh(`duckdb -c "pivot '.env' on a using count(*)"`), zeroD, sh(`duckdb -c "pivot t on a using count(*)"`), false},
		{table, "duckdb's DELETE USING .env", sh(`duckdb -c "delete from t using '.env' e where t.a = e.a"`), zeroD, sh(`duckdb -c "delete from t using u where t.a = u.a"`), false},
		{printed, "printf's %s as the file sqlite3 attaches", sh(`printf "attach '%s' as x" .env | sqlite3 db`), opaque, sh(`printf "attach 'other.db' as x;\n" | sqlite3 db`), false},
		{printed, "printf's escape in the file sqlite3 attaches", sh(`printf "attach '\x2eenv' as x" | sqlite3 db`), opaque, sh(`printf "select * from t where a = '%s';" x | sqlite3 db`), false},
	}
}
