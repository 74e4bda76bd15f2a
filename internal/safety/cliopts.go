package safety

import "strings"

// kubectlOption returns the value kubectl's (pflag's) option parser reads for one option, the last time it
// is given (pflag, Go's flag package and argparse all keep the last): "--long=v", "--long v",
// "-sv", "-s v", "-s=v" and a short bundle whose letters before s take no value ("-Aojson" is -A
// and -o json; kubectlShortValues are the letters that take one, so "-nfoo" is -n foo). Scanning
// stops at "--". found is false when the option is absent. A computed word that starts like an
// option could be it, with any value: it is returned, dynamic. (optionValue, for getopt programs
// whose first value is the one that matters, reads neither bundles nor computed words.)
func kubectlOption(s *segment, short byte, long string) (val word, found bool) {
	words := s.words[1:]
	for i := 0; i < len(words); i++ {
		w := words[i]
		v := w.s
		if v == "--" && !w.dynamic {
			break
		}
		if w.dynamic && (strings.HasPrefix(v, "$") || strings.HasPrefix(v, "-")) {
			val, found = word{s: v, dynamic: true}, true
			continue
		}
		next := func() word {
			if i+1 < len(words) {
				i++
				return words[i]
			}
			return word{}
		}
		switch {
		case long != "" && v == long:
			val, found = next(), true
		case long != "" && strings.HasPrefix(v, long+"="):
			val, found = w.with(v[len(long)+1:]), true
		case short != 0 && len(v) > 1 && v[0] == '-' && v[1] != '-':
			if rest, ok := shortOptionValue(v, short); ok {
				if rest == "" {
					val = next()
				} else {
					val = w.with(strings.TrimPrefix(rest, "="))
				}
				found = true
			}
		}
	}
	return val, found
}

// shortOptionValue reads a short option bundle as pflag and getopt do: letters without a value
// until one that takes a value, whose value is the rest of the bundle (or, when nothing is left,
// the next word). ok reports whether short is in the bundle; rest is its attached value.
func shortOptionValue(v string, short byte) (rest string, ok bool) {
	for i := 1; i < len(v); i++ {
		c := v[i]
		if c == short {
			return v[i+1:], true
		}
		if strings.IndexByte(kubectlShortValues, c) >= 0 {
			return "", false // the rest of the bundle is another option's value
		}
	}
	return "", false
}

// boolOption reports whether a boolean long option is on: given bare, or with a value that is
// not false ("--raw", "--raw=true"; not "--raw=false"). A computed word could turn it on.
func boolOption(s *segment, long string) bool {
	on := false
	for _, w := range s.words[1:] {
		switch {
		case w.s == "--" && !w.dynamic:
			return on
		case w.dynamic && (strings.HasPrefix(w.s, "$") || strings.HasPrefix(w.s, "-")):
			on = true
		case w.s == long:
			on = true
		case strings.HasPrefix(w.s, long+"="):
			v := strings.ToLower(w.s[len(long)+1:])
			on = w.dynamic || (v != "false" && v != "0" && v != "f")
		}
	}
	return on
}
