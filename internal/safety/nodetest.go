package safety

import (
	"slices"
	"strings"
)

// node's options whose value is the next word ("node --test --test-reporter dot", "node -r ./x
// app.js"): without them the value was taken for the script.
func init() {
	for _, name := range []string{cmdNode, cmdNodejs} {
		valueOptions[name] = nodeValueOptions
		flatValuePrograms[name] = true
	}
}

// cmdNodejs is node's name on Debian.
const cmdNodejs = "nodejs"

// optEnvFileLong is node's (and compose's, docker exec's) --env-file; optEnvFileIfExists node's
// --env-file-if-exists.
const (
	optEnvFileLong     = "--env-file"
	optEnvFileIfExists = "--env-file-if-exists"
)

// nodeValueOptions are node's options with a value.
//
//nolint:goconst // option spellings read best literally, next to their neighbours
var nodeValueOptions = []string{"-r", "--require", "--import", "--loader", "--experimental-loader", "-e", "--eval",
	"-p", "--print", "--input-type", optEnvFileLong, optEnvFileIfExists, "-C", "--conditions", "--test-name-pattern",
	"--test-skip-pattern", "--test-reporter", "--test-reporter-destination", "--test-concurrency", "--test-timeout",
	"--test-shard", "--test-global-setup", "--test-coverage-include", "--test-coverage-exclude", "--test-isolation",
	"--watch-path", "--run", "--title", "--disable-warning", "--redirect-warnings", "--experimental-default-type",
	"--diagnostic-dir", "--cpu-prof-dir", "--heap-prof-dir", "--report-directory", "--report-dir", "--report-filename",
	"--cpu-prof-name", "--heap-prof-name",
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

// nodeProjectTests reports whether node --test runs its operands as the project's test files:
// each a literal file, directory or glob below the working directory (node --test test/,
// 'test/**/*.test.js'), as bare node --test runs the ones it finds, pytest tests/test_x.py and bun
// test x.test.ts run theirs. A file from elsewhere (/tmp/x.js, ../x.js, ~/x.js) or one computed
// at run time is a script the engine has not seen, as node x.js's is.
func nodeProjectTests(seg *segment) bool {
	if !seg.hasExactFlag("--test") {
		return false
	}
	for _, o := range seg.operands {
		if o.dynamic || strings.HasPrefix(o.s, "/") || strings.HasPrefix(o.s, "~") || slices.Contains(strings.Split(o.s, "/"), "..") {
			return false
		}
	}
	return true
}

// nodeDiagnosticFiles are node's options naming a file it writes a profile or report to, each
// with the directory options it is placed below (the first given; else --diagnostic-dir; else
// the working directory).
var nodeDiagnosticFiles = []struct {
	name string
	dirs []string
}{
	{"--cpu-prof-name", []string{"--cpu-prof-dir"}},
	{"--heap-prof-name", []string{"--heap-prof-dir"}},
	{"--report-filename", []string{"--report-directory", "--report-dir"}},
}

// nodeDiagnostics records the files node writes its profiles and reports to. node joins a name
// to its directory as text, so --cpu-prof-dir=/root --cpu-prof-name=.bashrc writes /root/.bashrc,
// a name with ".." climbs from the directory, and an absolute name stays below it; a directory
// alone is written below with names node chooses.
func (a *analyzer) nodeDiagnostics(seg *segment) {
	common, hasCommon := optionValue(seg, "--diagnostic-dir", "--diagnostic-dir")
	if hasCommon {
		a.touch(common, opWrite)
	} else {
		common = word{s: "."}
	}
	for _, f := range nodeDiagnosticFiles {
		dir := common
		for _, d := range f.dirs {
			if v, ok := optionValue(seg, d, d); ok {
				dir = v
				a.touch(v, opWrite)
				break
			}
		}
		for name := range optionValues(seg, f.name, f.name) {
			a.touch(word{s: strings.TrimRight(dir.s, "/") + "/" + name.s, dynamic: dir.dynamic || name.dynamic}, opWrite)
		}
	}
}
