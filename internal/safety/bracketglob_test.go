package safety

import (
	"strings"
	"testing"
)

// TestBracketGlobs holds the rows of the attacker's review of bracket expressions (door35): bash,
// grep's --include and rg take a "]" right after "[", "[!" or "[^" as a member of the class, so
// ".[!]]nv" is .env; the engine read "[!]" as one character and "]nv" literally, and admitted a
// read of .env, /etc/shadow, /proc/self/environ and a search of the project narrowed to .env.
// Every other bracket form is read as bash reads it (globbrackets.go): POSIX, equivalence and
// collating classes, ranges beginning with "]", escapes, a "[" nothing closes.
func TestBracketGlobs(t *testing.T) {
	zeroD, gitConfig := denied(zero), asked(dc+gitConfigRule)
	project := asked(RuleContainsProtected)
	allow := outcome{Verdict: VerdictAllow}
	attacks := []callRow{
		{"cat .[!]]nv", shCall(`cat .[!]]nv`), zeroD},
		{"cp .[!]]nv /tmp/x", shCall(`cp .[!]]nv /tmp/x`), zeroD},
		{"cat /proc/self/[!]]nviron", shCall(`cat /proc/self/[!]]nviron`), zeroD},
		{"cat /etc/[!]]hadow", shCall(`cat /etc/[!]]hadow`), zeroD},
		{"cat .[^]]nv", shCall(`cat .[^]]nv`), zeroD},
		{"cat .[]e]nv (a leading ] and e)", shCall(`cat .[]e]nv`), zeroD},
		{"cat .[]-f]nv (a range from ])", shCall(`cat .[]-f]nv`), zeroD},
		{"cat .[[:alpha:]]nv", shCall(`cat .[[:alpha:]]nv`), zeroD},
		{"cat .[[:space:]e]nv", shCall(`cat .[[:space:]e]nv`), zeroD},
		{"cat .[[=e=]]nv", shCall(`cat .[[=e=]]nv`), zeroD},
		{"cat .[[.e.]]nv", shCall(`cat .[[.e.]]nv`), zeroD},
		{"cat .[[.hyphen.]]nv (a collating name: any character)", shCall(`cat .[[.hyphen.]]nv`), zeroD},
		{"cat .[z-a]nv (a reversed range: read as a-z)", shCall(`cat .[z-a]nv`), zeroD},
		{`cat .[\]e]nv`, shCall(`cat .[\]e]nv`), zeroD},
		{"cat ~/.ssh/id_[!]]sa", shCall(`cat ~/.ssh/id_[!]]sa`), zeroD},
		{"cat /pro[!]]/self/root/etc/shadow (a link's name)", shCall(`cat /pro[!]]/self/root/etc/shadow`), zeroD},
		{"x='.[!]]nv'; cat $x", shCall(`x='.[!]]nv'; cat $x`), zeroD},
		{`bash -c "cat .[!]]nv"`, shCall(`bash -c "cat .[!]]nv"`), zeroD},
		{"cat [[.]env (a [ and the bracket [.]: [.env)", shCall(`cat [[.]env`), zeroD},
		{"cat .git/[!]]onfig", shCall(`cat .git/[!]]onfig`), gitConfig},
		{"fs/read .[!]]nv", readCall(".[!]]nv"), zeroD},
		{"grep -r --include=[!]]env SECRET .", shCall(`grep -r --include=[!]]env SECRET .`), zeroD},
		{"grep -r --include='[].]env' -e SECRET -- /workspace/app", shCall(`grep -r --include='[].]env' -e SECRET -- /workspace/app`), project},
		{"grep -r --include='[!]]env' SECRET .", shCall(`grep -r --include='[!]]env' SECRET .`), project},
		{"grep -r --include='[[:punct:]]env' SECRET .", shCall(`grep -r --include='[[:punct:]]env' SECRET .`), project},
		{"rg -g '[].]env' SECRET", shCall(`rg -g '[].]env' SECRET`), zeroD},
	}
	expectRows(t, classRules, attacks)
	yolo := classRules
	yolo.Autonomy = AutonomyYolo
	expectRows(t, yolo, attacks)
	expectRows(t, classRules, []callRow{
		// Over-refusal: bash without dotglob reads ]env only, but the bracket lists a dot, and grep
		// and rg (and dotglob) take it for .env: asked of a search, denied of a read.
		{"over: cat [].]env", shCall(`cat [].]env`), zeroD},
		// A glob the engine does not read within its bound (a class name of 100 letters, thousands
		// of "[" nothing closes) names a path it does not know, and asks; before, it was read as
		// literal text, in time cubic in its length.
		{"over: fs/read .[[:a…a:]]nv", readCall(".[[:" + strings.Repeat("a", 100) + ":]]nv"), asked(RuleDynamicPath)},
		{"over: fs/read *[[[…", readCall("*" + strings.Repeat("[", 4000)), asked(RuleDynamicPath)},
		// Near misses: ordinary brackets, a "[" nothing closes, a bracket spanning a slash (a
		// literal to bash: .[/]env is the file ]env in the directory .[).
		{"near: cat [id].tsx", shCall(`cat [id].tsx`), allow},
		{"near: ls src/[a-z]*.go", shCall(`ls src/[a-z]*.go`), allow},
		{"near: cat .[/]env", shCall(`cat .[/]env`), allow},
		{"near: rg -g '[a-z]*.go' TODO", shCall(`rg -g '[a-z]*.go' TODO`), allow},
		{"near: grep -r --include='*.go' TODO .", shCall(`grep -r --include='*.go' TODO .`), allow},
		{"near: grep -r --include='[!.]*.go' TODO .", shCall(`grep -r --include='[!.]*.go' TODO .`), allow},
		{"near: fs/read src/app/[id]/page.tsx", readCall("src/app/[id]/page.tsx"), allow},
		{"near: fs/read src/app/[...slug]/page.tsx", readCall("src/app/[...slug]/page.tsx"), allow},
		{"near: [ -f go.mod ] && go test ./...", shCall(`[ -f go.mod ] && go test ./...`), allow},
	})
}
