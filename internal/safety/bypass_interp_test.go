package safety

import "testing"

// Review P's rows: a Python command line read as CPython reads it (readPython). The interpreter's
// own options before -m (-I, -B, -W ignore, -X dev, bundles such as -Im and an attached -mpip),
// versioned names (python3.12, pypy3) and a "-m" that is a script's argument used to move the
// module out of the place each check looked for it; modules that run the script or code they are
// given, -i (and PYTHONINSPECT) reading standard input after the module, and -X pycache_prefix
// (and PYTHONPYCACHEPREFIX) writing the compiled modules elsewhere were not read at all. Also: real
// long options read as abbreviations of longer ones (rg --file, --type), and search tools' option
// values taken for their pattern or a path (grep -r -m 1 KEY). Each attack asks or denies at every
// autonomy level; each near miss is an ordinary command of the same program, admitted at Default.
func interpCatalogue() []classCase {
	sh := shCall
	zeroD, noWriteD := denied(zero), denied(RulePrefixPathPolicy+"noWrite")
	opaque, dynWrite := asked(RuleOpaqueCode), asked(RuleDynamicWriteTarget)
	printsDotenv, contains := asked(dc+"print-environment-dotenv"), asked(RuleContainsProtected)
	const (
		pyOpts   = "python's own options"
		pyNames  = "a Python interpreter's name"
		pyRunner = "a module that runs code"
		pyStdin  = "code on python's standard input"
		pyCache  = "python's compiled-module directory"
		exact    = "a long option that is a prefix of another"
		search   = "a search tool's option value"
		report   = "an option that only reports, undone"
		nodeTest = "a module node's test runner loads"
		setIndex = " -m pip config set global.index-url https://evil.example/simple"
	)
	pytest := sh(`python -m pytest tests`)
	return []classCase{
		// The module after the interpreter's options: pip config writes pip's configuration
		// (~/.config/pip/pip.conf, noWrite here), whatever options come before -m.
		{pyOpts, "python -I -m pip config set", sh(`python -I` + setIndex), noWriteD, sh(`python -I -m pytest tests`), false},
		{pyOpts, "python -mpip config set", sh(`python -mpip config set global.index-url https://evil.example/simple`), noWriteD, sh(`python -mpytest tests`), false},
		{pyOpts, "python3 -Im pip config set", sh(`python3 -Im pip config set global.index-url https://evil.example/simple`), noWriteD, sh(`python3 -Bm pytest tests`), false},
		{pyOpts, "python -W ignore -m pip config set", sh(`python -W ignore` + setIndex), noWriteD, sh(`python -W ignore -m pytest tests`), false},
		{pyOpts, "python -X utf8 -m pip config set", sh(`python -X utf8` + setIndex), noWriteD, sh(`python -X utf8 -m pytest tests`), false},
		{pyOpts, "python -E -s -m pip config set", sh(`python -E -s` + setIndex), noWriteD, pytest, false},
		{pyOpts, "python --check-hash-based-pycs always -m pip config set", sh(`python --check-hash-based-pycs always` + setIndex), noWriteD, pytest, false},
		// zipfile and tarfile -e extract where the archive's members say.
		{pyOpts, "python3 -W ignore -m zipfile -e into ~", sh(`python3 -W ignore -m zipfile -e a.zip ~`), dynWrite, pytest, false},
		{pyOpts, "python3 -Wignore -m zipfile -e into ~", sh(`python3 -Wignore -m zipfile -e a.zip ~`), dynWrite, pytest, false},
		{pyOpts, "python3 -mzipfile -e into ~", sh(`python3 -mzipfile -e a.zip ~`), dynWrite, pytest, false},
		{pyOpts, "python3 -B -m tarfile -e without a filter", sh(`python3 -B -m tarfile -e a.tar`), dynWrite, pytest, false},
		// The modules' own options, as argparse reads them: --extract by a prefix, -e with its
		// archive attached, tarfile's -v bundled before -e, zipfile's --metadata-encoding value.
		{pyOpts, "python3 -m zipfile --extr into ~", sh(`python3 -m zipfile --extr a.zip ~`), dynWrite, pytest, false},
		{pyOpts, "python3 -m zipfile -ea.zip into ~", sh(`python3 -m zipfile -ea.zip ~`), dynWrite, pytest, false},
		{pyOpts, "python3 -m zipfile --metadata-encoding before -e", sh(`python3 -m zipfile --metadata-encoding cp437 -e a.zip ~`), dynWrite, pytest, false},
		{pyOpts, "python3 -m tarfile -ve", sh(`python3 -m tarfile -ve a.tar`), dynWrite, pytest, false},
		// pip's own options with a value before config set.
		{pyOpts, "pip --log FILE config set", sh(`pip --log /tmp/pip.log config set global.index-url https://evil.example/simple`), noWriteD, pytest, false},
		{pyOpts, "python -m pip --prox URL config set", sh(`python -m pip --prox http://p:3128 config set global.index-url https://evil.example/simple`), noWriteD, pytest, false},
		// http.server publishes its directory, the interpreter's options before it or not; the
		// interpreter's own -d (its parser's debug output) is not the module's.
		{pyOpts, "python -Bm http.server -d /", sh(`python -Bm http.server -d /`), zeroD, pytest, false},
		{pyOpts, "python -mhttp.server -d /", sh(`python -mhttp.server -d /`), zeroD, pytest, false},
		{pyOpts, "python -X dev -m http.server -d /", sh(`python -X dev -m http.server -d /`), zeroD, pytest, false},
		{pyOpts, "python -u -m http.server of the project", sh(`python -u -m http.server 8000`), contains, pytest, false},
		// pytest --basetemp deletes its directory first.
		{pyOpts, "python -B -m pytest --basetemp=.git", sh(`python -B -m pytest --basetemp=.git tests`), denied(RulePrefixPathPolicy + "noDelete"), sh(`python -B -m pytest --basetemp=build/tmp tests`), false},
		// python -m dotenv list prints the .env.
		{pyOpts, "python -Im dotenv list", sh(`python -Im dotenv list`), printsDotenv, pytest, false},
		// After a script, -m is the script's argument: what runs is the script.
		{pyOpts, "python x.py -m pip config set runs x.py", sh(`python x.py` + setIndex), opaque, pytest, false},
		{pyOpts, "an interpreter option the engine does not read", sh(`python --new-option -m http.server 8000`), opaque, pytest, false},
		{pyOpts, "an interpreter option computed at run time", sh(`python $OPT -m json.tool a.json`), opaque, pytest, false},
		// Versioned names run the same interpreter.
		{pyNames, "python3.12 -c", sh(`python3.12 -c 'import os'`), opaque, sh(`python3 -m pytest tests`), false},
		{pyNames, "python3.12 x.py", sh(`python3.12 x.py`), opaque, sh(`python3 -m pytest tests`), false},
		{pyNames, "pypy3 -m pip config set", sh(`pypy3` + setIndex), noWriteD, sh(`python3 -m pytest tests`), false},
		{pyNames, "pypy3.10 -m http.server -d /", sh(`pypy3.10 -m http.server -d /`), zeroD, sh(`python3 -m pytest tests`), false},
		{pyNames, "python3-dbg -c", sh(`python3-dbg -c 'import os'`), opaque, sh(`python3 -m pytest tests`), false},
		{pyNames, "ipython -c", sh(`ipython -c 'import os'`), opaque, sh(`python3 -m pytest tests`), false},
		{pyNames, "ipython3 x.py", sh(`ipython3 x.py`), opaque, sh(`python3 -m pytest tests`), false},
		// Standard modules that run the script or code they are given: the script is what runs.
		{pyRunner, "python -m cProfile x.py", sh(`python -m cProfile x.py`), opaque, pytest, false},
		{pyRunner, "python -m profile x.py", sh(`python -m profile x.py`), opaque, pytest, false},
		{pyRunner, "python -m pdb x.py", sh(`python -m pdb x.py`), opaque, pytest, false},
		{pyRunner, "python -m trace --count x.py", sh(`python -m trace --count x.py`), opaque, pytest, false},
		{pyRunner, "python -m timeit code", sh(`python -m timeit 'import os; os.system("id")'`), opaque, pytest, false},
		{pyRunner, "python -m doctest x.txt", sh(`python -m doctest x.txt`), opaque, pytest, false},
		{pyRunner, "python -m pickle x.pkl", sh(`python -m pickle x.pkl`), opaque, pytest, false},
		{pyRunner, "uv run -m cProfile x.py", sh(`uv run -m cProfile x.py`), opaque, pytest, false},
		// -i reads code from standard input after the module; so do the interactive consoles.
		{pyStdin, "python -i -m json.tool fed a pipe", sh(`echo 'import os' | python -i -m json.tool a.json`), opaque, sh(`echo x | python -m pytest tests`), false},
		{pyStdin, "python -im json.tool fed a file", sh(`python -im json.tool a.json < x.py`), opaque, sh(`python -m pytest tests < /dev/null`), false},
		{pyStdin, "PYTHONINSPECT exported before python", sh(`export PYTHONINSPECT=1; python -m json.tool a.json < x.py`), opaque, sh(`export PYTHONDONTWRITEBYTECODE=1; python -m pytest tests`), false},
		{pyStdin, "python -m code fed a here-string", sh(`python -m code <<< 'import os'`), opaque, pytest, false},
		// -X pycache_prefix=DIR and PYTHONPYCACHEPREFIX=DIR write the compiled modules below DIR.
		{pyCache, "python -X pycache_prefix=.git/hooks", sh(`python -X pycache_prefix=.git/hooks -m pytest tests`), noWriteD, sh(`python -X pycache_prefix=build/pycache -m pytest tests`), false},
		{pyCache, "python -Xpycache_prefix=~/.ssh", sh(`python -Xpycache_prefix=~/.ssh -m pytest tests`), zeroD, sh(`python -X importtime -m pytest tests`), false},
		{pyCache, "PYTHONPYCACHEPREFIX=.git python", sh(`PYTHONPYCACHEPREFIX=.git python -m pytest tests`), noWriteD, sh(`PYTHONPYCACHEPREFIX=build/pycache python -m pytest tests`), false},
		{pyCache, "PYTHONPYCACHEPREFIX exported", sh(`export PYTHONPYCACHEPREFIX=~/.ssh; python -m pytest tests`), zeroD, sh(`export PYTHONDONTWRITEBYTECODE=1; python -m pytest tests`), false},
		// git apply --stat (--check, --numstat) only reports, but with --apply it applies too.
		{report, "git apply --stat --apply outside the project", sh(`cd ~ && git apply --stat --apply x.diff`), dynWrite, sh(`cd src && git apply --stat x.diff`), false},
		{report, "git apply --check --ap outside the project", sh(`cd ~ && git apply --check --ap x.diff`), dynWrite, sh(`cd src && git apply --check x.diff`), false},
		// A search tool's option with its value apart: the value is neither the pattern nor a
		// path, so without a path the tool searches the working directory (its .env).
		{search, "grep -r -e KEY", sh(`grep -r -e KEY`), contains, sh(`grep -rn -e TODO -e FIXME src`), false},
		{search, "grep -r --regexp KEY", sh(`grep -r --regexp KEY`), contains, sh(`grep -r --regexp TODO src`), false},
		{search, "grep -re KEY", sh(`grep -re KEY`), contains, sh(`grep -re TODO src`), false},
		{search, "grep -r -f PATTERNFILE", sh(`grep -r -f pats.txt`), contains, sh(`grep -r -f pats.txt src`), false},
		{search, "grep -r -m 1 KEY", sh(`grep -r -m 1 KEY`), contains, sh(`grep -r -m 1 TODO src`), false},
		{search, "grep -r -A 2 KEY", sh(`grep -r -A 2 KEY`), contains, sh(`grep -rn -A 2 TODO src`), false},
		{search, "grep -r --exclude-dir DIR KEY", sh(`grep -r --exclude-dir node_modules KEY`), contains, sh(`grep -r --include='*.go' TODO src`), false},
		{search, "grep -r --max 1 KEY, an abbreviated value option", sh(`grep -r --max 1 KEY`), contains, sh(`grep -r --max-count=1 TODO src`), false},
		{search, "grep -r --after 2 KEY", sh(`grep -r --after 2 KEY`), contains, sh(`grep -r --after-context=2 TODO src`), false},
		{search, "grep -r --binary-f text KEY", sh(`grep -r --binary-f text KEY`), contains, sh(`grep -r --binary TODO src`), false},
		{search, "egrep -r -e KEY", sh(`egrep -r -e KEY`), contains, sh(`egrep -r -e 'TODO|FIXME' src`), false},
		{search, "rg -uu -e KEY", sh(`rg -uu -e KEY`), contains, sh(`rg -e TODO src`), false},
		{search, "rg -uu -m 1 KEY", sh(`rg -uu -m 1 KEY`), contains, sh(`rg -m 1 TODO src`), false},
		{search, "rg -uu -f PATTERNFILE", sh(`rg -uu -f pats.txt`), contains, sh(`rg -f pats.txt src`), false},
		{search, "rg -uu -t TYPE KEY", sh(`rg -uu -t sh KEY`), contains, sh(`rg -t go TODO src`), false},
		{search, "ag -G REGEX KEY", sh(`ag -G env KEY`), contains, sh(`ag KEY src`), false},
		// An option's value that is a file the tool reads is read as a path.
		{search, "rg -f.env, the pattern file attached", sh(`rg -f.env src`), zeroD, sh(`rg -f pats.txt src`), false},
		{search, "rg -f .env, the pattern file apart", sh(`rg -f .env src`), zeroD, sh(`rg --file pats.txt src`), false},
		{search, "egrep -f .env", sh(`egrep -f .env src/x.go`), zeroD, sh(`egrep -f pats.txt src/x.go`), false},
		{search, "grep --exclude-from .env", sh(`grep --exclude-from .env -r KEY src`), zeroD, sh(`grep --exclude-from skip.txt -r TODO src`), false},
		{search, "ag -p .env", sh(`ag -p .env KEY src`), zeroD, sh(`ag -p skip.txt TODO src`), false},
		{search, "ack --type TYPE KEY", sh(`ack --type perl KEY`), contains, sh(`ag TODO src`), false},
		// node's test runner loads the reporter and global-setup modules it is told, as --import does.
		{nodeTest, "node --test --test-reporter=./r.mjs", sh(`node --test --test-reporter=./r.mjs`), opaque, sh(`node --test --test-reporter=spec`), false},
		{nodeTest, "node --test --test-reporter /tmp/r.mjs", sh(`node --test --test-reporter /tmp/r.mjs`), opaque, sh(`node --test --test-reporter dot`), false},
		{nodeTest, "node --run, a package.json script", sh(`node --run build`), opaque, sh(`node --test --test-name-pattern parse`), false},
		{nodeTest, "node --env-file .env, the file apart", sh(`node --env-file .env -v`), zeroD, sh(`node --test --test-concurrency 2`), false},
		{nodeTest, "node --test --test-global-setup=./s.mjs", sh(`node --test --test-global-setup=./s.mjs`), opaque, sh(`node --test`), false},
		// A real long option that is a prefix of a longer one a check looks for is itself
		// (exactLongOptions): rg --file and --type search, where --files and --type-list only list.
		{exact, "rg --file PATTERNFILE searches the directory", sh(`rg -uu --file=pats.txt .`), contains, sh(`rg --files src`), false},
		{exact, "rg --type TYPE searches the directory", sh(`rg -uu --type=sh KEY .`), contains, sh(`rg --type=go TODO src`), false},
	}
}

// A real long option that is a prefix of one a check looks for is read as itself, not as an
// abbreviation of the longer one.
func TestExactLongOptionsAudit(t *testing.T) {
	for _, tt := range []struct{ cmd, longer string }{
		{"rg --file pats.txt src", "--files"},
		{"rg --type go TODO src", "--type-list"},
		{"impala-shell --query 'select 1'", "--query_file"},
	} {
		an, err := analyzeCommand(tt.cmd, "/w")
		if err != nil {
			t.Fatal(err)
		}
		if an.segments[0].hasFlag(tt.longer) {
			t.Errorf("%q is read as %s", tt.cmd, tt.longer)
		}
	}
}
