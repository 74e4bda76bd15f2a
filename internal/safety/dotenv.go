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

// cmdDotenv is python-dotenv's program, cmdDirenv direnv; cmdDotenvx and cmdHoncho are
// the loaders of those names.
const (
	cmdDotenv  = "dotenv"
	cmdDirenv  = "direnv"
	cmdDotenvx = "dotenvx"
	cmdHoncho  = "honcho"
)

// dotenvPrinters are the subcommands of the dotenv programs that print values or keys.
// direnv export|dump and mise env (rtx was its name) print the environment .envrc and mise's
// configuration load, secrets among it.
var dotenvPrinters = map[string][]string{cmdDotenv: strings.Fields("list get"), cmdDotenvx: strings.Fields("get decrypt keypair"),
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
	if r, ok := dotenvCLI(s); ok {
		return r.prints // dotenv-cli's -p NAME
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

// A .env loader's option can name the file it loads instead of .env: dotenv-cli's -e FILE,
// python-dotenv's -f FILE, dotenvx's -f FILE..., foreman's and honcho's -e FILE[,FILE]. The
// project's own .env files in the working directory (.env, .env.NAME: what the loader is for, and
// what dotenv -c NAME and dotenvx --convention load by themselves) are loaded as the bare loader
// loads .env: admitted, and what the command then prints judged (print-environment-dotenv,
// print-environment). Any other file it names — ~/.aws/credentials, ../other/.env, a name
// computed at run time — is read into the command's environment, where the command can print
// it: a read the path policy judges, as uv run --env-file's and node --env-file's are. Every
// spelling of the option (attached, apart, "=", minimist's --e) names the same file.

// dotenvFileOption is a loader's option that names the file it loads.
type dotenvFileOption struct {
	short, long string
	list        bool // the value is a comma-separated list of files (foreman, honcho)
	variadic    bool // the option apart takes the words after its value too, up to an option (commander's FILE...)
}

// dotenvFileOptions are the loaders' options that name a file, by program; dotenv-cli's -e is
// read as minimist reads it (dotenvCLI).
var dotenvFileOptions = map[string]dotenvFileOption{cmdDotenv: {short: "-f", long: optFile}, cmdDotenvx: {short: "-f", long: "--env-file", variadic: true},
	"foreman": {short: "-e", long: optEnv, list: true}, cmdHoncho: {short: "-e", long: optEnv, list: true}}

// dotenvFiles records the files a .env loader's options name, other than the project's own .env
// files, as read.
func (a *analyzer) dotenvFiles(seg *segment) {
	for _, f := range dotenvLoadedFiles(seg) {
		if !ownDotenv(f) {
			a.touch(f, opRead)
		}
	}
}

// dotenvLoadedFiles returns the files a loader's options name, its own options only: those before
// "--".
func dotenvLoadedFiles(seg *segment) []word {
	if r, ok := dotenvCLI(seg); ok {
		return r.files
	}
	o, ok := dotenvFileOptions[seg.name]
	if !ok {
		return nil
	}
	own := *seg
	if i := slices.IndexFunc(seg.words, func(w word) bool { return w.s == "--" && !w.dynamic }); i >= 0 {
		own.words = seg.words[:i]
	}
	var files []word
	for v := range optionValues(&own, o.short, o.long) {
		if !o.list {
			files = append(files, v)
			continue
		}
		for f := range strings.SplitSeq(v.s, ",") {
			files = append(files, v.with(f))
		}
	}
	if o.variadic {
		for i, w := range own.words {
			if (w.s == o.short || w.s == o.long) && !w.dynamic {
				for _, more := range own.words[min(i+2, len(own.words)):] {
					if strings.HasPrefix(more.s, "-") && len(more.s) > 1 {
						break
					}
					files = append(files, more)
				}
			}
		}
	}
	return files
}

// ownDotenv says whether a loaded file is one of the project's own .env files in the working
// directory: .env or .env.NAME, literal.
func ownDotenv(w word) bool {
	p := strings.TrimPrefix(w.s, "./")
	return !w.dynamic && !w.glob && !strings.Contains(p, "/") && (p == ".env" || strings.HasPrefix(p, ".env.") && len(p) > len(".env."))
}
