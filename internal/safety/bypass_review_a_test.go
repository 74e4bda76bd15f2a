package safety

// Review A's rows: destructive and data-leaving operations the engine admitted. SQL a client
// runs that the engine cannot read (a script file, a run-time value, another program's output) is
// code it cannot see, as a shell's script file is; a kill of the agent's own shell or of the agent.

// reviewACommands are the project commands the rows' near misses need to be admitted at Default.
var reviewACommands = []ProjectCommand{
	{ID: "sqlite3", Command: "sqlite3 ..."},
}

func reviewACatalogue() []classCase {
	sh := shCall
	opaque := asked(RuleOpaqueCode)
	killInit, killAll := denied(dc+"kill-init"), denied(dc+"kill-all-matching")
	const (
		unread = "SQL the engine cannot read"
		self   = "the agent's own processes"
	)
	return []classCase{
		// A database client runs what it reads on standard input, or from a script file, as a shell
		// runs a script: a file, a run-time value or another program's output is opaque, as sh x.sh,
		// bash < x.sh and cat x.py | python3 are; text the engine read (echo, printf, a here-document)
		// is judged as -c's is.
		{unread, "an SQL file on sqlite3's standard input", sh(`sqlite3 app.db < drop.sql`), opaque, sh(`sqlite3 app.db 'select count(*) from t'`), false},
		{unread, "an SQL file on duckdb's standard input", sh(`duckdb x.db < drop.sql`), opaque, sh(`duckdb x.db <<< 'select 42'`), false},
		{unread, "duckdb's script file", sh(`duckdb x.db -f drop.sql`), opaque, sh(`duckdb x.db 'select 42'`), false},
		{unread, "duckdb's start-up file", sh(`duckdb -init drop.sql x.db`), opaque, sh(`duckdb -readonly x.db 'select 42'`), false},
		{unread, "trino's script file", sh(`trino -f drop.sql`), opaque, sh(`trino --execute 'show catalogs'`), false},
		{unread, "snowsql's script file", sh(`snowsql -c prod -f drop.sql`), opaque, sh(`snowsql -c prod -q 'select 1'`), false},
		{unread, "redis commands from a file", sh(`redis-cli < cmds.txt`), opaque, sh(`echo PING | redis-cli`), false},
		{unread, "a Lua script run on the redis server", sh(`redis-cli --eval purge.lua`), opaque, sh(`redis-cli -h db GET k`), false},
		{unread, "an SQL file piped into psql", sh(`cat drop.sql | psql`), opaque, sh(`echo 'select 1' | psql`), false},
		{unread, "a run-time value piped into psql", sh(`echo "$Q" | psql -d app`), opaque, sh(`echo 'select 1' | psql -d app`), false},
		{unread, "a run-time value printed into mysql", sh(`printf '%s' "$Q" | mysql`), opaque, sh(`printf 'show tables;' | mysql`), false},
		{unread, "a dump piped into psql", sh(`pg_dump src | psql dst`), opaque, sh(`psql dst -c 'select count(*) from t'`), false},
		{unread, "a decompressed file piped into sqlite3", sh(`gunzip -c dump.sql.gz | sqlite3 app.db`), opaque, sh(`echo 'select 1;' | sqlite3 app.db`), false},
		{unread, "a run-time here-document cat passes to psql", sh("cat <<SQL | psql\n$Q\nSQL"), opaque, sh("cat <<'SQL' | psql\nselect 1;\nSQL"), false},
		{unread, "a client command in a here-document cat passes to psql", sh("cat <<'SQL' | psql\n\\! id\nSQL"), opaque, sh("cat <<'SQL' | psql\nselect 2;\nSQL"), false},
		{unread, "a file cat reads after its here-document", sh("cat <<'SQL' < drop.sql | psql\nselect 1;\nSQL"), opaque, sh("cat < /dev/null <<'SQL' | psql\nselect 1;\nSQL"), false},
		// A here-document keeps the backslash of a client command (\! runs a shell command), which
		// the renderer drops from a word.
		{unread, "psql's shell command in a quoted here-document", sh("psql <<'SQL'\n\\! id\nSQL"), opaque, sh("psql <<'SQL'\nselect 1;\nSQL"), false},
		{unread, "psql's \\i in a here-document", sh("psql -d app <<SQL\n\\i /tmp/x.sql\nSQL"), opaque, sh("psql -d app <<SQL\nselect 'i';\nSQL"), false},
		{unread, "mysql's shell command in a here-document", sh("mysql <<'SQL'\n\\! id\nSQL"), opaque, sh("mysql <<'SQL'\nshow tables;\nSQL"), false},
		// kill's pid 0 is the agent's shell's group, denied; so are the shell itself ($$, a subshell's
		// $BASHPID, -$$ its group) and the process that started it, the agent ($PPID), and pkill of
		// every child of the agent. pkill -P $$ ends only what this command line started.
		{self, "the agent's shell killed", sh(`kill -9 $$`), killInit, sh(`kill -9 1234`), false},
		{self, "the agent's shell, quoted and braced", sh(`kill -KILL "${$}"`), killInit, sh(`kill -KILL 1234`), false},
		{self, "the agent's shell's process group", sh(`kill -- -$$`), killInit, sh(`kill -- -1234`), false},
		{self, "a subshell's pid", sh(`kill $BASHPID`), killInit, sh(`kill %1`), false},
		{self, "the agent killed", sh(`kill $PPID`), killInit, sh(`kill 4321`), false},
		{self, "the agent killed with -s", sh(`kill -s KILL ${PPID}`), killInit, sh(`kill -s KILL 4321`), false},
		{self, "every child of the agent", sh(`pkill -P $PPID`), killAll, sh(`pkill -P 4321`), false},
		{self, "every child of the agent, the long option", sh(`pkill --parent "$PPID" -9`), killAll, sh(`pkill -x vite`), false},
	}
}

func init() {
	more := map[string][]string{
		"kill-init":         {"kill $$", "kill -9 $PPID", "kill -HUP ${PPID}", "kill -- -$$", "kill $BASHPID"},
		"kill-all-matching": {"pkill -P $PPID", "pkill --parent $PPID"},
	}
	misses := map[string][]string{
		"kill-init":         {"kill $CHILD", "kill -9 $!", "kill %1", "kill -- -$PGID"},
		"kill-all-matching": {"pkill -P $$", "pkill -P $CHILD"},
	}
	for id, hits := range more {
		ex := rulePackExamples[id]
		ex.hits = append(append([]string(nil), ex.hits...), hits...)
		ex.misses = append(append([]string(nil), ex.misses...), misses[id]...)
		rulePackExamples[id] = ex
	}
}
