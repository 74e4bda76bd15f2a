package safety

import (
	"regexp"
	"strings"
	"testing"
)

// patternTexts returns every text the pack's patterns are matched against for the commands of
// the rule-pack examples, the bypass catalogue and the fuzz seeds: each segment's text, its text
// with global options last, and both with "--name=value" spelt "--name value".
func patternTexts(t testing.TB) []string {
	var cmds []string
	for _, ex := range rulePackExamples {
		cmds = append(append(cmds, ex.hits...), ex.misses...)
	}
	for _, c := range classCatalogue() {
		cmds = append(cmds, c.attack.Args.Command, c.near.Args.Command)
	}
	cmds = append(cmds, fuzzSeeds()...)
	var texts []string
	for _, c := range cmds {
		an, err := analyzeCommand(c, "/workspace/app")
		if err != nil {
			continue
		}
		for _, s := range an.segments {
			texts = append(texts, s.text, s.alt, splitLongValues(s.text), splitLongValues(s.alt))
		}
	}
	if len(texts) < 1000 {
		t.Fatalf("only %d texts: the catalogue did not analyse", len(texts))
	}
	return texts
}

// The filter may only skip a text the pattern cannot match: for every pattern of the pack and
// every text the catalogue makes, a match is admitted.
func TestLiteralFilterAdmitsEveryMatch(t *testing.T) {
	d, err := compiledDefaults()
	if err != nil {
		t.Fatal(err)
	}
	texts := patternTexts(t)
	matched, skipped := 0, 0
	for _, r := range d.rules {
		if r.pattern == nil {
			continue
		}
		for _, text := range texts {
			switch {
			case r.pattern.MatchString(text):
				matched++
				if !r.filter.admits(text) {
					t.Errorf("rule %s: the filter refuses %q, which its pattern matches", r.ID, text)
				}
			case !r.filter.admits(text):
				skipped++
			}
		}
	}
	// The filter is worth having only if it skips most texts that do not match.
	if matched == 0 || skipped == 0 {
		t.Fatalf("matched %d texts, skipped %d", matched, skipped)
	}
	t.Logf("%d texts: %d pattern matches, all admitted; %d pairs of a pattern and a text skipped without running it", len(texts), matched, skipped)
}

// FuzzLiteralFilter checks the same on texts the fuzzer makes, against every pattern of the pack
// and a few written to exercise factoring, classes and case folding.
func FuzzLiteralFilter(f *testing.F) {
	d, err := compiledDefaults()
	if err != nil {
		f.Fatal(err)
	}
	res := []*regexp.Regexp{}
	filters := []*literalFilter{}
	for _, r := range d.rules {
		if r.pattern != nil {
			res, filters = append(res, r.pattern), append(filters, r.filter)
		}
	}
	for _, expr := range []string{`(?i)^kubectl( .*)? (delete|drain|del)( |$)`, `a[bc]d(ef|eg)?h`, `(?i)x(yz)+w`, `^(ab|cd){2}ef`} {
		res, filters = append(res, regexp.MustCompile("(?s)"+expr)), append(filters, compileLiteralFilter(expr))
	}
	for _, s := range []string{"aws s3 rm s3://b", "KUBECTL x DELETE", "acdegh", "xYZyzW", "abcdef", "kubectl dr\u212aain", "git pu\u017fh --force \u2014 caf\u00e9", "caf\u00e9 aws s3 rm s3://b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for i, re := range res {
			if re.MatchString(text) && !filters[i].admits(text) {
				t.Fatalf("pattern %s matches %q; its filter refuses it", re, text)
			}
		}
	})
}

func TestLiteralFilterReadsFactoredAlternations(t *testing.T) {
	cases := []struct {
		expr        string
		admit, skip []string
	}{
		// The parser factors delete|drain|del into d(el(ete)?|rain): the strings are rebuilt.
		{`(?i)^kubectl( .*)? (delete|drain|del)( |$)`, []string{"kubectl delete pod x", "KUBECTL -n x DRAIN n"}, []string{"kubectl get pods", "kubectl describe d"}},
		{`a[bc]d`, []string{"xabdx", "ACD"}, []string{"ad", "abx"}},
		{`x(yz)+w`, []string{"xyzw", "x yz w"}, []string{"xw", "a yz b"}},
		// A branch that needs nothing makes the alternation need nothing.
		{`(foo|b*)bar`, []string{"bar", "zzbarzz"}, []string{"foo", "ba r"}},
		{`(foo|b*)`, []string{"", "anything"}, nil},
		// One byte is searched for too: a pattern that needs "$" and a word skips prose without "$".
		{`^a( .*)?b`, []string{"a x b", "b a"}, []string{"c", "a"}},
		{`(?i)\$\{?[a-z0-9_]*(token|secret)`, []string{"$GH_TOKEN", "${A_SECRET}", "$ token"}, []string{"the token is refreshed"}},
	}
	for _, c := range cases {
		f := compileLiteralFilter(c.expr)
		re := regexp.MustCompile("(?s)" + c.expr)
		for _, s := range c.admit {
			if !f.admits(s) {
				t.Errorf("%s: %q refused", c.expr, s)
			}
		}
		for _, s := range c.skip {
			if re.MatchString(s) {
				t.Fatalf("%s matches %q: a bad case", c.expr, s)
			}
			if f.admits(s) {
				t.Errorf("%s: %q admitted; the filter should have skipped it", c.expr, s)
			}
		}
	}
}

func TestContainsFoldASCII(t *testing.T) {
	cases := []struct {
		text, lit string
		want      bool
	}{
		{"aws s3 RM x", "rm", true},
		{"DELETE", "delete", true},
		{"dEl", "del", true},
		{"de", "del", false},
		{"aaab", "aab", true}, // a candidate that fails, then one that does not
		{"AaAb", "aab", true}, // candidates in both cases
		{"xaAaAy", "aab", false},
		{"--x=1", "--x=", true}, // a first byte with no case
		{"", "ab", false},
		{"ab", "ab", true},
		{"b", "ab", false},
	}
	for _, c := range cases {
		if got := containsFoldASCII(c.text, c.lit); got != c.want {
			t.Errorf("containsFoldASCII(%q, %q) = %v, want %v", c.text, c.lit, got, c.want)
		}
	}
}

func FuzzContainsFoldASCII(f *testing.F) {
	f.Add("aws s3 RM x", "rm")
	f.Add("AaAb", "aab")
	f.Fuzz(func(t *testing.T, text, lit string) {
		lit = strings.ToLower(lit)
		if lit == "" || !isASCII(text) || !isASCII(lit) {
			return
		}
		if got, want := containsFoldASCII(text, lit), strings.Contains(strings.ToLower(text), lit); got != want {
			t.Fatalf("containsFoldASCII(%q, %q) = %v, want %v", text, lit, got, want)
		}
	})
}

// A long command the patterns need not read stays checked as before; one that makes them read
// more than maxPatternBytes is denied, whatever the rule it would have met.
func TestPatternBudget(t *testing.T) {
	p := mustCompile(t, &Profile{}, bypassRules)
	fill := func(prefix, unit, suffix string) string {
		return prefix + strings.Repeat(unit, (16384-len(prefix)-len(suffix))/len(unit)) + suffix
	}
	cases := []struct {
		name, cmd  string
		tooComplex bool
	}{
		{"a long aws command no pattern can match", fill("aws", " --region x", " s3 ls"), false},
		{"a long commit message", "git commit -m '" + strings.Repeat("Fix the parser. ", 600) + "'", false},
		{"many short kubectl commands", fill("", "kubectl get pods -n team-a; ", ""), false},
		{"a long aws command made to pass the filter", fill("aws", " delete-xxxxxxxxxxxxxxxxxxxx", " s3 ls"), true},
		{"many short az commands made to pass it", fill("", "az group delete -n x -y --no-wait --subscription s delete; ", ""), true},
	}
	for _, c := range cases {
		d := Evaluate(p, shCall(c.cmd))
		if got := d.RuleID == RuleCommandTooComplex && strings.Contains(d.Message, "patterns read"); got != c.tooComplex {
			t.Errorf("%s: %s %s %q", c.name, d.Verdict, d.RuleID, d.Message)
		}
	}
}
