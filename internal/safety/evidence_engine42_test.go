package safety

import (
	"os"
	"testing"
)

// TestEngine42ZshGlobQualifiers is evidence found while fixing re41 (skipped unless
// ENGINE42_EVIDENCE=1, since it fails until fixed): zsh's glob qualifiers change what a glob
// matches (*(D) matches dotfiles, as globdots would, per zsh's documentation; zsh is not installed
// here to check), and ${~X} turns globbing of a value on; a zsh script is read as bash's, so each
// row is admitted today at Default and Yolo.
func TestEngine42ZshGlobQualifiers(t *testing.T) {
	if os.Getenv("ENGINE42_EVIDENCE") != "1" {
		t.Skip("evidence found by engine42; ENGINE42_EVIDENCE=1 runs it")
	}
	expectRefusedAtEveryAutonomy(t, []string{`zsh -c 'cat *(D)'`, `zsh -c 'cat ?*(.D)'`}, []string{`zsh -c 'ls *'`})
}
