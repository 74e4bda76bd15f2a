package safety

import "testing"

// expectAttacks fails t for each attack admitted and each near miss refused, at Default and Yolo.
func expectAttacks(t *testing.T, attacks, nearMisses []string) {
	t.Helper()
	yolo := classRules
	yolo.Autonomy = AutonomyYolo
	for _, rules := range []ProjectRules{classRules, yolo} {
		p := mustCompile(t, &Profile{}, rules)
		for _, c := range attacks {
			if d := Evaluate(p, shCall(c)); d.Allowed() {
				t.Errorf("autonomy %q: %s admitted", rules.Autonomy, c)
			}
		}
		for _, c := range nearMisses {
			if d := Evaluate(p, shCall(c)); !d.Allowed() {
				t.Errorf("autonomy %q: %s refused: %s", rules.Autonomy, c, d.Message)
			}
		}
	}
}

// TestModuleFormNamedElsewhere: a relative test path or project a runner's module form names
// (python -m pytest, under uv run, poetry run ...) is judged from the directory the segment runs
// in, as pytest's own is: after cd .., ../tmp/x is two levels above the call's directory. Before,
// the check keyed on the segment's name (python) and admitted each at Default and Yolo.
func TestModuleFormNamedElsewhere(t *testing.T) {
	attacks := []string{
		`cd .. && python -m pytest ../tmp/x/tests`, `cd .. && python3 -m pytest -c ../tmp/x/pytest.ini`,
		`cd .. && python -m unittest discover -s ../tmp/x`, `cd .. && uv run python -m pytest ../tmp/x`,
		`cd .. && poetry run python -m pytest ../tmp/x`, `cd .. && uv run -m pytest ../tmp/x`,
		`cd .. && python -I -m pytest ../tmp/x`, `cd .. && python -mpytest ../tmp/x`,
		`cd .. && pipenv run python -m pytest ../tmp/x`, `cd .. && env python -m pytest ../tmp/x`,
		`cd .. && python -m pytest --rootdir ../tmp/x`, `pushd .. && python -m pytest ../tmp/x`,
		`(cd .. && python3.12 -m pytest ../tmp/x)`, `cd .. && python -m py.test ../tmp/x`,
		`cd .. && python -m unittest discover ../tmp/x`,
	}
	nearMisses := []string{`python -m pytest tests`, `python -m pytest ../x`, `cd sub && python -m pytest ../x`,
		`python -m unittest discover -s tests`, `uv run python -m pytest tests`, `cd sub && python -m pytest tests`}
	expectAttacks(t, attacks, nearMisses)
}
