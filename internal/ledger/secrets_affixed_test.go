package ledger

import (
	"fmt"
	"testing"
)

// affixedSeeds are texts where a shortcut in affixedRule.locate would differ from the
// expression: names inside longer runs, boundaries inside a run (x.pass_word, -.-token), a run
// that a match ends inside, tails that fail after a name, quoted and escaped values, and the
// non-ASCII spellings the ASCII path leaves to the expression.
var affixedSeeds = []string{
	`DB_PASSWORD=hunter22 ./run.sh client_secret: abc x.api-key = 'q r' y`,
	`curl -d '{"username":"a","password":"x y"}' "{\"token\": \"abc\"}" {'api_key': 'abc123def'}`,
	`-.-token=x ..pass.word: "v" a.b.secret:"" xpasswordy=1 passwordtoken ="a"token=b`,
	`password="a"token=b"c" password='x'secret:'y' pwd=\"a b\" pass_phrase=\"unterminated`,
	`password_token_secret password_token_secret: cookie= credentials:  next  secret:`,
	"password\t=\tx\npassword:\n\ny passwordpassword=x tokentoken:token secret=\"\" secret=''",
	`"password" "password" : 'x' \"password\":\"y\" password" = "z" token'='w'`,
	`apikey=1 API_KEY=2 Api-Key=3 accesskey:4 PRIVATE.KEY=5 subscription-key=6 account_key=7`,
	`==password== ::token:: password=:x password= =x token :x`,
	`x_password=abc_password=def`,
	`--password=x -token y (--api-key 'a b' "-secret" "v" x-password=y --pass_word=\"q r\" -pwd`,
	`-password=x--token=y -x.secret=1	-cookie:2 (-credentials "z"-token=w`,
	`-password='x'-token=y --secret="a"(-pwd=b`,
	"-token\n\nvalue --secret='' --password= -- --pwd=\"\" 'x'-token=y \"-token=z",
	"password%3Dx%26a=%22token%22%3A%20%22y%22%2C%27pwd%27%3d+%27z --token <<< w --pass <x",
	`?token=x&page=2#top&password=&&secret='a b'?pwd = "c"&x.token#=y ?-token: z&_pass%3Dw`,
	"a?token=&token=#token=\"q\"&apikey	=	v&&token ==x?token=x&token=y&token",
}

// FuzzAffixedRulesMatchTheirExpression: the credential-assignment rules located without their
// expression find exactly what the expression finds, on ASCII text.
func FuzzAffixedRulesMatchTheirExpression(f *testing.F) {
	for _, s := range affixedSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !isASCII(s) {
			return
		}
		for _, r := range secretRules {
			a, ok := affixedRules[r.re]
			if !ok {
				continue
			}
			got, want := a.locate(s), r.re.FindAllStringSubmatchIndex(s, -1)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("rule %s on %q: located %v, the expression finds %v", r.re, s, got, want)
			}
		}
	})
}

// TestAffixedRulesAreTheCredentialRules: the credential option and both credential-assignment
// rules take the fast path (a rule that falls out of it still redacts, only slowly, which no
// other test would notice).
func TestAffixedRulesAreTheCredentialRules(t *testing.T) {
	n := 0
	for _, r := range secretRules {
		if r.id == "credential-assignment" || r.id == "credential-option" {
			n++
			if _, ok := affixedRules[r.re]; !ok {
				t.Errorf("rule %s (%s) is not located by affixedRule", r.id, r.re)
			}
		}
	}
	if n != 3 || len(affixedRules) != 3 {
		t.Fatalf("%d credential rules, %d affixed; want 3 and 3", n, len(affixedRules))
	}
}
