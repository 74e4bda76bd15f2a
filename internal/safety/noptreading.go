package safety

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// npx and npm exec read their words with npm's option parser, nopt, whose reading of a word
// depends on the type of the key it names: --otp, --before, --no-otp take the next word as their
// value (npx --otp tsc -c 'rm -rf ~' runs rm -rf ~, as tsc is otp's value), --yes=tsc leaves tsc
// as the command, and an unknown --foo takes none. npx first runs its own pass (npx-cli), which
// puts "--" before what it takes for the first operand, and takes an unknown option to have a
// value: npx --foo tsc --package /tmp/x/pkg --yes tsc leaves --package to nopt, after the
// command nopt finds (tsc). noptReading follows both, with npm's own tables (nopttables.go), so
// the engine's reading of a runner's words can be checked against it (noptMisread).

// noptTok is a word of the parser's argument list and the index of the segment word it comes
// from (a shorthand's expansion, the value after "=", come from the word that held them).
type noptTok struct {
	s  string
	at int
}

// noptReading is what npx or npm exec, through nopt, makes of a segment's words: the index of
// the command it runs (len(words) for none), whether it runs its --call instead, and the keys
// it reads after the command (npm exec tsc --package X: nopt reads options anywhere before "--").
type noptReading struct {
	command int
	call    bool
	calls   int // the --call options nopt reads (-c, --call, an abbreviation)
	after   []string
}

// npxSwitches are the keys npx-cli takes to have no value: npm's keys whose type holds Boolean,
// and its own. npxOpts are those it takes to have one even before a word with a dash; npxRemoved
// those it drops (with their value).
var (
	npxSwitches = wordSet("browser color expect-results optional production workspaces yes always-spawn ignore-existing " +
		"shell-auto-fallback no-install quiet q version v help h")
	npxOpts    = wordSet("package p cache userconfig call c shell npm node-arg n")
	npxRemoved = wordSet("always-spawn ignore-existing shell-auto-fallback npm node-arg n")
)

// npxCliPass runs npx-cli's pass over words (words[0] is npx): the tokens it leaves before its
// break, the index of the word it breaks at, whether that word is "--" (else npx-cli put "--"
// before it), and false when a word computed at run time comes first.
func npxCliPass(words []word) (toks []noptTok, brk int, dashes, ok bool) {
	for k := 1; k < len(words); k++ {
		toks = append(toks, noptTok{words[k].s, k})
	}
	for i := 0; i < len(toks); {
		if words[toks[i].at].dynamic {
			return nil, 0, false, false
		}
		arg := toks[i].s
		if arg == "--" {
			return toks[:i], toks[i].at, true, true
		}
		if !strings.HasPrefix(arg, "-") {
			return toks[:i], toks[i].at, false, true
		}
		parts := strings.Split(strings.TrimLeft(arg, "-"), "=")
		key, v := parts[0], parts[1:]
		switch {
		case key == "p":
			toks[i].s = strings.Join(append([]string{"--package"}, v...), "=")
		case key == optShellName:
			toks[i].s = strings.Join(append([]string{optScriptShell}, v...), "=")
		case key == "no-install":
			toks[i].s = "--yes=false"
		case noptShorthandWords[key] != "" && !npxRemoved[key]:
			exp := strings.Fields(noptShorthandWords[key])
			if len(v) > 0 {
				exp = append(exp, strings.Join(v, "="))
			}
			toks = spliceToks(toks, i, toks[i].at, exp)
			continue
		}
		takes := len(v) == 0 && npxTakesNext(key, toks[i+1:])
		if npxRemoved[key] {
			toks = slices.Delete(toks, i, i+1)
			if takes && i < len(toks) {
				toks = slices.Delete(toks, i, i+1)
			}
			continue
		}
		if takes {
			i++
		}
		i++
	}
	return toks, len(words), false, true
}

// npxTakesNext says whether npx-cli takes the word after key (given without "=") for its value:
// key is no switch, and is one of its options or the next word has no dash (or there is none).
func npxTakesNext(key string, rest []noptTok) bool {
	return !npxSwitches[key] && (npxOpts[key] || len(rest) == 0 || !strings.HasPrefix(rest[0].s, "-"))
}

// optShellName is npm's --shell without its dashes, which npx-cli reads as --script-shell.
const optShellName = "shell"

// spliceToks replaces toks[i] with the words of exp, all from segment word at.
func spliceToks(toks []noptTok, i, at int, exp []string) []noptTok {
	out := make([]noptTok, 0, len(toks)+len(exp))
	out = append(out, toks[:i]...)
	for _, e := range exp {
		out = append(out, noptTok{e, at})
	}
	return append(out, toks[i+1:]...)
}

var (
	noptDashesOnly = regexp.MustCompile(`^-{2,}$`)
	noptOptionLike = regexp.MustCompile(`^-{1,2}[^-]+`)
	noptShortLike  = regexp.MustCompile(`^-[^-]`)
	noptLongLike   = regexp.MustCompile(`^-{2,}[^-]`)
)

// noptParsed is nopt's reading of tokens: the segment word index of each operand, the keys it
// read with the index of the word each came from, and whether its call is set to a script.
type noptParsed struct {
	operands []int
	keys     []noptTok // s is the key
	call     bool
	dynamic  int // the index of the first word computed at run time, or -1
}

// noptParse reads toks as nopt does (nopt-lib's parse, with npm's types): "--" ends the options.
func noptParse(toks []noptTok, words []word) noptParsed {
	p := noptParsed{dynamic: -1}
	for i := 0; i < len(toks); i++ {
		arg := toks[i].s
		if words[toks[i].at].dynamic && p.dynamic < 0 {
			p.dynamic = toks[i].at
		}
		if noptDashesOnly.MatchString(arg) {
			for _, t := range toks[i+1:] {
				p.operands = append(p.operands, t.at)
			}
			break
		}
		if len(arg) < 2 || arg[0] != '-' {
			p.operands = append(p.operands, toks[i].at)
			continue
		}
		hadEq := false
		if name, v, ok := strings.Cut(arg, "="); ok {
			hadEq, arg = true, name
			toks = spliceToks(toks, i, toks[i].at, []string{name, v})
		}
		if exp := noptResolveShort(arg); exp != nil {
			toks = spliceToks(toks, i, toks[i].at, exp)
			if arg != exp[0] {
				i--
				continue
			}
		}
		key, val, took := noptValue(arg, hadEq, toks[i+1:])
		p.keys = append(p.keys, noptTok{key, toks[i].at})
		if key == noptKeyCall {
			p.call = took && val != ""
		}
		if took {
			i++
		}
	}
	return p
}

// noptValue reads option arg (its dashes still on) as nopt does: its key, its value, and
// whether it takes the next token (rest[0]) for it.
func noptValue(arg string, hadEq bool, rest []noptTok) (key, val string, took bool) {
	key = strings.TrimLeft(arg, "-")
	no := false
	for strings.HasPrefix(strings.ToLower(key), "no-") {
		no, key = true, key[3:]
	}
	if full := noptAbbrev(noptKeys, key); full != "" {
		key = full
	}
	list, isList := noptLists[key]
	if len(rest) == 0 {
		return key, "", false
	}
	la := rest[0].s
	switch {
	case noptIsFlag(key, no, hadEq, la):
		return key, la, noptBooleans[la] || isList && noptListTakes(list, la)
	case noptStringKeys[key] && noptOptionLike.MatchString(la), noptDashesOnly.MatchString(la):
		return key, "", false
	}
	return key, la, true
}

// noptIsFlag says whether nopt reads key as a flag, before la: "no-" was stripped from it, its
// type holds Boolean, or it is unknown and has no "=" value (la "false" makes a key whose type
// list holds null one too).
func noptIsFlag(key string, no, hadEq bool, la string) bool {
	list, isList := noptLists[key]
	return no || noptBoolKeys[key] || isList && list.boolean || !noptKeys[key] && !hadEq ||
		la == noptFalse && isList && list.null
}

// noptFalse and noptNull are the words nopt reads as false and null.
const (
	noptFalse = "false"
	noptNull  = "null"
)

// noptKeyCall and noptKeyPackage are npm's call (npx -c's script) and package keys.
const (
	noptKeyCall    = "call"
	noptKeyPackage = "package"
)

// noptListTakes says whether a flag whose type is list takes la as its value: one of its named
// values, null, a number or (holding String) any word but a short option.
func noptListTakes(list noptList, la string) bool {
	_, numErr := strconv.ParseFloat(strings.TrimSpace(la), 64)
	return wordSet(list.lits)[la] || la == noptNull && list.null ||
		!noptLongLike.MatchString(la) && numErr == nil && list.number ||
		!noptShortLike.MatchString(la) && list.str
}

// noptResolveShort is nopt's resolveShort: the words a shorthand (or a word of one-letter
// shorthands, or a shorthand's unique prefix) stands for, or nil.
func noptResolveShort(arg string) []string {
	a := strings.TrimLeft(arg, "-")
	if a == "" || noptKeys[a] {
		return nil
	}
	if exp := noptShorthandWords[a]; exp != "" {
		return strings.Fields(exp)
	}
	if !strings.ContainsFunc(a, func(r rune) bool { return noptShorthandWords[string(r)] == "" }) {
		var out []string
		for _, r := range a {
			out = append(out, strings.Fields(noptShorthandWords[string(r)])...)
		}
		return out
	}
	if noptAbbrev(noptKeys, a) != "" {
		return nil
	}
	if full := noptAbbrev(noptShortKeys, a); full != "" {
		return strings.Fields(noptShorthandWords[full])
	}
	return nil
}

// noptShortKeys are the shorthands, for their unique prefixes.
var noptShortKeys = func() map[string]bool {
	m := map[string]bool{}
	for k := range noptShorthandWords {
		m[k] = true
	}
	return m
}()

// noptAbbrev returns the key of keys that s is or is the unique prefix of, or "".
func noptAbbrev(keys map[string]bool, s string) string {
	if keys[s] {
		return s
	}
	found := ""
	for k := range keys {
		if strings.HasPrefix(k, s) {
			if found != "" {
				return ""
			}
			found = k
		}
	}
	return found
}

// noptReadingOf returns what npx (npx is true) or npm exec reads in words, and false when a
// word computed at run time comes before its command, which nopt's reading cannot tell.
func noptReadingOf(words []word, npx bool) (noptReading, bool) {
	var toks []noptTok
	tail := []int(nil) // the operands after npx-cli's break
	if npx {
		region, brk, dashes, ok := npxCliPass(words)
		if !ok {
			return noptReading{}, false
		}
		toks = region
		for k := brk; k < len(words); k++ {
			if k > brk || !dashes {
				tail = append(tail, k)
			}
		}
	} else {
		for k := 1; k < len(words); k++ {
			toks = append(toks, noptTok{words[k].s, k})
		}
	}
	p := noptParse(toks, words)
	operands := append(p.operands, tail...)
	if !npx && len(operands) > 0 {
		operands = operands[1:] // npm's subcommand, exec or x
	}
	r := noptReading{command: len(words)}
	if len(operands) > 0 {
		r.command = operands[0]
	}
	if p.dynamic >= 0 && p.dynamic <= r.command {
		return noptReading{}, false
	}
	r.call = p.call && len(operands) == 0
	for _, k := range p.keys {
		if k.s == noptKeyCall {
			r.calls++
		}
		if k.at > r.command {
			r.after = append(r.after, k.s)
		}
	}
	return r, true
}

// noptAfterCode are the keys that, read after the command, change what npm exec runs: the
// shell and node options it runs with, another npmrc (which can set them), the programs it
// fetches with. Their values are judged where the engine reads them as npm's (codeOption); read
// after the command they are not, so the command is opaque.
var noptAfterCode = wordSet("script-shell node-options shell userconfig globalconfig git node-gyp")

// noptMisread checks the engine's reading of npx's or npm exec's words (segment idx, whose
// command it found at i, with a script of its own when script) against nopt's: when nopt runs
// another command or a --call, or reads after the command an option that names code, the call
// is opaque; a --package read there fetches what it runs (spec's fetch rule). It reports
// whether the segment was judged so.
func (a *analyzer) noptMisread(idx int, words []word, spec wrapSpec, i int, script bool) bool {
	name := a.out.segments[idx].name
	if !spec.dashLong || name != cmdNpx && name != cmdNpm {
		return false
	}
	r, ok := noptReadingOf(words, name == cmdNpx)
	if !ok {
		return false
	}
	if r.calls > 1 {
		// npm exec -c -c 'CMD': the first -c takes no value (a dash word follows), the last one's
		// runs, where the engine judged "-c" as the script; which one runs is nopt's to say.
		a.opaque(idx, "npm's option parser reads --call more than once, and runs the last one's value")
		return true
	}
	if r.call != script || !script && r.command != min(i, len(words)) {
		what := "its --call"
		if !r.call {
			what = "nothing"
			if r.command < len(words) {
				what = strconv.Quote(words[r.command].s)
			}
		}
		a.opaque(idx, "npm's option parser reads its words otherwise: it runs "+what)
		return true
	}
	for _, k := range r.after {
		switch {
		case k == noptKeyPackage:
			a.runnerFetch(idx, spec.fetch, true)
		case noptAfterCode[k]:
			a.opaque(idx, "npm reads its option --"+k+" after the command")
			return true
		}
	}
	return false
}
