package safety

import (
	"slices"
	"strings"
)

// jq's filter is its first operand once every option and its values are skipped; the operands
// after it are the files it reads (or, after --args, strings). print-environment-jq's pattern reads
// the whole text, so "jq . env/prod.json" named env; its jq-filter-names-environment check
// keeps the ask to calls where the environment's name is in the filter, or where the engine
// cannot tell which word the filter is.

// jqPairOptions take two values (a name and a value or file): jq, gojq and jaq alike.
var jqPairOptions = []string{"--arg", "--argjson", "--slurpfile", "--rawfile"}

// jqValueOptions take one value apart (-L also attached, -Lmodules, which the walk leaves unread).
var jqValueOptions = []string{"-L", "--library-path", "--indent", "-w"}

// yqValueOptions are python yq's (xq's, tomlq's) long options with a value, which its argparse
// also takes abbreviated (--wid 80).
var yqValueOptions = []string{"--width", "--xml-item-depth", "--xml-force-list", "--xml-root"}

// jqFilterNamesEnvironment is the jq-filter-names-environment check: true unless the
// filter is a literal word without env or ENV in it. A filter read from a file (-f, --from-file,
// which the engine cannot read), a computed word before the filter and an option the table does
// not know all leave it true.
func jqFilterNamesEnvironment(s *segment) bool {
	filter, ok := jqFilterWord(s)
	return !ok || filter.dynamic || strings.Contains(strings.ToLower(filter.s), "env")
}

// jqFilterWord returns jq's filter word, and false when the engine cannot tell it.
func jqFilterWord(s *segment) (word, bool) {
	w := s.words
	for i := 1; i < len(w); i++ {
		v := w[i].s
		switch {
		case w[i].dynamic:
			return word{}, false
		case v == "--":
			if i+1 < len(w) {
				return w[i+1], true
			}
			return word{}, false
		case slices.Contains(jqPairOptions, v):
			i += 2
		case jqTakesValue(v):
			i++
		case v == "-f" || strings.HasPrefix(v, "--from-file") ||
			len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.ContainsAny(v, "fLw"):
			// The filter is in a file, or a bundle with a value the walk does not split.
			return word{}, false
		case len(v) > 1 && v[0] == '-':
			if strings.HasPrefix(v, "--") && !jqKnownFlag(v) {
				return word{}, false
			}
		default:
			return w[i], true
		}
	}
	return word{}, false
}

// jqTakesValue says whether v is an option of jqValueOptions whose value is the next word.
func jqTakesValue(v string) bool {
	if slices.Contains(jqValueOptions, v) {
		return true
	}
	return len(v) > 3 && v[1] == '-' && !strings.Contains(v, "=") && slices.ContainsFunc(yqValueOptions, func(o string) bool {
		return abbreviates(v, o, len("--wi"))
	})
}

// jqKnownFlag says whether a long option is one jq, gojq, jaq or python yq takes with no value
// apart (or with its value attached by "=").
func jqKnownFlag(v string) bool {
	name, _, attached := strings.Cut(v, "=")
	return attached || slices.Contains(jqLongFlags, name)
}

// jqLongFlags are the long options without a value of jq, gojq, jaq and python yq.
var jqLongFlags = strings.Fields(`--null-input --raw-input --slurp --compact-output --raw-output --raw-output0
	--join-output --ascii-output --sort-keys --color-output --monochrome-output --tab --stream
	--stream-errors --seq --exit-status --args --jsonargs --unbuffered --yaml-input --yaml-output
	--xml-output --toml-output --in-place --explicit-start --indentless-lists --xml-dtd --help --version
	--build-configuration`)
