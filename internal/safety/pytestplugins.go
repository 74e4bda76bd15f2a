package safety

import (
	"slices"
	"strings"
)

// pytest imports the plugin modules -p names (and PYTEST_PLUGINS, a comma-separated list) before
// it collects anything, from the working directory among others under python -m pytest: a module
// the line wrote (echo ... > c.py && python -m pytest -p c) runs as conftest.py would, unseen.
// PYTEST_ADDOPTS holds options read as if they began the command line, -p and -c among them. An
// installed plugin (-p pytest_cov) and a disabled one (-p no:cacheprovider) stay admitted.

// pytestEnvVars are the variables pytest reads plugins and options from.
var pytestEnvVars = wordSet("PYTEST_PLUGINS PYTEST_ADDOPTS")

// pytestWritten says why pytest, run as a program or as python -m pytest, loads a plugin module
// or a configuration file the line wrote ("" when it does not).
func (a *analyzer) pytestWritten(seg *segment) string {
	args, ok := pytestArgs(seg)
	if !ok {
		return ""
	}
	args = slices.Clip(args) // PYTEST_ADDOPTS' words are appended to a copy, not the segment's
	var plugins []string
	for _, kv := range seg.env {
		name, val, _ := strings.Cut(kv, "=")
		switch name {
		case "PYTEST_PLUGINS":
			plugins = append(plugins, strings.Split(val, ",")...)
		case "PYTEST_ADDOPTS":
			for f := range strings.FieldsSeq(val) {
				args = append(args, word{s: f})
			}
		}
	}
	opts := segment{words: args}
	for v := range optionValues(&opts, "-p", "-p") {
		plugins = append(plugins, strings.TrimPrefix(v.s, "=")) // argparse reads -p=NAME as NAME
	}
	for _, p := range plugins {
		p = strings.TrimSpace(p)
		if p == "" || strings.HasPrefix(p, "no:") {
			continue
		}
		f := strings.ReplaceAll(p, ".", "/")
		if a.lineWrote(f+".py") || a.lineWroteBelow(f) {
			return "pytest loads the plugin module " + p + ", which this command line wrote before it"
		}
	}
	for _, opt := range defFileOptions[cmdPytest] {
		for v := range optionValues(&opts, opt[0], opt[1]) {
			if a.lineWrote(v.s) {
				return "pytest reads its configuration from " + v.s + ", which this command line wrote before it"
			}
		}
	}
	return ""
}

// pytestArgs returns pytest's words, its name first: the command's own, or python -m pytest's.
func pytestArgs(seg *segment) ([]word, bool) {
	switch {
	case seg.name == cmdPytest:
		return seg.words, true
	case isPython(seg.name):
		if mod, m, ok := pythonModuleRun(seg); ok && mod == cmdPytest {
			return m.words, true
		}
	}
	return nil, false
}
