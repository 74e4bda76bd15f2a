package safety

import "testing"

// readPython reads a command line as CPython does: what runs, and where its argv starts.
func TestReadPython(t *testing.T) {
	for _, tt := range []struct {
		cmd    string
		kind   pythonKind
		target string
		argv0  string // the first word after the target, "" for none
	}{
		{"python -m pip list", pyModule, "pip", "list"},
		{"python -I -m pip list", pyModule, "pip", "list"},
		{"python3 -Im pip list", pyModule, "pip", "list"},
		{"python -mpip list", pyModule, "pip", "list"},
		{"python -W ignore -m pip list", pyModule, "pip", "list"},
		{"python -Wignore -X utf8 -m pip list", pyModule, "pip", "list"},
		{"python -Xdev -Bm pip", pyModule, "pip", ""},
		{"python --check-hash-based-pycs always -m pip", pyModule, "pip", ""},
		{"python -c 'import os' -m pip", pyCode, "import os", "-m"},
		{"python -Ic code", pyCode, "code", ""},
		{"python -ccode x", pyCode, "code", "x"},
		{"python x.py -m pip", pyScript, "x.py", "-m"},
		{"python -u x.py", pyScript, "x.py", ""},
		{"python -- -m pip", pyScript, "-m", "pip"},
		{"python -", pyStdin, "", ""},
		{"python -I", pyStdin, "", ""},
		{"python", pyStdin, "", ""},
		{"python3.12 -m pytest", pyModule, "pytest", ""},
		{"pypy3 -m pytest", pyModule, "pytest", ""},
		{"/usr/bin/python3 -m pytest", pyModule, "pytest", ""},
		{"python -Q new x.py", pyUnread, "", ""},
		{"python --unknown x.py", pyUnread, "", ""},
		{"python -m", pyUnread, "", ""},
		{"python $OPT x.py", pyUnread, "", ""},
	} {
		an, err := analyzeCommand(tt.cmd, "/w")
		if err != nil {
			t.Fatalf("%q: %v", tt.cmd, err)
		}
		p, ok := readPython(&an.segments[0])
		if !ok {
			t.Fatalf("%q: not read as python", tt.cmd)
		}
		argv0 := ""
		if len(p.words) > 1 {
			argv0 = p.words[1].s
		}
		if p.kind != tt.kind || p.target.s != tt.target || argv0 != tt.argv0 {
			t.Errorf("%q: kind %d target %q argv0 %q, want %d %q %q", tt.cmd, p.kind, p.target.s, argv0, tt.kind, tt.target, tt.argv0)
		}
	}
	for _, name := range []string{"python-config", "pythonw", "pypyx", "pip3", "py"} {
		if isPython(name) {
			t.Errorf("isPython(%q) = true", name)
		}
	}
	for _, name := range []string{"python", "python2", "python3", "python3.12", "python3.13t", "pypy", "pypy3", "pypy3.10", "python3-dbg", "python3.12-dbg"} {
		if !isPython(name) {
			t.Errorf("isPython(%q) = false", name)
		}
	}
}
