package safety

import (
	"slices"
	"testing"
)

// Brace words as bash makes them (each checked against bash 5.2.15: printf '[%s]' WORD). An
// empty word bash drops ({a,} is just a) is kept, which names no path.
func TestBraceExpansionIsBashs(t *testing.T) {
	for _, tt := range []struct {
		word string
		want []string
	}{
		{"{a,b}", []string{"a", "b"}},
		{"x{a,b}y", []string{"xay", "xby"}},
		{"{x,/etc/{shadow,passwd}}", []string{"x", "/etc/shadow", "/etc/passwd"}},
		{"/etc/{x,{shadow,y}}", []string{"/etc/x", "/etc/shadow", "/etc/y"}},
		{"{a,b}{c,d}", []string{"ac", "ad", "bc", "bd"}},
		{"{1..3}", []string{"1", "2", "3"}},
		{"{3..1}", []string{"3", "2", "1"}},
		{"{01..10..3}", []string{"01", "04", "07", "10"}},
		{"{-05..05..5}", []string{"-05", "000", "005"}},
		{"{a..e..2}", []string{"a", "c", "e"}},
		{"{a..5}", []string{"{a..5}"}},
		{"{a}", []string{"{a}"}},
	} {
		an, err := analyzeCommand("echo "+tt.word, "/w")
		if err != nil {
			t.Fatalf("%s: %v", tt.word, err)
		}
		var got []string
		for _, w := range an.segments[0].words[1:] {
			got = append(got, w.s)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.word, got, tt.want)
		}
	}
}
