package safety

import (
	"slices"
	"strings"
)

// Some programs load the project's .env by themselves — no path on their command line for the
// path policy to see — and print what they loaded: docker compose config prints the project's
// configuration with .env's values interpolated, python-dotenv's dotenv list|get and dotenvx
// get|decrypt|keypair print the values or the keys that decrypt them (print-environment-dotenv).

// composeNamesOnly are docker compose config's options that print names, not the configuration:
// with one of them nothing of .env is shown.
var composeNamesOnly = strings.Fields("--services --volumes --profiles --images --networks --hash -q --quiet --no-interpolate")

// cmdDotenv is python-dotenv's program, cmdDirenv direnv.
const (
	cmdDotenv = "dotenv"
	cmdDirenv = "direnv"
)

// dotenvPrinters are the subcommands of the dotenv programs that print values or keys.
// direnv export|dump and mise env (rtx was its name) print the environment .envrc and mise's
// configuration load, secrets among it.
var dotenvPrinters = map[string][]string{cmdDotenv: strings.Fields("list get"), "dotenvx": strings.Fields("get decrypt keypair"),
	cmdDirenv: strings.Fields("export dump")}

func init() {
	// mise env, and rtx env under mise's old name.
	for m := range strings.FieldsSeq("mise rtx") {
		dotenvPrinters[m] = []string{cmdEnv}
	}
}

// printsDotenv reports whether a program prints the .env it loads by itself: docker, podman or
// nerdctl compose config (or convert, its old name), docker-compose and podman-compose config,
// dotenv list|get (also as python -m dotenv, whose run is asked for too), dotenvx get|decrypt|keypair. A computed operand
// could be any of those subcommands.
func printsDotenv(s *segment) bool {
	ops := s.operands
	switch {
	case s.name == cmdDocker || s.name == cmdPodman || s.name == cmdNerdctl:
		if len(ops) == 0 || ops[0].s != subCompose {
			return false
		}
		return composePrintsConfig(s, ops[1:])
	case s.name == cmdDockerCompose || s.name == cmdPodmanCompose:
		return composePrintsConfig(s, ops)
	case isPython(s.name):
		mod, m, ok := pythonModuleRun(s)
		// python -m dotenv run CMD runs CMD with .env loaded, as dotenv run does; the engine does
		// not read the command a module is given, so it asks as for a print (dotenv run env).
		return ok && mod == cmdDotenv && slices.ContainsFunc(m.words[1:], func(w word) bool {
			return w.dynamic || w.s == subRun || slices.Contains(dotenvPrinters[cmdDotenv], w.s)
		})
	}
	if _, prints, ok := dotenvCLI(s); ok {
		return prints // dotenv-cli's -p NAME
	}
	printers, ok := dotenvPrinters[s.name]
	return ok && slices.ContainsFunc(ops, func(w word) bool { return w.dynamic || slices.Contains(printers, w.s) })
}

// composePrintsConfig says whether compose's operands after "compose" name config (or convert)
// without an option that prints names only.
func composePrintsConfig(s *segment, ops []word) bool {
	if !slices.ContainsFunc(ops, func(w word) bool { return w.dynamic || w.s == subConfig || w.s == "convert" }) {
		return false
	}
	return !slices.ContainsFunc(composeNamesOnly, s.hasFlag)
}
