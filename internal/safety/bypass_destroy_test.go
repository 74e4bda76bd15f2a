package safety

// The fourth attacker review's rows: destructive operations the rules read word by word, or by a
// program's name, missed when the words were spelt otherwise (SQL comments, a statement fed on
// standard input), when the program was another spelling or another program (helm's aliases,
// oc, terragrunt run-all) or when a global option came before the subcommand.

func destroyCatalogue() []classCase {
	sh := shCall
	const destroy = "destructive operation"
	dbDrop := asked(dc + "database-destroy")
	return []classCase{
		// SQL is read as the server reads it: comments separate words, and what a client is fed on
		// standard input runs as its -c does.
		{destroy, "DROP DATABASE with a comment between the words", sh(`psql -c 'DROP/**/DATABASE prod'`), dbDrop, sh(`psql -c 'select 1 /* drop */'`), false},
		{destroy, "DROP DATABASE with a line comment between the words", sh("psql -c 'drop -- x\n database prod'"), dbDrop, sh("psql -c 'select 1 -- drop\n'"), false},
		{destroy, "mysql's executable comment", sh(`mysql -e 'DROP /*!50000 DATABASE */ prod'`), dbDrop, sh(`mysql -e 'select /*!50000 1 */'`), false},
		{destroy, "DROP OWNED, every object of a role", sh(`psql -c 'DROP OWNED BY app'`), dbDrop, sh(`psql -c 'select owner from t'`), false},
		{destroy, "a column dropped", sh(`psql -c 'alter table users drop column email'`), dbDrop, sh(`psql -c 'alter table users add column email text'`), false},
		{destroy, "a DELETE without WHERE", sh(`psql -c 'delete from users'`), dbDrop, sh(`psql -c 'delete from sessions where expires < now()'`), false},
		{destroy, "DROP DATABASE on a here-string", sh(`psql <<< 'drop database prod'`), dbDrop, sh(`psql db <<< 'select 1'`), false},
		{destroy, "DROP TABLE in a here-document", sh("psql <<SQL\nDROP TABLE users;\nSQL"), dbDrop, sh("psql <<SQL\nselect * from users;\nSQL"), false},
		{destroy, "DROP DATABASE piped from echo", sh(`echo 'drop database prod' | psql`), dbDrop, sh(`echo 'select 1' | psql`), false},
		{destroy, "DROP TABLE piped from printf", sh(`printf 'drop table t;' | psql -d app`), dbDrop, sh(`printf 'select 1;' | psql -d app`), false},
		{destroy, "mysql's DROP DATABASE on a here-string", sh(`mysql <<< 'drop database x'`), dbDrop, sh(`mysql db <<< 'show tables'`), false},
		{destroy, "mysql's DROP DATABASE piped from echo", sh(`echo 'DROP DATABASE x' | mysql -u root`), dbDrop, sh(`echo 'show databases' | mysql -u root`), false},
		{destroy, "duckdb's DROP TABLE on a here-string", sh(`duckdb x.db <<< 'drop table t'`), dbDrop, sh(`duckdb x.db <<< 'select 42'`), false},
		{destroy, "redis FLUSHALL piped from echo", sh(`echo FLUSHALL | redis-cli`), dbDrop, sh(`echo PING | redis-cli`), false},
		{destroy, "redis FLUSHALL on a here-string", sh(`redis-cli -h db <<< flushall`), dbDrop, sh(`redis-cli -h db <<< 'GET k'`), false},
	}
}

func init() {
	more := map[string][]string{
		"database-destroy": {"psql -c 'DROP/**/DATABASE prod'", "psql -c 'DROP OWNED BY app'", "mysql -e 'delete from users;'",
			"psql <<< 'drop database prod'", "echo 'drop table t' | sqlite3 app.db", "cockroach sql -e 'drop database x'", "echo FLUSHALL | redis-cli"},
	}
	for id, hits := range more {
		ex := rulePackExamples[id]
		ex.hits = append(append([]string(nil), ex.hits...), hits...)
		ex.misses = append(append([]string(nil), ex.misses...), "psql -c 'delete from t where id = 1'", "echo 'select 1' | psql", "mysqladmin status")
		rulePackExamples[id] = ex
	}
}
