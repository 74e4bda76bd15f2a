package safety

import (
	"path"
	"strings"
)

// sedBackups records where GNU sed -i writes its backups. A suffix (-iSUFFIX, --in-place=SUFFIX)
// is appended to each file's name, beside it; one holding "*" is the backup's whole name instead,
// each "*" the file's base name, relative to the working directory: sed -i'.git/hooks/*' s/x/x/
// pre-commit copies pre-commit to .git/hooks/pre-commit, --in-place='/root/.*' bashrc to
// /root/.bashrc. A suffix computed at run time could be either. files are sed's file operands.
func (a *analyzer) sedBackups(seg *segment, files []word) {
	if seg.name != cmdSed {
		return
	}
	for _, w := range seg.words[1:] {
		if w.s == "--" {
			return
		}
		suffix, ok := sedBackupSuffix(w.s)
		if !ok || !w.dynamic && !strings.Contains(suffix, "*") {
			continue
		}
		for _, f := range files {
			if w.dynamic || f.dynamic {
				a.touch(word{s: placeholderCmdSubst, dynamic: true}, opWrite)
				continue
			}
			a.touch(f.with(strings.ReplaceAll(suffix, "*", path.Base(f.s))), opWrite)
		}
	}
}

// sedBackupSuffix returns the backup suffix an option word gives sed -i: the rest of a short
// bundle after its "i" (-i.bak, -ni'bak/*'; a bundle's -e, -f or -l takes the rest as its value
// first), or --in-place's value (in any abbreviation getopt_long takes, --in=SUFFIX).
func sedBackupSuffix(v string) (string, bool) {
	if name, val, ok := strings.Cut(v, "="); ok && len(name) > 3 && strings.HasPrefix("--in-place", name) {
		return val, true
	}
	if len(v) < 3 || v[0] != '-' || v[1] == '-' {
		return "", false
	}
	for j := 1; j < len(v); j++ {
		switch v[j] {
		case 'i':
			return v[j+1:], j+1 < len(v)
		case 'e', 'f', 'l':
			return "", false
		}
	}
	return "", false
}
