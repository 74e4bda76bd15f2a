package safety

import "testing"

// TestModuleMainAndVersionedEntryPoints: python -m PKG.__main__ runs what python -m PKG does, and
// pip installs coverage also as coverage3 and coverage-3.X; each is now read as the tool. Before,
// each row was admitted at Yolo, running /tmp code unread.
func TestModuleMainAndVersionedEntryPoints(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`python -m pytest.__main__ /tmp/x`, `python3 -m pytest.__main__ -c /tmp/x/pytest.ini`,
		`coverage3 run /tmp/x.py`, `coverage-3.12 run /tmp/x.py`, `coverage3.12 run /tmp/x.py`,
	}, nil)
}
