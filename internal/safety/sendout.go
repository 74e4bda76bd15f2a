package safety

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Programs that move data between a file and the network, read as their own parsers read
// their words: socat's addresses, sftp's batch of commands.

const (
	cmdSocat = "socat"
	sftpGet  = "get" // sftp's command that fetches a file
)

// socatFileTypes are socat's address types whose first parameter is a local file or socket
// (FILE is OPEN's old name); a bare address with a "/" is GOPEN.
var socatFileTypes = map[string]bool{"OPEN": true, "FILE": true, "GOPEN": true, "CREATE": true, "CREAT": true,
	"PIPE": true, "UNIX-CONNECT": true, "UNIX-LISTEN": true, "UNIX-SENDTO": true, "UNIX-RECVFROM": true,
	"UNIX-RECV": true, "UNIX-CLIENT": true, "UNIX": true, "LOCAL": true}

// socatFileOptions are address options whose value is a file: read (certificates, keys, a
// readline history, which is also written) or written (a lock file, a link to a pty).
var socatFileOptions = map[string]pathOp{"cert": opRead, "key": opRead, "cafile": opRead, "capath": opRead,
	"dhparam": opRead, "dhparams": opRead, "history": opWrite, "history-file": opWrite, "lockfile": opWrite,
	"waitlock": opWrite, "link": opWrite, "symbolic-link": opWrite}

// socatValued are socat's options that take the next word; -lf, -r and -R name files it writes
// (its log, and dumps of what passes each way), -L and -W lock files.
var socatValued = map[string]pathOp{"-b": 0, "-t": 0, "-T": 0, "-lp": 0, "-L": opWrite, "-W": opWrite,
	"-lf": opWrite, "-r": opWrite, "-R": opWrite}

// socatAttached returns the value attached to one of socatValued's options ("-lfFILE", "-rFILE"),
// as socat takes it, and what socat does to it.
func socatAttached(v string) (pathOp, string) {
	for opt, op := range socatValued {
		if len(v) > len(opt) && strings.HasPrefix(v, opt) {
			return op, v[len(opt):]
		}
	}
	return 0, ""
}

// socatPaths records the files socat's two addresses name (each may be a pair, "A!!B"), and
// those its options write. With -u data flows from the first address to the second, with -U the
// other way; otherwise both ways, so a file address is read and written. CREATE only writes.
func (a *analyzer) socatPaths(s *segment) {
	w := s.words
	n := 0
	for i := 1; i < len(w); i++ {
		v := w[i].s
		if op, ok := socatValued[v]; ok && i+1 < len(w) {
			i++
			if op != 0 {
				a.touch(w[i], op)
			}
			continue
		}
		if op, val := socatAttached(v); val != "" {
			if op != 0 {
				a.touch(w[i].with(val), op) // -lf/root/.bashrc, -r/root/.bashrc
			}
			continue
		}
		if len(v) > 1 && v[0] == '-' && !w[i].dynamic {
			continue
		}
		n++
		reads, writes := true, true
		switch {
		case s.hasFlag("-u"):
			reads, writes = n == 1, n != 1
		case s.hasFlag("-U"):
			reads, writes = n != 1, n == 1
		}
		for addr := range strings.SplitSeq(v, "!!") {
			a.socatAddress(w[i].with(addr), reads, writes)
		}
	}
}

// socatAddress records the files one address names.
func (a *analyzer) socatAddress(addr word, reads, writes bool) {
	head, opts, _ := socatCut(addr.s, ',')
	typ, param, hasParam := socatCut(head, ':')
	typ, param, head = socatUnquote(typ), socatUnquote(param), socatUnquote(head)
	switch {
	case addr.dynamic:
		a.touch(addr, opRead)
	case hasParam && socatFileTypes[strings.ToUpper(typ)]:
		if strings.EqualFold(typ, "CREATE") || strings.EqualFold(typ, "CREAT") {
			reads, writes = false, true
		}
		a.socatFile(addr.with(param), reads, writes)
	case !hasParam && strings.Contains(head, "/"):
		a.socatFile(addr.with(head), reads, writes)
	}
	for opts != "" {
		var opt string
		opt, opts, _ = socatCut(opts, ',')
		if k, v, ok := socatCut(opt, '='); ok && v != "" {
			if op, ok := socatFileOptions[strings.ToLower(socatUnquote(k))]; ok {
				a.touch(addr.with(socatUnquote(v)), op)
			}
		}
	}
}

// socatCut cuts an address at its first sep as socat's lexer reads it: not inside quotes ('...'
// or "..."), not after a backslash, not inside brackets ((), [], {}).
func socatCut(s string, sep byte) (before, after string, found bool) {
	quote, depth := byte(0), 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case (c == ')' || c == ']' || c == '}') && depth > 0:
			depth--
		case c == sep && depth == 0:
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// socatUnquote removes socat's quotes and backslash escapes from an address part
// (OPEN:"/etc/shadow" and OPEN:/etc/sha\dow open /etc/shadow).
func socatUnquote(s string) string {
	if !strings.ContainsAny(s, "'\"\\") {
		return s
	}
	var b strings.Builder
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && quote != '\'':
			i++
			b.WriteByte(s[i])
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func (a *analyzer) socatFile(f word, reads, writes bool) {
	if reads {
		a.touch(f, opRead)
	}
	if writes {
		a.touch(f, opWrite)
	}
}

// sftpBatch reads what sftp is told to do when it runs a batch of commands: a here-document's or
// here-string's text is read line by line (put reads a local file, get writes one, lcd moves,
// "!CMD" runs CMD in a local shell); a batch file (-b FILE) or one fed from a file or a pipe is
// code the engine cannot see.
func (a *analyzer) sftpBatch(idx int, redirs []*syntax.Redirect, depth int) {
	seg := &a.out.segments[idx]
	if seg.name != cmdSFTP {
		return
	}
	a.sftpRetrieve(seg)
	b, hasB := optionValue(seg, "-b", "-b")
	if hasB && b.s != "-" {
		a.opaque(idx, "an sftp batch file, whose commands read and write local files and run local commands")
		return
	}
	var body *syntax.Word
	fed := len(seg.pipeFrom) > 0
	for _, r := range redirs {
		if readsStdin(r) {
			fed, body = true, stdinBody(r)
		}
	}
	switch {
	case !fed:
		return
	case body == nil:
		a.opaque(idx, "sftp commands on standard input, which read and write local files and run local commands")
		return
	}
	text := a.render(body)
	if text.dynamic {
		a.opaque(idx, "sftp commands computed at run time")
		return
	}
	saved := a.cwd
	defer func() { a.cwd = saved }()
	for line := range strings.SplitSeq(text.s, "\n") {
		line = strings.TrimLeft(strings.TrimSpace(line), "-@")
		if line == "!" {
			// A shell of its own, which reads the rest of the batch as its commands.
			a.opaque(idx, "an sftp batch that starts a local shell")
			return
		}
		a.sftpCommand(line, depth)
	}
}

// stdinText records whether a here-document or here-string a command reads names a credential
// variable, for the check that reads what it is fed (secret-sent-indirectly): curl -d @- URL
// <<< "$GITHUB_TOKEN" sends the variable as curl -d "$GITHUB_TOKEN" does; and whether it drops
// data, for drops-data: psql <<< 'drop table t', and cat <<EOF | psql, whose cat passes it on.
// The text itself is not kept: those answers are all any check asks of it.
func (a *analyzer) stdinText(idx int, redirs []*syntax.Redirect) {
	for _, r := range redirs {
		if body := stdinBody(r); body != nil {
			// Indexed after render, which may analyse substitutions and grow the segments.
			t := a.render(body)
			seg := &a.out.segments[idx]
			seg.secretFed = seg.secretFed || a.namesSecret(t)
			seg.dropFed = seg.dropFed || dropsData(t.s)
			// cat <<EOF | sqlite3 x.db passes sqlite3 its dot-commands and file functions too.
			seg.fedText = !t.dynamic && !clientCommandIn(psqlClientCommand, t.s, r) && !clientCommandIn(mysqlClientCommand, t.s, r) &&
				sqliteCodeIn(t.s) == ""
		} else if readsStdin(r) {
			a.out.segments[idx].fedText = false // the last redirection of standard input is the one read
		}
	}
}

// namesSecret says whether rendered text expands a credential variable or a copy of one.
func (a *analyzer) namesSecret(text word) bool {
	return credentialVar.MatchString(text.s) || a.vars.refsSecret([]word{text})
}

// credentialWords are the words a credential variable's name holds, as the rule pack's
// send-environment-secret pattern spells them.
const credentialWords = `(token|secret|passw|api_?key|private_?key|credential|access_?key|auth_?(token|key)|_pwd|_dsn|webhook_url)`

// credentialVar matches an expansion of a variable named like a credential in text;
// credentialName matches such a name.
var (
	credentialVar  = regexp.MustCompile(`(?i)\$\{?[a-z0-9_]*` + credentialWords)
	credentialName = regexp.MustCompile(`(?i)^[a-z0-9_]*` + credentialWords)
)

// sendsCredentialIndirectly says whether a command is fed a here-document or here-string that
// names a credential variable, or expands a copy of one (T=$GITHUB_TOKEN; curl "x/?q=$T").
func sendsCredentialIndirectly(s *segment) bool {
	return s.secretCopy || s.secretFed
}

// sftpRetrieve records what sftp fetches without a batch: sftp [-r] HOST:PATH [LOCAL] runs
// "get [-r] PATH [LOCAL]" (sftp x:.bashrc ~/.bashrc writes ~/.bashrc). The destination is the
// last operand naming a host and a path; the operand after it is the local name. sftp builds the
// command's text without quoting either, and splits it as a batch line: so does this.
func (a *analyzer) sftpRetrieve(s *segment) {
	ops := s.operands
	for i, op := range slices.Backward(ops) {
		host, p, ok := strings.Cut(op.s, ":")
		if !ok || host == "" || strings.Contains(host, "/") || op.dynamic {
			continue
		}
		if p == "" || strings.HasSuffix(p, "/") && !s.hasFlag("-r") {
			return // a directory to start in, not a file to fetch
		}
		line := sftpGet
		if s.hasFlag("-r") {
			line += " -r"
		}
		line += " " + p
		if i+1 < len(ops) {
			if ops[i+1].dynamic {
				a.touch(ops[i+1], opWrite)
				return
			}
			line += " " + ops[i+1].s
		}
		a.sftpCommand(line, 0)
		return
	}
}

// sftpWords splits an sftp command line as sftp does: blanks separate words, single and double
// quotes group them, a backslash escapes the next character.
func sftpWords(line string) []string {
	var out []string
	var b strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line) && quote != '\'':
			i++
			b.WriteByte(line[i])
			in = true
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote, in = c, true
		case quote == 0 && (c == ' ' || c == '\t'):
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out
}

// sftpCommand records what one sftp batch command does here: the local side of put (read) and get
// (written: the name given, or the remote file's base name), lcd, and a local shell command.
// The remote side is judged as scp's is, below the remote home.
func (a *analyzer) sftpCommand(line string, depth int) {
	if cmd, ok := strings.CutPrefix(line, "!"); ok {
		if strings.TrimSpace(cmd) != "" {
			a.script(cmd, depth+1)
		}
		return
	}
	f := sftpWords(line)
	var args []string
	recursive := false
	for _, x := range f[min(1, len(f)):] {
		if !strings.HasPrefix(x, "-") {
			args = append(args, x)
		} else if strings.ContainsAny(x, "rR") {
			recursive = true // put -r, get -R: a directory and everything below it
		}
	}
	if len(f) == 0 || len(args) == 0 {
		return
	}
	saved := a.recursive
	defer func() { a.recursive = saved }()
	a.recursive = recursive
	remote := func(p string) word {
		if !strings.HasPrefix(p, "/") {
			p = "~/" + p
		}
		return word{s: p}
	}
	switch strings.ToLower(f[0]) {
	case "put", "mput", "reput":
		a.touch(word{s: args[0], glob: strings.ContainsAny(args[0], "*?[")}, opRead)
		if len(args) > 1 {
			a.touch(remote(args[1]), opWrite)
		}
	case sftpGet, "mget", "reget":
		a.touch(remote(args[0]), opRead)
		local := path.Base(args[0])
		if len(args) > 1 {
			local = args[1]
		}
		a.members = recursive // get -r DIR LOCAL writes the remote tree's names below LOCAL
		a.touch(word{s: local, glob: strings.ContainsAny(local, "*?[")}, opWrite)
		a.members = false
	case "lcd", "lchdir":
		a.chdir(word{s: args[0]})
	case "lmkdir":
		a.touch(word{s: args[0]}, opWrite)
	}
}

// curlUploadGlobs records curl -T's value as the glob curl makes of it: curl expands "{a,b}" and
// "[a-z]" in an upload's name itself, quoted or not (curl -T '.e[m-o]v' uploads .env).
func (a *analyzer) curlUploadGlobs(s *segment) {
	for i, w := range s.words {
		v, ok := curlUploadValue(s, i)
		if !ok || !strings.ContainsAny(v.s, "{[") {
			continue
		}
		v.dynamic = v.dynamic || w.dynamic
		names, ok := curlSets(v.s, 64)
		if !ok {
			a.touch(word{s: v.s, dynamic: true}, opRead)
		}
		for _, name := range names {
			a.touch(word{s: name, dynamic: v.dynamic, glob: strings.Contains(name, "[")}, opRead)
		}
	}
}

// curlUploadValue returns the value of the upload option at word i: -T FILE, -TFILE, a bundle
// ending in T, --upload-file FILE or =FILE, or a prefix of it curl takes for it (--upload).
func curlUploadValue(s *segment, i int) (word, bool) {
	v := s.words[i].s
	name, val, hasVal := strings.Cut(v, "=")
	switch {
	case len(name) >= len("--up") && strings.HasPrefix("--upload-file", name):
		if hasVal {
			return s.words[i].with(val), true
		}
	case len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.Contains(v, "T"):
		if j := strings.IndexByte(v, 'T'); j < len(v)-1 {
			return s.words[i].with(v[j+1:]), true // -TFILE, -sTFILE
		}
	default:
		return word{}, false
	}
	if i+1 < len(s.words) {
		return s.words[i+1], true
	}
	return word{}, false
}

// curlSetsBytes bounds the text of the names curlSets builds: a path is at most 4096 bytes
// (PATH_MAX), and 16 of them are as many as a real upload names.
const curlSetsBytes = 16 * 4096

// curlSets expands curl's "{a,b}" sets in a name (curl does not nest them), at most limit names
// and curlSetsBytes of them; past that, or with a set left open, it reports false. Each name is
// built once, from the name's parts, so the cost is the names' length, not the sets' count times
// it.
func curlSets(name string, limit int) ([]string, bool) {
	type part struct {
		lit  string
		alts []string
	}
	var parts []part
	count := 1
	for rest := name; ; {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			parts = append(parts, part{lit: rest})
			break
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return nil, false
		}
		alts := strings.Split(rest[open+1:open+end], ",")
		if count *= len(alts); count > limit || count*len(name) > curlSetsBytes {
			return nil, false
		}
		parts = append(parts, part{lit: rest[:open], alts: alts})
		rest = rest[open+end+1:]
	}
	out := make([]string, 0, count)
	var b strings.Builder
	for i := range count {
		b.Reset()
		k := i
		for _, p := range parts {
			b.WriteString(p.lit)
			if len(p.alts) > 0 {
				b.WriteString(p.alts[k%len(p.alts)])
				k /= len(p.alts)
			}
		}
		out = append(out, b.String())
	}
	return out, true
}

// curlQuoted returns the file name of a curl form value written in double quotes
// (-F 'f=@".env";type=text/plain'), with curl's backslash escapes removed.
func curlQuoted(p string) (string, bool) {
	if len(p) < 2 || p[0] != '"' {
		return "", false
	}
	var b strings.Builder
	for i := 1; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\' && i+1 < len(p):
			i++
			b.WriteByte(p[i])
		case c == '"':
			return b.String(), true
		default:
			b.WriteByte(c)
		}
	}
	return "", false
}
