package safety

import (
	"path"
	"slices"
	"strings"
)

// Secret managers and .env loaders (doppler run, chamber exec, dotenv run, docker compose exec,
// …) run a command with what they load in its environment, and the command is analysed as a
// runner's. A shell script among it is analysed too, but as any script is: "echo $DB" prints a
// variable whose name says nothing, which outside such a loader is no secret. Under one, every
// variable may be one of the secrets it loaded, so a shell script that expands a variable asks
// as a print of them (print-environment-loaded).

// secretLoaderRuns are, per loader, the subcommands by which it runs a command with its secrets
// (LOADER:SUBCOMMAND); heroku run's runs on a dyno with the app's config vars.
var secretLoaderRuns = map[string][]string{}

func init() {
	for e := range strings.FieldsSeq("doppler:run infisical:run chamber:exec aws-vault:exec dotenv:run dotenvx:run foreman:run " +
		"honcho:run railway:run heroku:local:run heroku:run heroku:run:detached") {
		name, sub, _ := strings.Cut(e, ":")
		secretLoaderRuns[name] = append(secretLoaderRuns[name], sub)
	}
}

// loadedScriptExpands is print-environment-loaded's check: a secret loader's run (or compose's
// exec or run, whose service has .env's values) runs a shell script that expands a variable,
// or a script computed at run time.
func loadedScriptExpands(s *segment) bool {
	if !runsWithSecrets(s) {
		return false
	}
	if s.name == cmdHeroku && s.operands[0].s != "local:run" {
		// heroku run's words are a script for the dyno's shell: heroku run 'echo $DB'.
		return slices.ContainsFunc(s.words, expands)
	}
	words := entrypointWords(s.words[1:])
	shell := false
	for i, w := range words {
		switch {
		case w.dynamic && shell:
			return true
		case shells[path.Base(w.s)]:
			shell = true
		case shell && len(w.s) > 1 && w.s[0] == '-' && w.s[1] != '-' && strings.ContainsRune(w.s, 'c'):
			// The script is the word after the bundle that holds -c, or after the service when
			// compose run's --entrypoint holds it: any later word.
			if slices.ContainsFunc(words[i+1:], expands) {
				return true
			}
		}
	}
	return false
}

// cmdHeroku is Heroku's CLI.
const cmdHeroku = "heroku"

// expands says whether a word of a script may expand a variable.
func expands(w word) bool { return w.dynamic || strings.Contains(w.s, "$") }

// entrypointWords returns words with compose run's --entrypoint 'sh -c' (or --entrypoint=sh)
// split into the shell and its option.
func entrypointWords(in []word) []word {
	var words []word
	for _, w := range in {
		v := strings.TrimPrefix(w.s, "--entrypoint=")
		if w.dynamic || !strings.Contains(v, " ") && v == w.s {
			words = append(words, w)
			continue
		}
		for f := range strings.FieldsSeq(v) {
			words = append(words, w.with(f))
		}
	}
	return words
}

// runsWithSecrets says whether a segment is a secret loader's run of a command, or compose's
// exec or run.
func runsWithSecrets(s *segment) bool {
	ops := s.operands
	if subs, ok := secretLoaderRuns[s.name]; ok {
		return len(ops) > 0 && slices.Contains(subs, ops[0].s)
	}
	switch s.name {
	case cmdDocker, cmdPodman, cmdNerdctl:
		// compose may follow the value of a global option the engine does not know (composeAt).
		k := slices.IndexFunc(ops[:min(2, len(ops))], func(o word) bool { return o.s == subCompose })
		if k < 0 {
			return loadsHostEnv(s) // run --env-file F: F's variables, by names not shown
		}
		ops = ops[k+1:]
	case cmdDockerCompose, cmdPodmanCompose:
	default:
		return false
	}
	for _, o := range ops[:min(3, len(ops))] {
		if o.s == subExec || o.s == subRun {
			return true
		}
	}
	return false
}
