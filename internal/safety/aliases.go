package safety

import (
	"maps"
	"strings"
)

// An alias defined on the command line runs its text where a later command names it, in a shell
// that expands aliases (interactive, or after shopt -s expand_aliases, which some agent shells
// set before the command): "alias k=kubectl" then "k delete ns prod" on the next line runs
// kubectl delete. Each use of an alias the line defined is analysed as its text followed by the
// use's arguments, and an alias whose text is computed at run time is opaque.

// cmdAlias is the builtin that defines aliases.
const cmdAlias = "alias"

// aliases records alias definitions and analyses the uses of the aliases defined before.
func (a *analyzer) aliases(idx int, depth int) {
	seg := &a.out.segments[idx]
	if seg.name == cmdAlias {
		for _, w := range seg.words[1:] {
			name, val, ok := strings.Cut(w.s, "=")
			if !ok || name == "" {
				continue
			}
			ls := a.state()
			if ls.aliasText == nil {
				ls.aliasText = map[string]word{}
			}
			ls.aliasText[name] = w.with(val)
		}
		return
	}
	if a.line == nil || len(a.line.aliasText) == 0 || seg.words[0].dynamic {
		return
	}
	ls := a.line
	val, ok := ls.aliasText[seg.words[0].s]
	if !ok {
		return
	}
	if val.dynamic {
		a.opaque(idx, "the alias "+seg.words[0].s+", whose text is computed at run time")
		return
	}
	var b strings.Builder
	b.WriteString(val.s)
	rest := seg.words[1:]
	// An alias whose text ends in a blank has the next word alias-expanded too, in any position,
	// and so on while each text ends in one (alias g='git ' p='push -f': "g p" runs git push -f).
	// Each step takes a word of the use, so the chain ends.
	for text := val.s; len(rest) > 0 && !rest[0].dynamic && strings.TrimRight(text, " \t") != text; rest = rest[1:] {
		next, ok := ls.aliasText[rest[0].s]
		if !ok {
			break
		}
		if next.dynamic {
			a.opaque(idx, "the alias "+rest[0].s+", whose text is computed at run time")
			return
		}
		b.WriteString(next.s)
		text = next.s
	}
	for _, w := range rest {
		b.WriteString(" '")
		b.WriteString(strings.ReplaceAll(w.s, "'", `'\''`))
		b.WriteByte('\'')
	}
	// Bash expands the aliases its text starts with, but not the one being expanded again (alias
	// ls='ls -la').
	saved := ls.aliasText
	ls.aliasText = maps.Clone(saved)
	delete(ls.aliasText, seg.words[0].s)
	a.scriptFed(b.String(), depth+1, a.out.segments[idx].pipeFrom)
	ls.aliasText = saved
}
