package ledger

import (
	"path"
	"regexp"
	"slices"
	"strings"
)

// Redaction of credentials given on a command line, as a list of words (["mysql", "-pSECRET"],
// ["--password", "x"]) or as one string ("sshpass -p x ssh host"). One classifier decides for
// both forms: an option is a credential's when its name (without dashes) is a credential name
// (credentialOptionName: the names the credential-option rule of RedactSecrets matches in text,
// "--password=x", "--client-secret x", "--cli-password x"), or when it is one of the short options
// a known tool takes a password with (toolPasswordOptions). Key names are broader ("key", "auth"
// as substrings): as option names they would hide the word after "--sort-keys" or "--author".

// toolOption is a short option a tool takes a credential with.
type toolOption struct {
	flag     string // with its dash: "-p"
	attached bool   // -pSECRET
	separate bool   // -p SECRET
	userPass bool   // the value is user:password, and only the password is secret
	userSep  byte   // what ends the user in a userPass value: ':' unless set (Samba's user%password)
	after    string // the option means a password only after this word (docker login -p)
	cookie   bool   // the value is a cookie (name=value) only when it holds "="; else a file's name
}

// toolPasswordOptions are the tools whose short options take a password. Elsewhere the same
// letters mean something else (docker run -p is a port, ssh -p too), so they count only here.
var toolPasswordOptions = func() map[string][]toolOption {
	m := map[string][]toolOption{}
	add := func(opts []toolOption, tools ...string) {
		for _, t := range tools {
			m[t] = append(m[t], opts...)
		}
	}
	add([]toolOption{{flag: "-p", attached: true}}, "mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlcheck",
		"mysqlshow", "mysqlpump", "mariadb", "mariadb-dump", "mariadb-admin", "7z", "7za", "7zz")
	add([]toolOption{{flag: "-p", attached: true, separate: true}}, "sshpass", "mongo", "mongosh", "mongodump",
		"mongorestore", "mongoexport", "mongoimport")
	add([]toolOption{{flag: "-p", attached: true, separate: true, after: wordLogin}}, "docker", "podman", "buildah",
		"skopeo", "nerdctl", "helm", "oras", "crane")
	add([]toolOption{{flag: "-a", attached: true, separate: true}, {flag: "--pass", separate: true}}, "redis-cli", "valkey-cli")
	add([]toolOption{{flag: "-p", separate: true, after: wordLogin}}, "az")
	// openssl's pass phrase arguments: pass:SECRET (env:VAR, file:PATH and stdin name where it
	// is, and hide only their part after the colon); enc -k takes the secret itself.
	add([]toolOption{{flag: "-pass", separate: true, userPass: true}, {flag: "-passin", separate: true, userPass: true},
		{flag: "-passout", separate: true, userPass: true}, {flag: "-k", separate: true}}, "openssl")
	add([]toolOption{{flag: "-N", attached: true, separate: true}, {flag: "-P", attached: true, separate: true}}, "ssh-keygen")
	add([]toolOption{{flag: "-P", separate: true}}, "zip", "unzip")
	add([]toolOption{{flag: "-P", attached: true, separate: true}}, "sqlcmd")
	add([]toolOption{{flag: "-u", attached: true, separate: true, userPass: true},
		{flag: "--user", separate: true, userPass: true}, {flag: "-U", attached: true, separate: true, userPass: true},
		{flag: "--proxy-user", separate: true, userPass: true},
		{flag: "-b", attached: true, separate: true, cookie: true}}, "curl")
	// OpenLDAP's clients bind with -w PASSWORD (ldappasswd also takes the old and new ones).
	add([]toolOption{{flag: "-w", attached: true, separate: true}}, "ldapsearch", "ldapadd", "ldapmodify", "ldapdelete",
		"ldapcompare", "ldapmodrdn", "ldapwhoami", "ldapexop", "ldappasswd")
	add([]toolOption{{flag: "-a", attached: true, separate: true}, {flag: "-s", attached: true, separate: true}}, "ldappasswd")
	// Samba's clients take -U user%password.
	smbUser := []toolOption{{flag: "-U", attached: true, separate: true, userPass: true, userSep: '%'},
		{flag: "--user", separate: true, userPass: true, userSep: '%'}}
	add(smbUser, "smbclient", "rpcclient", "smbcacls", "smbcquotas", "smbtree")
	// gh secret set NAME --body X sets a repository's, an environment's or an organization's
	// Actions secret. gh variable set's --body is not hidden: a variable is stored and shown in
	// the clear (to anyone who can read the repository's settings, and in workflow logs), and
	// hiding it would only take the decision's arguments from replay.
	add([]toolOption{{flag: "-b", attached: true, separate: true, after: wordSecret},
		{flag: "--body", separate: true, after: wordSecret}}, "gh")
	return m
}()

// wordSecret is the subcommand after which gh's --body is a secret's value.
const wordSecret = "secret"

// toolKeywords are the words the keyword scan looks for to run the cli-password rule, per tool:
// its name, but for gh the subcommand its option needs. "gh" is in "high", "github" and
// "through", and would send most text through the word-by-word pass; "secret set" always
// holds "secret".
var toolKeywords = map[string]string{"gh": wordSecret}

// isTool reports whether base names a tool whose command line the scan reads.
func isTool(base string) bool {
	_, positional := positionalTools[base]
	return positional || toolPasswordOptions[base] != nil
}

// wordLogin is the subcommand after which a registry or cloud CLI's -p is a password, and the
// word a .netrc entry needs for netrc-password.
const wordLogin = "login"

// commandWrappers run the command that follows their options: its options are not theirs.
var commandWrappers = map[string]bool{"sshpass": true}

// toolFlags are the options of toolPasswordOptions, for a quick look before a string is split.
var toolFlags = func() []string {
	seen := map[string]bool{}
	var out []string
	for _, opts := range toolPasswordOptions {
		for _, o := range opts {
			if !seen[o.flag] {
				seen[o.flag] = true
				out = append(out, o.flag)
			}
		}
	}
	return out
}()

// toolWords are the tool names (toolKeywords), for the keyword scan that lets a string without
// any skip the word-by-word pass; positionalNames the names of positionalTools, which have no
// flag for redactCommandLine's quick look.
var toolWords, positionalNames = func() (words, positional []string) {
	seen := map[string]bool{}
	add := func(tool string) {
		w := strings.ToLower(tool)
		if k := toolKeywords[tool]; k != "" {
			w = k
		}
		if !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	for t := range toolPasswordOptions {
		add(t)
	}
	for t := range positionalTools {
		add(t)
		positional = append(positional, t)
	}
	return words, positional
}()

// toolGateWords are the cli-password rule's requires strings: the tools' flags and the names of
// positionalTools. With them the keyword scan that finds a tool's name also tells whether any
// flag or positional tool occurs, ignoring case, so a string that only names a tool (curl
// https://…), or holds "secret" (gh's keyword) and no flag, costs the rule nothing more;
// redactCommandLine's own look is exact.
var toolGateWords = func() []string {
	out := make([]string, 0, len(toolFlags)+len(positionalNames))
	for _, w := range slices.Concat(toolFlags, positionalNames) {
		if w = strings.ToLower(w); !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}()

// credentialOption matches an option name (without its dashes) that names a credential.
var credentialOption = regexp.MustCompile(`(?i)^[a-z0-9_.-]*` + credentialNames + `[a-z0-9_.-]*$`)

// credentialOptionName is the classifier of option names, for lists and (through the
// credential-option rule, built from the same credentialNames) for text.
func credentialOptionName(name string) bool {
	return credentialOption.MatchString(name) && namesCredential(name)
}

// argvSecrets calls hide(i, from, to) for every word of argv that holds a credential: its bytes
// [from, to), to -1 meaning to the word's end (0, -1: the whole word). generic says whether
// options named by credentialOptionName count too (in text the credential-option rule finds
// those). A word for which word says !ok is no value and no plain word (not a string; in text,
// a redirection with its target attached).
func argvSecrets(n int, word func(int) (string, bool), generic bool, hide func(i, from, to int)) {
	s := argvScan{generic: generic, hide: hide}
	for i := range n {
		w, ok := word(i)
		if !ok {
			s.pending, s.pendingAny, s.target = nil, false, false
			continue
		}
		s.word(i, w)
	}
}

// argvScan is argvSecrets' state from one word to the next.
type argvScan struct {
	generic    bool
	hide       func(i, from, to int)
	tool       string
	opts       []toolOption
	sawAfter   []string    // words after the tool that an option needs (toolOption.after)
	pending    *toolOption // the option before takes this word as its value
	pendingAny bool
	target     bool           // the word before is a redirection: this one is its file
	positional positionalTool // the tool's plain-word credentials, if it has any
	pos        positionalScan
	posValue   bool // the option before takes this word as its value (positional.valued)
}

func (s *argvScan) setTool(tool string) {
	s.tool, s.opts, s.sawAfter = tool, toolPasswordOptions[tool], s.sawAfter[:0]
	s.positional, s.pos, s.posValue = positionalTools[tool], positionalScan{}, false
}

func (s *argvScan) word(i int, w string) {
	if s.pendingAny && s.value(i, w) {
		return
	}
	if s.target {
		s.target = false // the file of a redirection: no argument of the command
		return
	}
	switch w {
	case "|", "||", "&&", ";", "&", "|&", ";;":
		s.setTool("")
		return
	}
	if n := shellOperatorLen(w); n > 0 && (n == len(w) || strings.HasPrefix(w, hereString)) {
		// A redirection: its file (the next word, unless it is attached or the operator
		// duplicates a descriptor, 2>&1) and a here-string's input are no arguments.
		s.target = n == len(w) && !dupRedirection(w)
		return
	}
	if base := path.Base(w); isTool(base) {
		s.setTool(base)
		return
	}
	if base, ok := commandSetting(w); ok {
		s.setTool(base) // ssh -o ProxyCommand=sshpass -p x ...: the command a setting runs
		return
	}
	if len(w) < 2 || w[0] != '-' {
		if commandWrappers[s.tool] {
			s.setTool("") // sshpass -p x ssh -p 22: ssh's options are ssh's
		} else if s.tool != "" && slices.ContainsFunc(s.opts, func(o toolOption) bool { return o.after == w }) {
			s.sawAfter = append(s.sawAfter, w)
		}
		s.plainWord(i, w)
		return
	}
	s.option(i, w)
	s.positionalOption(w)
}

// positionalOption notes an option word for the tool's positional credentials: its letters
// (htpasswd -nb), and whether it takes the next word as its value.
func (s *argvScan) positionalOption(w string) {
	if s.positional.secret != nil && !strings.HasPrefix(w, "--") {
		for k := 1; k < len(w) && w[k] != '='; k++ {
			s.pos.flags |= optionLetter(w[k])
		}
	}
	// The option's value is no plain word: one the tool takes a value with, or one named as a
	// credential (vault login --token X: the credential-option rule's).
	if s.positional.secret != nil && !strings.Contains(w, "=") &&
		(s.positional.valued != nil && s.positional.valued(w) || credentialOptionName(strings.TrimLeft(w, "-"))) {
		s.posValue = true
	}
}

// plainWord hands a word that is no option to the tool's positional credentials, if it has any.
func (s *argvScan) plainWord(i int, w string) {
	if s.positional.secret == nil {
		return
	}
	if s.posValue {
		s.posValue = false // an option's value: sqlplus -R 3
		return
	}
	if from, to := s.positional.secret(&s.pos, w); from >= 0 {
		s.hide(i, from, to)
	}
	s.pos.plain++
}

// dupRedirection reports whether the redirection operator w duplicates a descriptor (2>&1, >&-,
// <&0) and so takes no file.
func dupRedirection(w string) bool {
	c := w[len(w)-1]
	return strings.Contains(w, "&") && ('0' <= c && c <= '9' || c == '-') && !strings.HasSuffix(w, heredocStrip)
}

// value takes w as the value of the option before it, and reports whether w was one.
// A redirection or a control operator is no option's value: "--with-token < tok" reads the
// token from a file, and the option has no value on the line. A here-string is what the command
// reads: "--with-token <<< X" gives X.
func (s *argvScan) value(i int, w string) bool {
	o := s.pending
	s.pending, s.pendingAny = nil, false
	at := 0
	switch n := shellOperatorLen(w); {
	case w == hereString:
		s.pending, s.pendingAny = o, true // the value is the next word
		return true
	case n == len(hereString) && strings.HasPrefix(w, hereString):
		at = n
	case n > 0 && n == len(w):
		return false
	}
	from := 0
	if o != nil && o.userPass {
		from = userPassFrom(w[at:], o.userSep)
	}
	if o != nil && o.cookie && !strings.Contains(w[at:], "=") {
		from = -1 // curl -b cookies.txt: a file to read cookies from
	}
	if from >= 0 {
		s.hide(i, at+from, -1)
	}
	return true
}

// option handles a word that starts with a dash: a tool's password option, or (generic) an
// option named like a credential.
func (s *argvScan) option(i int, w string) {
	if o, from, matched := toolOptionOf(w, s.opts, s.sawAfter); matched {
		switch {
		case from < 0:
			s.pending, s.pendingAny = o, true
		case o.userPass:
			if f := userPassFrom(w[from:], o.userSep); f >= 0 {
				s.hide(i, from+f, -1)
			}
		case o.cookie:
			if strings.Contains(w[from:], "=") {
				s.hide(i, from, -1)
			}
		default:
			s.hide(i, from, -1)
		}
		return
	}
	name, _, hasValue := strings.Cut(strings.TrimLeft(w, "-"), "=")
	if !s.generic || name == "" || strings.HasPrefix(name, "no-") || !credentialOptionName(name) {
		return
	}
	if hasValue {
		s.hide(i, strings.IndexByte(w, '=')+1, -1)
	} else {
		s.pending, s.pendingAny = nil, true
	}
}

// hereString is the shell's here-string operator: the word after it is the command's input;
// heredocStrip the here-document's that strips leading tabs.
const (
	hereString   = "<<<"
	heredocStrip = "<<-"
)

// shellOperatorLen is the length of the redirection or control operator w begins with (a file
// descriptor's digits first: "2>", "2>&1"), or 0. "<tok" is a redirection with its target
// attached; in a list of words only an element that is an operator and nothing more counts (the
// callers check n == len(w)), as there "<x>" may be a value.
func shellOperatorLen(w string) int {
	if w == "" || !operatorStart[w[0]] {
		return 0 // most words: the scan asks of every word of a command line that names a tool
	}
	i := 0
	for i < len(w) && '0' <= w[i] && w[i] <= '9' {
		i++
	}
	rest := w[i:]
	for _, op := range shellOperators {
		if strings.HasPrefix(rest, op) {
			if i > 0 && op[0] != '<' && op[0] != '>' {
				return 0 // "2&&": digits go only before a redirection
			}
			n := i + len(op)
			if op[len(op)-1] == '&' && (op[0] == '<' || op[0] == '>') {
				for n < len(w) && ('0' <= w[n] && w[n] <= '9' || w[n] == '-') {
					n++ // >&2, <&-
				}
			}
			return n
		}
	}
	return 0
}

// operatorStart marks the bytes a redirection or control operator word begins with.
var operatorStart = func() (t [256]bool) {
	for _, c := range "<>&|;0123456789" {
		t[c] = true
	}
	return t
}()

// shellOperators are the shell's redirection and control operators, longest first where one
// begins another.
var shellOperators = []string{hereString, heredocStrip, "<<", "<>", "<&", "<", ">>", ">&", ">|", ">", "&>>", "&>", "&&", "&",
	"||", "|&", "|", ";;", ";"}

// toolOptionOf finds w among the tool's password options: from is where its value starts in w,
// or -1 when the value is the next word.
func toolOptionOf(w string, opts []toolOption, sawAfter []string) (*toolOption, int, bool) {
	for k := range opts {
		o := &opts[k]
		if o.after != "" && !slices.Contains(sawAfter, o.after) {
			continue
		}
		switch {
		case w == o.flag && o.separate:
			return o, -1, true
		case strings.HasPrefix(w, o.flag+"=") && len(o.flag) > 2:
			return o, len(o.flag) + 1, true
		case strings.HasPrefix(w, o.flag) && len(w) > len(o.flag) && o.attached && len(o.flag) == 2:
			return o, len(o.flag), true
		}
	}
	return nil, 0, false
}

// commandSetting reports whether w sets a command (ProxyCommand=, GIT_SSH_COMMAND=, --rsh=,
// LocalCommand=) to a known tool, and which.
func commandSetting(w string) (string, bool) {
	name, value, ok := strings.Cut(w, "=")
	if !ok || value == "" {
		return "", false
	}
	lower := strings.ToLower(name)
	if !strings.Contains(lower, "command") && !strings.Contains(lower, "cmd") && !strings.HasSuffix(lower, "rsh") {
		return "", false
	}
	base := path.Base(value)
	return base, isTool(base)
}

// userPassFrom is where the password starts in user:password (user%password with sep '%'), or
// -1 when there is none (curl then asks for it).
func userPassFrom(w string, sep byte) int {
	if sep == 0 {
		sep = ':'
	}
	i := strings.IndexByte(w, sep)
	if i < 0 || i == len(w)-1 {
		return -1
	}
	return i + 1
}

// redactCommandLine hides the credentials argvSecrets finds in s, split into words at spaces,
// as "[REDACTED:cli-password]". Quotes around a value are kept outside the marker.
func redactCommandLine(s string, g *shellGuard) (string, bool) {
	if !containsAny(s, toolFlags) && !containsAny(s, positionalNames) {
		return s, false // no password option of any tool: most strings that name a tool
	}
	return redactCommandLineAfter(nil, s, g)
}

// redactCommandLineAfter is redactCommandLine of s read after the words program, which are
// not s's and stay as they are (a program given in a field of its own: credentials_program.go).
//
// g holds s's shell reading: a value is cut before a byte it marks (a separator, a
// substitution, a command's first word), whatever this scan's own reading of the words.
func redactCommandLineAfter(program []string, s string, g *shellGuard) (string, bool) {
	type span struct {
		start, end int
		quoted     bool // the value's word opens a quote before it, or the value does
	}
	words := commandWords(s)
	unquote := func(w string) string { return strings.Trim(w, `"'`) }
	var cuts []span
	word := func(k int) (string, bool) {
		if k < len(program) {
			return program[k], true
		}
		k -= len(program)
		if words[k].control {
			return ";", true // the command ends: the next word is no option's value
		}
		w := s[words[k].start:words[k].end]
		// An unquoted redirection with its target attached (<tok, 2>err) is its operator to
		// the scan, or nothing when the target is attached; a here-string's attached input
		// (<<<X) stays whole, it may be the value.
		if n := shellOperatorLen(w); n > 0 && !strings.HasPrefix(w, hereString) {
			return w[:n], n == len(w) || dupRedirection(w)
		}
		return unquote(w), true
	}
	argvSecrets(len(program)+len(words), word,
		false, func(k, from, to int) {
			if k < len(program) {
				return
			}
			k -= len(program)
			w := s[words[k].start:words[k].end]
			lead := len(w) - len(strings.TrimLeft(w, `"'`))
			end := words[k].end - (len(w) - len(strings.TrimRight(w, `"'`)))
			if to >= 0 {
				end = words[k].start + lead + to
			} else {
				end = quotedEnd(s, words[k].start, end)
			}
			if start := words[k].start + lead + from; start < end {
				cuts = append(cuts, span{start, end, lead > 0 || ownQuotes(s, start)})
			}
		})
	if len(cuts) == 0 {
		return s, false
	}
	var b strings.Builder
	last := 0
	for _, c := range cuts {
		if c.start < last || strings.HasPrefix(s[c.start:c.end], "[REDACTED") {
			continue // inside a quoted value cut already, or hidden
		}
		end := g.cut(c.start, c.start, c.end, maskCommand, !c.quoted)
		if end == c.start {
			continue
		}
		b.WriteString(s[last:c.start])
		b.WriteString(cliPasswordMarker)
		g.replaced(c.start, end, len(cliPasswordMarker))
		last = end
	}
	if last == 0 {
		return s, false
	}
	b.WriteString(s[last:])
	out := b.String()
	g.commit(out)
	return out, true
}

const (
	cliPasswordRule   = "cli-password"
	cliPasswordMarker = "[REDACTED:" + cliPasswordRule + "]"
)

// commandWord is a word of a command line, s[start:end], or a control operator between two
// commands (control: a newline, ;, &, |, ( or ) outside quotes).
type commandWord struct {
	start, end int
	control    bool
}

// commandWords splits a command line into words at white space, as the scan always did (a
// quoted value with a space in it is put together again by quotedEnd), and ends a word at a
// control operator outside quotes and at every newline (a line continuation outside single
// quotes joins the word on either side, as bash does), which are words of their own:
// so `sshpass -p` at a line's end, or `mysql -pX;rm -rf /data`, never makes the next command's
// first word the password's value, and the record keeps the command that ran. A newline ends the
// quoting this scan knows too: a quote it takes for open where bash opens none (an apostrophe
// in a comment or a here-document's body, quotes nested in $( )) cannot carry into the next
// line. A & or | right after < or > is part of a redirection (2>&1, >|), not an operator.
func commandWords(s string) []commandWord {
	var words []commandWord
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			words = append(words, commandWord{start: start, end: end})
		}
		start = -1
	}
	var quote byte
	braces := 0 // ${ open: a # in it (${x:- #}) begins no comment
	for i := 0; i < len(s); i++ {
		if quote == 0 && start < 0 && s[i] == '#' && braces == 0 {
			i = commentEnd(s, i) - 1 // the newline after it ends the command as any other
			continue
		}
		braces = paramBraces(s, i, quote, braces)
		switch n := quoteStep(s, i, &quote); {
		case continuation(s, i, quote):
			i++ // a line continuation: bash removes it and joins the word on either side (-p\<newline>pw is -ppw)
		case n > 0:
			if start < 0 {
				start = i
			}
			i += n - 1
		case s[i] == '\n' || quote == 0 && controlAt(s, i):
			quote = 0
			flush(i)
			j := i + 1
			for j < len(s) && (s[j] == '\n' || controlOperator(s[j])) {
				j++
			}
			words = append(words, commandWord{start: i, end: j, control: true})
			i = j - 1
		case isSpace(s[i]):
			flush(i)
		case start < 0:
			start = i
		}
	}
	flush(len(s))
	return words
}

// paramBraces is how many ${ are open after s[i], braces before it, quote the quote open there.
func paramBraces(s string, i int, quote byte, braces int) int {
	switch {
	case quote != '\'' && quote != ansiQuote && s[i] == '$' && i+1 < len(s) && s[i+1] == '{':
		return braces + 1
	case braces > 0 && quote == 0 && s[i] == '}':
		return braces - 1
	}
	return braces
}

// continuation says whether s[i:] is a line continuation, a backslash before a newline outside
// single quotes: bash removes it and joins the word on either side.
func continuation(s string, i int, quote byte) bool {
	return quote != '\'' && s[i] == '\\' && i+1 < len(s) && s[i+1] == '\n'
}

// commentEnd is where the comment starting at s[i] ends: at the line's end, a backslash before
// it too, so nothing in a comment is a word, and no quote or continuation in it reaches the next
// line's command.
func commentEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(s)
}

// ansiQuote is quoteStep's mark of an open $'...', where a backslash escapes (\' among them).
const ansiQuote = '$'

// quoteStep reads the quoting at s[i], quote being the quote open before it: it returns how many
// bytes from i are a backslash escape (2: never an operator or a quote) or a quote opening
// (1), and 0 for any other byte; a quote's closing byte closes it and is 0 too, a plain byte.
func quoteStep(s string, i int, quote *byte) int {
	c := s[i]
	switch {
	case c == '\\' && *quote != '\'' && i+1 < len(s) && s[i+1] != '\n':
		return 2
	case *quote == 0 && (c == '\'' || c == '"'):
		*quote = c
		if c == '\'' && i > 0 && s[i-1] == '$' {
			*quote = ansiQuote
		}
		return 1
	case *quote != 0 && (c == *quote || *quote == ansiQuote && c == '\''):
		*quote = 0
	}
	return 0
}

// controlAt says whether s[i], outside quotes, is a control operator that ends a command: not
// part of a redirection (2>&1, >|).
func controlAt(s string, i int) bool {
	return controlOperator(s[i]) && (i == 0 || s[i-1] != '<' && s[i-1] != '>')
}

func controlOperator(c byte) bool {
	return c == ';' || c == '&' || c == '|' || c == '(' || c == ')'
}

// quotedEnd is where a value that ends at end in the word starting at start ends, if the word
// opens a quote it does not close: the command line is split at spaces, and "alice:s3cret pw" is
// one value. Quotes are read as commandWords reads them (quoteStep: an escaped quote is none);
// with no closing quote on the same line, the value ends where it did.
func quotedEnd(s string, start, end int) int {
	var quote byte
	for i := start; i < end; i++ {
		if quoteStep(s, i, &quote) == 2 {
			i++ // an escaped quote (a\'b) opens nothing
		}
	}
	for i := end; quote != 0 && i < len(s); i++ {
		if s[i] == '\n' {
			break // as commandWords: a quote this scan takes for open ends at the line's end
		}
		if quote == '"' && continuation(s, i, quote) {
			i++ // a line continuation inside double quotes: bash removes it, the value goes on
			continue
		}
		if quoteStep(s, i, &quote) == 2 {
			i++
		} else if quote == 0 {
			return i
		}
	}
	return end
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// redactArgv hides, in a list of values, the string elements argvSecrets finds: the element
// (or its part after = or the user's colon) becomes Redacted. It reports whether it changed any.
func redactArgv(list []any) bool {
	changed := false
	argvSecrets(len(list), func(i int) (string, bool) { s, ok := list[i].(string); return s, ok }, true,
		func(i, from, to int) {
			s := list[i].(string)
			if part := hiddenPart(s, from, to); part != Redacted {
				list[i], changed = s[:from]+Redacted+s[from+len(part):], true
			}
		})
	return changed
}

// hiddenPart is the part of word s that argvSecrets' hide(i, from, to) names: [from, to), to -1
// meaning to its end.
func hiddenPart(s string, from, to int) string {
	if to < 0 {
		return s[from:]
	}
	return s[from:to]
}

// argvHasSecret reports whether redactArgv would change a list, for the direct encoder, which
// leaves such lists to the tree path.
func argvHasSecret[V any](list []V) bool {
	// Only a word that is an option or a known tool can start a credential: most lists (paths,
	// ids) have neither, and skip the pass.
	candidate := false
	for _, v := range list {
		if s, ok := any2string(v); ok && (len(s) > 1 && s[0] == '-' || isTool(path.Base(s))) {
			candidate = true
			break
		}
	}
	if !candidate {
		return false
	}
	found := false
	argvSecrets(len(list), func(i int) (string, bool) { return any2string(list[i]) }, true,
		func(i, from, to int) {
			if s, _ := any2string(list[i]); hiddenPart(s, from, to) != Redacted {
				found = true
			}
		})
	return found
}

func any2string[V any](v V) (string, bool) {
	s, ok := any(v).(string)
	return s, ok
}
