package safety

import "testing"

// TestShellStartedWithExpansionOption: a shell started with an option that changes what its words
// expand to (bash -O dotglob, checked with bash 5.2: bash -O dotglob -c 'cat *' prints .env) is
// opaque, as shopt -s dotglob inside it is. Before, the -O value was skipped as a mere option and
// each row was admitted at Default and Yolo; zsh -o globdots / -4 / --globdots and zsh's setopt
// globdots (admitted at Yolo) the same.
// Over-refusal: any such shell is opaque, whatever its script (bash -O dotglob -c 'npm test').
func TestShellStartedWithExpansionOption(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`bash -O dotglob -c 'cat *[a-z]'`, `bash -O dotglob -c 'cat ?[a-z]*'`,
		`bash -O dotglob -c 'cp *[a-z] /tmp/x/'`, `bash -O dotglob -c 'grep -h . *[a-z]'`,
		`bash -O dotglob -c 'cat *'`, `bash -s -O dotglob <<< 'cat *'`, `bash -cO dotglob 'cat *'`,
		`bash -e -O dotglob -c 'cat *'`, `bash +O dotglob -O dotglob -c 'cat *'`, `bash -O nocaseglob -c 'cat *'`,
		`bash -O globstar -c 'cat **'`, `bash -O "$X" -c 'cat *'`,
		`sh -O dotglob -c 'cat *'`, `zsh -o globdots -c 'cat *'`, `zsh -o GLOB_DOTS -c 'cat *'`,
		`zsh --glob-dots -c 'cat *'`, `zsh -4 -c 'cat *'`, `zsh -c 'setopt globdots; cat *'`,
	}, []string{`bash -c 'cat [a-z]*'`, `bash -c 'ls *'`, `bash -o pipefail -c 'ls *'`, `bash -e -c 'npm test'`,
		`bash -O nullglob -c 'ls *.txt'`})
}
