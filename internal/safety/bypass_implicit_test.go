package safety

// Review R's rows: files a program writes or reads that its arguments do not spell as paths. The
// database file sqlite3 and duckdb open is written (SQLite creates a missing one as soon as it
// runs anything, DuckDB writes its header), unless the open is read-only.

func implicitCatalogue() []classCase {
	sh := shCall
	zeroD, noWriteD, opaque, dyn := denied(zero), denied(RulePrefixPathPolicy+"noWrite"), asked(RuleOpaqueCode), asked(RuleDynamicPath)
	const (
		dbFile = "the database file a SQL shell opens"
		dotCmd = "a SQL shell's dot-command or file function"
		object = "a committed file read through git's objects"
		repo   = "the repository git finds where it runs"
		cred   = "a credential git's config or helpers hold"
		rcFile = "a SQL shell's start-up file"
		dbCred = "a database client's password file or history"
	)
	gitCred, gitHeader := asked(dc+"print-credentials-git"), asked(dc+"print-credentials-git-config")
	// A shell call whose working directory is dir.
	shIn := func(dir, cmd string) Call {
		c := sh(cmd)
		c.Args.Cwd = dir
		return c
	}
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
		{dotCmd, "sqlite3 echoed .output", sh(`echo ".output ~/.bashrc" | sqlite3 x.db`), opaque, sh(`echo '.tables' | sqlite3 app.db`), false},
		{dotCmd, "sqlite3 printed .once on a line of its own", sh(`printf '.once ~/.bashrc\nselect 1;\n' | sqlite3 x.db`), opaque, sh(`printf '.mode csv\n.headers on\nselect * from t;\n' | sqlite3 app.db`), false},
		{dotCmd, "sqlite3's here-string .save", sh(`sqlite3 x.db <<< ".save /workspace/app/.git/hooks/pre-commit"`), opaque, sh(`sqlite3 app.db <<< '.schema users'`), false},
		{dotCmd, "sqlite3's here-document .backup", sh("sqlite3 x.db <<'SQL'\nselect 1;\n.backup main .git/hooks/pre-commit\nSQL"), opaque, sh("sqlite3 app.db <<'SQL'\n.headers on\nselect * from t;\nSQL"), false},
		{dotCmd, "cat passes sqlite3 a here-document's .output", sh("cat <<'SQL' | sqlite3 x.db\n.output .bashrc\nselect 1;\nSQL"), opaque, sh("cat <<'SQL' | sqlite3 app.db\nselect count(*) from t;\nSQL"), false},
		{dotCmd, "duckdb echoed .output", sh(`echo '.output .bashrc' | duckdb x.db`), opaque, sh(`echo 'select 42;' | duckdb app.duckdb`), false},
		{dotCmd, "sqlite3's .output abbreviated", sh(`sqlite3 x.db '.o .bashrc'`), opaque, sh(`sqlite3 app.db .tables`), false},
		{dotCmd, "sqlite3's .save abbreviated", sh(`sqlite3 x.db '.sa .bashrc'`), opaque, sh(`sqlite3 app.db .schema`), false},
		{dotCmd, "sqlite3's .clone", sh(`sqlite3 x.db '.clone .bashrc'`), opaque, sh(`sqlite3 app.db .dump`), false},
		{dotCmd, "sqlite3's .trace to a file", sh(`sqlite3 x.db '.trace .bashrc'`), opaque, sh(`sqlite3 app.db '.timer on' 'select 1'`), false},
		{dotCmd, "sqlite3's archive extraction", sh(`sqlite3 x.db -A -x`), opaque, sh(`sqlite3 -bail app.db 'select 1'`), false},
		{dotCmd, "sqlite3's .ar extraction", sh(`sqlite3 x.db '.ar -x'`), opaque, sh(`sqlite3 app.db '.indexes'`), false},
		{dotCmd, "sqlite3 fed writefile() on standard input", sh(`sqlite3 x.db <<< "select writefile('.bashrc','x')"`), opaque, sh(`sqlite3 app.db <<< "select name from t"`), false},
		{dotCmd, "sqlite3's writefile behind a comment", sh(`sqlite3 x.db "select writefile /**/ ('.bashrc','x')"`), opaque, sh(`sqlite3 app.db "update t set edited=1 where id=2"`), false},
		{dotCmd, "sqlite3's fsdir reads a file's contents", sh(`sqlite3 x.db "select data from fsdir('.env')"`), opaque, sh(`sqlite3 app.db "select credit from t"`), false},
		{dotCmd, "sqlite3's edit() behind a space", sh(`echo "select edit ('x','vim')" | sqlite3 x.db`), opaque, sh(`echo "select edited from t" | sqlite3 app.db`), false},
		{dotCmd, "printf spells the dot with an escape", sh(`printf '\x2eonce .bashrc\n' | sqlite3 x.db`), opaque, sh(`printf 'select 1;\n' | sqlite3 app.db`), false},
		{dotCmd, "printf completes the dot-command from its argument", sh(`printf '.%s .bashrc\n' once | sqlite3 x.db`), opaque, sh(`printf 'select %d;\n' 1 | sqlite3 app.db`), false},
		{dotCmd, "printf passes .once as an argument", sh(`printf '%s\n' '.once .bashrc' | sqlite3 x.db`), opaque, sh(`printf '%s\n' 'select 1;' | sqlite3 app.db`), false},
		{rcFile, "duckdb runs ~/.duckdbrc's dot-commands at every start", sh(`echo '.shell id' > ~/.duckdbrc`), noWriteD, sh(`echo '.mode csv' > sql/duckdbrc.sql`), false},
		{rcFile, "psql reads its version's start-up file", sh(`echo '\! id' >> ~/.psqlrc-16`), noWriteD, sh(`cat ~/.psqlrc-16`), false},
		{rcFile, "mongosh runs ~/.mongoshrc.js", sh(`echo 'require("child_process").execSync("id")' > ~/.mongoshrc.js`), noWriteD, sh(`echo 'db.t.find()' > scripts/query.js`), false},
		{rcFile, "pgcli's config names its pager", sh(`printf '[main]\npager = sh -c id\n' > ~/.config/pgcli/config`), noWriteD, sh(`cat ~/.config/pgcli/config`), false},
		{dbCred, "libpq's service file holds passwords", sh(`cat ~/.pg_service.conf`), zeroD, sh(`cat config/pg_service.example.conf`), false},
		{dbCred, "mysql_config_editor's login paths", sh(`base64 ~/.mylogin.cnf`), zeroD, sh(`cat docs/mylogin.md`), false},
		{dbCred, "cqlsh's credentials", sh(`grep password ~/.cassandra/cqlshrc`), zeroD, sh(`grep keyspace config/cqlsh.example`), false},
		{dbCred, "ODBC's data sources hold PWD", sh(`cat /etc/odbc.ini`), zeroD, sh(`cat config/odbc.ini`), false},
		{dbCred, "psql's history of ALTER ROLE ... PASSWORD", sh(`tail -50 ~/.psql_history`), zeroD, sh(`tail -50 logs/app.log`), false},
		{dbCred, "redis-cli's history of AUTH", sh(`cat ~/.rediscli_history`), zeroD, sh(`redis-cli ping`), false},
		{object, "cat-file follows a committed link", sh(`echo HEAD:link | git cat-file --batch --follow-symlinks`), dyn, sh(`echo HEAD:README.md | git cat-file --batch`), false},
		{object, "cat-file follows a link named in a here-string", sh(`git cat-file --batch --follow-symlinks <<< HEAD:docs/link`), dyn, sh(`git cat-file --batch-check --follow-symlinks <<< HEAD:docs/link`), false},
		{object, "git log -L's file, attached", sh(`git log -L1,5:.env`), zeroD, sh(`git log -L1,5:main.go`), false},
		{object, "git log -L's file after a function name", sh(`git log -L :main:.env.local`), zeroD, sh(`git log -L :main:main.go`), false},
		{object, "cat-file prints a blob named by its id", sh(`git cat-file -p 3f2a1b9c`), dyn, sh(`git cat-file -t 3f2a1b9c`), false},
		{object, "cat-file blob of an id", sh(`git cat-file blob 3f2a1b9c`), dyn, sh(`git cat-file commit 3f2a1b9c`), false},
		{object, "unpack-file writes a blob named by its id", sh(`git unpack-file 3f2a1b9c`), dyn, sh(`git cat-file -p HEAD`), false},
		{object, "an id fed to cat-file --batch", sh(`echo 3f2a1b9c | git cat-file --batch`), dyn, sh(`echo 3f2a1b9c | git cat-file --batch-check`), false},
		{object, "hash-object --stdin-paths reads the files named on its input", sh(`git hash-object -w --stdin-paths <<< .env`), zeroD, sh(`git hash-object --stdin-paths <<< README.md`), false},
		{object, "hash-object --stdin-paths of names a stage prints", sh(`git ls-files | git hash-object --stdin-paths`), dyn, sh(`git ls-tree -r HEAD`), false},
		{repo, "cd into a bare repository outside the workspace", sh(`cd /tmp/e.git && git log`), opaque, sh(`cd src && git log -p`), false},
		{repo, "git -C a directory outside the workspace", sh(`git -C /tmp/x show HEAD:README.md`), opaque, sh(`git -C /workspace/app log -p`), false},
		{repo, "git -C home", sh(`git -C ~ log -p`), opaque, sh(`git -C ../app status`), false},
		{repo, "cd / before git", sh(`cd / && git log -p`), opaque, sh(`cd .. && git log -p`), false},
		{repo, "cd to a computed directory before git", sh(`cd "$D" && git log`), opaque, sh(`git clone https://x.example/y /tmp/y && cd /tmp/y && git log -p`), false},
		{repo, "git -C a computed directory", sh(`git -C "$D" status`), opaque, sh(`git -C build/q init && git -C build/q status`), false},
		{repo, "a call whose working directory is outside the workspace", shIn("/tmp/evil", `git status`), opaque, shIn("/workspace/app/src", `git status`), false},
		{repo, "a subdirectory of a clone, which may hold a bare repository", sh(`git clone https://x.example/y /tmp/y && cd /tmp/y/sub && git status`), opaque, sh(`git clone https://x.example/y /tmp/y && git -C /tmp/y status`), false},
		{repo, "git init --bare keeps the config it finds", sh(`cd /tmp/x && git init --bare && git log`), opaque, sh(`cd build/x && git init && git add . && git commit -m x`), false},
		{repo, "an extracted download is no repository the line made", sh(`curl -sL https://x.example/y.tgz | tar xz -C /tmp/t && git -C /tmp/t log`), opaque, sh(`git clone --bare https://x.example/y /tmp/b.git && git -C /tmp/b.git log`), false},
		{cred, "git config reads the extra header", sh(`git config --get http.extraheader`), gitHeader, sh(`git config --get remote.origin.url`), false},
		{cred, "git config reads a URL's extra header by its name alone", sh(`git config http.https://github.com/.extraHeader`), gitHeader, sh(`git config user.email`), false},
		{cred, "git config get of the extra header", sh(`git config get --all http.extraheader`), gitHeader, sh(`git config get user.name`), false},
		{cred, "git config's http settings for a URL", sh(`git config --get-urlmatch http https://github.com`), gitHeader, sh(`git config --get-urlmatch user https://github.com`), false},
		{cred, "git config's settings matching a pattern", sh(`git config --get-regexp '^http'`), gitHeader, sh(`git config --get-regexp '^remote'`), false},
		{cred, "git config of a computed key", sh(`git config --get "$KEY"`), gitHeader, sh(`git remote -v`), false},
		{cred, "git credential approve stores a credential", sh(`printf 'url=https://x.example\nusername=a\npassword=b\n' | git credential approve`), gitCred, sh(`git credential-cache exit`), false},
		{cred, "a helper's store", sh(`git credential-store --file creds.txt store`), gitCred, sh(`git config --get credential.helper`), false},
	}
}
