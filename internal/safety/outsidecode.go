package safety

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
)

// Options of recognised and ordinary programs (linters, formatters, test runners) that name code
// the program loads, or configuration that names such code: a plugin, formatter, reporter, rules
// directory, init script, preload module, interpreter or config file. Given the project's own
// (a path below the working directory, or a bare name the program resolves among the project's
// dependencies) they run the project's code, as the program does without them; given a file from
// elsewhere (/tmp/x.js, ~/x, ../x, a URL, a value computed at run time) they run code the engine
// has not seen, so the segment is opaque.

// Names the tables of several files share.
const (
	cmdPip          = "pip"
	cmdGlab         = "glab"
	optRcfile       = "--rcfile"
	optCacheDir     = "--cache-dir"
	npmGlobalconfig = "globalconfig"
	npmUserconfig   = "userconfig"
	optParser       = "--parser"
	optCert         = "--cert"
	optSource       = "--source"
)

// outsideCodeOptions are, per program, such options as {short, long} ("" when there is none).
//
//nolint:goconst // option spellings and program names in this table read best literally, next to their neighbours
var outsideCodeOptions = map[string][][2]string{
	// eslint's config is JavaScript; its formatter, rules, parser and plugins are modules.
	"eslint": {{"-c", "--config"}, {"-f", "--format"}, {"", "--rulesdir"}, {"", "--resolve-plugins-relative-to"}, {"", "--plugin"},
		{"", optParser}},
	// prettier's plugins and (before 3) parser are modules, its config may be JavaScript.
	"prettier": {{"", "--plugin"}, {"", "--config"}, {"", "--plugin-search-dir"}, {"", optParser}},
	// flake8's local-plugins and mypy's plugins are named in their config; mypy runs the
	// interpreter --python-executable names to find its packages.
	"flake8": {{"", "--config"}, {"", "--append-config"}},
	"mypy":   {{"", "--config-file"}, {"", "--python-executable"}},
	"pylint": {{"", optRcfile}}, // its init-hook
	// tflint's config enables plugins, buf's names lint plugins, markdownlint's rules are modules
	// and its config may be JavaScript, coverage's rcfile names plugins.
	"tflint": {{"-c", "--config"}, {"", "--chdir"}}, "buf": {{"", "--config"}},
	// terraform -chdir=DIR runs the providers DIR's .terraform holds (validate loads them), as
	// TF_DATA_DIR does; tflint --chdir the plugins of DIR's .tflint.d.
	cmdTerraform: {{"-chdir", "-chdir"}}, cmdTofu: {{"-chdir", "-chdir"}}, "markdownlint": {{"-r", "--rules"}, {"-c", "--config"}},
	cmdCoverage: {{"", optRcfile}},
	// shellcheck's rc file can turn on external-sources and name source paths: the files it
	// follows a script's sources to and quotes.
	"shellcheck": {{"", optRcfile}},
	// gradle's init scripts (and those of another user home's init.d) are Groovy or Kotlin code.
	// An included build's build logic runs too.
	// Its project cache directory holds the configuration cache, reused when its key matches, as
	// cargo reuses a target directory (below).
	"gradle": {{"-I", "--init-script"}, {"-g", "--gradle-user-home"}, {"", "--include-build"}, {"", "--project-cache-dir"}},
	// maven's settings can activate a profile whose properties set argLine or jvm (below); its
	// toolchains name the JDK whose javac and java the build runs.
	"mvn": {{"-s", "--settings"}, {"-gs", "--global-settings"}, {"-t", "--toolchains"}, {"-gt", "--global-toolchains"}},
	// A toolset names the compiler and linker swift test runs.
	"swift": {{"", "--toolset"}},
	// playwright's config is TypeScript; a reporter is a built-in name or a module.
	"playwright": {{"-c", "--config"}, {"", "--reporter"}},
	// dotnet test loads test adapters from a path, or from the one a runsettings file names.
	// NuGet's config file (its package sources, fallback folders and globalPackagesFolder), a
	// package source (restore's --source, -s to every subcommand but test's --settings; a tool's
	// --add-source) and the packages folder restore fills (a package planted there is not fetched
	// again) name packages from outside the project, whose build/*.targets MSBuild imports.
	"dotnet": {{"-a", "--test-adapter-path"}, {"-s", "--settings"}, {"", "--configfile"}, {"", optSource},
		{"", "--add-source"}, {"", "--packages"}},
	// mocha and jasmine require modules, load helper and spec files and a config that names more.
	"mocha":   {{"-r", "--require"}, {"", "--file"}, {"", "--config"}, {"", "--spec"}, {"-R", "--reporter"}, {"", "--ui"}},
	"jasmine": {{"", "--require"}, {"", "--helper"}, {"", "--config"}, {"", "--reporter"}},
	// rspec requires files, adds load paths and reads options files.
	"rspec": {{"-r", "--require"}, {"-I", "-I"}, {"-O", "--options"}},
	"mix":   {{"", "--dot-formatter"}}, // the formatter file is evaluated Elixir
	// bun's preload modules and config (which names more); deno's config and import map.
	// A tsconfig's paths map the modules bun imports to files of its choosing.
	"bun":  {{"-r", "--preload"}, {"-c", "--config"}, {"", "--tsconfig-override"}},
	"deno": {{"-c", "--config"}, {"", "--import-map"}, {"", "--preload"}},
	// pip runs the interpreter --python names; pnpm runs a pnpmfile's hooks; npm obeys another
	// npmrc's script-shell; nextest runs the setup scripts of a tool config.
	// uv runs the interpreter -p/--python names by path (3.12 and pypy are versions it finds).
	cmdPip: {{"", "--python"}}, "uv": {{"-p", "--python"}}, "pnpm": {{"", "--pnpmfile"}, {"", "--global-pnpmfile"}},
	// cargo reuses the compiled dependencies and build scripts' outputs a target directory holds
	// when their fingerprints match: one outside the project may hold planted ones.
	// yarn 1 obeys another yarnrc's yarn-path, a script it runs in its own place.
	"npm": {{"", "--userconfig"}, {"", "--globalconfig"}}, "yarn": {{"", "--use-yarnrc"}}, "cargo": {{"", "--tool-config-file"}, {"", "--target-dir"}},
	// go's -modfile names another go.mod, whose replace directives build and run another
	// directory's code for a dependency.
	"go": {{"-modfile", "-modfile"}, {"--modfile", "--modfile"}},
	// golangci-lint's configuration loads custom linters: Go plugins and module plugins.
	"golangci-lint": {{"-c", "--config"}},
	// nodemon's config names the commands it runs (exec, execMap, events); watchexec's shell
	// runs its command line.
	"nodemon": {{"", "--config"}}, "watchexec": {{"", "--shell"}},
	// jest's and vitest's configuration is JavaScript, and the setup files, reporters,
	// environments, resolvers and runners their options name are modules they load.
	"jest": append([][2]string{{"-c", "--config"}}, camelAndKebab("globalSetup", "globalTeardown", "setupFiles", "setupFilesAfterEnv",
		"reporters", "testResultsProcessor", "resolver", "preset", "testRunner", "testEnvironment", "testSequencer", "snapshotResolver",
		"watchPlugins", "runner", "filter", "projects")...),
	// ctest's dashboard scripts are CMake code; tox builds and installs the package
	// --installpkg names (an sdist runs its build backend), and reuses the environments its
	// --workdir holds (their interpreters and installed packages) when their recorded settings
	// match, as cargo reuses a target directory's: one outside the project may hold planted ones.
	"ctest": {{"-S", "-S"}, {"-SP", "-SP"}, {"-SR", "-SR"}}, "tox": {{"", "--installpkg"}, {"", optWorkdir}},
	"vitest": append([][2]string{{"-c", "--config"}}, camelAndKebab("reporter", "environment", "globalSetup", "setupFiles", "workspace")...),
}

// jestJSONModuleOptions are jest's options whose value is JSON mapping patterns to the modules
// jest loads (a transform runs on every source file it loads; a mapped module replaces the
// import), each a path or a [path, options] pair.
var jestJSONModuleOptions = camelAndKebab("transform", "moduleNameMapper")

// jestJSONModules returns jest's JSON option naming a module from outside the project (absolute,
// in ~ or above ..), or a value that is not such JSON; bare names (ts-jest) and <rootDir> paths
// are the project's.
func jestJSONModules(s *segment) string {
	if s.name != "jest" {
		return ""
	}
	for _, o := range jestJSONModuleOptions {
		for v := range optionValues(s, o[1], o[1]) {
			var m map[string]any
			if v.dynamic || json.Unmarshal([]byte(v.s), &m) != nil {
				return o[1] + " " + v.s
			}
			for _, e := range m {
				l, ok := e.([]any) // [path, options], or a mapping's alternatives
				if !ok {
					l = []any{e}
				}
				for _, x := range l {
					p, _ := x.(string)
					if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || slices.Contains(strings.Split(p, "/"), "..") {
						return o[1] + " " + v.s
					}
				}
			}
		}
	}
	return ""
}

// camelAndKebab returns long options in both spellings a JavaScript option parser takes for one
// camelCased name (yargs and cac read --global-setup as --globalSetup): {"", "--globalSetup"},
// {"", "--global-setup"}.
func camelAndKebab(names ...string) [][2]string {
	var out [][2]string
	for _, n := range names {
		var kebab strings.Builder
		for _, r := range n {
			if r >= 'A' && r <= 'Z' {
				kebab.WriteByte('-')
				r += 'a' - 'A'
			}
			kebab.WriteRune(r)
		}
		out = append(out, [2]string{"", "--" + n})
		if k := kebab.String(); k != n {
			out = append(out, [2]string{"", "--" + k})
		}
	}
	return out
}

// camelAndKebabOps spells each of a JavaScript tool's path options ("outputFile") in both ways
// camelAndKebab gives.
func camelAndKebabOps(ops map[string]pathOp) map[string]pathOp {
	m := make(map[string]pathOp, 2*len(ops))
	for n, op := range ops {
		for _, o := range camelAndKebab(n) {
			m[o[1]] = op
		}
	}
	return m
}

// outsideCode returns the option of outsideCodeOptions whose value names code from outside the
// project, or "" when there is none; python -m mypy and python -m pip are read as mypy and pip.
// deno also runs a module a URL names as its operand.
func outsideCode(s *segment) string {
	s = asTool(s)
	for _, check := range [...]func(*segment) string{jvmPropertyCode, swiftCompilerFlags, openInspector,
		pnpmConfigOption, dotnetMSBuildCode, goReplaceOutside, jestJSONModules, outsideProject, outsideEnvFile, noptSpelling, toolchainPath} {
		if why := check(s); why != "" {
			return why
		}
	}
	for _, o := range outsideCodeOptions[s.name] {
		for v := range optionValues(s, cmp.Or(o[0], o[1]), o[1]) {
			if v.dynamic || !entriesBelow(v.s, ",") {
				return o[1] + " " + v.s
			}
		}
		if why := dotnetColonValue(s, o[1]); why != "" {
			return why
		}
	}
	if s.name == "deno" {
		for _, w := range s.operands {
			if strings.Contains(w.s, ":") {
				return "the module " + w.s
			}
		}
	}
	return ""
}

// entriesBelow reports whether every sep-separated entry of val is a literal relative path below
// the working directory (or a bare name): no "/" or "~" first, no "..", no "$", quote, glob or
// ":" (a URL or a scheme, npm:x). An empty entry is the working directory.
func entriesBelow(val, sep string) bool {
	if strings.ContainsAny(val, "$`~\\\"'*?[") {
		return false
	}
	for e := range strings.SplitSeq(val, sep) {
		if strings.HasPrefix(e, "/") || strings.Contains(e, ":") || slices.Contains(strings.Split(e, "/"), "..") {
			return false
		}
	}
	return true
}

// jvmPropertyCode returns a system property of gradle's or maven's (-DNAME=VALUE, and gradle's
// project properties, -PNAME=VALUE, which its toolchain detection reads as well) that runs code
// from outside the project: another JVM (org.gradle.java.home), JVM options that load an agent
// (org.gradle.jvmargs, judged as JAVA_TOOL_OPTIONS is), or maven's extension classpath.
func jvmPropertyCode(s *segment) string {
	if s.name != "gradle" && s.name != "mvn" {
		return ""
	}
	for i := 1; i < len(s.words); i++ {
		w := s.words[i]
		if propertyOptions[w.s] != "" && i+1 < len(s.words) {
			i++
			w = s.words[i].with(propertyOptions[w.s] + s.words[i].s)
		}
		prop, ok := strings.CutPrefix(w.s, "-D")
		if p, project := strings.CutPrefix(w.s, "-P"); project && s.name == "gradle" {
			// Gradle reads its toolchain properties from project properties too
			// (-Porg.gradle.java.installations.paths=DIR).
			prop, ok = p, true
		}
		if !ok {
			continue
		}
		name, val, _ := strings.Cut(prop, "=")
		switch {
		case w.dynamic:
			return "the property " + w.s
		case jvmOptionProps[name] && buildEnvReason("JAVA_TOOL_OPTIONS", val) != "":
			return "the property " + w.s
		case jvmCodeProperty(prop):
			return "the property " + w.s
		}
	}
	return ""
}

// propertyOptions are gradle's and maven's options whose next word is a property, by the prefix
// it has when joined (-D x=y is -Dx=y).
var propertyOptions = map[string]string{"-D": "-D", "--define": "-D", "--system-prop": "-D", "-P": "-P", "--project-prop": "-P"}

// jvmCodeProperty says whether prop (NAME=VALUE) is one of jvmCodePaths naming code from outside
// the project, or gradle's org.gradle.java.installations.fromEnv, which names the variables that
// hold JDKs' paths (set on the line to anywhere).
func jvmCodeProperty(prop string) bool {
	name, val, _ := strings.Cut(prop, "=")
	return jvmCodePaths[name] && (!entriesBelow(val, ":") || !entriesBelow(val, ",")) || name == "org.gradle.java.installations.fromEnv"
}

// jvmCodePaths are the properties that name a JVM, a compiler, a classpath or a directory whose
// code gradle or maven runs: surefire's jvm, the compiler plugin's forked javac, gradle's user home
// (its init.d scripts, as -g's), maven's local repository (the plugins' and dependencies' jars it
// runs) and the directory maven takes its .mvn/ extensions and options from.
var jvmCodePaths = map[string]bool{"org.gradle.java.home": true, "org.gradle.java.installations.paths": true,
	"maven.ext.class.path": true, "jvm": true, "maven.compiler.executable": true, "gradle.user.home": true,
	"maven.repo.local": true, "maven.multiModuleProjectDirectory": true}

// jvmOptionProps are the properties holding options for a JVM: gradle's daemon's and surefire's
// forked test JVM's (argLine).
var jvmOptionProps = map[string]bool{"org.gradle.jvmargs": true, "argLine": true}

// dotnetColonValue returns dotnet's option spelt with its value after a colon, as
// System.CommandLine also reads it (--test-adapter-path:/tmp/x), when the value is from elsewhere;
// or a run setting after "--" (RunConfiguration.TestAdaptersPaths=/tmp/x, DotNetHostPath) naming
// a path from elsewhere.
func dotnetColonValue(s *segment, long string) string {
	if s.name != "dotnet" {
		return ""
	}
	settings := false
	for _, w := range s.words[1:] {
		_, v, isSetting := strings.Cut(w.s, "=")
		switch {
		case w.s == "--":
			settings = true
		case settings && isSetting && (w.dynamic || !entriesBelow(v, ";")):
			return "the run setting " + w.s
		}
		if v, ok := strings.CutPrefix(w.s, long+":"); ok && (w.dynamic || !entriesBelow(v, ",")) {
			return w.s
		}
	}
	return ""
}

// pnpmConfigOption returns pnpm's --config.KEY=VALUE that sets one of npmCodeSettings
// (--config.script-shell=/tmp/x runs every script in that program).
func pnpmConfigOption(s *segment) string {
	if s.name != "pnpm" {
		return ""
	}
	for _, w := range s.words[1:] {
		key, ok := strings.CutPrefix(w.s, "--config.")
		key, _, _ = strings.Cut(key, "=")
		if ok && (w.dynamic || npmCodeSettings[strings.ToLower(key)]) {
			return w.s
		}
	}
	return ""
}

// swiftCompilerFlags returns a flag swift test passes its compiler or linker (-Xswiftc, -Xcc,
// -Xcxx, -Xlinker) that loads or runs code, judged as CFLAGS' are (a plugin, -load, -B, fuse-ld).
func swiftCompilerFlags(s *segment) string {
	if s.name != "swift" {
		return ""
	}
	for _, o := range []string{"-Xswiftc", "-Xcc", "-Xcxx", "-Xlinker"} {
		for v := range optionValues(s, o, o) {
			if why := buildEnvReason("CFLAGS", v.s); why != "" || v.dynamic {
				return o + " " + v.s
			}
		}
	}
	return ""
}

// inspectorOptions open a JavaScript runtime's debugger, or playwright's UI, on an address: on one
// other than the loopback interface, anyone who reaches it runs code in the process.
var inspectorOptions = map[string][]string{cmdNode: jsInspectors, "deno": jsInspectors, "bun": jsInspectors,
	"playwright": {"--ui-host"}}

// jsInspectors are node's, deno's and bun's debugger options.
var jsInspectors = []string{"--inspect", "--inspect-brk", "--inspect-wait"}

// openInspector returns the option of inspectorOptions bound beyond the loopback interface.
func openInspector(s *segment) string {
	for _, o := range inspectorOptions[s.name] {
		for _, w := range s.words[1:] {
			v, ok := strings.CutPrefix(w.s, o+"=")
			if !ok {
				continue
			}
			host := v
			if i := strings.LastIndex(v, ":"); i >= 0 {
				host = v[:i]
			}
			if w.dynamic || strings.Trim(v, "0123456789") != "" && !loopbackHost(host) {
				return w.s
			}
		}
	}
	return ""
}

// loopbackHost reports whether a debugger's host is the loopback interface.
func loopbackHost(h string) bool {
	h = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSuffix(h, "]"), "["), "ws://")
	return h == "localhost" || h == "::1" || strings.HasPrefix(h, "127.")
}

// toolchainPath returns a Rust toolchain named by a path, whose cargo and rustc run in place of
// the installed ones, as RUSTUP_TOOLCHAIN=/tmp/tc does: rustup run /tmp/tc CMD, and the +TOOLCHAIN
// of rustup's proxies (cargo +/tmp/tc build); "." and ".." may be read as paths too. A name
// (stable, nightly-2024-01-01) is an installed toolchain's.
func toolchainPath(s *segment) string {
	var tc word
	switch {
	case s.name == "rustup":
		ops := positionals(s.words[1:], nil)
		if len(ops) < 2 || ops[0].s != subRun {
			return ""
		}
		tc = ops[1]
	case rustupProxies[s.name] && len(s.words) > 1 && strings.HasPrefix(s.words[1].s, "+"):
		tc = s.words[1].with(s.words[1].s[1:])
	default:
		return ""
	}
	if tc.dynamic || strings.ContainsAny(tc.s, "/~$`\\") || tc.s == "." || tc.s == ".." {
		return "the toolchain " + tc.s
	}
	return ""
}

// rustupProxies are the programs rustup installs as proxies, which take +TOOLCHAIN first.
var rustupProxies = wordSet("cargo rustc rustdoc rustfmt cargo-fmt cargo-clippy clippy-driver rust-gdb rust-lldb rust-analyzer")
