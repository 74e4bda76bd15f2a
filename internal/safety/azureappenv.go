package safety

import (
	"iter"
	"regexp"
	"slices"
	"strings"
)

// Azure's clients that print an app's or a container's environment with its plain values (part
// of print-environment-service): a Container App's, revision's or job's template holds each
// container's env, a value beside every name not kept as a secret; a container instance's
// environmentVariables, a Spring app deployment's environmentVariables, an Azure ML
// deployment's or job's environment_variables likewise (az container export writes them to a
// file, whatever its output options). The default
// output is the whole object as JSON; -o table prints a summary without them, and a --query that
// selects fields that hold no environment (--query '[].name') prints only those. As docker
// inspect --format is read, a query that may reach the environment asks: one naming it, one
// selecting a whole object or an object that holds it (properties, template, containers, a
// bracket index or filter at the end), a wildcard, @, or an escape that may spell any name.

// azEnvPaths are the az commands that print such an environment: each a list of steps, the
// words that in this order name it, one of each step's words.
//
//nolint:goconst // subcommand spellings read best literally
var azEnvPaths = [][][]string{
	{{"containerapp"}, azShowList},
	{{"containerapp"}, {"revision", "job"}, azShowList},
	{{"containerapp"}, {"job"}, {"execution"}, azShowList},
	{{subContainer}, azShowList},
	{{"spring"}, {"app"}, azShowList},
	{{"spring"}, {"app"}, {"deployment"}, azShowList},
	// Azure Machine Learning's deployments and jobs hold their environment_variables.
	{{"ml"}, {"online-deployment", "batch-deployment", "job"}, azShowList},
}

// azEnvExports are az commands that write such an object, environment and all, to a file the
// agent reads next, whatever -o or --query say: az container export -f out.yaml.
var azEnvExports = [][][]string{{{subContainer}, {subExport}}}

// azShowList are the verbs that print one object or a list of them; azQuery and azOutput, the
// options that say what of it is printed and how.
var azShowList = []string{subShow, "list"}

const (
	azQuery  = "query"
	azOutput = "output"
)

// azEnvQuery matches a JMESPath --query that may print the environment.
var azEnvQuery = regexp.MustCompile(`(?i)^\s*$|env|\\|\*|@|` +
	`(properties|template|containers|configuration|deploymentsettings|activedeployment)"?\s*($|[|,}\])&])|` +
	`\[\s*(-?\d*\s*(:\s*-?\d*\s*){0,2}|\?[^\]]*)\]\s*($|[|,}\])&])`)

// azPrintsEnvironment reads az: one of azEnvPaths, its words side by side among the command's
// words that are not options (a computed word may be any), unless it prints a table or nothing,
// or a --query that cannot reach the environment.
func azPrintsEnvironment(s *segment) bool {
	words := s.words[1:]
	if !slices.ContainsFunc(words, azEnvGroup) {
		return false // most az commands: one pass, no path tried
	}
	among := func(steps [][]string) bool { return pathAmong(words, steps) }
	if slices.ContainsFunc(azEnvExports, among) {
		return true
	}
	if !slices.ContainsFunc(azEnvPaths, among) {
		return false
	}
	named := false
	for q := range azOptionValues(s, azQuery) {
		if q.dynamic || azEnvQuery.MatchString(q.s) {
			return true
		}
		named = true
	}
	if named {
		return false
	}
	// The last -o wins, as argparse keeps it: -o table -o json prints JSON.
	printsAll := true
	for o := range azOptionValues(s, azOutput) {
		printsAll = o.dynamic || o.s != "table" && o.s != "none"
	}
	return printsAll
}

// azEnvGroup says whether a word may begin one of azEnvPaths or azEnvExports.
func azEnvGroup(w word) bool {
	return w.dynamic || strings.EqualFold(w.s, "containerapp") || strings.EqualFold(w.s, subContainer) ||
		strings.EqualFold(w.s, "spring") || strings.EqualFold(w.s, "ml")
}

// pathAmong says whether words, options passed over, hold side by side one word of each step in
// turn (a computed word may be any). It allocates nothing: every az command is read.
func pathAmong(words []word, steps [][]string) bool {
	option := func(w word) bool { return !w.dynamic && strings.HasPrefix(w.s, "-") }
	for i := range words {
		if option(words[i]) {
			continue
		}
		k := 0
		for j := i; j < len(words) && k < len(steps); j++ {
			switch w := words[j]; {
			case option(w):
			case w.dynamic || slices.ContainsFunc(steps[k], func(st string) bool { return strings.EqualFold(st, w.s) }):
				k++
			default:
				j = len(words)
			}
		}
		if k == len(steps) {
			return true
		}
	}
	return false
}

// azOptionValues yields the values of az's long option --long, spelled whole or by a prefix
// argparse accepts (--que), with =VALUE or as the next word; "output" also -o, -oVALUE.
func azOptionValues(s *segment, long string) iter.Seq[word] {
	return func(yield func(word) bool) {
		w := s.words
		for i := 1; i < len(w); i++ {
			v := w[i].s
			var val word
			name, attached, hasVal := strings.Cut(strings.TrimPrefix(v, "--"), "=")
			switch {
			case strings.HasPrefix(v, "--") && abbreviates(name, long, 2):
				if !hasVal {
					if i+1 >= len(w) {
						continue
					}
					i++
					val = w[i]
				} else {
					val = w[i].with(attached)
				}
			case long == azOutput && v == "-o" && i+1 < len(w):
				i++
				val = w[i]
			case long == azOutput && strings.HasPrefix(v, "-o") && !strings.HasPrefix(v, "--"):
				val = w[i].with(strings.TrimPrefix(v[2:], "="))
			default:
				continue
			}
			if !yield(val) {
				return
			}
		}
	}
}
