package safety

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// constArith computes what bash computes for arithmetic made only of numbers, and leaves
// everything else computed.
func TestConstArith(t *testing.T) {
	for expr, want := range map[string]string{
		"-1": "-1", "0-1": "-1", "~0": "-1", "0x1f": "31", "010": "8", "2#101": "5", "64#_": "63",
		"36#Z": "35", "64#Z": "61", "37#Z": "", "10#08": "8", "2**10": "1024", "1<<3": "8", "-8>>1": "-4",
		"7/2": "3", "-7%3": "-1", "(1+2)*3": "9", "!0": "1", "1&&0": "0", "1||0": "1", "3>2": "1",
		"5&3": "1", "5|3": "7", "5^3": "6", "+4": "4", "9223372036854775807+1": "-9223372036854775808",
		// The ternary's taken branch alone (bash does not evaluate the other), the comma's last.
		"1?2:3": "2", "0?2:3": "3", "1?2:1/0": "2", "1,2": "2", "(4321,-1)": "-1", "x?1:2": "", "1/0,2": "",
		// Not constants: names, expansions, assignments, errors bash reports.
		"x": "", "x+1": "", "$x": "", "1/0": "", "1%0": "", "2**-1": "", "1<<64": "", "08": "",
		"2#2": "", "65#1": "", "i++": "", "x=1": "", "1?x:2": "", "1,x": "", "$(echo 1)": "",
	} {
		f, err := syntax.NewParser().Parse(strings.NewReader("echo $(("+expr+"))"), "")
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		w := renderWord(f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1], nil)
		got := w.s
		if w.dynamic {
			got = ""
		}
		if got != want {
			t.Errorf("$((%s)) rendered %q (dynamic %v), want %q", expr, w.s, w.dynamic, want)
		}
	}
}
