package safety

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shellcheck parses the files a script sources (. FILE, source FILE, or the file a "# shellcheck
// source=FILE" directive names) when told to follow them (-x, --external-sources, or its rc
// file's external-sources=true), and reports what it finds there, quoting the offending lines
// (with -a, --check-sourced, every one): shellcheck -x - <<< '. /root/.ssh/id_rsa' prints the
// key's lines as parse errors. A script the line shows (a here-string or here-document, echo's
// or printf's words piped in, a file the line wrote) names what it sources: those are reads,
// resolved against the working directory and each source path (-P, a "source-path=" directive).
// A script the line does not show, from outside the project (/tmp/x.sh, standard input fed by
// another program), sources what the engine cannot know when shellcheck follows sources: a
// read computed at run time; and it may follow them without -x, since the .shellcheckrc it finds
// from the script's directory up (or in the home directory) is outside the project too, unless
// --norc. An rc file from outside the project (--rcfile /tmp/rc) is code (outsideCodeOptions);
// one the line wrote is a written build definition (writtenbuilds.go), as is running it in a
// directory outside the workspace (buildselsewhere.go). A project script's sources are the project's, as its test
// scripts are.

// shellcheckSourcing finds the sources a script names: the operand of . or source (quotes
// aside), and a directive's source= or source-path=.
var (
	shellcheckSourcing  = regexp.MustCompile(`(?m)(?:^|[\s;&|({])(?:\.|source)[ \t]+['"]?([^\s;&|)'"]+)`)
	shellcheckDirective = regexp.MustCompile(`(?m)#[ \t]*shellcheck[ \t][^\n]*?\b(source|source-path)=([^\s]+)`)
)

// shellcheckValued are shellcheck's long options whose value may be the next word, and
// shellcheckShortValues the letters of its short ones (last in a bundle: -xP DIR).
var shellcheckValued = strings.Fields("--exclude --include --format --shell --severity --enable --source-path --wiki-link-count --rcfile")

const shellcheckShortValues = "eifsoPSW"

// shellcheckSources records the files a shellcheck command reads by following sources.
func (a *analyzer) shellcheckSources(idx int, redirs []*syntax.Redirect) {
	s := &a.out.segments[idx]
	if s.name != "shellcheck" {
		return
	}
	dirs, follows := shellcheckFollows(s)
	shortValued := func(w string) bool {
		return shortBundle(w) && strings.IndexByte(shellcheckShortValues, w[len(w)-1]) >= 0
	}
	for _, op := range runnerPositionals(s.words[1:], shellcheckValued, shortValued) {
		text, known := "", false
		switch {
		case op.s == "-" && !op.dynamic:
			text, known = a.stdinScript(idx, redirs)
		case !op.dynamic:
			text, known = a.textOf(op.s)
			if !known && !strings.ContainsAny(op.s, "$`~") && belowProject(op.s) {
				continue // a project script: its sources are the project's
			}
		}
		if !known {
			// A script from outside the project: the .shellcheckrc beside it (or above it, or in
			// the home directory) may turn on external-sources, so it follows unless --norc.
			if follows || !s.hasExactFlag("--norc") {
				a.touch(word{s: op.s + " (the files it sources)", dynamic: true}, opRead)
			}
			continue
		}
		a.scriptSources(text, dirs)
	}
}

// shellcheckFollows returns the source paths a shellcheck command searches (-P), and whether it
// follows sources: -x, -a, their long spellings or bundles, or a source path.
func shellcheckFollows(s *segment) ([]word, bool) {
	follows := s.hasFlag("-x") || s.hasFlag("--external-sources") || s.hasFlag("-a") || s.hasFlag("--check-sourced") ||
		bundleHas(s, 'x') || bundleHas(s, 'a')
	var dirs []word
	for v := range optionValues(s, "-P", "--source-path") {
		for d := range strings.SplitSeq(v.s, ":") {
			dirs = append(dirs, v.with(d))
		}
		follows = true
	}
	return dirs, follows
}

// bundleHas says whether a bundle of a segment's short options holds the letter c (-xa, -ax).
func bundleHas(s *segment, c byte) bool {
	return slices.ContainsFunc(s.flags, func(f string) bool {
		return shortBundle(f) && strings.IndexByte(f[1:], c) >= 0
	})
}

// stdinScript returns the script a command reads on its standard input when the line shows it: a
// here-string or here-document, or what echo, printf or cat of a here-document pipe in.
func (a *analyzer) stdinScript(idx int, redirs []*syntax.Redirect) (string, bool) {
	for _, r := range slices.Backward(redirs) {
		if body := stdinBody(r); body != nil {
			t := a.render(body)
			return t.s, !t.dynamic
		}
		if readsStdin(r) {
			if r.Op == syntax.RdrIn && r.Word != nil {
				if w := a.render(r.Word); !w.dynamic {
					if t, ok := a.textOf(w.s); ok {
						return t, true
					}
					return "", inThisProject(w.s) // a project script's sources are the project's
				}
			}
			return "", false
		}
	}
	s := &a.out.segments[idx]
	if len(s.pipeFrom) == 0 {
		return "", true // nothing fed: shellcheck reads the terminal, which the agent does not have
	}
	var all []string
	for _, i := range s.pipeFrom {
		t, ok := a.fedText(i)
		if !ok {
			return "", false
		}
		all = append(all, t)
	}
	return strings.Join(all, "\n"), true
}

// scriptSources records as reads the files a script's text sources, and its directives name,
// relative ones below the working directory and each source path.
func (a *analyzer) scriptSources(text string, dirs []word) {
	var names []string
	for _, m := range shellcheckSourcing.FindAllStringSubmatch(text, -1) {
		names = append(names, m[1])
	}
	for _, m := range shellcheckDirective.FindAllStringSubmatch(text, -1) {
		if m[1] == "source-path" {
			dirs = append(dirs, word{s: m[2]})
		} else {
			names = append(names, m[2])
		}
	}
	for _, n := range names {
		if strings.ContainsAny(n, "$`") || n == devNull {
			continue // shellcheck does not follow a computed name
		}
		a.touch(word{s: n}, opRead)
		if strings.HasPrefix(n, "/") || strings.HasPrefix(n, "~") {
			continue
		}
		for _, d := range dirs {
			if d.s == "SCRIPTDIR" {
				continue // the working directory's, for a script on standard input
			}
			a.touch(d.with(path.Join(strings.TrimPrefix(d.s, "SCRIPTDIR/"), n)), opRead)
		}
	}
}
