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
// the nearest spelling that names the protected file, stays denied.
func twentiethOrdinaryCatalogue() []classCase {
	sh := shCall
	zeroD, noDeleteD := denied(zero), denied(RulePrefixPathPolicy+"noDelete")
	const (
		dirParts  = "a glob's directory must be able to name the protected entry's directory"
		extension = "a read of every file of an extension names no file in particular, as a read of * does not"
	)
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
