package safety

import "strings"

// cmdSetopt is zsh's builtin that turns options on (setopt globdots).
const cmdSetopt = "setopt"

// cmdZsh is the Z shell, whose options are spelt otherwise than bash's.
const cmdZsh = "zsh"

// expansionOptions are shell options that change what a word expands to in ways the engine does
// not follow: * matching dotfiles, extended, recursive or case-blind globs, globs in expanded
// values, aliases. Names are as normalisedOption spells them, so bash's shopt names and zsh's
// option names (which ignore case and underscores) share one set.
var expansionOptions = wordSet("dotglob globdots extglob extendedglob kshglob nocaseglob caseglob " +
	"nocasematch casematch expandaliases aliases globasciiranges cdablevars globstar globstarshort " +
	"globsubst bareglobqual magicequalsubst braceccl rcexpandparam shwordsplit")

// normalisedOption spells an option name as zsh reads it: case and "_" or "-" do not count.
func normalisedOption(s string) string {
	return strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(s))
}

// isExpansionOption says whether an option name, as bash's shopt/-O or zsh's setopt/-o take it,
// is one of expansionOptions. zsh also reads "no" before a name as the option turned off
// (nocaseglob turns caseglob off, which is case-blind globbing): either reading counts, after
// any number of "no"s.
func isExpansionOption(s string) bool {
	n := normalisedOption(s)
	for {
		if expansionOptions[n] {
			return true
		}
		// Each "no" turns the option over again (nonoglobdots): any number of them counts.
		rest, ok := strings.CutPrefix(n, "no")
		if !ok {
			return false
		}
		n = rest
	}
}

// shellStartedExpanding says whether a shell's options (opts, the words before its script) turn
// on an option in expansionOptions before the script runs: the value of each -O/+O (bash's shopt)
// and -o/+o (set -o; zsh's every option) in a bundle is the next word in turn (bash -cO dotglob
// 'cat *'); zsh also takes an option as a long one (zsh --globdots) and -4 for globdots. A value
// computed at run time could be any option. +O turns an option off, but which shell's default is
// on is not the engine's to know, so either sign counts.
func shellStartedExpanding(name string, opts []word) bool {
	for i := 1; i < len(opts); i++ {
		v := opts[i].s
		switch {
		case opts[i].dynamic:
			return true
		case strings.HasPrefix(v, "--"):
			if name == cmdZsh && isExpansionOption(v[2:]) {
				return true
			}
		case len(v) > 1 && (v[0] == '-' || v[0] == '+'):
			if name == cmdZsh && strings.Contains(v, "4") {
				return true
			}
			for _, c := range v[1:] {
				if c != 'o' && c != 'O' {
					continue
				}
				if i++; i < len(opts) && (opts[i].dynamic || isExpansionOption(opts[i].s)) {
					return true
				}
			}
		}
	}
	return false
}
