package safety

import "testing"

// TestPytestTestpathsOverride: with no test path on the line, pytest collects its testpaths
// (Config._decide_args: glob.iglob of each entry, absolute ones as they are), and -o /
// --override-ini sets it: the tests, and their conftest.py, from /tmp ran, admitted, where
// pytest /tmp/x asks.
func TestPytestTestpathsOverride(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`pytest -o testpaths=/tmp/x`,
		`pytest --override-ini testpaths=/tmp/x`,
		`python -m pytest -o testpaths=/tmp/x`,
		`python -m pytest --override-ini=testpaths=/tmp/x`,
		`pytest -o testpaths=../../tmp/x`,
		`pytest -o 'testpaths=tests /tmp/x'`,
		`pytest -xo testpaths=/tmp/x`,
		// pytest-cov's spelling of COVERAGE_RCFILE, which asks: the rcfile's plugins load.
		`pytest --cov --cov-config=/tmp/rc`,
		`python -m pytest --cov --cov-config /tmp/rc`,
	}, []string{
		`pytest --cov --cov-config=.coveragerc`,
		`pytest -o testpaths=tests`,
		`pytest -o 'testpaths=tests integration'`,
		`python -m pytest -o addopts=-q`,
	})
}
