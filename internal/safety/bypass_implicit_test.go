package safety

// Review R's rows: files a program writes or reads that its arguments do not spell as paths. The
// database file sqlite3 and duckdb open is written (SQLite creates a missing one as soon as it
// runs anything, DuckDB writes its header), unless the open is read-only.

func implicitCatalogue() []classCase {
	sh := shCall
	zeroD, noWriteD := denied(zero), denied(RulePrefixPathPolicy+"noWrite")
	const (
		dbFile = "the database file a SQL shell opens"
	)
	return []classCase{
		{dbFile, "sqlite3 creates a table in a hook", sh(`sqlite3 .git/hooks/pre-commit "create table t(a)"`), noWriteD, sh(`sqlite3 app.db "create table t(a)"`), false},
		{dbFile, "sqlite3 writes a shell start-up file", sh(`sqlite3 ~/.bashrc 'create table t(a)'`), noWriteD, sh(`sqlite3 -readonly ~/.bashrc 'select 1'`), false},
		{dbFile, "sqlite3's SELECT creates the missing file", sh(`sqlite3 .git/hooks/post-checkout 'select 1'`), noWriteD, sh(`sqlite3 -header -column app.db 'select * from users limit 5'`), false},
		{dbFile, "sqlite3 fed SQL on standard input", sh(`echo 'create table t(a);' | sqlite3 ~/.bashrc`), noWriteD, sh(`echo 'select count(*) from t;' | sqlite3 app.db`), false},
		{dbFile, "sqlite3's file: URI opened read-write", sh(`sqlite3 'file:.git/hooks/pre-commit?mode=rwc' 'create table t(a)'`), noWriteD, sh(`sqlite3 'file:.git/x.db?mode=ro' 'select 1'`), false},
		{dbFile, "sqlite3's URI whose last mode is rwc", sh(`sqlite3 'file:.git/hooks/pre-commit?mode=ro&mode=rwc' 'create table t(a)'`), noWriteD, sh(`sqlite3 'file:.git/x.db?immutable=1' 'select 1'`), false},
		{dbFile, "sqlite3 after an option with two values", sh(`sqlite3 -lookaside 100 10 ~/.bashrc 'create table t(a)'`), noWriteD, sh(`sqlite3 -separator , app.db 'select 1'`), false},
		{dbFile, "sqlite3 after a double-dash option with a value", sh(`sqlite3 --nullvalue x ~/.profile 'create table t(a)'`), noWriteD, sh(`sqlite3 --nullvalue NULL app.db 'select 1'`), false},
		{dbFile, "duckdb writes its header", sh(`duckdb ~/.profile -c 'create table t(a int)'`), noWriteD, sh(`duckdb app.duckdb -c 'select 42'`), false},
		{dbFile, "duckdb's database after -c", sh(`duckdb -c 'select 1' .git/hooks/pre-push`), noWriteD, sh(`duckdb -readonly .git/x.duckdb -c 'select 1'`), false},
		{dbFile, "sqlite3 opens .env", sh(`sqlite3 -readonly .env 'select 1'`), zeroD, sh(`sqlite3 :memory: 'select 1'`), false},
	}
}
