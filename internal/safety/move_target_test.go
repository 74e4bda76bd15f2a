package safety

import "testing"

// TestMoveToTargetDirectory: with -t DIR every operand of mv is a source, moved away (GNU mv,
// checked: mv -t /tmp LICENSE leaves no LICENSE). Before, a lone operand after -t was read as the
// destination and each row was admitted at Default and Yolo; now each source is a delete. cp, ln
// and install -t read their sources, as they did.
func TestMoveToTargetDirectory(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`mv -t /tmp [A-Z]*`, `mv -t /tmp LICENSE`, `mv -t/tmp README.md`, `mv -ft /tmp LICENSE`,
		`mv --target-directory /tmp LICENSE`, `mv --target-directory=/tmp LICENSE`, `mv --targ /tmp LICENSE`,
		`mv --t=/tmp LICENSE`, `mv -t /tmp -- LICENSE`, `mv -vt /tmp x.log LICENSE`,
	}, []string{`mv -t /tmp x.log`, `mv -t src/ a.go`, `mv x.log /tmp/`, `cp -t /tmp LICENSE`})
}
