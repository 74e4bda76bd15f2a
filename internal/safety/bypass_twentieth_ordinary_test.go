package safety

import "testing"

// twentiethOrdinaryCatalogue holds the twentieth review's false positives: ordinary reads a coding
// agent sends in a project that were refused outright. A glob's last part was compared with a
// protected entry's last part alone, so "cat testdata/*.json" was denied as a read of
// .docker/config.json (testdata is not .docker) and "cat */config.json" too (a bare wildcard names
// no dotfile). And a read of every file of an extension was taken to aim at each protected name of
// that extension: cat deploy/*.yaml (secrets.yaml), wc -l *.txt (vault_pass.txt), jq . *.json
// (gha-creds-*.json), cat *.toml, *.csv, *.yml, while "cat *", which reads all of them, was
// admitted. Each near miss is admitted at Default with and without project commands; each attack,
// the nearest spelling that names the protected file, stays denied. find's negation of one test
// (-not -path './vendor/*') was read as negating its -name too, so what it found was unknown:
// find . -name '*.go' -not -path './vendor/*' | xargs gofmt -l asked, and the same with -delete
// deleted the whole tree.
func twentiethOrdinaryCatalogue() []classCase {
	sh := shCall
	zeroD, noDeleteD := denied(zero), denied(RulePrefixPathPolicy+"noDelete")
	contains := asked(RuleContainsProtected)
	const (
		dirParts  = "a glob's directory must be able to name the protected entry's directory"
		extension = "a read of every file of an extension names no file in particular, as a read of * does not"
		filter    = "a recursive search limited by name reads only the files that pass its filter"
		gitGrep   = "git grep's operands after the pattern that cannot be revisions are the paths it searches"
		findNot   = "find's negated test narrows its -name; a negated -name or group, or an alternative, does not"
	)
	dyn := asked(RuleDynamicPath)
	return []classCase{
		{dirParts, "test data's JSON; the docker client's", sh(`cat ~/.docker/*.json`), zeroD, sh(`cat testdata/*.json`), false},
		{dirParts, "fixtures through jq; a glob of the directory's name", sh(`cat .doc*/*.json`), zeroD, sh(`jq . fixtures/*.json`), false},
		{dirParts, "the directory after cd", sh(`cd ~/.docker && cat *.json`), zeroD, sh(`cd testdata && cat *.json`), false},
		{dirParts, "a wildcard directory names no dotfile; a globstar may", sh(`cat **/config.json`), zeroD, sh(`cat */config.json`), false},
		{dirParts, "gh's directory below another", sh(`cat x/.config/gh/*.yml`), zeroD, sh(`cat configs/*/config.json`), false},
		{dirParts, "a bracket may name the dot", sh(`cat [.]docker/*.json`), zeroD, sh(`cat ?docker/*.json`), false},
		{extension, "manifests; keys", sh(`cat deploy/*.pem`), zeroD, sh(`cat deploy/*.yaml`), false},
		{extension, "every .yml; a glob aimed at secrets", sh(`cat secret*.yaml`), zeroD, sh(`cat *.yml`), false},
		{extension, "a grep over manifests; their delete", sh(`rm deploy/*.yaml`), zeroD, sh(`grep -n image: k8s/*.yaml`), false},
		{extension, "an in-place edit of every manifest writes secrets.yaml", sh(`sed -i 's/v1/v2/' *.yaml`), zeroD, sh(`cat deploy/*.yaml | grep image:`), false},
		{extension, "a copy of the docs; their move deletes README.md", sh(`mv *.md docs/`), noDeleteD, sh(`cp *.md docs/`), false},
		{extension, "CSV heads; .env files", sh(`cat *.env`), zeroD, sh(`head -n 5 *.csv`), false},
		{extension, "text line counts; Terraform state", sh(`cat *.tfstate`), zeroD, sh(`wc -l *.txt`), false},
		{extension, "workflows; gh's hosts", sh(`cat ~/.config/gh/*.yml`), zeroD, sh(`cat .github/workflows/*.yml`), false},
		{extension, "TOML; the kube directory", sh(`cat ~/.kube/*.yaml`), zeroD, sh(`cat *.toml`), false},
		{filter, "rg -g of Go files; of JSON, which config.json passes", sh(`rg -g '*.json' token`), contains, sh(`rg -n foo -g '*.go'`), false},
		{filter, "rg --type go; a type redefined on the line", sh(`rg --type-add 'go:*.env' -tgo KEY`), contains, sh(`rg --type go foo`), false},
		{filter, "rg -tgo; a glob bundled after another letter", sh(`rg -tgo -ig '*env' KEY`), contains, sh(`rg -tgo foo`), false},
		{filter, "rg --glob of TypeScript; every name", sh(`rg -g '*' KEY`), contains, sh(`rg -i error --glob '*.ts'`), false},
		{filter, "rg -t py; a type the engine does not know", sh(`rg -tgo -t sh KEY`), contains, sh(`rg -tpy 'def main'`), false},
		{filter, "an exclusion beside a filter; a glob with a directory", sh(`rg -g 'src/*.go' KEY`), contains, sh(`rg -g '*.go' -g '!vendor' foo`), false},
		{filter, "a computed option beside the filter", sh(`rg -tgo "$OPT" KEY .`), contains, sh(`rg -tgo KEY .`), false},
		{filter, "TypeScript; an extension a .env.* file has", sh(`rg -g '*.local' KEY`), contains, sh(`rg -g '*.ts' -g '*.tsx' useState`), false},
		{filter, "Markdown by its type; text, which vault_pass.txt is", sh(`grep -r --include='*.txt' pass .`), contains, sh(`rg -tmd TODO`), false},
		{filter, "a glob that starts as a protected name does", sh(`grep -r --include='AuthKey_A*' BEGIN .`), contains, sh(`grep -rn --include='*_test.go' t.Run .`), false},
		{filter, "a pattern after --; a filter of a .env.* extension", sh(`rg -g '*.local' -- -x`), contains, sh(`rg -tgo -- -timeout`), false},
		{filter, "a computed glob", sh(`rg -tgo -g "$G" KEY`), contains, sh(`rg -tgo -g '!*_test.go' KEY`), false},
		{filter, "grep --include of Go; of a name .env passes", sh(`grep -r --include='*env' KEY .`), contains, sh(`grep -rn TODO --include='*.go' .`), false},
		{filter, "grep --include unquoted; abbreviated", sh(`grep -r --include='*.go' --inc='*env' KEY .`), contains, sh(`grep -R foo --include=*.py`), false},
		{filter, "grep --include apart; of the home directory", sh(`grep -r --include '*.go' KEY ~`), zeroD, sh(`grep -r --include '*.go' KEY .`), false},
		{findNot, "Go files outside vendor; files that are not Go", sh(`find . -not -name '*.go' | xargs cat`), dyn,
			sh(`find . -name '*.go' -not -path './vendor/*' | xargs gofmt -l`), false},
		{findNot, "! -path; ! -name", sh(`find . ! -name '*.go' -type f | xargs cat`), dyn, sh(`find . -name '*.go' ! -path './vendor/*' | xargs wc -l`), false},
		{findNot, "-exec; a negated group", sh(`find . -not \( -name '*.go' \) -type f | xargs cat`), dyn,
			sh(`find . -type f -name '*.ts' -not -path '*/node_modules/*' -exec wc -l {} +`), false},
		{findNot, "tests left out; an alternative", sh(`find . -name '*.go' -o -name '.env' | xargs cat`), zeroD,
			sh(`find . -name '*.go' -not -name '*_test.go' | xargs wc -l`), false},
		{findNot, "a delete of a name outside .git; of everything but Go", sh(`find . -not -name '*.go' -delete`), noDeleteD,
			sh(`find . -name '*.orig' -not -path './.git/*' -delete`), false},
		{findNot, "a negated test beside .env's name", sh(`find . -name .env -not -path './node_modules/*' -exec cat {} \;`), zeroD,
			sh(`find . -not -path './.git/*' -name '*.md'`), false},
		{gitGrep, "a directory; a revision and a directory", sh(`git grep foo main src/`), contains, sh(`git grep -n foo src/`), false},
		{gitGrep, "context lines, two directories; a tree of a revision", sh(`git grep foo HEAD:src/`), contains, sh(`git grep -n -A 3 foo src/ tests/`), false},
		{gitGrep, "patterns by -e; a computed directory", sh(`git grep -n foo "$D/"`), contains, sh(`git grep -e foo -e bar src/`), false},
		{gitGrep, "a glob of Go files; of names .env passes", sh(`git grep foo '*env'`), contains, sh(`git grep foo './*.go'`), false},
	}
}

// A glob in an unknown directory (no workspace, no working directory) may be inside the
// protected entry's directory: "*.json" in ~/.docker is config.json.
func TestGlobInAnUnknownDirectory(t *testing.T) {
	p := mustCompile(t, &Profile{}, ProjectRules{})
	call := Call{Tool: bypassTool, Args: Arguments{Command: `cat conf*.json`}}
	if d := Evaluate(p, call); d.Verdict != VerdictDeny || d.RuleID != zero {
		t.Errorf("%q with no working directory: %s %s, want a zeroAccess denial", call.Args.Command, d.Verdict, d.RuleID)
	}
	call.Args.Cwd = "/workspace/app"
	if d := Evaluate(p, call); !d.Allowed() {
		t.Errorf("%q in /workspace/app: %s %s: %s", call.Args.Command, d.Verdict, d.RuleID, d.Message)
	}
}

// A project's own entry of a source extension is passed by a filter of that extension.
func TestSearchFilterAndAProjectEntry(t *testing.T) {
	p := mustCompile(t, &Profile{}, ProjectRules{Workspace: "/workspace", Paths: PathPolicy{ZeroAccess: []string{"keys.go"}}})
	if d := Evaluate(p, shCall(`rg -g '*.go' KEY`)); d.Verdict != VerdictAsk || d.RuleID != RuleContainsProtected {
		t.Errorf("rg -g '*.go' with keys.go protected: %s %s, want an ask (%s)", d.Verdict, d.RuleID, RuleContainsProtected)
	}
	if d := Evaluate(p, shCall(`rg -g '*.ts' KEY`)); !d.Allowed() {
		t.Errorf("rg -g '*.ts' with keys.go protected: %s %s: %s", d.Verdict, d.RuleID, d.Message)
	}
}
