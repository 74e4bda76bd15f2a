package safety

import (
	"regexp"
	"slices"
	"strings"
)

// kill given the pids of every process, listed by another command: kill $(pgrep .), kill -9
// $(ps -e -o pid=), pgrep -P 1 | xargs kill, ps aux | awk '{print $2}' | xargs kill -9. Each is
// pkill . or kill -9 -1 in other words, so it is kill-init's, at every level. A list that keeps
// only some processes (ps aux | grep app, pgrep -f myserver) is an ordinary kill of computed
// pids, which kill-computed asks about.

// killFedEveryProcess adds kill-init's finding for each kill among the segments from outer on
// whose pids come from a list of every process: a command substitution in its words (the
// segments from first to outer) or what is piped to it (through xargs).
func (a *analyzer) killFedEveryProcess(first, outer int) {
	segs := a.out.segments
	for i := outer; i < len(segs); i++ {
		s := &segs[i]
		if s.name != cmdKill {
			continue
		}
		if !slices.ContainsFunc(signalledPids(s), func(w word) bool { return w.dynamic }) {
			continue
		}
		feeders := slices.Clip(s.pipeFrom)
		for j := first; j < outer; j++ {
			feeders = append(feeders, j)
		}
		if lister := everyProcessListed(segs, feeders); lister != "" {
			a.find(true, RulePrefixDamageControl+"kill-init",
				"command %q signals every process: its pids are listed by %q (as kill -1 or pkill . would)", s.text, lister)
		}
	}
}

// everyProcessListed returns the text of the command among feeders that lists every process, when
// the others only pick columns from its list; "" otherwise.
func everyProcessListed(segs []segment, feeders []int) string {
	lister := ""
	for _, k := range feeders {
		s := &segs[k]
		switch {
		case listsEveryProcess(s):
			lister = s.text
		case !picksColumns(s):
			return "" // a filter: the list may keep only some processes
		}
	}
	return lister
}

const (
	optFormat = "--format"
	optGroup  = "--group"
	cmdSort   = "sort"
)

// psValueOptions are ps's options that take the next word as their value.
var psValueOptions = []string{"-C", "-G", "-U", "-g", "-p", "-q", "-s", "-t", "-u", "-o", "-O", "-k",
	"--sort", "--pid", "--ppid", optUser, "--User", optGroup, "--Group", "--sid", "--tty", optFormat,
	"--cols", "--columns", "--rows", "--lines", "--quick-pid", "o", "O", "p", "t", "U"}

// listsEveryProcess reports whether a command prints every process's pid: pgrep selecting as
// pkill would select every process (kills.go), or ps with -e, -A, or BSD's a and x together
// (ps aux, ps -ax).
func listsEveryProcess(s *segment) bool {
	switch s.name {
	case cmdPgrep:
		as := *s
		as.name = cmdPkill
		return killsAllMatching(&as)
	case "ps":
		// -N and --deselect list every process but those the other options select.
		if s.hasFlag("-e") || s.hasFlag("-A") || s.hasFlag("--everyone") || s.hasFlag("-a") && s.hasFlag("-x") ||
			s.hasFlag("-N") || s.hasFlag("--deselect") {
			return true
		}
		// BSD's a and x, in one word or apart (ps aux, ps a x), not a value (ps -u alex).
		var a, x bool
		for i, w := range s.words[1:] {
			if i > 0 && slices.Contains(psValueOptions, s.words[i].s) {
				continue
			}
			if bsd := strings.TrimPrefix(w.s, "-"); !w.dynamic && strings.Trim(bsd, "auxwjlvfeo") == "" {
				a = a || strings.ContainsRune(bsd, 'a')
				x = x || strings.ContainsRune(bsd, 'x')
			}
		}
		return a && x
	}
	return false
}

const (
	cmdKill  = "kill"
	cmdPkill = "pkill"
	cmdPgrep = "pgrep"
)

// printsColumn is an awk program that prints one column of every line.
var printsColumn = regexp.MustCompile(`^\s*\{\s*print\s+\$[0-9]+\s*;?\s*\}\s*$`)

// picksColumns reports whether a command between the list and kill keeps every line: awk with
// a program of one action and no pattern ('{print $2}'), cut, tr, or tail/sed that only drop the
// header (tail -n +2, sed 1d).
func picksColumns(s *segment) bool {
	switch s.name {
	case "cut", "tr", cmdSort, "uniq", "tac":
		return true // they reorder, reshape or drop repeats: every pid stays
	case cmdAwk, cmdGawk, "mawk":
		return len(s.operands) == 1 && !s.operands[0].dynamic && printsColumn.MatchString(s.operands[0].s)
	case "tail":
		return len(s.words) == 3 && s.words[1].s == "-n" && s.words[2].s == "+2"
	case cmdSed:
		return len(s.words) == 2 && s.words[1].s == "1d"
	}
	return false
}
