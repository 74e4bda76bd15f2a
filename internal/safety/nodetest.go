package safety

import "slices"

// node's options whose value is the next word ("node --test --test-reporter dot", "node -r ./x
// app.js"): without them the value was taken for the script.
func init() {
	for _, name := range []string{cmdNode, "nodejs"} {
		valueOptions[name] = nodeValueOptions
		flatValuePrograms[name] = true
	}
}

// optEnvFileLong is node's (and compose's, docker exec's) --env-file.
const optEnvFileLong = "--env-file"

// nodeValueOptions are node's options with a value.
//
//nolint:goconst // option spellings read best literally, next to their neighbours
var nodeValueOptions = []string{"-r", "--require", "--import", "--loader", "--experimental-loader", "-e", "--eval",
	"-p", "--print", "--input-type", optEnvFileLong, "--env-file-if-exists", "-C", "--conditions", "--test-name-pattern",
	"--test-skip-pattern", "--test-reporter", "--test-reporter-destination", "--test-concurrency", "--test-timeout",
	"--test-shard", "--test-global-setup", "--test-coverage-include", "--test-coverage-exclude", "--test-isolation",
	"--watch-path", "--run", "--title", "--disable-warning", "--redirect-warnings", "--experimental-default-type",
	"--diagnostic-dir", "--cpu-prof-dir", "--heap-prof-dir", "--report-directory", "--report-filename",
	"--unhandled-rejections", "--dns-result-order", "--localstorage-file", "--icu-data-dir", "--openssl-config"}

// nodeTestModule returns node's test-runner option that loads a module the caller names, as
// --import and --require do (codeOptions): a --test-reporter that is not one of node's own
// reporters (--test-reporter=./r.mjs), or --test-global-setup. node takes no abbreviation, and
// --test itself is a prefix of both: only the exact spellings count.
func nodeTestModule(s *segment) string {
	if s.hasExactFlag("--test-global-setup") {
		return "--test-global-setup"
	}
	for v := range optionValues(s, "--test-reporter", "--test-reporter") {
		if v.dynamic || !slices.Contains(nodeReporters, v.s) {
			return "--test-reporter " + v.s
		}
	}
	return ""
}

// nodeReporters are node's built-in test reporters.
var nodeReporters = []string{"spec", "tap", "dot", "junit", "lcov"}
