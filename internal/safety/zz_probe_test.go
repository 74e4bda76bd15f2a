package safety

import (
	"os"
	"strings"
	"testing"
)

// TestZZProbe evaluates each line of $PROBE_FILE (or $PROBE) at Default and at Yolo. Never commit.
func TestZZProbe(t *testing.T) {
	src := os.Getenv("PROBE")
	if f := os.Getenv("PROBE_FILE"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src = string(b)
	}
	p := mustCompile(t, &Profile{}, classRules)
	yr := classRules
	yr.Autonomy = AutonomyYolo
	y := mustCompile(t, &Profile{}, yr)
	for _, c := range strings.Split(strings.TrimSpace(src), "\n") {
		if c == "" || strings.HasPrefix(c, "##") {
			continue
		}
		d := Evaluate(p, shCall(c))
		yd := Evaluate(y, shCall(c))
		t.Logf("%-70s | %s %s | yolo %s %s", c, d.Verdict, d.RuleID, yd.Verdict, yd.RuleID)
	}
}
