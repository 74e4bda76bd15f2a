package safety

import (
	"slices"
	"strings"
)

// A rule written with one spelling of an option must see the other: a Flags rule naming
// --server (kubectl -s), a project's pattern "^kubectl .*--namespace prod" (kubectl -n prod),
// "^curl .*--request DELETE" (curl -X DELETE). flagAliases are, per program (or "program
// subcommand" where a letter means something else elsewhere: git's -d is clean's directories),
// short options and the long option each stands for, with whether it takes a value. The
// segment's flags hold both spellings (aliasFlags), and pattern rules also see the text with each
// short alias spelt long (spellLong).
// optWorkdir is docker's and podman's working directory for a container's command.
const optWorkdir = "--workdir"

type flagAlias struct {
	short, long string
	value       bool
}

//nolint:goconst // option spellings read best literally, next to their neighbours
var (
	kubectlAliases = []flagAlias{{"-n", "--namespace", true}, {"-s", "--server", true}, {"-A", "--all-namespaces", false},
		{"-l", "--selector", true}}
	containerRunAliases = []flagAlias{{"-e", optEnv, true}, {"-v", "--volume", true}, {"-u", optUser, true},
		{"-p", "--publish", true}, {"-w", optWorkdir, true}}
)

//nolint:goconst // option spellings and program names in this table read best literally, next to their neighbours
var flagAliases = map[string][]flagAlias{
	cmdKubectl: kubectlAliases, cmdOC: kubectlAliases,
	"helm": {{"-n", "--namespace", true}},
	"gh":   {{"-R", "--repo", true}},
	"az":   {{"-g", "--resource-group", true}},
	"make": {{"-C", "--directory", true}, {"-f", "--file", true}},
	cmdCurl: {{"-X", "--request", true}, {"-d", "--data", true}, {"-H", "--header", true}, {"-u", optUser, true},
		{"-T", "--upload-file", true}, {"-F", "--form", true}, {"-o", "--output", true}, {"-k", "--insecure", false}},
	"docker run": containerRunAliases, "docker create": containerRunAliases,
	"podman run": containerRunAliases, "podman create": containerRunAliases,
	"git push": {{"-f", "--force", false}, {"-d", "--delete", false}, {"-u", "--set-upstream", false}, {"-n", "--dry-run", false}},
}

// aliasesOf returns the aliases that hold for a segment: its program's, and its subcommand's.
func aliasesOf(s *segment) []flagAlias {
	as := flagAliases[s.name]
	if len(s.operands) > 0 {
		if sub, ok := flagAliases[s.name+" "+s.operands[0].s]; ok {
			return append(slices.Clip(as), sub...)
		}
	}
	return as
}

// aliasFlags adds to a segment's flags the other spelling of each aliased option it has, so a
// rule naming either matches both.
func aliasFlags(s *segment) {
	for _, a := range aliasesOf(s) {
		switch {
		case s.hasExactFlag(a.short) && !s.hasExactFlag(a.long):
			s.flags = append(s.flags, a.long)
		case s.hasFlag(a.long) && !s.hasExactFlag(a.short):
			s.flags = append(s.flags, a.short)
		}
	}
}

// spellLong returns a pattern text with each short alias word spelt long: "-n prod" and "-nprod"
// as "--namespace prod", and in a bundle as getopt reads it ("-sXDELETE" as "-s --request
// DELETE": a letter whose option takes a value takes the rest of the word). The text is returned
// unchanged when it has none.
func spellLong(s *segment, t string) string {
	as := aliasesOf(s)
	if len(as) == 0 || !strings.Contains(t, " -") {
		return t
	}
	words := strings.Split(t, " ")
	changed := false
	for i, w := range words {
		if i == 0 || len(w) < 2 || w[0] != '-' || w[1] == '-' {
			continue
		}
		if long := spellBundle(as, w); long != w {
			words[i], changed = long, true
		}
	}
	if !changed {
		return t
	}
	return strings.Join(words, " ")
}

// spellBundle spells a short option word's aliased letters long, each apart; the word itself when
// none is aliased.
func spellBundle(as []flagAlias, w string) string {
	var parts []string
	aliased := false
	for j := 1; j < len(w); j++ {
		k := slices.IndexFunc(as, func(a flagAlias) bool { return a.short[1] == w[j] })
		if k < 0 {
			parts = append(parts, "-"+w[j:j+1])
			continue
		}
		aliased = true
		parts = append(parts, as[k].long)
		if as[k].value {
			if j+1 < len(w) {
				parts = append(parts, w[j+1:])
			}
			break
		}
	}
	if !aliased {
		return w
	}
	return strings.Join(parts, " ")
}
