package safety

import (
	"slices"
	"strings"
)

// pytest -o addopts=WORDS (or --override-ini) sets the ini's addopts, which pytest splits and
// reads as options of its own command line, as it reads PYTEST_ADDOPTS: pytest -o
// 'addopts=--junitxml=/root/.bashrc' writes the file, -o 'addopts=-c /tmp/x.ini' runs another
// configuration's plugins. The words are placed among the command's own, where PYTEST_ADDOPTS's
// are (spliceEnvOptions), so every check of an option spelt on the command line applies to them.
// A value the engine cannot split as shlex does (quotes, escapes, an expansion) gives computed
// words, asked about as any computed option is.

// spliceAddopts puts the words of pytest's -o addopts=... among its words.
func spliceAddopts(s *segment) {
	t := s
	if mod, m, ok := pythonModuleRun(s); ok && mod == cmdPytest {
		t = &m
	} else if s.name != cmdPytest {
		return
	}
	var extra []word
	for v := range optionValues(t, "-o", "--override-ini") {
		k, val, ok := strings.Cut(v.s, "=")
		if !ok || strings.TrimSpace(k) != "addopts" {
			continue
		}
		dynamic := v.dynamic || strings.ContainsAny(val, "\"'\\$`")
		for f := range strings.FieldsSeq(val) {
			extra = append(extra, word{s: f, dynamic: dynamic})
		}
	}
	if len(extra) == 0 {
		return
	}
	at := len(s.words)
	if i := slices.IndexFunc(s.words[1:], func(w word) bool { return w.s == "--" }); i >= 0 {
		at = i + 1 // before "--", after which they would be file names
	}
	s.words = slices.Concat(s.words[:at], extra, s.words[at:])
}
