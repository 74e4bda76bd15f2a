package safety

import "testing"

// A protected name is protected in every Unicode spelling a tool may resolve it from: decomposed
// (NFD) or composed (NFC), in pattern and path alike, and in either case.
func TestAProtectedNameIsProtectedInEveryUnicodeSpelling(t *testing.T) {
	const nfc, nfd = "Pers\u00f6nlich", "Perso\u0308nlich"
	for _, pattern := range []string{"/workspace/" + nfc + "/", "/workspace/" + nfd + "/"} {
		p := mustCompile(t, &Profile{}, ProjectRules{Workspace: "/workspace", Paths: PathPolicy{ZeroAccess: []string{pattern}}})
		for _, path := range []string{nfc + "/gehalt.txt", nfd + "/gehalt.txt", "PERSO\u0308NLICH/gehalt.txt"} {
			c := readCall(path)
			c.Args.Cwd = "/workspace"
			if d := Evaluate(p, c); d.Verdict != VerdictDeny || d.RuleID != "path-policy:zeroAccess" {
				t.Errorf("pattern %+q, read of %+q: %s %s, want a zeroAccess denial", pattern, path, d.Verdict, d.RuleID)
			}
		}
		c := readCall("Personal/notes.txt")
		c.Args.Cwd = "/workspace"
		if d := Evaluate(p, c); d.Verdict != VerdictAllow {
			t.Errorf("pattern %+q, read of another name: %s %s", pattern, d.Verdict, d.RuleID)
		}
	}
}
