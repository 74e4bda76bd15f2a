package safety

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Placeholders stand for text only known at run time. They keep the shape of the shell syntax
// they replace, so a rendered script can be parsed again (for "bash -c" bodies and the like) and
// rules can recognise computed values by their leading '$'.
const (
	placeholderCmdSubst  = "$(:)"
	placeholderProcSubst = "<(:)"
	placeholderArith     = "$((0))"
	placeholderXargs     = "$XARGS"
	placeholderFind      = "$FIND"
)

// word is one shell word after quote removal: the value bash would pass, with run-time parts
// replaced by placeholders.
type word struct {
	s       string
	dynamic bool // contains a parameter expansion, substitution or arithmetic
	glob    bool // contains an unquoted * ? or [ that bash would expand
	split   bool // holds an unquoted expansion computed at run time, which bash may split into several words
}

// with returns a word derived from w (an option value, a "key=value" value) that keeps w's
// run-time and glob marks.
func (w word) with(s string) word { return word{s: s, dynamic: w.dynamic, glob: w.glob} }

// foldCommand prepares untrusted command text for the parser. Unicode spaces become ASCII spaces
// and zero-width characters vanish: bash would not split on them, so the command they hide is not
// what runs, but treating them as separators can only make a check stricter — but for a "#" after
// one, which bash reads as part of a word and a separator would make a comment: it is escaped.
// Control characters other than tab and newline are refused; a carriage return counts as a space.
func foldCommand(s string) (string, *analysisError) {
	if len(s) > MaxCommandBytes {
		return "", &analysisError{rule: RuleCommandTooLong, msg: "command is longer than " + strconv.Itoa(MaxCommandBytes) + " bytes"}
	}
	if !utf8.ValidString(s) {
		return "", &analysisError{rule: RuleCommandUnparseable, msg: "command is not valid UTF-8"}
	}
	needs := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || c < 0x20 || c == 0x7f {
			needs = true
			break
		}
	}
	if !needs {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	folded := false // the last character was folded away or into a space
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n':
			b.WriteRune(r)
			folded = false
		case r == '\r':
			b.WriteByte(' ')
			folded = true
		case r < 0x20 || r == 0x7f:
			return "", &analysisError{rule: RuleCommandControlChars, msg: "command contains control character " + strconv.QuoteRune(r)}
		case isZeroWidth(r):
			folded = true
		case r >= utf8.RuneSelf && unicode.IsSpace(r):
			b.WriteByte(' ')
			folded = true
		case r == '#' && folded:
			// Bash glued it to the folded character: a word character, not the start of a
			// comment ("ls\r#; cat .env" runs cat). Escaped, it stays one.
			b.WriteString(`\#`)
			folded = false
		default:
			b.WriteRune(r)
			folded = false
		}
	}
	return b.String(), nil
}

func isZeroWidth(r rune) bool {
	switch r {
	case '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad':
		return true
	}
	return false
}

// foldPath applies the same folding to a path argument and trims surrounding spaces.
func foldPath(p string) string {
	for i := 0; i < len(p); i++ {
		if p[i] >= utf8.RuneSelf {
			var b strings.Builder
			for _, r := range p {
				switch {
				case isZeroWidth(r):
				case unicode.IsSpace(r):
					b.WriteByte(' ')
				default:
					b.WriteRune(r)
				}
			}
			p = b.String()
			break
		}
	}
	return strings.TrimSpace(p)
}

// renderWord resolves quotes and escapes the way bash does and replaces run-time parts with
// placeholders. A NUL ends the value, as it ends a C string passed to exec.
// Variables the scope resolves are replaced by their values; an unassigned $HOME at the start of a
// word is "~".
func renderWord(w *syntax.Word, vars *varScope) word {
	if len(w.Parts) == 1 {
		// The common case, a plain literal without escapes, needs no copy.
		if l, ok := w.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(l.Value, "\\\x00") {
			return word{s: l.Value, glob: mayGlob(l.Value)}
		}
	}
	if src := vars.callerDerived(w); src != "" {
		return word{s: src, dynamic: true} // kill $((PPID)) is kill $PPID to kill's check
	}
	r := renderer{vars: vars}
	for _, p := range w.Parts {
		r.part(p, false)
	}
	s := r.b.String()
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	glob := r.glob && (r.extglob || mayGlob(s))
	// A quoted or escaped character after an unquoted "[" may be a member of a bracket expression
	// (.[e\]]nv is "e or ]", and matches .env), which the rendered text no longer shows: such a
	// glob is judged as a name computed at run time, not as the narrower one it reads as.
	return word{s: s, dynamic: r.dynamic || glob && r.quotedAfterBracket, glob: glob, split: r.split}
}

// mayGlob reports whether a word with unquoted glob characters can match anything but itself:
// it has a * or ?, or a [ with a ] after it. A [ that no ] closes is an ordinary character to
// bash, so "[ -f go.mod ]" runs the test builtin, not a glob.
func mayGlob(s string) bool {
	if strings.ContainsAny(s, "*?") {
		return true
	}
	i := strings.IndexByte(s, '[')
	return i >= 0 && strings.IndexByte(s[i+1:], ']') >= 0
}

type renderer struct {
	b       strings.Builder
	vars    *varScope
	dynamic bool
	glob    bool
	extglob bool
	split   bool
	// bracket is set once an unquoted "[" is written; quotedAfterBracket once a quoted or escaped
	// character follows it.
	bracket, quotedAfterBracket bool
}

func (r *renderer) part(p syntax.WordPart, quoted bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		r.lit(p.Value, quoted)
	case *syntax.SglQuoted:
		r.quotedAfterBracket = r.quotedAfterBracket || r.bracket
		if p.Dollar {
			r.b.WriteString(decodeANSIC(p.Value))
		} else {
			r.b.WriteString(p.Value)
		}
	case *syntax.DblQuoted:
		r.quotedAfterBracket = r.quotedAfterBracket || r.bracket
		for _, q := range p.Parts {
			r.part(q, true)
		}
	case *syntax.ParamExp:
		r.param(p, quoted)
	case *syntax.CmdSubst:
		r.dynamic, r.split = true, r.split || !quoted
		r.b.WriteString(placeholderCmdSubst)
	case *syntax.ArithmExp:
		if v, ok := constArith(p.X); ok {
			r.b.WriteString(strconv.FormatInt(v, 10)) // $((-1)) is -1 (constarith.go)
			return
		}
		r.dynamic = true
		r.b.WriteString(placeholderArith)
	case *syntax.ProcSubst:
		r.dynamic = true
		r.b.WriteString(placeholderProcSubst)
	case *syntax.ExtGlob:
		r.glob, r.extglob = true, true
		r.b.WriteString(extGlobAsGlob(p))
	case *syntax.BraceExp:
		// Only present when expansion was not possible; keep the text.
		r.b.WriteByte('{')
		for i, e := range p.Elems {
			if i > 0 {
				if p.Sequence {
					r.b.WriteString("..")
				} else {
					r.b.WriteByte(',')
				}
			}
			for _, q := range e.Parts {
				r.part(q, quoted)
			}
		}
		r.b.WriteByte('}')
	}
}

// extGlobAsGlob is what an extended glob (@(a|b), ?(a), *(a), +(a), !(a)) may match, as a plain
// glob: any name ("*"), or any dotfile (".*") when one of its patterns starts with a dot, since
// bash's glob matches a leading dot only where the pattern spells it; whether !(a) matches dotfiles
// has varied between bash versions, so it is taken to. Where a shell has extglob on (a user's shell options, an
// inherited BASHOPTS), cat @(.env) reads .env; written out as "@(.env)" it named nothing the path
// policy knows, and was admitted.
func extGlobAsGlob(p *syntax.ExtGlob) string {
	if p.Op == syntax.GlobExcept {
		return ".*"
	}
	if p.Pattern != nil {
		for alt := range strings.SplitSeq(p.Pattern.Value, "|") {
			if strings.HasPrefix(alt, ".") {
				return ".*"
			}
		}
	}
	return "*"
}

// param writes a parameter expansion: the value of a resolved variable, "~" or "~+" for an
// unassigned $HOME or $PWD that starts the word (startDirectory), a "$NAME" placeholder otherwise.
func (r *renderer) param(p *syntax.ParamExp, quoted bool) {
	if simpleParam(p) {
		name := p.Param.Value
		if v, ok := r.vars.lookup(name); ok && (v != "" || p.Exp == nil) {
			// Unquoted, a value with spaces splits into words and one with glob characters expands:
			// both are left unresolved.
			if quoted || !strings.ContainsAny(v, " \t\n") {
				if (!quoted && hasGlobMeta(v)) || r.vars.isGlob(name) {
					r.glob = true
				}
				// x=.[e; cat $x\]]nv: the value's "[" opens the bracket the quoted "]" is in.
				r.bracket = r.bracket || !quoted && strings.Contains(v, "[")
				r.b.WriteString(v)
				return
			}
		}
		if dir, ok := r.startDirectory(p); ok {
			r.b.WriteString(dir)
			return
		}
	}
	r.dynamic, r.split = true, r.split || !quoted
	if simpleParam(p) && p.Exp == nil {
		if src := r.vars.pidOf(p.Param.Value); src != "" {
			r.b.WriteString(src) // a copy of $PPID is $PPID to kill's check (callerCopy)
			return
		}
	}
	r.b.WriteString(paramPlaceholder(p))
}

// startDirectory renders an unassigned $HOME or $PWD that starts a word as ~ or ~+, the names the
// path policy knows those directories by.
func (r *renderer) startDirectory(p *syntax.ParamExp) (string, bool) {
	if p.Exp != nil || r.b.Len() > 0 {
		return "", false
	}
	switch name := p.Param.Value; {
	case name == "HOME" && (r.vars == nil || r.vars.assigned["HOME"] == 0):
		return "~", true
	case name == envPWD && r.vars != nil && !r.vars.off && r.vars.assigned[envPWD] == 0:
		// The shell keeps $PWD the working directory, which ~+ names (cd moves both); a line that
		// sets PWD, or may by a name the engine does not see, leaves it computed.
		return "~+", true
	}
	return "", false
}

// lit removes backslash escapes: outside quotes every backslash escapes the next byte; inside
// double quotes only $ ` " \ and newline are escapable.
func (r *renderer) lit(v string, quoted bool) {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\\' && i+1 < len(v) {
			n := v[i+1]
			if !quoted || n == '$' || n == '`' || n == '"' || n == '\\' || n == '\n' {
				r.quotedAfterBracket = r.quotedAfterBracket || r.bracket
				i++
				if n != '\n' {
					r.b.WriteByte(n)
				}
				continue
			}
		}
		if !quoted && (c == '*' || c == '?' || c == '[') {
			r.glob = true
			r.bracket = r.bracket || c == '['
		}
		r.b.WriteByte(c)
	}
}

// paramPlaceholder renders $NAME or ${NAME...} as "$NAME", so HOME-relative paths stay
// recognisable ("$HOME/.ssh" is "~/.ssh" to the path policy).
func paramPlaceholder(p *syntax.ParamExp) string {
	if p.Param != nil && p.Param.Value != "" {
		return "$" + p.Param.Value
	}
	return "${}"
}

// decodeANSIC decodes the body of a $'...' string, so $'\x72\x6d' is seen as "rm".
func decodeANSIC(s string) string {
	if !strings.ContainsRune(s, '\\') {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i = decodeANSICEscape(&b, s, i+1)
	}
	return b.String()
}

// decodeANSICEscape decodes the escape sequence whose letter is s[i] (the byte after the
// backslash) into b and returns the index of the sequence's last byte.
func decodeANSICEscape(b *strings.Builder, s string, i int) int {
	e := s[i]
	if v, ok := ansiCSimpleEscape(e); ok {
		b.WriteByte(v)
		return i
	}
	switch e {
	case 'c':
		if i+1 < len(s) {
			i++
			b.WriteByte(s[i] & 0x1f)
		}
		return i
	case 'x', 'u', 'U':
		return decodeANSICHex(b, s, i)
	case '0', '1', '2', '3', '4', '5', '6', '7':
		return decodeANSICOctal(b, s, i)
	}
	b.WriteByte('\\')
	b.WriteByte(e)
	return i
}

// ansiCSimpleEscape returns the byte a one-letter escape stands for.
func ansiCSimpleEscape(e byte) (byte, bool) {
	switch e {
	case 'a':
		return '\a', true
	case 'b':
		return '\b', true
	case 'e', 'E':
		return 0x1b, true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'v':
		return '\v', true
	case '\\', '\'', '"', '?':
		return e, true
	}
	return 0, false
}

// decodeANSICHex decodes \xHH (a byte), \uHHHH and \UHHHHHHHH (a code point) whose letter is
// s[i]; without hex digits the escape stays as written. It returns the index of the sequence's
// last byte.
func decodeANSICHex(b *strings.Builder, s string, i int) int {
	e := s[i]
	maxDigits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
	j := i + 1
	for j < len(s) && j-i-1 < maxDigits && isHex(s[j]) {
		j++
	}
	if j == i+1 {
		b.WriteByte('\\')
		b.WriteByte(e)
		return i
	}
	v, _ := strconv.ParseUint(s[i+1:j], 16, 32)
	if e == 'x' {
		b.WriteByte(byte(v))
	} else if v <= unicode.MaxRune {
		b.WriteRune(rune(v))
	}
	return j - 1
}

// decodeANSICOctal decodes \NNN, up to three octal digits starting at s[i], as a byte. It returns
// the index of the sequence's last byte.
func decodeANSICOctal(b *strings.Builder, s string, i int) int {
	j := i
	for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
		j++
	}
	v, _ := strconv.ParseUint(s[i:j], 8, 16)
	b.WriteByte(byte(v))
	return j - 1
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// commandName normalises a command word for rule matching: the base name of an absolute or
// relative binary path (/usr/bin/sudo and ./sudo are both sudo), lower-cased.
func commandName(s string) string {
	s = strings.TrimRight(s, "/")
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	s = strings.ToLower(s)
	if alias, ok := programAliases[s]; ok {
		return alias
	}
	if sh := shellName(s); sh != "" {
		return sh
	}
	return versionedEntryPoint(s)
}

// shellName reads a shell's name however its package installs it, as the shell it is: a
// statically linked build (bash-static, zsh-static, mksh-static), a restricted variant (a leading
// "r": rmksh, rlksh, rzsh), an alias (lksh is mksh) and a version (bash-5.2), in any
// combination; "" for a name that is no shell. rsh, the remote shell, is not sh restricted.
func shellName(s string) string {
	read := func(n string) string {
		if alias, ok := programAliases[n]; ok {
			n = alias
		}
		if n = versionedEntryPoint(n); shells[n] {
			return n
		}
		return ""
	}
	s = strings.TrimSuffix(s, "-static")
	if sh := read(s); sh != "" {
		return sh
	}
	if len(s) > 3 && s[0] == 'r' {
		return read(s[1:])
	}
	return ""
}

// versionedEntryPoints are programs installed under versioned names too: coverage as coverage3
// and coverage-3.12 (pip), the same program with the same subcommands (coverage3 run runs a
// file), and shells as ksh93, ksh88, bash5, bash-5.2, zsh-5.9 (distributions and from-source
// installs), each read as the shell it is.
var versionedEntryPoints = []string{cmdCoverage, cmdBash, cmdZsh, cmdKsh, "dash", "yash"}

// cmdCoverage is coverage.py's command.
const cmdCoverage = "coverage"

// versionedEntryPoint returns the program's usual name for one of versionedEntryPoints followed
// by a version (digits and dots, after an optional "-"), else the name as it is.
func versionedEntryPoint(s string) string {
	for _, base := range versionedEntryPoints {
		if v, ok := strings.CutPrefix(s, base); ok && v != "" && strings.Trim(strings.TrimPrefix(v, "-"), "0123456789.") == "" {
			return base
		}
	}
	return s
}

// programAliases are other names of a program the engine reads by its usual one: bfs, a find
// with find's expression and a few primaries more (findexpr.go), GNU tar
// installed as gtar (macOS, the BSDs), 7-Zip's own build as 7zz; Helm 3 installed as helm3
// (distributions' and CI images' name), kubecolor, which passes its arguments to kubectl
// unchanged, the snap's microk8s.kubectl and microk8s.helm(3), and py.test, the entry point
// pytest still installs under its older name (the same program: its options, its conftest.py).
var programAliases = map[string]string{"bfs": cmdFind, "gtar": cmdTar, "7zz": cmd7z, "helm3": cmdHelm, "kubecolor": cmdKubectl,
	"microk8s.kubectl": cmdKubectl, "microk8s.helm": cmdHelm, "microk8s.helm3": cmdHelm, "py.test": cmdPytest,
	// The project's Gradle and Maven wrappers run the build tool with their words, after fetching
	// the distribution the project's gradle/wrapper/gradle-wrapper.properties or
	// .mvn/wrapper/maven-wrapper.properties names: the project's, as its build.gradle is.
	wrapperGradle: cmdGradle, wrapperMaven: cmdMvn,
	// Shells under their lineage's names, read as the shell they are (shellName adds restricted
	// and static builds: rzsh, zsh restricted, still runs rm); ksh93's relatives with ksh's
	// (bash's, which fails to parse what only ksh93 writes, such as ~(E)pattern, and denies it);
	// busybox's hush as sh.
	// Oils' osh runs bash's language; Mono's xbuild is MSBuild (Directory.Build.props, .rsp).
	"pdksh": cmdKsh, "lksh": "mksh", "hush": "sh", "osh": cmdBash, "xbuild": cmdMSBuild}

// cmdKsh is the Korn shell.
const (
	cmdKsh  = "ksh"
	cmdBash = "bash"
)

// The Gradle and Maven wrappers' script names.
const (
	wrapperGradle = "gradlew"
	wrapperMaven  = "mvnw"
)

// wordSet is the set of the blank-separated words of s.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(s) {
		m[w] = true
	}
	return m
}
