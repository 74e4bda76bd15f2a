package safety

import (
	"slices"
	"strings"
)

// Some programs read options from a variable as if they were on their command line: tar's
// TAR_OPTIONS, zip's ZIPOPT, unzip's UNZIP and UNZIPOPT, go's GOFLAGS (and xz's XZ_DEFAULTS and
// XZ_OPT, man's MANOPT: XZ_OPT=--files=.env xz read .env, admitted at every level). Only the option names
// were read (envFlags), so their values were not: TAR_OPTIONS=-C/etc tar xf a.tar extracted into
// /etc, TAR_OPTIONS=-T.env tar cf x.tar read .env and UNZIP='-d /etc' unzip a.zip wrote there, all
// admitted at every level. The variable's words are now placed among the command's own, where the
// program reads them, so every check of the option spelt on the command line applies to them.
// pytest's PYTEST_ADDOPTS too, for pytest and python -m pytest: PYTEST_ADDOPTS=--junitxml=FILE
// wrote a git hook, admitted, where pytest --junitxml FILE was denied. Maven 3.9's MAVEN_ARGS too,
// which it reads with its command line (in any order, so at the end, where "mvn test" is still
// recognised): MAVEN_ARGS='-s /tmp/s.xml' mvn test ran another settings file's profiles, admitted,
// where mvn -s /tmp/s.xml test was asked. less's LESS, read before its command line:
// LESS='-o .git/hooks/pre-commit' less README.md wrote its log there.

// envOptionPlace says where a program reads its variable's options: after its name (unzip and zip
// read them before the command line's), at the end (tar prepends them too, but its first word may
// be an old-style bundle whose letters take the words after it as values: at the end they change
// no value, and tar's options apply wherever they stand) or after the subcommand (go).
type envOptionPlace int

const (
	afterName envOptionPlace = iota
	atEnd
	afterSubcommand
)

// envOptionPrograms are the programs whose options a variable may hold, and where they go.
//
//nolint:goconst // program names read best literally
var envOptionPrograms = map[string]envOptionPlace{cmdTar: atEnd, "zip": afterName, cmdUnzip: afterName, "go": afterSubcommand,
	"xz": afterName, "man": afterName, cmdPytest: atEnd, cmdMvn: atEnd, "less": afterName}

// spliceEnvOptions puts the words of the segment's option variables among its words. A value
// the engine cannot split as the program does (quotes, escapes, an expansion) gives computed
// words, which are asked about as any computed option is.
func spliceEnvOptions(s *segment) {
	if len(s.env) == 0 {
		return
	}
	prog := s.name
	if mod, _, ok := pythonModuleRun(s); ok && mod == cmdPytest {
		prog = cmdPytest // python -m pytest's options follow the module, where atEnd puts them
	}
	place, ok := envOptionPrograms[prog]
	if !ok {
		return
	}
	var extra []word
	for _, kv := range s.env {
		name, val, _ := strings.Cut(kv, "=")
		if flagEnvVars[name] != prog {
			continue
		}
		dynamic := strings.ContainsAny(val, "\"'\\$`")
		for f := range strings.FieldsSeq(val) {
			extra = append(extra, word{s: f, dynamic: dynamic})
		}
	}
	if len(extra) == 0 {
		return
	}
	at := 1
	switch place {
	case atEnd:
		at = len(s.words)
		if i := slices.IndexFunc(s.words[1:], func(w word) bool { return w.s == "--" }); i >= 0 {
			at = i + 1 // before "--", after which they would be file names
		}
	case afterSubcommand:
		if len(s.words) > 1 && !strings.HasPrefix(s.words[1].s, "-") {
			at = 2
		}
	}
	s.words = slices.Concat(s.words[:at], extra, s.words[at:])
}
