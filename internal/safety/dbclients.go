package safety

import (
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Database clients run what they are given on the server, but some of their own commands run
// here: a shell command (psql's \!, mysql's system and \!), a pipe to a program (psql's \o |cmd,
// \g |cmd, mysql's pager), a file read or written (\i, \copy, \lo_import, LOAD DATA LOCAL
// INFILE, tee), an editor. With any of them, or a script file (psql -f, mysql's source), the
// command is opaque, as sqlite3's dot-commands are. The mongo shells run JavaScript in Node.js
// (mongosh) or a shell with run() (mongo): --eval or a script is opaque, as node -e is.

// The database clients, the devices they read nothing from, and mongosh's code option.
const (
	cmdPsql    = "psql"
	cmdMysql   = "mysql"
	cmdMariadb = "mariadb"
	cmdSqlite3 = "sqlite3"
	cmdDuckdb  = "duckdb"
	cmdMongo   = "mongo"
	cmdMongosh = "mongosh"
	cmdImpala  = "impala-shell"
	cmdEtcdctl = "etcdctl"
	cmdConsul  = "consul"
	cmdCat     = "cat"
	subDelete  = "delete"
	devNull    = "/dev/null"
	optEval    = "--eval"
)

// psqlClientCommand finds a psql backslash command that runs or reads or writes something on
// this host: \! (shell), \o and \out, \g and \gx with a file or |pipe, \w, \i, \ir, \include,
// \copy, \lo_import, \lo_export, \e, \ef, \ev, \s FILE, \cd, \setenv, \gexec is SQL only.
var psqlClientCommand = regexp.MustCompile(`\\(!|o\b|out\b|gx?(\s*\||\s+[^\s;\\])|w\b|write\b|i\b|ir\b|include|copy\b|lo_import|lo_export|e\b|edit\b|ef\b|ev\b|s\s+\S|cd\b|setenv\b|getenv\b)`)

// mysqlClientCommand finds a mysql/mariadb client command that runs or reads or writes something
// here, long (at the start of a statement) or short (\! \. \P \T \e, anywhere on the line).
var mysqlClientCommand = regexp.MustCompile(`(?i)(^|[;\n])\s*(system|source|pager|tee|edit)\b|\\[!.]|\\[PTe]|load\s+data\s+local|local[_-]infile`)

// serverProgram finds SQL that runs a program on the server (COPY ... PROGRAM): a local
// server runs it on this host, as the database's user.
var serverProgram = regexp.MustCompile(`(?i)\bprogram\s+['"$]`)

// dbClientCode returns why a database client's command runs code or touches files the engine
// does not follow, or "".
//
//nolint:goconst // the clients' option spellings read best literally, next to their neighbours
func dbClientCode(s *segment) string {
	var re *regexp.Regexp
	var files []string
	switch s.name {
	case cmdPsql:
		re, files = psqlClientCommand, []string{"-f", optFile, "-o", "--output", "-L", "--log-file"}
	case cmdMysql, cmdMariadb:
		// An option file can set pager= (a program) and a plugin is a library the client loads.
		re, files = mysqlClientCommand, []string{"--pager", "--tee", "--local-infile", "--defaults-file", "--defaults-extra-file", "--plugin-dir", "--default-auth"}
	case cmdMongo, cmdMongosh:
		for _, f := range []string{optEval, "-f", optFile} {
			if s.hasFlag(f) {
				return s.name + " " + f + " runs JavaScript, which can run programs"
			}
		}
		for _, w := range s.operands {
			if strings.HasSuffix(w.s, ".js") || w.dynamic {
				return s.name + " runs the script " + w.s
			}
		}
		return ""
	default:
		return ""
	}
	for _, f := range files {
		if s.hasFlag(f) {
			return s.name + " " + f + " reads a script, or writes or pipes its output where the engine does not follow"
		}
	}
	for i, w := range s.words[1:] {
		// A computed connection string or name is data; computed command text is not known.
		if w.dynamic && (commandTextOption(s.words[i].s) || commandTextOption(w.s)) {
			return s.name + " is given commands computed at run time"
		}
		m := re.FindString(w.s)
		if text, ok := attachedText(w.s); ok && m == "" {
			m = re.FindString(text) // --execute='system id', -e'system id': the text starts after the option
		}
		if m != "" {
			return s.name + "'s client command " + strings.TrimSpace(m) + " runs a program or reads or writes a file here"
		}
		if serverProgram.MatchString(w.s) {
			return "COPY ... PROGRAM runs a program where the server runs"
		}
	}
	return ""
}

// kubePlay reports whether a segment is podman kube play (play kube), which makes the pods a
// YAML file describes: their hostPath volumes, privileges and commands are the file's.
func kubePlay(s *segment) bool {
	ops := s.operands
	return s.name == cmdPodman && len(ops) > 1 && (ops[0].s == "kube" && ops[1].s == "play" || ops[0].s == "play" && ops[1].s == "kube")
}

// dbClientInput judges what a database client reads on standard input, which it runs as its -c:
// the text of the stages that pipe into it (echo 'drop table t' | psql), or the here-document one
// passes on, marks it when it drops data (drops-data; its own here-documents are read by
// stdinText). SQL the engine cannot read is code it cannot see, as a script is to a shell (sh
// x.sh, bash < x.sh, cat x.py | python3): a file fed with "<" (psql -f's script), a here-document
// computed at run time, or the output of a stage that prints anything but text the engine read
// (cat drop.sql | sqlite3 db, echo "$Q" | psql, pg_dump a | psql b) makes the client opaque. For
// psql and mysql, a client command in the text is opaque too.
func (a *analyzer) dbClientInput(idx int, redirs []*syntax.Redirect) {
	name := a.out.segments[idx].name
	if !sqlClients[name] {
		return
	}
	var re *regexp.Regexp
	switch name {
	case cmdPsql:
		re = psqlClientCommand
	case cmdMysql, cmdMariadb:
		re = mysqlClientCommand
	}
	for _, r := range redirs {
		body := stdinBody(r)
		if body == nil {
			if stdinUnread(r) {
				a.opaque(idx, name+" reads a script on standard input")
			}
			continue
		}
		// A drop in a here-document is read by stdinText, for every client.
		t := a.render(body)
		if t.dynamic || clientCommandIn(re, t.s, r) {
			a.opaque(idx, name+"'s standard input is computed at run time or holds a client command that runs a program or reads or writes a file here")
		}
		if why := a.sqlInputFiles(name, t); why != "" {
			a.opaque(idx, why)
		}
	}
	seg := &a.out.segments[idx]
	for _, from := range seg.pipeFrom {
		// The stage's text (echo 'drop table t' | psql), or the here-document it passes on.
		stage := &a.out.segments[from]
		t := stage.text
		seg.dropFed = seg.dropFed || stage.dropFed || dropsData(t)
		if why := a.sqlStageFiles(name, stage); why != "" {
			a.opaque(idx, why)
		}
		if !printsKnownText(stage) {
			a.opaque(idx, name+" is fed the output of "+stage.name+", SQL the engine cannot read")
		}
		if re != nil && (re.MatchString(t) || serverProgram.MatchString(t)) {
			a.opaque(idx, name+" is fed a client command that runs a program or reads or writes a file here")
		}
	}
}

// clientCommandIn reports whether text fed to a database client holds one of its client commands
// (re, nil for a client without any) or SQL that runs a program. A here-document's body is read
// as written too: the renderer drops a backslash as it would from a word, but bash leaves one
// before any character but $, ` and \ in a here-document, so the client reads \! and \i there.
func clientCommandIn(re *regexp.Regexp, text string, r *syntax.Redirect) bool {
	if re != nil && re.MatchString(text) || serverProgram.MatchString(text) {
		return true
	}
	if re == nil || r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc || r.Hdoc == nil {
		return false
	}
	var raw strings.Builder
	for _, p := range r.Hdoc.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			raw.WriteString(l.Value)
		}
	}
	return re.MatchString(raw.String())
}

// printsKnownText reports whether a pipeline stage prints only text the engine read: echo or
// printf of words known before the command runs, or cat of a here-document or here-string known
// so (fedText). A wrapper's command is a stage of its own.
func printsKnownText(s *segment) bool {
	switch {
	case s.wrapper:
		return true
	case s.name == cmdEcho || s.name == cmdPf:
		return !slices.ContainsFunc(s.words, func(w word) bool { return w.dynamic })
	case s.name == cmdCat:
		return len(s.operands) == 0 && s.fedText
	}
	return false
}

// sqlClients are the programs that run the SQL (or redis, mongo, CQL) text they are given on a
// database server: database-destroy's clients that are fed text.
var sqlClients = map[string]bool{
	cmdPsql: true, cmdMysql: true, cmdMariadb: true, cmdSqlite3: true, cmdDuckdb: true, "redis-cli": true, "valkey-cli": true,
	cmdMongo: true, cmdMongosh: true, "cqlsh": true, "clickhouse-client": true, "clickhouse": true, "cockroach": true,
	"usql": true, "sqlcmd": true, "pgcli": true, "mycli": true, "litecli": true,
	"bq": true, "snowsql": true, "trino": true, "presto": true, "spark-sql": true, "hive": true, "beeline": true,
	cmdImpala: true, "sqlplus": true, "vsql": true, "influx": true,
}

// dropStatement finds a statement that drops or empties data: DROP of a database object (DROP
// OWNED drops every object a role owns, DROP COLUMN a column's values), TRUNCATE, a DELETE without
// WHERE, redis's FLUSHALL and FLUSHDB, mongo's dropDatabase(), drop(), and deleteMany({}) or
// remove({}) with an empty filter.
var dropStatement = regexp.MustCompile(`(?i)\b(drop\s+\w|truncate\s+\w|delete\s+from\s+[^\s;]+\s*(;|$)|flushall|flushdb|dropdatabase\s*\(|\.drop\s*\(|(deletemany|\.remove)\s*\(\s*\{\s*\})`)

// massChange finds, statement by statement, a DELETE or UPDATE that reaches every row: without a
// WHERE, or with one that is always true (WHERE true, 1=1, 1), however the statement is wrapped
// (a CTE, RETURNING, mysql's DELETE t FROM t); and code that builds its SQL at run time (DO
// blocks, EXECUTE of a string), which could be any of them.
var (
	massDML     = regexp.MustCompile(`(?is)\b(delete\s+(\w+(\s*,\s*\w+)*\s+)?from|update\s+\S+(\s+\w+)?\s+set)\b`)
	whereClause = regexp.MustCompile(`(?is)\bwhere\b`)
	alwaysTrue  = regexp.MustCompile(`(?is)\b(where|or)\s+(true|not\s+false|1|'1')\s*(;|$|returning|\)|--|or\b|and\b)`)
	equality    = regexp.MustCompile(`(?is)\b(where|or)\s+(\w+|'[^']*')\s*=\s*(\w+|'[^']*')`)
	dynamicSQL  = regexp.MustCompile(`(?is)\bdo\s+(\$|')|\bexecute\s+(immediate\s+)?('|format\s*\(|\w+\s*\|\|)`)
)

// selfEqual reports whether a condition compares a thing with itself (WHERE 1=1, OR 'a'='a'),
// which every row meets.
func selfEqual(stmt string) bool {
	for _, m := range equality.FindAllStringSubmatch(stmt, 8) {
		if strings.EqualFold(m[2], m[3]) {
			return true
		}
	}
	return false
}

// massChange reports whether text holds such a statement.
func massChange(t string) bool {
	if dynamicSQL.MatchString(t) {
		return true
	}
	for stmt := range strings.SplitSeq(t, ";") {
		if massDML.MatchString(stmt) && (!whereClause.MatchString(stmt) || alwaysTrue.MatchString(stmt) || selfEqual(stmt)) {
			return true
		}
	}
	return false
}

// sqlComment is an SQL comment (a block, a -- line, mysql's # line); commentMark is a block
// comment's delimiters, with mysql's /*!NNNNN, whose text mysql runs.
var (
	sqlComment  = regexp.MustCompile(`(?s)/\*.*?\*/|--[^\n]*|#[^\n]*`)
	commentMark = regexp.MustCompile(`/\*!?[0-9]*|\*/`)
)

// dropsData reports whether text a database client runs drops or empties data. The server reads
// a comment as a space between words (DROP/**/DATABASE): the text is read again without its
// comments, and again without only their delimiters, since a quote the engine does not read can
// start a comment's marker ('--'; DROP TABLE t) and mysql runs the text of /*! ... */.
func dropsData(t string) bool {
	if dropStatement.MatchString(t) || massChange(t) {
		return true
	}
	if !strings.Contains(t, "/*") && !strings.Contains(t, "--") && !strings.Contains(t, "#") {
		return false
	}
	marks, comments := commentMark.ReplaceAllString(t, " "), sqlComment.ReplaceAllString(t, " ")
	return dropStatement.MatchString(marks) || dropStatement.MatchString(comments) || massChange(marks) || massChange(comments)
}

// dropsDatabase is the database-destroy rule's check: a client's text or what it is fed drops
// or empties data, or a program does (dropdb, dropuser, mysqladmin drop).
func dropsDatabase(s *segment) bool {
	switch s.name {
	case "dropdb", "dropuser":
		return true
	case "mysqladmin":
		return slices.ContainsFunc(s.operands, func(w word) bool { return strings.EqualFold(w.s, "drop") })
	case cmdEtcdctl, cmdConsul, cmdVault:
		return emptiesKeyStore(s)
	}
	// Each word too: a statement ends its word (a DELETE without WHERE before -d app).
	return s.dropFed || dropsData(s.text) || slices.ContainsFunc(s.words[1:], func(w word) bool { return dropsData(w.s) })
}

// emptiesKeyStore reports whether a key-value store's client deletes every key: etcdctl del
// --from-key (every key from the one given on) or --prefix of "" or "/", consul kv delete -recurse
// of no key, "" or "/"; or vault's secrets: secrets disable (every secret of the engine), kv
// metadata delete and kv destroy (every or the given version, for good).
func emptiesKeyStore(s *segment) bool {
	op := func(i int) string {
		if i < len(s.operands) {
			return s.operands[i].s
		}
		return ""
	}
	// Every key: none given, or "" or "/", or one a computed word could hide.
	all := func(i int) bool { return op(i) == "" || op(i) == "/" || s.unknownFlags }
	switch s.name {
	case cmdEtcdctl:
		return op(0) == "del" && (s.hasFlag("--from-key") || s.hasFlag("--prefix") && all(1))
	case cmdConsul:
		return op(0) == "kv" && op(1) == subDelete && s.hasFlag("-recurse") && all(2)
	}
	return op(0) == subSecrets && op(1) == "disable" || op(0) == "kv" && (op(1) == "destroy" || op(1) == "metadata" && op(2) == subDelete)
}

// attachedText returns the value attached to an option word: after the "=" of a long option
// (--execute=..., also abbreviated), or after a short option's letter (-e...). Command text given
// so starts a statement as text given as its own word does.
func attachedText(v string) (string, bool) {
	switch {
	case strings.HasPrefix(v, "--"):
		_, val, ok := strings.Cut(v, "=")
		return val, ok
	case len(v) > 2 && v[0] == '-':
		return v[2:], true
	}
	return "", false
}

// commandTextOption reports whether a psql or mysql word is an option whose value is command
// text (-c, --command, -e, --execute), given alone or with its value attached.
func commandTextOption(v string) bool {
	switch {
	case v == "-c" || v == "-e" || v == "--command" || v == optExecute:
		return true
	case strings.HasPrefix(v, "--command=") || strings.HasPrefix(v, "--execute="):
		return true
	}
	return len(v) > 2 && v[0] == '-' && v[1] != '-' && strings.ContainsAny(v[len(v)-1:], "ce")
}
