package safety

import (
	"regexp"
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
	devNull    = "/dev/null"
	optEval    = "--eval"
)

// psqlClientCommand finds a psql backslash command that runs or reads or writes something on
// this host: \! (shell), \o and \out, \g and \gx with a file or |pipe, \w, \i, \ir, \include,
// \copy, \lo_import, \lo_export, \e, \ef, \ev, \s FILE, \cd, \setenv, \gexec is SQL only.
var psqlClientCommand = regexp.MustCompile(`\\(!|o\b|out\b|gx?(\s*\||\s+[^\s;\\])|w\b|write\b|i\b|ir\b|include|copy\b|lo_import|lo_export|e\b|edit\b|ef\b|ev\b|s\s+\S|cd\b|setenv\b)`)

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
	case "mongo", "mongosh":
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

// dbClientInput judges what a psql or mysql client reads on standard input: a here-document's or
// here-string's client commands, and the text of the stages that pipe into it (echo '\! id' |
// psql); a file fed with "<" is a script the engine cannot see, as psql -f is.
func (a *analyzer) dbClientInput(idx int, redirs []*syntax.Redirect) {
	seg := &a.out.segments[idx]
	var re *regexp.Regexp
	switch seg.name {
	case cmdPsql:
		re = psqlClientCommand
	case cmdMysql, cmdMariadb:
		re = mysqlClientCommand
	default:
		return
	}
	for _, r := range redirs {
		if !readsStdin(r) {
			continue
		}
		body := stdinBody(r)
		if body == nil {
			if r.Word == nil || r.Word.Lit() != devNull {
				a.opaque(idx, seg.name+" reads a script on standard input")
			}
			continue
		}
		if t := a.render(body); t.dynamic || re.MatchString(t.s) || serverProgram.MatchString(t.s) {
			a.opaque(idx, seg.name+"'s standard input holds a client command that runs a program or reads or writes a file here")
		}
	}
	for _, from := range seg.pipeFrom {
		if t := a.out.segments[from].text; re.MatchString(t) || serverProgram.MatchString(t) {
			a.opaque(idx, seg.name+" is fed a client command that runs a program or reads or writes a file here")
		}
	}
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
	case v == "-c" || v == "-e" || v == "--command" || v == "--execute":
		return true
	case strings.HasPrefix(v, "--command=") || strings.HasPrefix(v, "--execute="):
		return true
	}
	return len(v) > 2 && v[0] == '-' && v[1] != '-' && strings.ContainsAny(v[len(v)-1:], "ce")
}
